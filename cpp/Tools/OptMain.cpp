// ming-opt's mlir-opt mode: every upstream dialect and pass plus ming's, run
// through MLIR's own MlirOptMain so splitting, diagnostics verification and IR
// printing behave exactly as in mlir-opt.
#include "ming/Tools/OptMain.h"
#include "ming/InitAll.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "ming/Tools/ParserTraps.h"
#include "ming/Support/CrashReport.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Everything global, done once per process: pass registry and MLIR's own
/// command-line options (which configure printing and IR dumps).
void initializeOnce() {
  static bool done = [] {
    registerAllPasses();
    // Not part of registerAllPasses: the front end lowers TOSA input with it.
    tosa::registerTosaToLinalgPipelines();
    ming::registerPasses();
    registerAsmPrinterCLOptions();
    registerMLIRContextCLOptions();
    registerPassManagerCLOptions();
    registerDefaultTimingManagerCLOptions();
    return true;
  }();
  (void)done;
}

DialectRegistry &registry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllExtensions(*r);
    ming::registerDialects(*r);
    return r;
  }();
  return *registry;
}

/// Adds `--name=options` to `pm` the way mlir-opt does (implicit nesting).
LogicalResult addPassFlag(OpPassManager &pm, StringRef name, StringRef options) {
  auto onError = [&](const Twine &msg) {
    llvm::errs() << "ming-opt: --" << name << ": " << msg << "\n";
    return failure();
  };
  if (const PassPipelineInfo *info = PassPipelineInfo::lookup(name))
    return info->addToPipeline(pm, options, onError);
  if (const PassInfo *info = PassInfo::lookup(name))
    return info->addToPipeline(pm, options, onError);
  return onError("no such pass or pass pipeline");
}
/// Adds `--pass-pipeline=anchor(passes)` to `pm` the way mlir-opt does: the
/// anchor must be pm's operation (or `any`), and the passes inside it run
/// directly on it, not on nested ops of the same name.
LogicalResult addAnchoredPipeline(PassManager &pm, StringRef text) {
  std::string message;
  llvm::raw_string_ostream os(message);
  FailureOr<OpPassManager> parsed = parsePassPipeline(text, os);
  auto fail = [&](const Twine &msg) {
    llvm::errs() << "ming-opt: --pass-pipeline: " << msg << "\n";
    return failure();
  };
  if (failed(parsed))
    return fail(message);
  StringRef anchor = parsed->getOpAnchorName();
  if (anchor != pm.getOpAnchorName() && anchor != OpPassManager::getAnyOpAnchorName())
    return fail("the pipeline is anchored on '" + anchor + "', but the input's top operation is '" +
                pm.getOpAnchorName() + "'");
  StringRef inner = text.trim();
  inner = inner.drop_front(inner.find('(') + 1).drop_back();
  if (failed(parsePassPipeline(inner, pm, os)))
    return fail(message);
  return success();
}
} // namespace

namespace ming::tools {

bool isPassName(const std::string &name) {
  initializeOnce();
  return PassInfo::lookup(name) || PassPipelineInfo::lookup(name);
}

void printPassHelp() {
  initializeOnce();
  llvm::outs() << "\nming passes (details below):\n";
  for (const std::string &name : passNames())
    if (const PassInfo *info = PassInfo::lookup(name))
      llvm::outs() << "  --" << name << "  -  " << info->getPassDescription() << "\n";
  llvm::outs() << "\n";
  printRegisteredPasses();
  llvm::outs().flush();
}

void registerInContext(void *context) {
  initializeOnce();
  static_cast<MLIRContext *>(context)->appendDialectRegistry(registry());
}

int optMain(const OptRequest &request) {
  initializeOnce();

  // MLIR's own flags (--mlir-print-ir-after-all, ...): the Rust side only
  // forwards names it knows, so a parse failure here is a bug, still reported.
  if (!request.mlirFlags.empty()) {
    std::vector<const char *> argv{"ming-opt"};
    for (const std::string &flag : request.mlirFlags)
      argv.push_back(flag.c_str());
    if (!llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(),
                                           "ming-opt", &llvm::errs()))
      return 1;
  }

  MlirOptMainConfig config;
  config.allowUnregisteredDialects(request.allowUnregisteredDialect)
      .verifyPasses(request.verifyEach)
      .emitBytecode(request.emitBytecode)
      .showDialects(request.showDialects)
      .useExplicitModule(request.noImplicitModule);
  if (!request.splitInputFile.empty())
    config.splitInputFile(request.splitInputFile);
  if (!request.outputSplitMarker.empty())
    config.outputSplitMarker(request.outputSplitMarker);
  if (request.verifyDiagnostics == "all")
    config.verifyDiagnostics(SourceMgrDiagnosticVerifierHandler::Level::All);
  else if (request.verifyDiagnostics == "only-expected")
    config.verifyDiagnostics(SourceMgrDiagnosticVerifierHandler::Level::OnlyExpected);

  config.setPassPipelineSetupFn([&](PassManager &pm) -> LogicalResult {
    ming::crash::instrument(pm);
    if (!request.passPipeline.empty()) {
      if (failed(addAnchoredPipeline(pm, request.passPipeline)))
        return failure();
    } else {
      for (const auto &[name, options] : request.passes)
        if (failed(addPassFlag(pm, name, options)))
          return failure();
    }
    if (request.dumpPassPipeline) {
      pm.printAsTextualPipeline(llvm::errs());
      llvm::errs() << "\n";
    }
    return success();
  });

  if (request.showDialects) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry().getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(request.inputFile, &error);
  if (!input) {
    llvm::errs() << "ming-opt: " << error << "\n";
    return 1;
  }
  std::string trap = findParserTraps(input->getBuffer().str(), input->getBufferIdentifier().str());
  if (!trap.empty()) {
    llvm::errs() << trap;
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(request.outputFile, &error);
  if (!output) {
    llvm::errs() << "ming-opt: " << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry(), config)))
    return 1;
  output->keep();
  return 0;
}

} // namespace ming::tools
