// The C++ half of ming-opt's mlir-opt mode. The Rust driver parses the command
// line (clap) and hands over an OptRequest; only std types cross this line so
// the cxx bridge needs no MLIR headers.
#ifndef MING_TOOLS_OPTMAIN_H
#define MING_TOOLS_OPTMAIN_H

#include <string>
#include <utility>
#include <vector>

namespace ming::tools {

struct OptRequest {
  std::string inputFile = "-";  // "-" is stdin
  std::string outputFile = "-"; // "-" is stdout
  std::string passPipeline;     // --pass-pipeline, textual
  /// --<pass>[=<options>] flags in command-line order: (name, options).
  std::vector<std::pair<std::string, std::string>> passes;
  std::string splitInputFile;    // marker; empty: no split
  std::string outputSplitMarker; // marker joining split outputs
  std::string verifyDiagnostics; // "", "all" or "only-expected"
  bool allowUnregisteredDialect = false;
  bool verifyEach = true;
  bool emitBytecode = false;
  bool showDialects = false;
  bool dumpPassPipeline = false;
  bool noImplicitModule = false;
  /// --mlir-* flags, forwarded verbatim to MLIR's own option parser
  /// (printing, IR dumps, threading, timing).
  std::vector<std::string> mlirFlags;
};

/// Runs the mlir-opt flow; returns the process exit status (0 or 1).
int optMain(const OptRequest &request);

/// True when `name` is a registered pass or pass pipeline (upstream or ours).
bool isPassName(const std::string &name);

/// Prints ming's passes, then every registered pass and pipeline with its
/// options, to stdout (the pass section of --help).
void printPassHelp();

/// Makes every upstream dialect and ming's available in `context`, an
/// mlir::MLIRContext* created elsewhere in the process (e.g. by melior).
void registerInContext(void *context);

} // namespace ming::tools

#endif
