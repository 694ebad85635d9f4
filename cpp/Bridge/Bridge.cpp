// The C++ half of the cxx bridge (rust/bridge.rs): converts cxx types to std
// types and calls libMingPasses.so. Compiled into the Rust binary by
// cxx_build, it includes no MLIR header, so it builds in a second.
#include "ming/Bridge.h"
#include "ming/Support/CrashReport.h"
#include "ming/Tools/OptMain.h"
#include "ming/Tools/ParserTraps.h"
#include "ming/Transforms/Dse.h"
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

void install_crash_handler() { crash::install(); }

void instrument_pass_manager(size_t pass_manager) {
  crash::instrumentOpaque(reinterpret_cast<void *>(pass_manager));
}

bool is_pass_name(rust::Str name) { return tools::isPassName(std::string(name)); }

void print_pass_help() { tools::printPassHelp(); }

rust::String find_parser_traps(rust::Str text, rust::Str name) {
  return rust::String(tools::findParserTraps(std::string(text), std::string(name)));
}

void register_in_context(size_t context) {
  tools::registerInContext(reinterpret_cast<void *>(context));
}

template <typename T>
static rust::Vec<T> toRust(const std::vector<T> &v) {
  rust::Vec<T> out;
  for (const T &x : v)
    out.push_back(x);
  return out;
}

DseProblem dse_candidates(size_t module, int64_t max_lanes) {
  dse::Options options;
  options.maxLanes = max_lanes;
  dse::ProblemInfo info = dse::candidates(reinterpret_cast<void *>(module), options);
  DseProblem out;
  out.error = info.error;
  out.graph = info.graph;
  out.fifo_bram18k = info.fifoBram18k;
  out.seconds = info.seconds;
  for (const dse::NodeInfo &n : info.nodes) {
    DseNode node;
    node.process = n.process;
    node.kind = n.kind;
    for (const dse::CandidateInfo &c : n.candidates) {
      DseCandidate cand;
      cand.cycles = c.cycles;
      cand.fill = c.fill;
      cand.pre = c.pre;
      cand.tail = c.tail;
      cand.dsp = c.dsp;
      cand.bram18k = c.bram18k;
      cand.lanes_in = toRust(c.lanesIn);
      cand.lanes_out = toRust(c.lanesOut);
      cand.config = c.config;
      node.candidates.push_back(std::move(cand));
    }
    out.nodes.push_back(std::move(node));
  }
  for (const dse::EdgeInfo &e : info.edges)
    out.edges.push_back(DseEdge{e.from, e.fromPort, e.to, e.toPort, e.channel});
  return out;
}

static DseEstimate convert(const dse::Estimate &e) {
  DseEstimate out;
  out.error = e.error;
  out.dataflow = e.dataflow;
  out.sum = e.sum;
  out.dsp = e.dsp;
  out.bram18k = e.bram18k;
  out.fifo_bram18k = e.fifoBram18k;
  for (const dse::NodeEstimate &n : e.nodes) {
    DseNodeEstimate node;
    node.process = n.process;
    node.cycles = n.cycles;
    node.first_output = n.firstOutput;
    node.dsp = n.dsp;
    node.bram18k = n.bram18k;
    node.ii = n.ii;
    for (const std::string &l : n.unrollLoops)
      node.unroll_loops.push_back(l);
    node.unroll_factors = toRust(n.unrollFactors);
    out.nodes.push_back(std::move(node));
  }
  for (const dse::ChannelEstimate &c : e.channels)
    out.channels.push_back(DseChannelEstimate{c.name, c.lanes, c.depth, c.bram18k});
  out.baseline_cycles = e.baselineCycles;
  out.baseline_dsp = e.baselineDsp;
  out.baseline_bram18k = e.baselineBram18k;
  return out;
}

DseEstimate dse_apply(size_t module, const rust::Vec<rust::String> &configs, rust::Str status,
                      rust::Str objective) {
  std::vector<std::string> list;
  for (const rust::String &c : configs)
    list.emplace_back(std::string(c));
  return convert(dse::apply(reinterpret_cast<void *>(module), list, std::string(status),
                            std::string(objective)));
}

DseEstimate dse_estimate(size_t module) {
  return convert(dse::estimate(reinterpret_cast<void *>(module)));
}

} // namespace ming::bridge
