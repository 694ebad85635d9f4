// Entry points for Debian's mlir-opt-22:
//   mlir-opt-22 --load-dialect-plugin=libMingPasses.so --load-pass-plugin=libMingPasses.so
#include "ming/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ming", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) { ming::registerDialects(*registry); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ming", LLVM_VERSION_STRING, [] { ming::registerPasses(); }};
}
