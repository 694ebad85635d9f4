// FIFO depths on reconvergent paths: see ming/DSE/FifoDepths.h.
#include "ming/DSE/FifoDepths.h"
#include "ming/Directives/Directives.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;

namespace ming::dse {
using namespace dfg;
using namespace cost;
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : a; }

int64_t intAttr(Operation *op, StringRef name, int64_t otherwise) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return otherwise;
}

struct Node {
  dfg::ProcessOp process;
  int64_t lookahead = 0, inputElements = 0;
  SmallVector<unsigned> succ;     // consumer nodes
  SmallVector<unsigned> outputs;  // channel indices, in port order
  SmallVector<int64_t> joinBurst; // per input port (directives::kJoinBurst)
  SmallVector<int64_t> portElements; // per port (directives::kPortElements), if set
};

} // namespace

int64_t burstWords(const ProcessCost &c, unsigned arg, int64_t lanes) {
  int64_t burst = 1;
  for (const LoopCost &lc : c.loops) {
    auto n = lc.portAccesses.find(arg);
    if (!lc.pipelined || lc.insidePipeline || n == lc.portAccesses.end())
      continue;
    burst = std::max(burst, ceilDiv(ceilDiv(n->second, std::max<int64_t>(lc.unroll, 1)), lanes));
  }
  return burst;
}

int64_t inFlightElements(dfg::ProcessOp process, const ProcessCost &c) {
  const LoopCost *main = nullptr;
  for (const LoopCost &lc : c.loops)
    if ((lc.pipelined || lc.flatIters) && !lc.insidePipeline && (!main || lc.cycles > main->cycles))
      main = &lc;
  if (!main || c.cycles <= 0)
    return 0;
  return ceilDiv(main->depth * intAttr(process, directives::kInputElements, 0), c.cycles);
}

SmallVector<ForkFifo> forkFifos(dfg::GraphOp graph, const InFlight &inFlight) {
  std::vector<Node> nodes;
  SmallVector<dfg::ChannelOp> channels;
  DenseMap<Value, unsigned> writer, reader; // channel end -> node
  DenseMap<Value, unsigned> readerPort;     // channel read end -> input port ordinal
  for (Operation &op : graph.getBody().front()) {
    if (auto ch = dyn_cast<dfg::ChannelOp>(op)) {
      channels.push_back(ch);
      continue;
    }
    auto inst = dyn_cast<dfg::InstantiateOp>(op);
    if (!inst)
      continue;
    Node n;
    n.process = SymbolTable::lookupNearestSymbolFrom<dfg::ProcessOp>(graph, inst.getCalleeAttr());
    if (n.process) {
      n.lookahead = intAttr(n.process, directives::kLookahead, 0);
      n.inputElements = intAttr(n.process, directives::kInputElements, 0);
      if (auto burst = n.process->getAttrOfType<DenseI64ArrayAttr>(directives::kJoinBurst))
        n.joinBurst.assign(burst.asArrayRef().begin(), burst.asArrayRef().end());
      if (auto totals = n.process->getAttrOfType<DenseI64ArrayAttr>(directives::kPortElements))
        n.portElements.assign(totals.asArrayRef().begin(), totals.asArrayRef().end());
    }
    unsigned inPort = 0;
    for (Value port : inst.getPorts()) {
      if (isa<dfg::OutputType>(port.getType()))
        writer[port] = nodes.size();
      else if (isa<dfg::InputType>(port.getType())) {
        reader[port] = nodes.size();
        readerPort[port] = inPort++;
      }
    }
    nodes.push_back(n);
  }
  SmallVector<std::optional<unsigned>> consumer(channels.size());
  SmallVector<unsigned> consumerPort(channels.size(), 0);
  for (auto [i, ch] : llvm::enumerate(channels)) {
    auto w = writer.find(ch.getWrite()), r = reader.find(ch.getRead());
    if (r != reader.end()) {
      consumer[i] = r->second;
      consumerPort[i] = readerPort[ch.getRead()];
    }
    if (w == writer.end())
      continue;
    nodes[w->second].outputs.push_back(i);
    if (r != reader.end())
      nodes[w->second].succ.push_back(r->second);
  }

  SmallVector<ForkFifo> result;
  for (Node &fork : nodes) {
    if (!fork.process || !fork.process.getKindAttr() ||
        fork.process.getKindAttr().getValue() != dfg::KernelKind::Fork ||
        fork.outputs.size() < 2)
      continue;
    int64_t numel = std::max<int64_t>(fork.inputElements, 1);
    // What each branch reaches; what all of them reach lies past the join and
    // delays every branch alike.
    SmallVector<DenseSet<unsigned>> reach;
    for (unsigned c : fork.outputs) {
      DenseSet<unsigned> seen;
      SmallVector<unsigned> work;
      if (consumer[c])
        work.push_back(*consumer[c]);
      while (!work.empty()) {
        unsigned p = work.pop_back_val();
        if (seen.insert(p).second)
          llvm::append_range(work, nodes[p].succ);
      }
      reach.push_back(std::move(seen));
    }
    auto inAll = [&](unsigned p) {
      return llvm::all_of(reach, [&](const DenseSet<unsigned> &r) { return r.contains(p); });
    };
    // In elements of the forked tensor.
    auto scaled = [&](int64_t elements, const Node &at) {
      return at.inputElements > 0 ? ceilDiv(elements * numel, at.inputElements) : elements;
    };
    // A join that reads its inputs in turn keeps the branch entering at
    // port k waiting while the other ports' bursts pass: that branch lags by
    // its own port's burst, which the other branches' FIFOs must hold.
    auto joinLag = [&](unsigned c) -> int64_t {
      if (!consumer[c] || !inAll(*consumer[c]))
        return 0;
      const Node &join = nodes[*consumer[c]];
      unsigned port = consumerPort[c];
      if (port >= join.joinBurst.size())
        return 0;
      // Bursts count elements of their own port's input, which may be
      // smaller than the join's largest.
      if (port < join.portElements.size() && join.portElements[port] > 0)
        return ceilDiv(join.joinBurst[port] * numel, join.portElements[port]);
      return scaled(join.joinBurst[port], join);
    };
    SmallVector<int64_t> lag;
    SmallVector<SmallVector<std::tuple<dfg::ProcessOp, int64_t, int64_t>>> through(fork.outputs.size());
    for (auto [b, c] : llvm::enumerate(fork.outputs)) {
      // A word of L lanes leaves only when full: L - 1 elements may wait in
      // its writer, on the fork's own output as on every channel after it.
      int64_t l = channels[c].getLanes() - 1 + joinLag(c);
      for (unsigned p : reach[b]) {
        if (inAll(p))
          continue;
        int64_t held = nodes[p].lookahead;
        if (inFlight && nodes[p].process)
          held += inFlight(nodes[p].process);
        if (nodes[p].process)
          through[b].push_back({nodes[p].process, numel,
                                nodes[p].inputElements > 0 ? nodes[p].inputElements : numel});
        l += scaled(held, nodes[p]);
        for (unsigned out : nodes[p].outputs) {
          if (consumer[out] && !inAll(*consumer[out]))
            l += scaled(int64_t(channels[out].getDepth() + 1) * channels[out].getLanes() - 1,
                        nodes[*consumer[out]]);
          else if (consumer[out]) // into the join: only the word being filled waits
            l += scaled(channels[out].getLanes() - 1, nodes[*consumer[out]]);
          l += joinLag(out);
        }
      }
      lag.push_back(l);
    }
    for (auto [b, c] : llvm::enumerate(fork.outputs)) {
      ForkFifo f;
      f.channel = channels[c];
      f.numel = numel;
      for (auto [j, l] : llvm::enumerate(lag))
        if (j != b) {
          f.lag = std::max(f.lag, l);
          llvm::append_range(f.through, through[j]);
        }
      result.push_back(f);
    }
  }
  return result;
}

int64_t forkFifoDepth(const ForkFifo &fifo, int64_t lanes) {
  return std::clamp<int64_t>(ceilDiv(fifo.lag, lanes) + 2, 2,
                             std::max<int64_t>(ceilDiv(fifo.numel, lanes), 2));
}

void sizeForkFifos(dfg::GraphOp graph, const InFlight &inFlight) {
  for (ForkFifo &f : forkFifos(graph, inFlight))
    f.channel.setDepth(forkFifoDepth(f, f.channel.getLanes()));
}

} // namespace ming::dse
