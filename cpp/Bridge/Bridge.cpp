// The C++ half of the cxx bridge (rust/bridge.rs): converts cxx types to std
// types and calls libMingPasses.so. Compiled into the Rust binary by
// cxx_build, it includes no MLIR header, so it builds in a second.
#include "ming/Bridge.h"
#include "ming/Tools/OptMain.h"
#include "ming/rust/bridge.rs.h"

namespace ming::bridge {

int32_t opt_main(const OptRequest &r) {
  tools::OptRequest request;
  request.inputFile = std::string(r.input);
  request.outputFile = std::string(r.output);
  request.passPipeline = std::string(r.pass_pipeline);
  for (const PassFlag &flag : r.passes)
    request.passes.emplace_back(std::string(flag.name), std::string(flag.options));
  request.splitInputFile = std::string(r.split_input_file);
  request.outputSplitMarker = std::string(r.output_split_marker);
  request.verifyDiagnostics = std::string(r.verify_diagnostics);
  request.allowUnregisteredDialect = r.allow_unregistered_dialect;
  request.verifyEach = r.verify_each;
  request.emitBytecode = r.emit_bytecode;
  request.showDialects = r.show_dialects;
  request.dumpPassPipeline = r.dump_pass_pipeline;
  request.noImplicitModule = r.no_implicit_module;
  for (const rust::String &flag : r.mlir_flags)
    request.mlirFlags.emplace_back(std::string(flag));
  return tools::optMain(request);
}

bool is_pass_name(rust::Str name) { return tools::isPassName(std::string(name)); }

void print_pass_help() { tools::printPassHelp(); }

void register_in_context(size_t context) {
  tools::registerInContext(reinterpret_cast<void *>(context));
}

} // namespace ming::bridge
