// A process's estimate under one configuration (ProcessModel::run), the
// cached Estimator, and the configurations the DSE is offered.
#include "ProcessModel.h"

#include "ming/Analysis/CostModel.h"
#include "ming/Analysis/FifoDepths.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {

//===----------------------------------------------------------------------===//
// Process
//===----------------------------------------------------------------------===//

ProcessCost ProcessModel::run() {
  collectLoops();
  result.loops.resize(loopIds.size());
  for (auto &[op, id] : loopIds) {
    result.loops[id].id = id;
    result.loops[id].loop = cast<scf::ForOp>(op);
    result.loops[id].trip = resolved[op].bounds.trip;
  }
  collectBuffers();
  markEvents();
  result.cycles = seqBlock(process.getBody().front());

  // DSP: every pipeline its own operators, sequential code shares per kind.
  result.dsp = 0;
  for (LoopCost &lc : result.loops)
    if (lc.pipelined)
      result.dsp += lc.dsp;
  for (auto &[kind, v] : sequentialOps)
    result.dsp += v.first * v.second;

  // BRAM of buffers and ROMs.
  for (Buffer &b : buffers) {
    BufferCost bc;
    bc.op = b.anchor;
    bc.name = b.name;
    bc.rom = b.rom;
    bc.elements = b.elements;
    bc.width = b.width;
    bc.banks = b.irBanks * b.autoFactor;
    bc.wordsPerBank = ceilDiv(b.elements, bc.banks);
    if (b.rom && !b.accessed) {
      bc.storage = "folded";
    } else if (bc.wordsPerBank <= 1) {
      bc.storage = "registers";
    } else if (bc.wordsPerBank * b.width <= options.lutramMaxBits) {
      bc.storage = "lutram";
    } else {
      bc.storage = "bram";
      bc.bram18k = bc.banks * bram18kBlocks(bc.wordsPerBank, b.width);
    }
    result.bram18k += bc.bram18k;
    result.buffers.push_back(bc);
  }

  // First output.
  Known known;
  if (eventAncestors.empty())
    result.firstOutput = result.cycles;
  else if (auto at = findFirst(process.getBody().front(), known, 0))
    result.firstOutput = std::min(*at, result.cycles);
  else
    result.firstOutput = result.cycles;
  if (enumBudget < 0)
    result.notes.push_back("enumeration budget exhausted: first output approximate");

  // First and last pull: `pre` and `tail` for the graph latency.
  if (!pullAncestors.empty()) {
    events = &pullAncestors;
    pullMode = true;
    enumBudget = kEnumBudget;
    Known k1, k2;
    std::optional<int64_t> first = findFirst(process.getBody().front(), k1, 0);
    std::optional<int64_t> last = findLast(process.getBody().front(), k2, 0);
    result.pre = std::clamp<int64_t>(first.value_or(0), 0, result.cycles);
    result.tail = last ? std::clamp<int64_t>(result.cycles - *last, 0, result.cycles) : 0;
    if (enumBudget < 0)
      result.notes.push_back("enumeration budget exhausted: first/last pull approximate");
    events = &eventAncestors;
    pullMode = false;
  }
  std::vector<std::string> unique;
  for (std::string &note : result.notes)
    if (!llvm::is_contained(unique, note))
      unique.push_back(note);
  result.notes.assign(unique.begin(), unique.end());
  return result;
}

ProcessCost estimate(dfg::ProcessOp process, const ProcessConfig &config,
                     const CostOptions &options) {
  ProcessModel model(process, config, options);
  return model.run();
}

static ProcessCost estimateCached(dfg::ProcessOp process, const ProcessConfig &config,
                                  const CostOptions &options, WalkCache &cache) {
  ProcessModel model(process, config, options, &cache);
  return model.run();
}

struct Estimator::Cache : WalkCache {};

Estimator::Estimator(dfg::ProcessOp process, const CostOptions &options)
    : process(process), options(options), cache(std::make_unique<Cache>()) {}

Estimator::~Estimator() = default;

ProcessCost Estimator::estimate(const ProcessConfig &config) {
  return estimateCached(process, config, options, *cache);
}

//===----------------------------------------------------------------------===//
// Candidates for the DSE
//===----------------------------------------------------------------------===//

/// The divisors of `n` up to `most` (the only ones the DSE offers), in order.
/// Bounded by `most`, not by n: a trip count of 2^63 - 1 (seen in fuzzing)
/// would otherwise loop for ever.
static SmallVector<int64_t> divisors(int64_t n, int64_t most) {
  SmallVector<int64_t> out;
  for (int64_t d = 1, last = std::min(n, most); d <= last; ++d)
    if (n % d == 0)
      out.push_back(d);
  if (out.empty())
    out.push_back(1);
  return out;
}

std::vector<Candidate> enumerateConfigurations(dfg::ProcessOp process, const CostOptions &options,
                                               unsigned limit) {
  Estimator estimator(process, options);
  return enumerateConfigurations(estimator, limit);
}

std::vector<Candidate> enumerateConfigurations(Estimator &estimator, unsigned limit) {
  dfg::ProcessOp process = estimator.getProcess();
  ProcessConfig base;
  base.autoPartition = true;
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (isa<dfg::InputType, dfg::OutputType>(process.getArgument(a).getType()))
      base.lanes[a] = 1;
  ProcessCost ref = estimator.estimate(base);
  // The outermost pipelined loops and their unroll choices.
  SmallVector<std::pair<unsigned, SmallVector<int64_t>>> choices;
  for (const LoopCost &lc : ref.loops)
    if (lc.pipelined && !lc.insidePipeline)
      choices.push_back({lc.id, divisors(std::max<int64_t>(1, lc.trip), kMaxUnroll)});
  std::vector<Candidate> all;
  unsigned evaluated = 1;
  std::vector<size_t> pick(choices.size(), 0);
  while (evaluated < limit) {
    ProcessConfig cfg = base;
    for (auto [k, ch] : llvm::enumerate(choices))
      cfg.loops[ch.first].unroll = ch.second[pick[k]];
    ProcessCost one = estimator.estimate(cfg);
    ++evaluated;
    // Lanes: divisors of each stream port's accesses per iteration.
    std::map<unsigned, int64_t> acc;
    for (const LoopCost &lc : one.loops)
      for (auto [arg, n] : lc.portAccesses)
        if (base.lanes.count(arg))
          acc[arg] = std::max(acc[arg], n);
    // A port pushed or pulled under a condition (a slice) moves a number of
    // elements no loop count gives: its lanes must divide that total too, or
    // the last word would never fill.
    auto totals = process->getAttrOfType<DenseI64ArrayAttr>(kPortElementsAttr);
    SmallVector<std::pair<unsigned, SmallVector<int64_t>>> laneChoices;
    for (auto [arg, n] : acc) {
      SmallVector<int64_t> ds = divisors(std::max<int64_t>(1, n), kMaxLanes);
      if (totals && arg < totals.size() && totals[arg] > 0)
        llvm::erase_if(ds, [&](int64_t d) { return totals[arg] % d != 0; });
      laneChoices.push_back({arg, ds});
    }
    std::vector<size_t> lp(laneChoices.size(), 0);
    while (true) {
      ProcessConfig lcfg = cfg;
      for (auto [k, ch] : llvm::enumerate(laneChoices))
        lcfg.lanes[ch.first] = ch.second[lp[k]];
      bool allOnes = llvm::all_of(lp, [](size_t v) { return v == 0; });
      all.push_back({lcfg, allOnes ? one : estimator.estimate(lcfg)});
      if (!allOnes)
        ++evaluated;
      size_t k = 0;
      for (; k < lp.size(); ++k) {
        if (++lp[k] < laneChoices[k].second.size())
          break;
        lp[k] = 0;
      }
      if (k == lp.size() || evaluated >= limit)
        break;
    }
    size_t k = 0;
    for (; k < pick.size(); ++k) {
      if (++pick[k] < choices[k].second.size())
        break;
      pick[k] = 0;
    }
    if (k == pick.size())
      break;
  }
  return all;
}

std::vector<Candidate> enumerateCandidates(dfg::ProcessOp process, const CostOptions &options,
                                           unsigned limit) {
  std::vector<Candidate> all = enumerateConfigurations(process, options, limit);
  // Pareto filter among candidates with the same lanes.
  std::vector<Candidate> kept;
  for (size_t i = 0; i < all.size(); ++i) {
    const ProcessCost &a = all[i].cost;
    bool dominated = false;
    for (size_t j = 0; j < all.size() && !dominated; ++j) {
      if (i == j || all[j].config.lanes != all[i].config.lanes)
        continue;
      const ProcessCost &b = all[j].cost;
      bool le = b.cycles <= a.cycles && b.dsp <= a.dsp && b.bram18k <= a.bram18k;
      bool lt = b.cycles < a.cycles || b.dsp < a.dsp || b.bram18k < a.bram18k;
      dominated = le && (lt || j < i);
    }
    if (!dominated)
      kept.push_back(all[i]);
  }
  return kept;
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

GraphCost estimateGraph(dfg::GraphOp graph,
                        const std::function<const ProcessCost *(llvm::StringRef)> &lookup,
                        const CostOptions &options) {
  GraphCost g;
  llvm::DenseMap<Value, unsigned> writer, reader; // channel end -> node
  for (Operation &op : graph.getBody().front()) {
    if (auto inst = dyn_cast<dfg::InstantiateOp>(op)) {
      NodeCost n;
      n.op = inst;
      n.callee = inst.getCallee().str();
      if (const ProcessCost *pc = lookup(inst.getCallee())) {
        n.cycles = pc->cycles;
        n.firstOutput = pc->firstOutput;
        n.pre = pc->pre;
        n.tail = pc->tail;
        n.dsp = pc->dsp;
        n.bram18k = pc->bram18k;
      }
      for (Value port : inst.getPorts()) {
        if (isa<dfg::OutputType>(port.getType()))
          writer[port] = g.nodes.size();
        else if (isa<dfg::InputType>(port.getType()))
          reader[port] = g.nodes.size();
      }
      g.nodes.push_back(n);
    } else if (auto ch = dyn_cast<dfg::ChannelOp>(op)) {
      ChannelCost cc;
      cc.op = ch;
      cc.lanes = ch.getLanes();
      cc.depth = ch.getDepth();
      cc.width = bitWidth(ch.getElementType());
      cc.bram18k = channelBram18k(cc.lanes, cc.depth, cc.width, options);
      g.channels.push_back(cc);
    }
  }
  size_t n = g.nodes.size();
  std::vector<std::vector<unsigned>> succ(n), pred(n);
  for (ChannelCost &cc : g.channels) {
    auto w = writer.find(cc.op.getWrite()), r = reader.find(cc.op.getRead());
    if (w == writer.end() || r == reader.end())
      continue;
    succ[w->second].push_back(r->second);
    pred[r->second].push_back(w->second);
  }
  // Topological order (Kahn); nodes on a cycle come last in input order.
  std::vector<unsigned> order, indeg(n);
  for (size_t i = 0; i < n; ++i)
    indeg[i] = pred[i].size();
  std::vector<unsigned> ready;
  for (size_t i = 0; i < n; ++i)
    if (!indeg[i])
      ready.push_back(i);
  std::vector<bool> placed(n, false);
  while (order.size() < n) {
    if (ready.empty())
      for (size_t i = 0; i < n; ++i)
        if (!placed[i]) {
          ready.push_back(i);
          break;
        }
    unsigned v = ready.front();
    ready.erase(ready.begin());
    if (placed[v])
      continue;
    placed[v] = true;
    order.push_back(v);
    for (unsigned s : succ[v])
      if (indeg[s] && --indeg[s] == 0 && !placed[s])
        ready.push_back(s);
  }
  // Every process starts at 0 (a DATAFLOW region). In topological order:
  //   arrival  A_v = max over producers q of FO_q (0 for a source),
  //   first    FO_v = max(F_v, A_v + F_v - pre_v),
  //   finish   T_v = max(C_v, A_v + C_v - pre_v, max over producers T_q + tail_v).
  // Which term won is kept to trace the critical path back.
  std::vector<int> arrivalPred(n, -1), firstPred(n, -1), finishPred(n, -1);
  std::vector<bool> finishByArrival(n, false);
  for (unsigned v : order) {
    NodeCost &nc = g.nodes[v];
    int64_t lastIn = -1;
    for (unsigned q : pred[v]) {
      if (arrivalPred[v] < 0 || g.nodes[q].firstOut > nc.arrival) {
        nc.arrival = g.nodes[q].firstOut;
        arrivalPred[v] = q;
      }
      if (finishPred[v] < 0 || g.nodes[q].finish > lastIn) {
        lastIn = g.nodes[q].finish;
        finishPred[v] = q;
      }
    }
    nc.firstOut = nc.firstOutput;
    if (arrivalPred[v] >= 0 && nc.arrival + nc.firstOutput - nc.pre > nc.firstOut) {
      nc.firstOut = nc.arrival + nc.firstOutput - nc.pre;
      firstPred[v] = arrivalPred[v];
    }
    nc.finish = nc.cycles;
    if (arrivalPred[v] >= 0 && nc.arrival + nc.cycles - nc.pre > nc.finish) {
      nc.finish = nc.arrival + nc.cycles - nc.pre;
      finishByArrival[v] = true;
    }
    if (finishPred[v] >= 0 && lastIn + nc.tail > nc.finish) {
      nc.finish = lastIn + nc.tail;
      finishByArrival[v] = false;
    } else if (!finishByArrival[v]) {
      finishPred[v] = -1;
    }
  }
  int best = -1;
  for (size_t i = 0; i < n; ++i) {
    NodeCost &nc = g.nodes[i];
    g.sum += nc.cycles;
    g.bottleneck = std::max(g.bottleneck, nc.cycles);
    g.dsp += nc.dsp;
    g.bram18k += nc.bram18k;
    if (best < 0 || nc.finish > g.dataflow) {
      g.dataflow = nc.finish;
      best = i;
    }
  }
  // Back from the last finish: through the producer whose finish set it, or
  // (finish set by the arrival) into the chain of first outputs.
  std::vector<bool> seen(n, false);
  bool byFinish = true;
  for (int v = best; v >= 0 && !seen[v];) {
    seen[v] = true;
    g.criticalPath.push_back(v);
    if (byFinish && finishByArrival[v]) {
      byFinish = false;
      v = arrivalPred[v];
    } else {
      v = byFinish ? finishPred[v] : firstPred[v];
    }
  }
  std::reverse(g.criticalPath.begin(), g.criticalPath.end());
  for (ChannelCost &cc : g.channels)
    g.fifoBram18k += cc.bram18k;
  g.bram18k += g.fifoBram18k;
  return g;
}

} // namespace ming::cost
