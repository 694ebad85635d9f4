// Cost model of streaming processes (MING paper Sec. IV-C):
// cycles, DSP48E2 slices and BRAM18K blocks of a dfg.process as Vitis HLS
// would build it at 200 MHz on UltraScale+, and the dataflow latency of a
// dfg.graph. Every figure and formula is documented in docs/cost-model.md.
//
// The model reads the process body as convert-linalg-to-dfg writes it (scf.for
// nests with constant bounds, `#ming.loop` directives on loops, scf.if,
// memref.alloca buffers with `#ming.partition`,
// memref.get_global ROMs, arith/math, dfg.pull/push) and can be asked about
// hypothetical directives (a ProcessConfig) without changing the IR, so the
// DSE can enumerate choices cheaply (cpp/DSE/Candidates.cpp).
#ifndef MING_ANALYSIS_COSTMODEL_H
#define MING_ANALYSIS_COSTMODEL_H

#include "ming/Analysis/Target.h"
#include "ming/Dfg/Dfg.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ming::cost {

//===----------------------------------------------------------------------===//
// Target figures (docs/cost-model.md, "Targets and thresholds")
//===----------------------------------------------------------------------===//

struct CostOptions {
  /// Operator and memory latencies, DSPs, storage thresholds (never null).
  const Target *target = &Target::builtin();
  /// A pipelined loop with II > 1 shares each DSP operator among II
  /// operations of the same kind (Vitis binds ops of different cycles of the
  /// schedule to one unit).
  bool shareAcrossII = true;
  /// Assume every buffer and ROM gets partitioned (cyclically, on top of the
  /// IR's complete partitioning) so that no bank has more accesses per
  /// iteration than ports: memory never limits II, banks and BRAM grow.
  /// The DSE estimates with it; false estimates the IR as it is.
  bool autoPartition = false;
};

//===----------------------------------------------------------------------===//
// Operation table
//===----------------------------------------------------------------------===//

struct OpCost {
  int64_t dsp = 0;     // DSP48E2 slices of one operator instance
  int64_t latency = 0; // cycles at 200 MHz (0 = combinational wiring)
  std::string kind;    // table key, e.g. "muli 8x8->32", "addf f32"
  bool known = true;   // false: not in the table, default figures used
};

/// DSP48E2 slices of a `wa` x `wb` bit signed multiplication truncated to
/// `wr` result bits: 1 up to 27x18, else the 26x17-bit partial-product tiles
/// that contribute to the low `wr` bits (32x32->32 = 3).
int64_t multiplierDsp(unsigned wa, unsigned wb, unsigned wr);

/// Cost of one instance of `op` (arith, math, casts). Operand widths are
/// looked through sign/zero extensions and constants, so
/// `muli(extsi i8, extsi i8) : i32` is an 8x8 multiply: 1 DSP.
OpCost operationCost(mlir::Operation *op, const Target &target);

/// BRAM18K blocks of one bank of `words` x `width` bits, the best of the
/// shapes 16Kx1, 8Kx2, 4Kx4, 2Kx9, 1Kx18, 512x36 (UG573). No threshold.
int64_t bram18kBlocks(int64_t words, int64_t width);
/// UltraRAMs of one bank: a URAM288 is 4,096 words of 72 bits, one shape
/// only (UG573), cascaded in depth and placed side by side in width.
int64_t uramBlocks(int64_t words, int64_t width);

//===----------------------------------------------------------------------===//
// Hypothetical directives
//===----------------------------------------------------------------------===//

/// Loops are named by their pre-order position among the scf.for of the
/// process: L0 is the outermost first loop.
struct LoopChoice {
  std::optional<int64_t> unroll;  // 0 = full, N = factor; unset: the IR's #ming.loop
  std::optional<bool> pipeline;   // unset: whether the IR's #ming.loop pipelines
  std::optional<int64_t> ii;      // requested II; unset: IR's value or 1
};

struct ProcessConfig {
  std::map<unsigned, LoopChoice> loops;   // by loop id
  std::map<unsigned, int64_t> lanes;      // by port (argument number)
  std::optional<bool> autoPartition;      // unset: CostOptions::autoPartition
  /// Buffers that would take BRAM take UltraRAM instead; unset: those the
  /// IR marks `ming.uram`. ROMs stay: an UltraRAM has no initial contents.
  std::optional<bool> uram;
};

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

struct LoopCost {
  unsigned id = 0;
  mlir::scf::ForOp loop;
  int64_t trip = 0, unroll = 1;
  bool pipelined = false;
  bool insidePipeline = false;  // fully unrolled by an enclosing pipeline
  int64_t cycles = 0;           // of one execution of the whole loop
  int64_t iterCycles = 0;       // of one iteration (sequential loops)
  /// Sequential loops: the cycles of one iteration (group of unrolled
  /// copies) outside the loops in its body: all of it for a body without
  /// loops, else its straight-line code and the state entering them.
  int64_t ownCycles = 0;
  /// A sequential loop whose body is only a pipelined loop (or another such
  /// loop) is flattened with it by Vitis: one pipeline of `flatIters`
  /// iterations at the inner II. 0 when not flattened.
  int64_t flatIters = 0;
  // Pipelined loops only:
  int64_t ii = 0, depth = 0, iiRequested = 1, iiRecurrence = 0, iiPorts = 0,
          iiMemory = 0, dsp = 0;
  std::string iiLimiter;        // what sets II ("request", "recurrence", "port arg1", ...)
  std::map<std::string, int64_t> opCounts;  // per iteration, by OpCost::kind
  std::map<unsigned, int64_t> portAccesses; // per iteration, by argument
};

struct BufferCost {
  mlir::Operation *op = nullptr;  // memref.alloca, or the first memref.get_global
  std::string name;               // "alloca", or the global's symbol
  bool rom = false;
  int64_t elements = 0, width = 0, banks = 1, wordsPerBank = 0;
  /// The cyclic partitioning the model counted beyond the IR's complete one:
  /// [dim (1-based), factor, ...], as #ming.partition writes it.
  llvm::SmallVector<int64_t> cyclic;
  std::string storage;            // "registers", "lutram", "bram", "uram", "folded"
  int64_t bram18k = 0, uram = 0;
};

struct Burst {
  unsigned out = 0, in = 0;
  int64_t elements = 0, lead = 0;
};

/// Cycles a consumer needs after a burst of `elements` starts to reach it
/// through a port of `lanes`: pulling them at `pullCycles` per element up to
/// the last word, then its tail, which counts from that word's first element
/// (ProcessCost::tailIn).
int64_t burstDrain(int64_t elements, int64_t lanes, double pullCycles, int64_t tail);

/// The share of its producer's output span after which a consumer has the
/// `elements`-th of the `total` elements of a channel of `lanes` lanes:
/// (word - 1) / (words - 1) for the word holding it, its producer's words
/// taken as evenly spread (an element comes with the first of its word).
double fillShare(int64_t elements, int64_t total, int64_t lanes);

struct ProcessCost {
  int64_t cycles = 0;       // start to end, inputs and outputs never stalling
  int64_t firstOutput = 0;  // start to first push (sink: first external store)
  /// Start to the first dfg.pull (line-buffer initialisation, padded rows and
  /// columns before the first real pixel); 0 without pulls.
  int64_t pre = 0;
  /// The last dfg.pull to the end (the last padded rows/columns of a window,
  /// a matmul's last row, the pipeline depth); 0 without pulls.
  int64_t tail = 0;
  /// Per stream input port, in argument order: its last dfg.pull to the end
  /// (0 for a port never pulled). A producer's last output bounds the end
  /// through the port it feeds: a window that pulls a bias stream in its
  /// compute loop still has its last padded rows to compute after its last
  /// pixel, which `tail` (the last pull of any port) does not see.
  std::vector<int64_t> tailIn;
  /// Per stream input port: the start to its first dfg.pull (`pre` for a
  /// port never pulled). An input arriving late delays the process only by
  /// as much as it reaches that port after this: a Concat reads its second
  /// input after the whole first.
  std::vector<int64_t> preIn;
  /// What an output port (ordinal among the stream outputs) pushes after the
  /// last pull of an input port (ordinal among the stream inputs), in
  /// program order (a window's padded last row, all of a matmul's outputs),
  /// and the cycles from the first of those pushes to the end. Its consumer
  /// works them off at its own pace; the elements do not depend on the
  /// configuration.
  std::vector<Burst> bursts;
  /// Per stream output port, in argument order: cycles from the end of the
  /// last pipeline that pushes on it (or from its last push outside one) to
  /// the process's end. A strided window's padded last rows and columns
  /// shift its line buffers without an output: its consumer has the last
  /// element that long before the producer ends (0 for a port never pushed).
  std::vector<int64_t> trailOut;
  /// Per stream input port: cycles per element of the last pipeline (in
  /// program order) that pulls it, II / elements an iteration; 0: none.
  std::vector<double> pullCycles;
  /// Per stream input port: the elements it pulls before the first push (a
  /// window's first rows, all of a matmul's input), the time the last of them
  /// is pulled, and the elements it pulls in all. The first ones come at the
  /// pace the producer outputs, not at the process's own.
  std::vector<int64_t> fillElements, fillTime, inElements;
  int64_t dsp = 0, bram18k = 0, uram = 0;
  llvm::SmallVector<LoopCost> loops;     // by id
  llvm::SmallVector<BufferCost> buffers;
  llvm::SmallVector<std::string> notes;  // ops not in the table, dynamic bounds
  /// A pipelined body was too large to walk whole (kWalkBudget operations):
  /// the counts are a part of the real ones, DSPs and cycles too few. The
  /// DSE offers such a configuration only when it has no other.
  bool partial = false;
};

/// The model's answer for `process` under `config` (no IR change).
ProcessCost estimate(dfg::ProcessOp process, const ProcessConfig &config = {},
                     const CostOptions &options = {});

/// Estimates of one process under many configurations, sharing what does
/// not depend on the configuration (the walk of each pipelined body per
/// unroll factor, how often each condition holds). The IR must not change
/// while it lives.
class Estimator {
public:
  explicit Estimator(dfg::ProcessOp process, const CostOptions &options = {});
  ~Estimator();
  ProcessCost estimate(const ProcessConfig &config);
  dfg::ProcessOp getProcess() const { return process; }

private:
  struct Cache;
  dfg::ProcessOp process;
  CostOptions options;
  std::unique_ptr<Cache> cache;
};

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

struct ChannelCost {
  dfg::ChannelOp op;
  int64_t lanes = 1, depth = 0, width = 0, bram18k = 0;
};

struct NodeCost {
  dfg::InstantiateOp op;
  std::string callee;
  int64_t cycles = 0, firstOutput = 0, pre = 0, tail = 0, dsp = 0, bram18k = 0, uram = 0;
  std::vector<int64_t> tailIn; // ProcessCost::tailIn
  std::vector<int64_t> preIn;  // ProcessCost::preIn
  std::vector<Burst> bursts;   // ProcessCost::bursts
  std::vector<int64_t> trailOut; // ProcessCost::trailOut
  std::vector<double> pullCycles;
  std::vector<int64_t> fillElements, fillTime, inElements;
  /// Absolute times (every process starts at 0, docs/cost-model.md "Graph
  /// latency"): first input available, first output, finish.
  int64_t arrival = 0, firstOut = 0, finish = 0;
};

struct GraphCost {
  /// max over nodes of their finish: every process starts at 0, waits for
  /// its first input after its `pre` cycles, and ends `tail` cycles after its
  /// producers' last output at the earliest (docs/cost-model.md).
  int64_t dataflow = 0;
  int64_t sum = 0;          // the paper's objective: sum of node cycles
  int64_t bottleneck = 0;   // max node cycles
  int64_t dsp = 0, bram18k = 0, fifoBram18k = 0, uram = 0;
  std::vector<NodeCost> nodes;
  std::vector<ChannelCost> channels;
  /// Indices into nodes, source to the node that finishes last: the chain of
  /// first outputs and finishes that sets the dataflow latency.
  std::vector<unsigned> criticalPath;
};

/// A burst (ProcessCost::bursts) of node `origin`, as it reaches a consumer:
/// its elements in the units of the consumer's port, and how many processes
/// passed it on.
struct BurstReach {
  unsigned origin = 0, burst = 0;
  int64_t elements = 0;
  unsigned hops = 0;
};

/// Processes a burst is passed on through at most: a map passes a window's
/// padded last row on to the next window, which passes it on again. Each
/// further one adds a row per consumer to the DSE's ILP (DS-CNN's no longer
/// solved within its time limit) for bounds that seldom decide.
inline constexpr unsigned kBurstPasses = 2;

/// The bursts reaching a consumer's port from node `q` (index `qIndex`)
/// through q's output `out`, added to `into`: q's own, and those reaching q's
/// inputs (`atInputs`) passed on, scaled from q's input elements to the
/// channel's `elements`, up to kBurstPasses times; the most elements per
/// burst, none of fewer than 2.
std::vector<BurstReach> burstsReaching(const NodeCost &q, unsigned out,
                                       const std::vector<std::vector<BurstReach>> &atInputs,
                                       int64_t elements, unsigned qIndex,
                                       std::vector<BurstReach> into);

GraphCost estimateGraph(dfg::GraphOp graph,
                        const std::function<const ProcessCost *(llvm::StringRef)> &lookup,
                        const CostOptions &options = {});

//===----------------------------------------------------------------------===//
// Vanilla baseline
//===----------------------------------------------------------------------===//

/// The directives of the paper's "Vanilla" design for `process`: only the
/// innermost loops pipelined (II 1 requested), nothing unrolled, one lane
/// per port, the IR's partitioning only.
ProcessConfig vanillaConfig(dfg::ProcessOp process);

struct BaselineCost {
  int64_t cycles = 0;  // sum over instances: the layers run one after another
  int64_t dsp = 0;     // sum over instances
  int64_t bram18k = 0; // buffers and ROMs of the instances + every intermediate tensor
  int64_t tensorBram18k = 0;
};

/// The graph as plain sequential HLS (docs/cost-model.md, "Vanilla
/// baseline"): every instance under vanillaConfig, one after another, each
/// channel's whole tensor stored in BRAM (its element count from the pushes
/// or pulls that are not under an scf.if).
BaselineCost estimateBaseline(dfg::GraphOp graph, const CostOptions &options = {});

/// FIFO BRAM18K of one channel.
int64_t channelBram18k(int64_t lanes, int64_t depth, int64_t width, const CostOptions &options);

} // namespace ming::cost

#endif
