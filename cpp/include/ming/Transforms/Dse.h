// The C++ half of the design-space exploration (ARCHITECTURE.md stage 4):
// lists the cost model's candidate configurations of every process
// instance of a dfg.graph for the Rust ILP (rust/dse), writes the chosen ones
// back into the IR as directives (ming.unroll, ming.partition_cyclic, lanes in
// the channel and port types) plus `ming.dse.*` figures for the report, and
// estimates a graph as it stands (for --no-dse) and as the paper's Vanilla
// baseline.
//
// Only std types cross this header, so the cxx bridge (cpp/Bridge, which
// includes no MLIR header) can call it with a module given as the address of
// its mlir::Operation (melior's MlirOperation pointer).
#ifndef MING_TRANSFORMS_DSE_H
#define MING_TRANSFORMS_DSE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ming::dse {

struct Options {
  /// Most lanes offered on any channel (1 until the emitter lowers lanes).
  int64_t maxLanes = 1;
  /// At most this many configurations are evaluated per process.
  unsigned candidateLimit = 512;
  /// A less unrolled configuration is preferred while it is at most this
  /// fraction slower (the model counts no LUTs; see filterCandidates).
  double unrollTolerance = 0.05;
  /// Requested IIs offered to trade cycles for DSPs: 2, 4, ... up to this.
  int64_t maxII = 256;
};

/// One configuration of a process instance and its cost.
struct CandidateInfo {
  int64_t cycles = 0, fill = 0, dsp = 0, bram18k = 0;
  /// Cycles before the first pull and after the last (cost::ProcessCost).
  int64_t pre = 0, tail = 0;
  /// Lanes of the stream input ports and of the stream output ports, each in
  /// argument order (memref ports are not listed).
  std::vector<int64_t> lanesIn, lanesOut;
  /// The configuration, readable and given back to apply():
  /// space-separated `L<id>.unroll=N`, `L<id>.pipeline=0|1`, `L<id>.ii=N`,
  /// `arg<N>.lanes=N`, `partition=0|1`. Empty: the IR's directives as they are.
  std::string config;
};

/// A dfg.instantiate of the graph, in the order of the graph's body.
struct NodeInfo {
  std::string process;
  std::string kind; // "sliding_window", ... or "" when the process has none
  std::vector<CandidateInfo> candidates;
};

/// A channel from the `fromPort`-th stream output of node `from` to the
/// `toPort`-th stream input of node `to`.
struct EdgeInfo {
  unsigned from = 0, fromPort = 0, to = 0, toPort = 0;
  std::string channel; // its ming.name, or ""
};

struct ProblemInfo {
  std::string error; // non-empty: nothing else is valid
  std::string graph; // the dfg.graph's symbol
  std::vector<NodeInfo> nodes;
  std::vector<EdgeInfo> edges;
  /// BRAM18K of the FIFOs as declared (depths do not depend on the choice).
  int64_t fifoBram18k = 0;
  double seconds = 0; // time spent enumerating
};

/// The candidates of the module's graph (the one marked ming.top when there
/// are several). A process instantiated more than once keeps its directives
/// (one candidate, empty config); a port pulled or pushed with an explicit
/// lane index, or with more than one lane in the input, keeps its lanes.
ProblemInfo candidates(void *moduleOp, const Options &options);

struct NodeEstimate {
  std::string process;
  int64_t cycles = 0, firstOutput = 0, dsp = 0, bram18k = 0;
  /// II of the pipelined loop that takes the most cycles (0: none).
  int64_t ii = 0;
  /// Unroll factor of every pipelined loop not inside another pipeline
  /// ("L<id>"), 1 when not unrolled.
  std::vector<std::string> unrollLoops;
  std::vector<int64_t> unrollFactors;
};

struct ChannelEstimate {
  std::string name; // ming.name or ""
  int64_t lanes = 1, depth = 0, bram18k = 0;
};

struct Estimate {
  std::string error;
  /// The graph's dataflow latency, the paper's sum, resources incl. FIFOs.
  int64_t dataflow = 0, sum = 0, dsp = 0, bram18k = 0, fifoBram18k = 0;
  std::vector<NodeEstimate> nodes;       // instances in body order
  std::vector<ChannelEstimate> channels; // channels in body order
  /// The Vanilla design (estimateBaseline in CostModel.h).
  int64_t baselineCycles = 0, baselineDsp = 0, baselineBram18k = 0;
};

/// Writes `configs` (one per node of candidates(), same order) into the IR:
/// loop directives, buffer partitioning, lanes of channels and ports, and
/// `ming.dse.*` attributes on every process and the graph (`status` and
/// `objective` go on the graph too). Returns the estimate of the result.
Estimate apply(void *moduleOp, const std::vector<std::string> &configs,
               const std::string &status, const std::string &objective);

/// The estimate of the graph with the IR's own directives (no DSE).
Estimate estimate(void *moduleOp);

} // namespace ming::dse

#endif
