// The graph's latency and resources from the costs of its processes
// (docs/cost-model.md, "Graph latency"): the figures of the report.
#include "ProcessModel.h"

#include "ming/Analysis/CostModel.h"

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
// Graph
//===----------------------------------------------------------------------===//

GraphCost estimateGraph(dfg::GraphOp graph,
                        const std::function<const ProcessCost *(llvm::StringRef)> &lookup,
                        const CostOptions &options) {
  GraphCost g;
  llvm::DenseMap<Value, unsigned> writer, reader; // channel end -> node
  llvm::DenseMap<Value, unsigned> readerPort;     // read end -> input port ordinal
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
        n.tailIn = pc->tailIn;
        n.dsp = pc->dsp;
        n.bram18k = pc->bram18k;
      }
      unsigned inputs = 0;
      for (Value port : inst.getPorts()) {
        if (isa<dfg::OutputType>(port.getType())) {
          writer[port] = g.nodes.size();
        } else if (isa<dfg::InputType>(port.getType())) {
          reader[port] = g.nodes.size();
          readerPort[port] = inputs++;
        }
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
  std::vector<std::vector<int64_t>> predTail(n); // tail of the port each pred feeds
  for (ChannelCost &cc : g.channels) {
    auto w = writer.find(cc.op.getWrite()), r = reader.find(cc.op.getRead());
    if (w == writer.end() || r == reader.end())
      continue;
    succ[w->second].push_back(r->second);
    pred[r->second].push_back(w->second);
    const NodeCost &to = g.nodes[r->second];
    unsigned port = readerPort.lookup(cc.op.getRead());
    predTail[r->second].push_back(port < to.tailIn.size() ? to.tailIn[port] : to.tail);
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
  //   finish   T_v = max(C_v, A_v + C_v - pre_v, max over producers T_q + tail_v,q),
  //            tail_v,q the cycles after v's last pull of the port q feeds.
  // Which term won is kept to trace the critical path back.
  std::vector<int> arrivalPred(n, -1), firstPred(n, -1), finishPred(n, -1);
  std::vector<bool> finishByArrival(n, false);
  for (unsigned v : order) {
    NodeCost &nc = g.nodes[v];
    int64_t lastIn = -1;
    for (auto [q, tail] : llvm::zip(pred[v], predTail[v])) {
      if (arrivalPred[v] < 0 || g.nodes[q].firstOut > nc.arrival) {
        nc.arrival = g.nodes[q].firstOut;
        arrivalPred[v] = q;
      }
      if (finishPred[v] < 0 || g.nodes[q].finish + tail > lastIn) {
        lastIn = g.nodes[q].finish + tail;
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
    if (finishPred[v] >= 0 && lastIn > nc.finish) {
      nc.finish = lastIn;
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
