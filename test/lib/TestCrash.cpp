// ming-test-crash: dies on purpose, so lit can check that a crash inside a
// pass is reported (pass, operation, exit status 70) and not a bare signal.
#include "ming/Directives/Directives.h"
#include "ming/Support/CrashReport.h"
#include "TestPasses.h"

#include <cstdlib>

namespace ming {
#define GEN_PASS_DEF_TESTCRASH
#include "ming/Test/TestPasses.h.inc"
} // namespace ming

using namespace mlir;

namespace {
struct TestCrash : ming::impl::TestCrashBase<TestCrash> {
  using TestCrashBase::TestCrashBase;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (!op->hasAttr(ming::directives::kTestCrash))
        return WalkResult::advance();
      ming::crash::Scope scope(op, "crashing on purpose at");
      if (kind == "abort")
        std::abort();
      // volatile: the compiler may not drop the store.
      *static_cast<volatile int *>(nullptr) = 1;
      return WalkResult::interrupt();
    });
  }
};
} // namespace
