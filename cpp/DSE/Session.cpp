// The DSE session (ming/DSE/Session.h): the candidates of every process
// instance of a graph, kept here with their configurations while the solver
// sees only their figures, and the chosen indices written back.
#include "ming/DSE/Session.h"
#include "DseInternal.h"

#include "ming/DSE/FifoDepths.h"
#include "ming/Transforms/PackInt8.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <set>

using namespace mlir;

namespace ming::dse {

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

/// The cost model's options under a target loaded from a file (or the
/// built-in one); the options point into `owned`.
struct CostSetup {
  std::unique_ptr<cost::Target> owned;
  cost::CostOptions options;
};

/// The target of `options`, or null with `error` set.
static std::unique_ptr<CostSetup> costSetup(const Options &options, std::string &error) {
  auto setup = std::make_unique<CostSetup>();
  if (!options.targetFile.empty()) {
    setup->owned = cost::Target::load(options.targetFile, error);
    if (!setup->owned)
      return nullptr;
    setup->options.target = setup->owned.get();
  }
  if (options.axiBits > 0) {
    auto board = std::make_unique<cost::Target>(*setup->options.target);
    board->axiBits = options.axiBits;
    setup->owned = std::move(board);
    setup->options.target = setup->owned.get();
  }
  return setup;
}

struct Session::Impl {
  std::unique_ptr<CostSetup> cost;
  dfg::GraphOp graph;
  Instances insts;
  Problem problem;
  /// The configurations behind problem.nodes[i].candidates, same order; an
  /// instance of a shared process has its one point.
  std::vector<std::vector<Point>> points;

  /// The point of every instance under `choice` (checked).
  std::vector<const Point *> configs(const std::vector<size_t> &choice) const;
};

Session::Session(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Session::~Session() = default;

const Problem &Session::problem() const { return impl->problem; }

std::string Session::describe(unsigned node, unsigned index) const {
  if (node >= impl->points.size() || index >= impl->points[node].size())
    return "";
  return printPoint(impl->points[node][index]);
}

/// The configurations estimated per process in a graph of `processes`:
/// `limit` up to kLargeGraph, then halved for each doubling, down to a
/// quarter. The ILP's size grows with processes times candidates, and on
/// MobileNetV2 (133 processes) a quarter of the candidates (12,749 of
/// 25,645) gives the ILP a design it proves optimal in 27 s, where with all
/// of them it stops at its 60 s limit, 2.2% from its bound, with a slower
/// one.
static unsigned candidateLimitFor(unsigned limit, size_t processes) {
  unsigned scaled = limit;
  for (size_t n = kLargeGraph; n < processes && scaled > limit / 4; n *= 2)
    scaled /= 2;
  return scaled;
}

std::unique_ptr<Session> Session::open(void *moduleOp, const Options &options,
                                       std::string &error) {
  auto start = std::chrono::steady_clock::now();
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), error);
  if (failed(graph))
    return nullptr;
  FailureOr<Instances> insts = instances(*graph, error);
  if (failed(insts))
    return nullptr;
  auto impl = std::make_unique<Impl>();
  impl->cost = costSetup(options, error);
  if (!impl->cost)
    return nullptr;
  const cost::CostOptions &costOptions = impl->cost->options;
  impl->graph = *graph;
  Problem &out = impl->problem;
  out.graph = graph->getSymName().str();
  SmallVector<dfg::ProcessOp> once;
  for (dfg::ProcessOp process : insts->processes)
    if (insts->count[process.getSymName().str()] == 1)
      once.push_back(process);
  unsigned reused = 0;
  Options scaled = options;
  scaled.candidateLimit = candidateLimitFor(options.candidateLimit, insts->ops.size());
  out.large = insts->ops.size() > kLargeGraph;
  scaled.relaxII = options.relaxII && !out.large;
  out.candidateLimit = scaled.candidateLimit;
  std::map<std::string, std::vector<Point>> byName =
      candidatesOnce(once, scaled, costOptions, reused);
  // Channel end -> (node, index among the node's stream inputs/outputs).
  llvm::DenseMap<Value, std::pair<unsigned, unsigned>> ends;
  std::map<std::string, unsigned> firstNode;
  // The least each process may hold in its pipelines, over its candidates.
  llvm::DenseMap<Operation *, int64_t> inFlight;
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    dfg::ProcessOp process = insts->processes[i];
    unsigned nIn = 0, nOut = 0;
    for (Value port : inst.getPorts()) {
      if (isa<dfg::InputType>(port.getType()))
        ends[port] = {unsigned(i), nIn++};
      else if (isa<dfg::OutputType>(port.getType()))
        ends[port] = {unsigned(i), nOut++};
    }
    Node node;
    node.process = process.getSymName().str();
    node.kind = kindName(process);
    std::vector<Point> list;
    if (auto seen = firstNode.find(node.process); seen != firstNode.end()) {
      list = impl->points[seen->second];
    } else {
      if (insts->count[node.process] == 1)
        list = std::move(byName[node.process]);
      // Shared processes, and processes no candidate fits: as they are.
      if (list.empty())
        list.push_back({cost::ProcessConfig{}, cost::estimate(process, {}, costOptions)});
      for (auto [k, p] : llvm::enumerate(list)) {
        int64_t held = inFlightElements(process, p.cost);
        inFlight[process] = k == 0 ? held : std::min(inFlight[process], held);
      }
      firstNode[node.process] = i;
    }
    for (const Point &p : list)
      node.candidates.push_back(figures(process, p));
    impl->points.push_back(std::move(list));
    out.nodes.push_back(std::move(node));
  }
  // A fork's FIFOs grow with their lanes in BRAM: the fork's choice pays, at
  // the depth the least-holding choices on the other branches need; each
  // choice there that holds more pays what its elements add at the fork's
  // widest word (apply sizes them for the actual choice). Each pays alone:
  // where several together cross a BRAM step one of them does not, the
  // trial after the solve counts it and the solve runs again.
  llvm::DenseMap<Operation *, ForkFifo> forkFifo;
  for (const ForkFifo &f :
       forkFifos(*graph, [&](dfg::ProcessOp p) { return inFlight.lookup(p); }))
    forkFifo[f.channel] = f;
  for (auto &[op, f] : forkFifo) {
    auto ch = cast<dfg::ChannelOp>(op);
    auto w = ends.find(ch.getWrite());
    if (w == ends.end())
      continue;
    std::set<int64_t> forkLanes;
    for (const Candidate &fc : out.nodes[w->second.first].candidates)
      forkLanes.insert(fc.lanesOut[w->second.second]);
    for (auto [process, num, den] : f.through) {
      auto n = firstNode.find(process.getSymName().str());
      if (n == firstNode.end())
        continue;
      for (auto [k, c] : llvm::enumerate(out.nodes[n->second].candidates)) {
        int64_t more = inFlightElements(process, impl->points[n->second][k].cost) - inFlight.lookup(process);
        if (more <= 0)
          continue;
        ForkFifo deeper = f;
        deeper.lag += llvm::divideCeil(more * num, den);
        int64_t extra = 0;
        for (int64_t lanes : forkLanes)
          extra = std::max(extra, fifoBram18k(ch, forkFifoDepth(deeper, lanes), lanes, costOptions) -
                                      fifoBram18k(ch, forkFifoDepth(f, lanes), lanes, costOptions));
        c.bram18k += extra;
      }
    }
  }
  // Other channels get room for the largest word burst of either end
  // (apply); each end's choice pays what its burst adds over the declared
  // depth. Two ends that both burst pay at most the sum of the two, never
  // less than the deeper one costs.
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    for (auto [k, c] : llvm::enumerate(out.nodes[i].candidates)) {
      const cost::ProcessCost &pc = impl->points[i][k].cost;
      unsigned in = 0, outPort = 0;
      for (auto [arg, v] : llvm::enumerate(inst.getPorts())) {
        bool isOut = isa<dfg::OutputType>(v.getType());
        if (!isOut && !isa<dfg::InputType>(v.getType()))
          continue;
        int64_t lanes = isOut ? c.lanesOut[outPort++] : c.lanesIn[in++];
        auto ch = v.getDefiningOp<dfg::ChannelOp>();
        if (!ch)
          continue;
        if (auto f = forkFifo.find(ch); f != forkFifo.end()) {
          if (isOut)
            c.bram18k += fifoBram18k(ch, forkFifoDepth(f->second, lanes), lanes, costOptions);
          continue;
        }
        int64_t declared = fifoBram18k(ch, ch.getDepth(), ch.getLanes(), costOptions);
        int64_t depth = std::max<int64_t>(ch.getDepth(), 1 + burstWords(pc, arg, lanes));
        c.bram18k += std::max<int64_t>(0, fifoBram18k(ch, depth, lanes, costOptions) - declared);
      }
    }
  }
  for (auto ch : graph->getBody().front().getOps<dfg::ChannelOp>()) {
    if (!forkFifo.count(ch))
      out.fifoBram18k += fifoBram18k(ch, ch.getDepth(), ch.getLanes(), costOptions);
    auto w = ends.find(ch.getWrite()), r = ends.find(ch.getRead());
    if (w == ends.end() || r == ends.end())
      continue;
    Edge e;
    e.from = w->second.first;
    e.fromPort = w->second.second;
    e.to = r->second.first;
    e.toPort = r->second.second;
    if (auto name = ch->getAttrOfType<StringAttr>(directives::kName))
      e.channel = name.str();
    out.edges.push_back(std::move(e));
  }
  impl->insts = std::move(*insts);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.reused = reused;
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

std::string Session::check(const std::vector<size_t> &choice) const {
  const Instances &insts = impl->insts;
  std::string error;
  if (choice.size() != insts.ops.size()) {
    error = "the DSE chose " + std::to_string(choice.size()) + " configurations for " +
                std::to_string(insts.ops.size()) + " instances";
    return error;
  }
  for (auto [i, c] : llvm::enumerate(choice))
    if (c >= impl->points[i].size()) {
      error = "the DSE chose configuration " + std::to_string(c) + " of instance " +
                  std::to_string(i) + " ('" + impl->problem.nodes[i].process + "'), which has " +
                  std::to_string(impl->points[i].size());
      return error;
    }
  // Lanes must agree on every channel, or the retyped IR would not verify.
  for (const Edge &e : impl->problem.edges) {
    const Candidate &from = impl->problem.nodes[e.from].candidates[choice[e.from]];
    const Candidate &to = impl->problem.nodes[e.to].candidates[choice[e.to]];
    int64_t w = e.fromPort < from.lanesOut.size() ? from.lanesOut[e.fromPort] : 1;
    int64_t r = e.toPort < to.lanesIn.size() ? to.lanesIn[e.toPort] : 1;
    if (w != r) {
      error = "the choice gives the channel from '" + impl->problem.nodes[e.from].process +
                  "' to '" + impl->problem.nodes[e.to].process + "' " + std::to_string(w) +
                  " lanes at its writer and " + std::to_string(r) + " at its reader";
      return error;
    }
  }
  return error;
}

/// Writes one configuration per instance (`configs`, in the graph's body
/// order) into `graph` and returns the figures of the result: what the DSE
/// does to the module, and what a trial does to a copy of it.
static Estimate applyConfigs(dfg::GraphOp graph, Instances &insts,
                             const std::vector<const Point *> &configs,
                             const cost::CostOptions &options) {
  Estimate out;
  // Estimate every choice first (the model reads the IR as it was enumerated).
  std::map<std::string, cost::ProcessCost> costs;
  std::map<std::string, cost::ProcessConfig> chosen;
  std::vector<size_t> firsts; // one instance per process
  for (auto [i, process] : llvm::enumerate(insts.processes)) {
    std::string name = process.getSymName().str();
    if (chosen.count(name))
      continue; // a shared process: one point, the same for every instance
    chosen[name] = configs[i]->config;
    firsts.push_back(i);
    // A packed point was enumerated on the packed process: rewrite it the
    // same way first (the rewrite is deterministic, so the loops keep the
    // ids the configuration names).
    if (configs[i]->pack)
      pack::packProcess(process);
  }
  // The estimates only read the IR: side by side, as in the enumeration.
  std::vector<cost::ProcessCost> estimated(firsts.size());
  parallelFor(graph.getContext(), 0, firsts.size(), [&](size_t k) {
    size_t i = firsts[k];
    estimated[k] = cost::estimate(insts.processes[i], configs[i]->config, options);
  });
  for (auto [k, i] : llvm::enumerate(firsts))
    costs[insts.processes[i].getSymName().str()] = std::move(estimated[k]);
  for (dfg::ProcessOp process : insts.processes) {
    std::string name = process.getSymName().str();
    const cost::ProcessConfig &cfg = chosen[name];
    if (!cfg.loops.empty() || !cfg.lanes.empty() || cfg.autoPartition || cfg.uram)
      writeConfig(process, cfg, costs[name]);
  }
  // Lanes: channels first (their ends' types follow), then the ports.
  for (auto [i, inst] : llvm::enumerate(insts.ops)) {
    dfg::ProcessOp process = insts.processes[i];
    for (auto &[arg, lanes] : chosen[process.getSymName().str()].lanes) {
      if (arg >= inst.getPorts().size() || portLanes(process.getArgument(arg).getType()) == lanes)
        continue;
      auto ch = inst.getPorts()[arg].getDefiningOp<dfg::ChannelOp>();
      if (!ch)
        continue;
      MLIRContext *ctx = ch.getContext();
      ch.setLanes(lanes);
      ch.getWrite().setType(dfg::OutputType::get(ctx, ch.getElementType(), lanes));
      ch.getRead().setType(dfg::InputType::get(ctx, ch.getElementType(), lanes));
    }
  }
  for (dfg::ProcessOp process : insts.processes)
    for (auto &[arg, lanes] : chosen[process.getSymName().str()].lanes)
      if (arg < process.getNumArguments())
        retypePort(process, arg, lanes);
  if (failed(verify(graph->getParentOp()))) {
    out.error = "the DSE's choice does not verify (lanes disagree on a channel)";
    return out;
  }
  for (dfg::ProcessOp process : insts.processes)
    recordAttrs(process, costs[process.getSymName().str()]);
  // Other channels: room for the largest word burst of either end.
  for (auto [i, inst] : llvm::enumerate(insts.ops)) {
    const cost::ProcessCost &c = costs[insts.processes[i].getSymName().str()];
    for (auto [arg, port] : llvm::enumerate(inst.getPorts()))
      if (auto ch = port.getDefiningOp<dfg::ChannelOp>();
          ch && isa<dfg::InputType, dfg::OutputType>(port.getType()))
        ch.setDepth(std::max<int64_t>(ch.getDepth(), 1 + burstWords(c, arg, ch.getLanes())));
  }
  // Fork FIFOs in words of the chosen lanes, with the chosen pipelines.
  sizeForkFifos(graph, [&](dfg::ProcessOp p) {
    auto it = costs.find(p.getSymName().str());
    return it == costs.end() ? int64_t(0) : inFlightElements(p, it->second);
  });
  return summarize(graph, insts, costs, options);
}

std::vector<const Point *> Session::Impl::configs(const std::vector<size_t> &choice) const {
  std::vector<const Point *> out;
  for (auto [i, c] : llvm::enumerate(choice))
    out.push_back(&points[i][c]);
  return out;
}

Estimate Session::trial(const std::vector<size_t> &choice) const {
  Estimate out;
  out.error = check(choice);
  if (!out.error.empty())
    return out;
  // A copy of the module (attributes, weights included, are shared, not
  // copied), its graph and instances in the same order.
  Operation *copy = impl->graph->getParentOp()->clone();
  auto graph = dyn_cast_or_null<dfg::GraphOp>(
      SymbolTable::lookupSymbolIn(copy, impl->graph.getSymNameAttr()));
  FailureOr<Instances> insts = failure();
  if (graph)
    insts = instances(graph, out.error);
  if (succeeded(insts))
    out = applyConfigs(graph, *insts, impl->configs(choice), impl->cost->options);
  else if (out.error.empty())
    out.error = "the copy of the module has no graph '" + impl->problem.graph + "'";
  copy->erase();
  return out;
}

Estimate Session::apply(const std::vector<size_t> &choice, const std::string &status,
                        const std::string &objective) {
  Estimate out;
  out.error = check(choice);
  if (!out.error.empty())
    return out;
  dfg::GraphOp graph = impl->graph;
  out = applyConfigs(graph, impl->insts, impl->configs(choice), impl->cost->options);
  if (!out.error.empty())
    return out;
  Builder b(graph.getContext());
  graph->setAttr(directives::kDesign,
                 directives::DesignAttr::get(b.getContext(), out.dataflow, out.dsp, out.bram18k,
                                             b.getStringAttr(objective), b.getStringAttr(status)));
  return out;
}

Explored Session::explore(const Solver &solver, const Request &request) {
  Explored out;
  Request limits = request;
  // The ILP counts each candidate's FIFOs at the depths known before the
  // choice; the choice can deepen some (bursts, lags of reconvergent
  // branches). A trial on a copy gives the true figures; while they exceed
  // the board, solve again with the excess taken off.
  constexpr int kMaxRounds = 4;
  double seconds = 0;
  for (out.rounds = 1;; ++out.rounds) {
    out.solution = solver(impl->problem, limits);
    seconds += out.solution.seconds;
    out.solution.seconds = seconds;
    if (!out.solution.error.empty()) {
      out.error = out.rounds == 1
                      ? out.solution.error
                      : "no design of '" + impl->problem.graph + "' fits " +
                            std::to_string(request.dsp) + " DSP and " +
                            std::to_string(request.bram18k) +
                            " BRAM18K once the FIFOs its choice deepens are counted";
      return out;
    }
    Estimate t = trial(out.solution.choice);
    if (!t.error.empty()) {
      out.error = t.error;
      return out;
    }
    // FIFOs never take UltraRAM: the ILP's count is the design's.
    if (t.uram > request.uram) {
      out.error = "internal error: the DSE's design of '" + impl->problem.graph + "' needs " +
                  std::to_string(t.uram) + " URAM, over the limit of " +
                  std::to_string(request.uram);
      return out;
    }
    int64_t overDsp = t.dsp - request.dsp, overBram = t.bram18k - request.bram18k;
    if (overDsp <= 0 && overBram <= 0)
      break;
    if (out.rounds == kMaxRounds) {
      out.error = "the DSE's design of '" + impl->problem.graph + "' needs " +
                  std::to_string(t.dsp) + " DSP and " + std::to_string(t.bram18k) +
                  " BRAM18K once its FIFOs are sized, over the limits of " +
                  std::to_string(request.dsp) + " and " + std::to_string(request.bram18k) +
                  ", and " + std::to_string(kMaxRounds) + " tighter solves did not fix it";
      return out;
    }
    limits.dsp -= std::max<int64_t>(0, overDsp);
    limits.bram18k -= std::max<int64_t>(0, overBram);
    // No BRAM left to take off (a limit of 0, the FIFOs the choice deepened
    // over it): another design, with fewer DSPs than this one, may not
    // deepen them.
    if (limits.bram18k < 0 && overDsp <= 0) {
      limits.bram18k += overBram;
      limits.dsp = std::min<int64_t>(limits.dsp, t.dsp - 1);
    }
    if (limits.dsp < 0 || limits.bram18k < 0) {
      out.error = "no design of '" + impl->problem.graph + "' fits " +
                  std::to_string(request.dsp) + " DSP and " + std::to_string(request.bram18k) +
                  " BRAM18K once the FIFOs its choice deepens are counted";
      return out;
    }
  }
  out.estimate = apply(out.solution.choice, out.solution.status, request.objective);
  if (!out.estimate.error.empty())
    out.error = out.estimate.error;
  return out;
}

Estimate estimate(void *moduleOp, const Options &options) {
  Estimate out;
  std::unique_ptr<CostSetup> setup = costSetup(options, out.error);
  if (!setup)
    return out;
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), out.error);
  if (failed(graph))
    return out;
  FailureOr<Instances> insts = instances(*graph, out.error);
  if (failed(insts))
    return out;
  std::map<std::string, cost::ProcessCost> costs;
  for (dfg::ProcessOp process : insts->processes)
    if (!costs.count(process.getSymName().str()))
      costs[process.getSymName().str()] = cost::estimate(process, {}, setup->options);
  return summarize(*graph, *insts, costs, setup->options);
}

std::string builtinTargetJson() { return cost::Target::builtin().toJson(); }

std::string checkTarget(const std::string &path) {
  std::string error;
  return cost::Target::load(path, error) ? std::string() : error;
}

//===----------------------------------------------------------------------===//
// The solver
//===----------------------------------------------------------------------===//

static Solver &solverSlot() {
  static Solver solver;
  return solver;
}

void setSolver(Solver solver) { solverSlot() = std::move(solver); }

const Solver &getSolver() { return solverSlot(); }

} // namespace ming::dse
