// The DSE session (ming/DSE/Session.h): the candidates of every process
// instance of a graph, kept here with their configurations while the solver
// sees only their figures, and the chosen indices written back.
#include "ming/DSE/Session.h"
#include "DseInternal.h"
#include "ming/DSE/FifoDepths.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace mlir;

namespace ming::dse {

namespace {

/// The graph of the module (the one marked ming.top when there are several).
FailureOr<dfg::GraphOp> findGraph(Operation *moduleOp, std::string &error) {
  auto module = dyn_cast_or_null<ModuleOp>(moduleOp);
  if (!module) {
    error = "the DSE needs a builtin.module";
    return failure();
  }
  SmallVector<dfg::GraphOp> graphs(module.getOps<dfg::GraphOp>());
  if (graphs.empty()) {
    error = "the module holds no dfg.graph";
    return failure();
  }
  if (graphs.size() == 1)
    return graphs.front();
  for (dfg::GraphOp g : graphs)
    if (g->hasAttr("ming.top"))
      return g;
  error = "the module holds several dfg.graph ops and none is marked ming.top";
  return failure();
}

std::string kindName(dfg::ProcessOp process) {
  if (auto kind = process.getKindAttr())
    return dfg::stringifyKernelKind(kind.getValue()).str();
  return "";
}

/// A configuration in words, for logs.
std::string printConfig(const cost::ProcessConfig &cfg) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto sep = [&] {
    if (!text.empty())
      os << ' ';
  };
  for (auto &[id, c] : cfg.loops) {
    if (c.unroll) {
      sep();
      os << "L" << id << ".unroll=" << *c.unroll;
    }
    if (c.pipeline) {
      sep();
      os << "L" << id << ".pipeline=" << (*c.pipeline ? 1 : 0);
    }
    if (c.ii) {
      sep();
      os << "L" << id << ".ii=" << *c.ii;
    }
  }
  for (auto &[arg, lanes] : cfg.lanes) {
    sep();
    os << "arg" << arg << ".lanes=" << lanes;
  }
  if (cfg.autoPartition) {
    sep();
    os << "partition=" << (*cfg.autoPartition ? 1 : 0);
  }
  return text;
}

int64_t fifoBram18k(dfg::ChannelOp ch, int64_t depth, int64_t lanes) {
  Type elem = ch.getElementType();
  int64_t width = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 32;
  return cost::channelBram18k(lanes, depth, width, cost::CostOptions());
}

/// The figures of `p` the solver sees.
Candidate figures(dfg::ProcessOp process, const Point &p) {
  const cost::ProcessConfig &cfg = p.config;
  const cost::ProcessCost &c = p.cost;
  Candidate info;
  info.cycles = c.cycles;
  info.fill = c.firstOutput;
  info.pre = c.pre;
  info.tail = c.tail;
  info.dsp = c.dsp;
  info.bram18k = c.bram18k;
  for (unsigned a = 0; a < process.getNumArguments(); ++a) {
    Type t = process.getArgument(a).getType();
    if (!isa<dfg::InputType, dfg::OutputType>(t))
      continue;
    int64_t lanes = portLanes(t);
    if (auto it = cfg.lanes.find(a); it != cfg.lanes.end())
      lanes = it->second;
    (isa<dfg::InputType>(t) ? info.lanesIn : info.lanesOut).push_back(lanes);
  }
  return info;
}

/// The instances of the graph in body order with their processes.
struct Instances {
  SmallVector<dfg::InstantiateOp> ops;
  SmallVector<dfg::ProcessOp> processes;
  std::map<std::string, unsigned> count;
};

FailureOr<Instances> instances(dfg::GraphOp graph, std::string &error) {
  Instances out;
  for (auto inst : graph.getBody().front().getOps<dfg::InstantiateOp>()) {
    auto process =
        SymbolTable::lookupNearestSymbolFrom<dfg::ProcessOp>(inst, inst.getCalleeAttr());
    if (!process) {
      error = "'" + inst.getCallee().str() + "' is not a dfg.process";
      return failure();
    }
    out.ops.push_back(inst);
    out.processes.push_back(process);
    ++out.count[process.getSymName().str()];
  }
  return out;
}

/// The figures of report.json for the graph with the given process costs.
Estimate summarize(dfg::GraphOp graph, const Instances &insts,
                   const std::map<std::string, cost::ProcessCost> &costs) {
  Estimate e;
  cost::GraphCost g = cost::estimateGraph(graph, [&](llvm::StringRef name) -> const cost::ProcessCost * {
    auto it = costs.find(name.str());
    return it == costs.end() ? nullptr : &it->second;
  });
  e.dataflow = g.dataflow;
  e.sum = g.sum;
  e.dsp = g.dsp;
  e.bram18k = g.bram18k;
  e.fifoBram18k = g.fifoBram18k;
  for (dfg::ProcessOp process : insts.processes) {
    NodeEstimate n;
    n.process = process.getSymName().str();
    auto it = costs.find(n.process);
    if (it != costs.end()) {
      const cost::ProcessCost &c = it->second;
      n.cycles = c.cycles;
      n.firstOutput = c.firstOutput;
      n.dsp = c.dsp;
      n.bram18k = c.bram18k;
      n.ii = mainII(c);
      for (const cost::LoopCost &lc : c.loops)
        if (lc.pipelined && !lc.insidePipeline) {
          n.unrollLoops.push_back("L" + std::to_string(lc.id));
          n.unrollFactors.push_back(lc.unroll);
        }
    }
    e.nodes.push_back(std::move(n));
  }
  for (const cost::ChannelCost &cc : g.channels) {
    ChannelEstimate ch;
    if (auto name = cc.op->getAttrOfType<StringAttr>("ming.name"))
      ch.name = name.str();
    ch.lanes = cc.lanes;
    ch.depth = cc.depth;
    ch.bram18k = cc.bram18k;
    e.channels.push_back(std::move(ch));
  }
  cost::BaselineCost base = cost::estimateBaseline(graph);
  e.baselineCycles = base.cycles;
  e.baselineDsp = base.dsp;
  e.baselineBram18k = base.bram18k;
  return e;
}

} // namespace

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

struct Session::Impl {
  dfg::GraphOp graph;
  Instances insts;
  Problem problem;
  /// The configurations behind problem.nodes[i].candidates, same order; an
  /// instance of a shared process has its one point.
  std::vector<std::vector<Point>> points;
};

Session::Session(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Session::~Session() = default;

const Problem &Session::problem() const { return impl->problem; }

std::string Session::describe(unsigned node, unsigned index) const {
  if (node >= impl->points.size() || index >= impl->points[node].size())
    return "";
  return printConfig(impl->points[node][index].config);
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
  impl->graph = *graph;
  Problem &out = impl->problem;
  out.graph = graph->getSymName().str();
  // Channel end -> (node, index among the node's stream inputs/outputs).
  llvm::DenseMap<Value, std::pair<unsigned, unsigned>> ends;
  std::map<std::string, unsigned> firstNode;
  // The most each process may hold in its pipelines, over its candidates.
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
        list = offeredCandidates(process, options);
      // Shared processes, and processes no candidate fits: as they are.
      if (list.empty())
        list.push_back({cost::ProcessConfig{}, cost::estimate(process)});
      for (const Point &p : list)
        inFlight[process] = std::max(inFlight[process], inFlightElements(process, p.cost));
      firstNode[node.process] = i;
    }
    for (const Point &p : list)
      node.candidates.push_back(figures(process, p));
    impl->points.push_back(std::move(list));
    out.nodes.push_back(std::move(node));
  }
  // A fork's FIFOs grow with their lanes in BRAM: the fork's choice pays, at
  // the depth of the slowest-draining choices on the other branches (apply
  // sizes them for the actual choice, never deeper).
  llvm::DenseMap<Operation *, ForkFifo> forkFifo;
  for (const ForkFifo &f :
       forkFifos(*graph, [&](dfg::ProcessOp p) { return inFlight.lookup(p); }))
    forkFifo[f.channel] = f;
  for (auto [i, inst] : llvm::enumerate(insts->ops)) {
    for (Candidate &c : out.nodes[i].candidates) {
      unsigned port = 0;
      for (Value v : inst.getPorts()) {
        if (!isa<dfg::OutputType>(v.getType()))
          continue;
        int64_t lanes = c.lanesOut[port++];
        auto ch = v.getDefiningOp<dfg::ChannelOp>();
        auto f = ch ? forkFifo.find(ch) : forkFifo.end();
        if (f != forkFifo.end())
          c.bram18k += fifoBram18k(ch, forkFifoDepth(f->second, lanes), lanes);
      }
    }
  }
  for (auto ch : graph->getBody().front().getOps<dfg::ChannelOp>()) {
    if (!forkFifo.count(ch))
      out.fifoBram18k += fifoBram18k(ch, ch.getDepth(), ch.getLanes());
    auto w = ends.find(ch.getWrite()), r = ends.find(ch.getRead());
    if (w == ends.end() || r == ends.end())
      continue;
    Edge e;
    e.from = w->second.first;
    e.fromPort = w->second.second;
    e.to = r->second.first;
    e.toPort = r->second.second;
    if (auto name = ch->getAttrOfType<StringAttr>("ming.name"))
      e.channel = name.str();
    out.edges.push_back(std::move(e));
  }
  impl->insts = std::move(*insts);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

Estimate Session::apply(const std::vector<size_t> &choice, const std::string &status,
                        const std::string &objective) {
  Estimate out;
  Instances &insts = impl->insts;
  dfg::GraphOp graph = impl->graph;
  if (choice.size() != insts.ops.size()) {
    out.error = "the DSE chose " + std::to_string(choice.size()) + " configurations for " +
                std::to_string(insts.ops.size()) + " instances";
    return out;
  }
  for (auto [i, c] : llvm::enumerate(choice))
    if (c >= impl->points[i].size()) {
      out.error = "the DSE chose configuration " + std::to_string(c) + " of instance " +
                  std::to_string(i) + " ('" + impl->problem.nodes[i].process + "'), which has " +
                  std::to_string(impl->points[i].size());
      return out;
    }
  // Lanes must agree on every channel, or the retyped IR would not verify.
  for (const Edge &e : impl->problem.edges) {
    const Candidate &from = impl->problem.nodes[e.from].candidates[choice[e.from]];
    const Candidate &to = impl->problem.nodes[e.to].candidates[choice[e.to]];
    int64_t w = e.fromPort < from.lanesOut.size() ? from.lanesOut[e.fromPort] : 1;
    int64_t r = e.toPort < to.lanesIn.size() ? to.lanesIn[e.toPort] : 1;
    if (w != r) {
      out.error = "the choice gives the channel from '" + impl->problem.nodes[e.from].process +
                  "' to '" + impl->problem.nodes[e.to].process + "' " + std::to_string(w) +
                  " lanes at its writer and " + std::to_string(r) + " at its reader";
      return out;
    }
  }
  // Estimate every choice first (the model reads the IR as it was enumerated).
  std::map<std::string, cost::ProcessCost> costs;
  std::map<std::string, cost::ProcessConfig> chosen;
  for (auto [i, process] : llvm::enumerate(insts.processes)) {
    std::string name = process.getSymName().str();
    if (costs.count(name))
      continue; // a shared process: one point, the same for every instance
    const cost::ProcessConfig &cfg = impl->points[i][choice[i]].config;
    costs[name] = cost::estimate(process, cfg);
    chosen[name] = cfg;
  }
  for (dfg::ProcessOp process : insts.processes) {
    std::string name = process.getSymName().str();
    const cost::ProcessConfig &cfg = chosen[name];
    if (!cfg.loops.empty() || !cfg.lanes.empty() || cfg.autoPartition)
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
  out = summarize(graph, insts, costs);
  Builder b(graph.getContext());
  graph.getOperation()->setAttr("ming.dse.cycles", b.getI64IntegerAttr(out.dataflow));
  graph.getOperation()->setAttr("ming.dse.dsp", b.getI64IntegerAttr(out.dsp));
  graph.getOperation()->setAttr("ming.dse.bram18k", b.getI64IntegerAttr(out.bram18k));
  graph.getOperation()->setAttr("ming.dse.status", b.getStringAttr(status));
  graph.getOperation()->setAttr("ming.dse.objective", b.getStringAttr(objective));
  return out;
}

Estimate estimate(void *moduleOp) {
  Estimate out;
  FailureOr<dfg::GraphOp> graph = findGraph(static_cast<Operation *>(moduleOp), out.error);
  if (failed(graph))
    return out;
  FailureOr<Instances> insts = instances(*graph, out.error);
  if (failed(insts))
    return out;
  std::map<std::string, cost::ProcessCost> costs;
  for (dfg::ProcessOp process : insts->processes)
    if (!costs.count(process.getSymName().str()))
      costs[process.getSymName().str()] = cost::estimate(process);
  return summarize(*graph, *insts, costs);
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
