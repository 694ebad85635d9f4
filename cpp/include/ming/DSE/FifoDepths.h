// FIFO depths on reconvergent paths.
//
// A fork pushes every element to all its branches in lockstep. Where the
// branches meet again (a residual add), the consumer pops both at the same
// pace, so the short branch's FIFO must hold everything the long branch has
// taken in but not yet turned into output: what its processes pull before
// their first output (line buffers filling, a matmul row) and what waits in
// its FIFOs. Below the lookahead the graph deadlocks
// (test/e2e/residual-deadlock.test); without the pipelines' share it runs,
// but the fork stalls and the whole graph slows down (the cycle-level
// simulator measures it, rust/sim).
#ifndef MING_DSE_FIFODEPTHS_H
#define MING_DSE_FIFODEPTHS_H

#include "ming/Analysis/CostModel.h"

#include <tuple>

namespace ming::dse {
using cost::ProcessCost;

/// An output channel of a fork: the elements (of the forked tensor) the other
/// branches may lag behind it before they meet again, and the tensor's size.
struct ForkFifo {
  dfg::ChannelOp channel;
  int64_t lag = 0, numel = 0;
  /// The processes of the other branches whose in-flight elements the lag
  /// counts, each with the elements of its input per element of the forked
  /// tensor (numel / its input elements, as numerator and denominator): a
  /// process holding d more elements lengthens the lag by ceil(d * num / den).
  llvm::SmallVector<std::tuple<dfg::ProcessOp, int64_t, int64_t>> through;
};

/// Elements of its input a process holds in its busiest pipeline under cost
/// `c`: the pipeline's depth at the process's average input rate.
int64_t inFlightElements(dfg::ProcessOp process, const ProcessCost &c);

/// The most words of `lanes` lanes one pipeline iteration of a process under
/// cost `c` moves through its port `arg` at once (at least 1). A channel
/// needs room for that beside the word in flight: depth >= 1 + the larger
/// burst of its two ends (2, Vitis's default, for one word at a time).
int64_t burstWords(const ProcessCost &c, unsigned arg, int64_t lanes);

/// Elements in flight per process (0 when unknown), for the lag.
using InFlight = std::function<int64_t(dfg::ProcessOp)>;

/// Every output channel of every fork of `graph`, with its lag. The lag counts
/// what the processes of each other branch (up to where all branches meet)
/// pull before their first output, hold in their pipelines (`inFlight`), and
/// what their FIFOs hold now: at full rate the fork runs that far ahead.
llvm::SmallVector<ForkFifo> forkFifos(dfg::GraphOp graph, const InFlight &inFlight = nullptr);

/// The depth in words of a fork FIFO at `lanes` lanes: its lag plus 2 words,
/// at most the whole tensor.
int64_t forkFifoDepth(const ForkFifo &fifo, int64_t lanes);

/// Sets the depth of each fork FIFO of `graph` for the lanes it has.
void sizeForkFifos(dfg::GraphOp graph, const InFlight &inFlight = nullptr);

} // namespace ming::dse

#endif // MING_DSE_FIFODEPTHS_H
