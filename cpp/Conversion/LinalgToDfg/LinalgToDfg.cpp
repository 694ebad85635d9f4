// ConvertLinalgToDfg (td/ming/Conversion/Passes.td).
#include "ming/Conversion/Passes.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTLINALGTODFG
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace {
struct ConvertLinalgToDfg : ming::impl::ConvertLinalgToDfgBase<ConvertLinalgToDfg> {
  void runOnOperation() override {
    getOperation().emitError("ConvertLinalgToDfg: not implemented yet");
    signalPassFailure();
  }
};
} // namespace
