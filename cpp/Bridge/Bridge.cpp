// The C++ half of the cxx bridge (rust/bridge.rs): converts cxx types to std
// types and calls libMingPasses.so. Compiled into the Rust binary by
// cxx_build, it includes no MLIR header, so it builds in a second.
#include "ming/Bridge.h"
#include "ming/Directives/LoopView.h"
#include "ming/Support/CrashReport.h"
#include "ming/Tools/OptMain.h"
#include "ming/Tools/ParserTraps.h"
#include "ming/rust/bridge.rs.h"

#include <stdexcept>

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

std::unique_ptr<DseSession> dse_open(size_t module, int64_t max_lanes, bool pack_int8,
                                     rust::Str target, int64_t axi_bits, int64_t dsp_limit) {
  dse::Options options;
  options.maxLanes = max_lanes;
  options.dspLimit = dsp_limit;
  options.packInt8 = pack_int8;
  options.targetFile = std::string(target);
  options.axiBits = axi_bits;
  std::string error;
  auto out = std::make_unique<DseSession>();
  out->session = dse::Session::open(reinterpret_cast<void *>(module), options, error);
  if (!out->session)
    throw std::runtime_error(error);
  return out;
}

static DseProblem convert(const dse::Problem &p) {
  DseProblem out;
  out.graph = p.graph;
  out.fifo_bram18k = p.fifoBram18k;
  out.seconds = p.seconds;
  out.reused = p.reused;
  out.candidate_limit = p.candidateLimit;
  out.large = p.large;
  for (const dse::Node &n : p.nodes) {
    DseNode node;
    node.process = n.process;
    node.kind = n.kind;
    for (const dse::Candidate &c : n.candidates)
      node.candidates.push_back(DseCandidate{c.cycles, c.fill, c.pre, c.tail, c.dsp, c.bram18k, c.uram,
                                             toRust(c.lanesIn), toRust(c.lanesOut),
                                             toRust(c.tailIn), toRust(c.preIn), toRust(c.trailOut),
                                             toRust(c.burstOut),
                                             toRust(c.burstElements), toRust(c.burstLead),
                                             toRust(c.pullCycles), toRust(c.fillElements),
                                             toRust(c.fillTime), toRust(c.inElements)});
    out.nodes.push_back(std::move(node));
  }
  for (const dse::Edge &e : p.edges)
    out.edges.push_back(DseEdge{e.from, e.fromPort, e.to, e.toPort, e.channel});
  return out;
}

DseProblem dse_problem(const DseSession &session) { return convert(session.session->problem()); }

rust::String dse_describe(const DseSession &session, uint32_t node, uint32_t index) {
  return rust::String(session.session->describe(node, index));
}

static DseEstimate convert(const dse::Estimate &e) {
  DseEstimate out;
  out.error = e.error;
  out.dataflow = e.dataflow;
  out.sum = e.sum;
  out.dsp = e.dsp;
  out.bram18k = e.bram18k;
  out.fifo_bram18k = e.fifoBram18k;
  out.uram = e.uram;
  for (const dse::NodeEstimate &n : e.nodes) {
    DseNodeEstimate node;
    node.process = n.process;
    node.cycles = n.cycles;
    node.first_output = n.firstOutput;
    node.first_out_at = n.firstOutAt;
    node.finish_at = n.finishAt;
    node.dsp = n.dsp;
    node.bram18k = n.bram18k;
    node.uram = n.uram;
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

DseEstimate dse_apply(DseSession &session, rust::Slice<const size_t> choice, rust::Str status,
                      rust::Str objective) {
  return convert(session.session->apply(std::vector<size_t>(choice.begin(), choice.end()),
                                        std::string(status), std::string(objective)));
}

DseEstimate dse_estimate(size_t module, rust::Str target, int64_t axi_bits) {
  dse::Options options;
  options.targetFile = std::string(target);
  options.axiBits = axi_bits;
  return convert(dse::estimate(reinterpret_cast<void *>(module), options));
}

rust::String builtin_target() { return rust::String(dse::builtinTargetJson()); }

rust::String check_target(rust::Str path) {
  return rust::String(dse::checkTarget(std::string(path)));
}

void register_dse_solver() {
  dse::setSolver([](const dse::Problem &problem, const dse::Request &request) {
    DseRequest r{request.dsp, request.bram18k, request.uram, rust::String(request.objective),
                 request.timeLimit, request.lpIterations};
    DseSolution s = solve_dse(convert(problem), r);
    dse::Solution out;
    out.error = std::string(s.error);
    out.status = std::string(s.status);
    out.choice.assign(s.choice.begin(), s.choice.end());
    out.objective = s.objective;
    out.seconds = s.seconds;
    return out;
  });
}

DseExplored dse_explore(DseSession &session, const DseRequest &request) {
  DseExplored out;
  const dse::Solver &solver = dse::getSolver();
  if (!solver) {
    out.error = "no ILP solver is registered (register_dse_solver)";
    return out;
  }
  dse::Request r;
  r.dsp = request.dsp;
  r.bram18k = request.bram18k;
  r.uram = request.uram;
  r.objective = std::string(request.objective);
  r.timeLimit = request.time_limit;
  r.lpIterations = request.lp_iterations;
  dse::Explored e = session.session->explore(solver, r);
  out.error = e.error;
  out.choice = toRust(std::vector<size_t>(e.solution.choice));
  out.status = e.solution.status;
  out.objective = e.solution.objective;
  out.ilp_seconds = e.solution.seconds;
  out.rounds = e.rounds;
  out.estimate = convert(e.estimate);
  return out;
}

LoopDirectives loop_directives(size_t op) {
  directives::LoopView v = directives::viewLoop(reinterpret_cast<void *>(op));
  return LoopDirectives{v.ii, v.unroll, v.estimated, v.estimatedII, v.estimatedDepth, v.flattened};
}

} // namespace ming::bridge
