// Registration of ming's dialects and passes (see ming/InitAll.h).
#include "ming/InitAll.h"
#include "ming/Directives/Directives.h"
#include "ming/Dfg/Dfg.h"
#include "ming/EmitHLS/EmitHLS.h"
#include "ming/Conversion/Passes.h"
#include "ming/Transforms/Passes.h"
#include "../test/lib/TestPasses.h"

#include "mlir/IR/DialectRegistry.h"

void ming::registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<directives::MingDialect, dfg::DfgDialect, emithls::EmitHLSDialect>();
}

void ming::registerPasses() {
  static bool done = [] {
    registerMingPasses();
    registerMingConversionPasses();
    registerMingTestPasses();
    return true;
  }();
  (void)done;
}

std::vector<std::string> ming::passNames() {
  return {createConvertLinalgToDfg()->getArgument().str(),
          createConvertDfgToEmitHLS()->getArgument().str(),
          createTestKernelAnalysis()->getArgument().str(),
          createTestCostModel()->getArgument().str(),
          createQuantizeInteger()->getArgument().str(),
          createTestCrash()->getArgument().str(),
          createDse()->getArgument().str()};
}
