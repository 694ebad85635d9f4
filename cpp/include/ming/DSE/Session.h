// The design-space exploration of a dfg.graph (ARCHITECTURE.md stage 4) as
// seen from outside the IR: a Session lists every process instance's
// candidate configurations with their cost-model figures, a solver (the ILP,
// rust/dse) picks one index per instance, and apply() writes that choice back
// as directives and returns the figures of report.json. The configurations
// themselves stay inside the session: only indices come back.
//
// Only std types cross this header, so the cxx bridge (cpp/Bridge, which
// includes no MLIR header) can use it with a module given as the address of
// its mlir::Operation (melior's MlirOperation pointer).
#ifndef MING_DSE_SESSION_H
#define MING_DSE_SESSION_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ming::dse {

struct Options {
  /// Most lanes offered on any channel.
  int64_t maxLanes = 64;
  /// The board's DSPs (0: unknown). A configuration over them can never be
  /// chosen: its lane variants, which only add DSPs, are not estimated.
  int64_t dspLimit = 0;
  /// At most this many configurations are evaluated per process, in a graph
  /// of up to 64 processes; in a larger one fewer (Session::open): the ILP
  /// grows with processes times candidates.
  unsigned candidateLimit = 512;
  /// Also offer each process with its int8 multiplies packed in pairs
  /// (ming/Transforms/PackInt8.h) where a loop allows it.
  bool packInt8 = true;
  /// A less unrolled configuration is preferred while it is at most this
  /// fraction slower (the model counts no LUTs; see offeredCandidates).
  double unrollTolerance = 0.05;
  /// Requested IIs offered to trade cycles for DSPs: 2, 4, ... up to this.
  int64_t maxII = 256;
  /// Also offer the fastest points that share DSPs over an II again at
  /// 9/8, 5/4 and 3/2 of it (relaxedIIs in Candidates.cpp); not in a large
  /// graph (Problem::large), as they grow the ILP.
  bool relaxII = true;
  /// A JSON target description for the cost model (ming/Analysis/Target.h);
  /// empty: the built-in one.
  std::string targetFile;
  /// Data bits one m_axi port moves per cycle: the board's PS-PL port
  /// width; 0 keeps the target description's `axi_bits`.
  int64_t axiBits = 0;
};

/// The cost-model figures of one configuration of a process instance: what
/// the ILP needs, nothing of the configuration itself.
struct Candidate {
  int64_t cycles = 0, fill = 0, dsp = 0, bram18k = 0, uram = 0;
  /// Cycles before the first pull and after the last (cost::ProcessCost).
  int64_t pre = 0, tail = 0;
  /// Per stream input port, in argument order: cycles after its last pull
  /// (cost::ProcessCost::tailIn).
  std::vector<int64_t> tailIn;
  /// Per stream input port: cycles before its first pull
  /// (cost::ProcessCost::preIn).
  std::vector<int64_t> preIn;
  /// Per stream output port, in argument order: cycles after the end of its
  /// last pushing pipeline (cost::ProcessCost::trailOut).
  std::vector<int64_t> trailOut;
  /// What each stream output pushes after the last pull of each stream
  /// input (cost::ProcessCost::bursts), in the same order for every
  /// candidate of a process: the output's ordinal, the elements, the cycles
  /// from the first of them to the end.
  std::vector<int64_t> burstOut, burstElements, burstLead;
  /// Per stream input port: cycles per element pulled (ProcessCost::pullCycles).
  std::vector<double> pullCycles;
  /// Per stream input port: the elements pulled before the first output, the
  /// time the last of them is pulled, the elements pulled in all
  /// (ProcessCost::fillElements, fillTime, inElements).
  std::vector<int64_t> fillElements, fillTime, inElements;
  /// Lanes of the stream input ports and of the stream output ports, each in
  /// argument order (memref ports are not listed).
  std::vector<int64_t> lanesIn, lanesOut;
};

/// A dfg.instantiate of the graph, in the order of the graph's body.
struct Node {
  std::string process;
  std::string kind; // "sliding_window", ... or "" when the process has none
  std::vector<Candidate> candidates;
};

/// A channel from the `fromPort`-th stream output of node `from` to the
/// `toPort`-th stream input of node `to`.
struct Edge {
  unsigned from = 0, fromPort = 0, to = 0, toPort = 0;
  std::string channel; // its ming.name, or ""
};

struct Problem {
  std::string graph; // the dfg.graph's symbol
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  /// BRAM18K of the FIFOs as declared (depths do not depend on the choice).
  int64_t fifoBram18k = 0;
  double seconds = 0; // time spent enumerating
  /// Processes that took the candidates of an earlier one of the same
  /// structure instead of enumerating their own.
  unsigned reused = 0;
  /// Configurations estimated per process (Options::candidateLimit, fewer
  /// in a large graph).
  unsigned candidateLimit = 0;
  /// More processes than kLargeGraph: fewer candidates each, no relaxed
  /// IIs, and the driver bounds the DSE's time (rust/dse/mod.rs).
  bool large = false;
};

/// Processes above which a graph is large (Problem::large).
constexpr size_t kLargeGraph = 64;

struct NodeEstimate {
  std::string process;
  int64_t cycles = 0, firstOutput = 0, dsp = 0, bram18k = 0, uram = 0;
  /// The graph latency's times of the instance (every process starts at 0):
  /// its first output and its finish, to set beside the simulator's.
  int64_t firstOutAt = 0, finishAt = 0;
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
  int64_t dataflow = 0, sum = 0, dsp = 0, bram18k = 0, fifoBram18k = 0, uram = 0;
  std::vector<NodeEstimate> nodes;       // instances in body order
  std::vector<ChannelEstimate> channels; // channels in body order
  /// The Vanilla design (estimateBaseline in CostModel.h).
  int64_t baselineCycles = 0, baselineDsp = 0, baselineBram18k = 0;
};

/// What the DSE asks of the solver: the limits and the objective.
struct Request {
  int64_t dsp = 0, bram18k = 0, uram = 0;
  std::string objective; // "dataflow" or "sum"
  double timeLimit = 0;  // seconds per solve; 0: until optimal
  int64_t lpIterations = 0; // LP iterations per solve; 0: no limit
};

struct Solution {
  /// Empty when `choice` is valid; else why no choice exists (shown as the
  /// pass's error).
  std::string error;
  std::vector<size_t> choice;
  std::string status; // "optimal" or "time limit"
  /// The objective's value (cycles) and the seconds the solver took.
  double objective = 0, seconds = 0;
};

/// What Session::explore did.
struct Explored {
  std::string error; // non-empty: nothing was applied
  Solution solution; // the last solve
  Estimate estimate; // of the applied design
  int rounds = 0;    // solves (more than 1 when FIFOs pushed a choice over)
};

/// The ILP: one candidate index per node of the problem, within the limits.
using Solver = std::function<Solution(const Problem &, const Request &)>;

/// The candidates of one graph. The IR must not change while it lives,
/// except through apply().
class Session {
public:
  /// The session of the module's graph (the one marked ming.top when there
  /// are several); null with `error` set when there is none to explore. A
  /// process instantiated more than once keeps its directives (one
  /// candidate); a port pulled or pushed with an explicit lane index, or with
  /// more than one lane in the input, keeps its lanes.
  static std::unique_ptr<Session> open(void *moduleOp, const Options &options,
                                       std::string &error);
  ~Session();

  const Problem &problem() const;
  /// Candidate `index` of node `node` in words, for logs:
  /// `L<id>.unroll=N L<id>.ii=N arg<N>.lanes=N partition=1`.
  std::string describe(unsigned node, unsigned index) const;
  /// Why `choice` cannot be applied ("" when it can): its length, an index
  /// out of range, lanes that disagree on a channel.
  std::string check(const std::vector<size_t> &choice) const;
  /// The figures apply() would give, from a copy of the module (the IR is
  /// unchanged): FIFOs sized for the choice, as the design will have them.
  Estimate trial(const std::vector<size_t> &choice) const;
  /// Writes candidate choice[i] of every node i into the IR: loop
  /// directives, buffer partitioning, lanes of channels and ports, FIFO
  /// depths, #ming.estimate on every process and #ming.design (with
  /// `status` and `objective`) on the graph. Returns the estimate
  /// of the result (its `error` set when the choice cannot be written).
  Estimate apply(const std::vector<size_t> &choice, const std::string &status,
                 const std::string &objective);
  /// Asks `solver` for a choice under `request`, checks it with trial() and,
  /// while the FIFOs it deepens push it over a limit, asks again with that
  /// much less; then applies it. A design over the limits is never applied.
  Explored explore(const Solver &solver, const Request &request);

  struct Impl;

private:
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// The estimate of the module's graph with the IR's own directives (no DSE),
/// under `options.targetFile`.
Estimate estimate(void *moduleOp, const Options &options);

/// The cost model's built-in target description as JSON (the format
/// Options::targetFile is read in).
std::string builtinTargetJson();
/// Why the target description at `path` cannot be used ("" when it can).
std::string checkTarget(const std::string &path);

/// The solver of the process that runs the pass: ming-opt registers its
/// HiGHS ILP (rust/dse) at start-up; inside mlir-opt the pass loads it from
/// libming.so (cpp/DSE/SolverLibrary.cpp).
void setSolver(Solver solver);
const Solver &getSolver();
/// The registered solver, else the one libming.so registers when loaded;
/// empty with `why` set when there is none.
const Solver &loadSolver(std::string &why);

} // namespace ming::dse

#endif
