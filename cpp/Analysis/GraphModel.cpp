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

double fillShare(int64_t elements, int64_t total, int64_t lanes) {
  lanes = std::max<int64_t>(1, lanes);
  int64_t word = (elements + lanes - 1) / lanes, words = (total + lanes - 1) / lanes;
  if (word <= 1 || words <= 1)
    return 0;
  return std::min(1.0, double(word - 1) / double(words - 1));
}

int64_t burstDrain(int64_t elements, int64_t lanes, double pullCycles, int64_t tail) {
  int64_t before = std::max<int64_t>(0, elements - lanes);
  return int64_t(std::ceil(double(before) * pullCycles - 1e-9)) + tail;
}

std::vector<BurstReach> burstsReaching(const NodeCost &q, unsigned out,
                                       const std::vector<std::vector<BurstReach>> &atInputs,
                                       int64_t elements, unsigned qIndex,
                                       std::vector<BurstReach> into) {
  auto add = [&](BurstReach r) {
    if (r.elements < 2)
      return;
    for (BurstReach &have : into)
      if (have.origin == r.origin && have.burst == r.burst) {
        have.elements = std::max(have.elements, r.elements);
        have.hops = std::min(have.hops, r.hops);
        return;
      }
    into.push_back(r);
  };
  for (auto [b, burst] : llvm::enumerate(q.bursts))
    if (burst.out == out)
      add({qIndex, unsigned(b), burst.elements, 0});
  for (auto [i, list] : llvm::enumerate(atInputs)) {
    int64_t total = i < q.inElements.size() ? q.inElements[i] : 0;
    if (total < 1)
      continue;
    for (const BurstReach &r : list)
      if (r.hops < kBurstPasses)
        add({r.origin, r.burst, int64_t(double(r.elements) * double(elements) / double(total)),
             r.hops + 1});
  }
  return into;
}

GraphCost estimateGraph(dfg::GraphOp graph,
                        const std::function<const ProcessCost *(llvm::StringRef)> &lookup,
                        const CostOptions &options) {
  GraphCost g;
  llvm::DenseMap<Value, unsigned> writer, reader; // channel end -> node
  llvm::DenseMap<Value, unsigned> readerPort;     // read end -> input port ordinal
  llvm::DenseMap<Value, unsigned> writerPort;     // write end -> output port ordinal
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
        n.preIn = pc->preIn;
        n.trailOut = pc->trailOut;
        n.bursts = pc->bursts;
        n.pullCycles = pc->pullCycles;
        n.fillElements = pc->fillElements;
        n.fillTime = pc->fillTime;
        n.inElements = pc->inElements;
        n.dsp = pc->dsp;
        n.bram18k = pc->bram18k;
        n.uram = pc->uram;
      }
      unsigned inputs = 0, outputs = 0;
      for (Value port : inst.getPorts()) {
        if (isa<dfg::OutputType>(port.getType())) {
          writer[port] = g.nodes.size();
          writerPort[port] = outputs++;
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
  struct Port {
    unsigned out, in; // the producer's output ordinal, the consumer's input ordinal
    int64_t lanes;
  };
  std::vector<std::vector<Port>> predPort(n);
  for (ChannelCost &cc : g.channels) {
    auto w = writer.find(cc.op.getWrite()), r = reader.find(cc.op.getRead());
    if (w == writer.end() || r == reader.end())
      continue;
    succ[w->second].push_back(r->second);
    pred[r->second].push_back(w->second);
    predPort[r->second].push_back(
        {writerPort.lookup(cc.op.getWrite()), readerPort.lookup(cc.op.getRead()), cc.lanes});
  }
  // Times are real numbers: a window's first rows arrive at a fraction of
  // its producer's output span (the ILP's rows are the same recursion).
  std::vector<double> arrival(n, 0), firstOut(n, 0), finish(n, 0);
  // The bursts that reach each input port: its producer's own, and those
  // its producer passed on from its inputs, scaled by the elements of the
  // channels (a map passes a window's padded last row on as it comes).
  std::vector<std::vector<std::vector<BurstReach>>> reach(n);
  for (size_t v = 0; v < n; ++v)
    reach[v].resize(g.nodes[v].inElements.size());
  auto reaching = [&](unsigned v) {
    for (auto [q, port] : llvm::zip(pred[v], predPort[v]))
      if (port.in < reach[v].size())
        reach[v][port.in] = burstsReaching(g.nodes[q], port.out, reach[q], g.nodes[v].inElements[port.in],
                                           q, reach[v][port.in]);
  };
  // The end of q's last pipeline that pushes on `port`: its last output.
  auto lastOutput = [&](unsigned q, Port port) {
    const NodeCost &from = g.nodes[q];
    return finish[q] - double(port.out < from.trailOut.size() ? from.trailOut[port.out] : 0);
  };
  // The earliest finish of `v` after its producer `q` (feeding it through
  // `port`): its tail after q's last output, and after each burst that
  // reaches it, the time v takes to pull that burst.
  auto lastInput = [&](unsigned v, unsigned q, Port port) {
    const NodeCost &to = g.nodes[v];
    int64_t tail = port.in < to.tailIn.size() ? to.tailIn[port.in] : to.tail;
    double rate = port.in < to.pullCycles.size() ? to.pullCycles[port.in] : 0;
    double at = lastOutput(q, port) + double(tail);
    if (port.in < reach[v].size())
      for (const BurstReach &r : reach[v][port.in])
        at = std::max(at, finish[r.origin] - double(g.nodes[r.origin].bursts[r.burst].lead) +
                              double(burstDrain(r.elements, port.lanes, rate, tail)));
    return at;
  };
  // When `v` pulls the last element it needs before its first output through
  // `port` (none: -1): that element leaves `q` at its share of q's output
  // span, and `v`'s pulls until then (a window's first rows) wait for it.
  auto filled = [&](unsigned v, unsigned q, Port port) -> double {
    const NodeCost &to = g.nodes[v];
    if (port.in >= to.fillElements.size() || to.fillElements[port.in] < 1)
      return -1;
    return firstOut[q] + fillShare(to.fillElements[port.in], to.inElements[port.in], port.lanes) *
                             (lastOutput(q, port) - firstOut[q]);
  };
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
  //   arrival  A_v = max over producers q of FO_q (0 for a source; reported,
  //            each q counting from v's first pull of its port, pre_v,q),
  //   filled   P_v = max over producers q of FO_q + s_v,q (L_q - FO_q), s_v,q
  //            the share of q's output v pulls before its first output,
  //            L_q = T_q - trail_q the end of q's last pipeline pushing to v,
  //   first    FO_v = max(F_v, max over q FO_q + F_v - pre_v,q, P_v + F_v - fill_v),
  //   finish   T_v = max(C_v, max over q FO_q + C_v - pre_v,q, P_v + C_v - fill_v,
  //                      max over producers L_q + tail_v,q,
  //                      max over q's bursts b T_q - lead_b + drain_v,q(b)),
  //            fill_v the time v pulls that last element alone, tail_v,q the
  //            cycles after v's last pull of the port q feeds.
  // Which term won is kept to trace the critical path back.
  std::vector<int> arrivalPred(n, -1), firstPred(n, -1), finishPred(n, -1);
  std::vector<bool> finishByArrival(n, false);
  for (unsigned v : order) {
    reaching(v);
    NodeCost &nc = g.nodes[v];
    double lastIn = -1, first = double(nc.firstOutput), end = double(nc.cycles);
    int endPred = -1;
    // What v does from `offset` on (alone) waits until `at` for an input
    // from q: its first output and its end shift with it.
    auto wait = [&](double at, int64_t offset, unsigned q) {
      if (at + double(nc.firstOutput - offset) > first) {
        first = at + double(nc.firstOutput - offset);
        firstPred[v] = q;
      }
      if (at + double(nc.cycles - offset) > end) {
        end = at + double(nc.cycles - offset);
        endPred = q;
      }
    };
    for (auto [q, port] : llvm::zip(pred[v], predPort[v])) {
      arrival[v] = std::max(arrival[v], firstOut[q]);
      // The port's first pull waits for q's first output.
      wait(firstOut[q], port.in < nc.preIn.size() ? nc.preIn[port.in] : nc.pre, q);
      double at = lastInput(v, q, port);
      if (finishPred[v] < 0 || at > lastIn) {
        lastIn = at;
        finishPred[v] = q;
      }
      // The last pull of the fill waits for its element.
      if (double fill = filled(v, q, port); fill >= 0)
        wait(fill, nc.fillTime[port.in], q);
    }
    firstOut[v] = first;
    finish[v] = end;
    finishByArrival[v] = endPred >= 0;
    if (finishByArrival[v])
      arrivalPred[v] = endPred; // the first-output chain continues there
    if (finishPred[v] >= 0 && lastIn > finish[v]) {
      finish[v] = lastIn;
      finishByArrival[v] = false;
    } else if (!finishByArrival[v]) {
      finishPred[v] = -1;
    }
  }
  // Whole cycles for the report: a time is reached at the cycle it falls in.
  auto cycles = [](double t) { return int64_t(std::ceil(t - 1e-6)); };
  for (size_t v = 0; v < n; ++v) {
    g.nodes[v].arrival = cycles(arrival[v]);
    g.nodes[v].firstOut = cycles(firstOut[v]);
    g.nodes[v].finish = cycles(finish[v]);
  }
  int best = -1;
  for (size_t i = 0; i < n; ++i) {
    NodeCost &nc = g.nodes[i];
    g.sum += nc.cycles;
    g.bottleneck = std::max(g.bottleneck, nc.cycles);
    g.dsp += nc.dsp;
    g.bram18k += nc.bram18k;
    g.uram += nc.uram;
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
