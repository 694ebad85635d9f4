// What the solver and the report see of a graph: its instances, the figures
// of each candidate (a Point reduced to the numbers the ILP's rows take),
// the report's summary of a chosen design, and configurations in words for
// the logs.
#include "DseInternal.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace ming::dse {

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
    if (g->hasAttr(directives::kTop))
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
  if (cfg.uram) {
    sep();
    os << "uram=" << (*cfg.uram ? 1 : 0);
  }
  return text;
}

/// A point in words, for logs: its configuration and whether it packs.
std::string printPoint(const Point &p) {
  std::string text = printConfig(p.config);
  if (p.pack)
    text += text.empty() ? "pack=1" : " pack=1";
  return text;
}

int64_t fifoBram18k(dfg::ChannelOp ch, int64_t depth, int64_t lanes,
                    const cost::CostOptions &cost) {
  Type elem = ch.getElementType();
  int64_t width = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 32;
  return cost::channelBram18k(lanes, depth, width, cost);
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
  info.tailIn = c.tailIn;
  info.preIn = c.preIn;
  info.trailOut = c.trailOut;
  for (const cost::Burst &b : c.bursts) {
    info.burstOut.push_back(b.out);
    info.burstElements.push_back(b.elements);
    info.burstLead.push_back(b.lead);
  }
  info.pullCycles = c.pullCycles;
  info.fillElements = c.fillElements;
  info.fillTime = c.fillTime;
  info.inElements = c.inElements;
  info.dsp = c.dsp;
  info.bram18k = c.bram18k;
  info.uram = c.uram;
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
                   const std::map<std::string, cost::ProcessCost> &costs,
                   const cost::CostOptions &options) {
  Estimate e;
  auto lookup = [&](llvm::StringRef name) -> const cost::ProcessCost * {
    auto it = costs.find(name.str());
    return it == costs.end() ? nullptr : &it->second;
  };
  cost::GraphCost g = cost::estimateGraph(graph, lookup, options);
  e.dataflow = g.dataflow;
  e.sum = g.sum;
  e.dsp = g.dsp;
  e.bram18k = g.bram18k;
  e.fifoBram18k = g.fifoBram18k;
  e.uram = g.uram;
  llvm::StringMap<const cost::NodeCost *> byCallee;
  for (const cost::NodeCost &nc : g.nodes)
    byCallee[nc.callee] = &nc;
  for (dfg::ProcessOp process : insts.processes) {
    NodeEstimate n;
    n.process = process.getSymName().str();
    if (const cost::NodeCost *nc = byCallee.lookup(n.process)) {
      n.firstOutAt = nc->firstOut;
      n.finishAt = nc->finish;
    }
    auto it = costs.find(n.process);
    if (it != costs.end()) {
      const cost::ProcessCost &c = it->second;
      n.cycles = c.cycles;
      n.firstOutput = c.firstOutput;
      n.dsp = c.dsp;
      n.bram18k = c.bram18k;
      n.uram = c.uram;
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
    if (auto name = cc.op->getAttrOfType<StringAttr>(directives::kName))
      ch.name = name.str();
    ch.lanes = cc.lanes;
    ch.depth = cc.depth;
    ch.bram18k = cc.bram18k;
    e.channels.push_back(std::move(ch));
  }
  cost::BaselineCost base = cost::estimateBaseline(graph, options);
  e.baselineCycles = base.cycles;
  e.baselineDsp = base.dsp;
  e.baselineBram18k = base.bram18k;
  return e;
}

} // namespace ming::dse
