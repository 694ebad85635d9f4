// ConvertDfgToEmitHLS (td/ming/Conversion/Passes.td).
#include "ming/Conversion/Passes.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTDFGTOEMITHLS
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace {
struct ConvertDfgToEmitHLS : ming::impl::ConvertDfgToEmitHLSBase<ConvertDfgToEmitHLS> {
  void runOnOperation() override {
    getOperation().emitError("ConvertDfgToEmitHLS: not implemented yet");
    signalPassFailure();
  }
};
} // namespace
