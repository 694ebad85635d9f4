// Internals of the process cost model shared by its files (not a public
// header): the constants of the model, index evaluation, the per-process
// state (buffers, counters, resolved loops) and the two classes that walk a
// process: ProcessModel (structure, cycles, first/last events) and Walker
// (one pipelined body, unrolled).
#ifndef MING_ANALYSIS_PROCESSMODEL_H
#define MING_ANALYSIS_PROCESSMODEL_H

#include "ming/Analysis/CostModel.h"
#include "ming/Directives/Directives.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ming::cost {

using namespace mlir;

/// Visits of unrolled operations the model makes for one pipelined body
/// before it gives up (and says so in the notes).
inline constexpr int64_t kWalkBudget = 4'000'000;
/// Iterations enumerated to find a condition's frequency or the first output.
inline constexpr int64_t kEnumBudget = 2'000'000;
/// The largest buffer the DSE partitions into registers (one element a bank)
/// when no cyclic banks serve its accesses: a transposing reorder written
/// along one dim and read along another.
inline constexpr int64_t kMaxRegisterBits = 32 * 1024;

inline int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

/// Bits of an integer or float type (index: 64).
unsigned bitWidth(mlir::Type type);

/// Integer values of index arithmetic given known values of some SSA values
/// (induction variables): constants, arith on integers, comparisons, select.
/// A walk may also record a value it found unknown as `kUnknownInt`, so that
/// the values computed from it fail at once instead of evaluating the chain
/// behind it again.
using Known = llvm::DenseMap<mlir::Value, int64_t>;
inline constexpr int64_t kUnknownInt = std::numeric_limits<int64_t>::min();
std::optional<int64_t> evalInt(mlir::Value v, const Known &known, int depth = 0);
/// evalInt of `v` from its defining op, whatever `known` holds for `v`
/// itself (a value walked again is evaluated afresh).
std::optional<int64_t> evalDefinition(mlir::Value v, const Known &known, int depth = 0);

/// Residues of index values: v = r + k * m for some integer k (the pair
/// (r, m), m > 0). Copy j of a pipelined loop unrolled u times runs the
/// iterations lb + (j + u i) * step: its induction variable has residue
/// lb + j * step modulo u * step in every iteration.
using Residues = llvm::DenseMap<mlir::Value, std::pair<int64_t, int64_t>>;
/// A condition (i1) decided by known values or, failing that, by residues:
/// `(iv - c) % s == 0` is the same in every iteration of a copy when s
/// divides the copy's modulus (a strided window's unrolled column copies,
/// of which only some ever hold an output).
/// The residue (r, m) of an index value, m == 0 for a value known exactly.
/// `index`: the value is a memory index, never negative, so unsigned
/// remainders and quotients by any divisor of the modulus keep a residue.
std::optional<std::pair<int64_t, int64_t>> residueOf(mlir::Value v, const Known &known,
                                                     const Residues &residues, bool index = false,
                                                     int depth = 0);
std::optional<int64_t> evalCondition(mlir::Value v, const Known &known, const Residues &residues,
                                     int depth = 0);

struct Bounds {
  int64_t lb = 0, step = 1, trip = 1;
  bool constant = true;
};

/// Constant bounds of a loop (`constant` false when any is not).
Bounds loopBounds(mlir::scf::ForOp loop);

/// The fewest operations a Walker visits in `block` (every nested loop
/// walked for its trip count, the cheaper side of every scf.if), saturating
/// at `cap`: past the walk budget, the walk is known to run out before it
/// starts.
int64_t leastWalkOps(mlir::Block &block, int64_t cap);

// Per-process state
//===----------------------------------------------------------------------===//

/// A RAM, ROM or register array the process owns.
struct Buffer {
  Operation *anchor = nullptr;
  std::string name;
  bool rom = false;
  SmallVector<int64_t> shape;
  int64_t width = 0, elements = 1;
  SmallVector<unsigned> partDims;   // 0-based, completely partitioned
  int64_t irBanks = 1;
  SmallVector<int64_t> factors;     // per dim: cyclic factor the model chose (autoPartition)
  bool cyclic = false;              // the IR already has the DSE's cyclic partitioning
  bool accessed = false;            // some access not folded to a constant
  bool uram = false;                // in UltraRAM where it would be BRAM
  int64_t loadLatency = 0;           // set by the layout (target latencies)
};

/// Adds to each key of `dst` the larger of its values in `a` and `b` (0
/// where absent): two branches of an if, of which one runs.
template <typename Map>
void addMaxOf(Map &dst, const Map &a, const Map &b) {
  std::set<typename Map::key_type> keys;
  for (auto &[k, v] : a)
    keys.insert(k);
  for (auto &[k, v] : b)
    keys.insert(k);
  for (auto &k : keys) {
    auto x = a.count(k) ? a.at(k) : 0;
    auto y = b.count(k) ? b.at(k) : 0;
    dst[k] += std::max(x, y);
  }
}

/// One access of a buffer in one iteration of a pipeline: the residue (r, m)
/// of each index (m == 0: known exactly; m < 0: unknown). An access in a
/// branch of an scf.if is exclusive with the other branch's (`alt` names the
/// if walked, `branch` the side; -1: not in a branch).
struct Access {
  SmallVector<std::pair<int64_t, int64_t>, 4> index;
  int64_t alt = -1;
  int branch = 0;
};

/// A cyclic partitioning of a buffer for one pipeline: per dim the factor
/// (the dim's size where completely partitioned), and the most accesses a
/// bank gets per iteration; `registers` when every element is its own bank.
struct PartitionChoice {
  SmallVector<int64_t> factors;
  int64_t worst = 0;
  bool registers = false;
};

/// The fewest banks (cyclic factors per dim) whose busiest bank gets at most
/// `perBank` of `accesses` an iteration, where the buffer's complete
/// partitioning (buf.partDims) is fixed. An index whose residue modulo a
/// dim's factor is not known reaches every bank of that dim, as Vitis
/// multiplexes it. When no factors do it, registers (one element a bank) if
/// the buffer has at most `registerBits`, else the factors with the fewest
/// accesses on a bank.
PartitionChoice choosePartition(const Buffer &buf, ArrayRef<Access> accesses, int64_t perBank,
                                int64_t registerBits);

/// What a stretch of unrolled code uses per iteration.
struct Counters {
  std::map<std::string, std::pair<int64_t, int64_t>> ops; // kind -> (count, dsp per op)
  std::map<unsigned, int64_t> ports;                      // argument -> accesses
  std::map<unsigned, std::vector<int64_t>> banks;         // buffer -> accesses per bank
  std::map<unsigned, int64_t> dataAddressed;              // buffer -> accesses at data addresses
  std::map<unsigned, std::vector<Access>> accesses;        // buffer -> index residues (autoPartition)
  /// External memory arguments accessed at addresses that do not follow one
  /// another from one unrolled copy to the next: each access is a beat of
  /// its own, the m_axi port cannot widen to carry several.
  std::set<unsigned> scattered;

  void addMax(const Counters &a, const Counters &b) {
    std::set<std::string> kinds;
    for (auto &[k, v] : a.ops)
      kinds.insert(k);
    for (auto &[k, v] : b.ops)
      kinds.insert(k);
    for (const std::string &k : kinds) {
      auto x = a.ops.count(k) ? a.ops.at(k) : std::pair<int64_t, int64_t>{0, 0};
      auto y = b.ops.count(k) ? b.ops.at(k) : std::pair<int64_t, int64_t>{0, 0};
      auto &slot = ops[k];
      slot.first += std::max(x.first, y.first);
      slot.second = std::max(x.second, y.second);
    }
    addMaxOf(ports, a.ports, b.ports);
    std::set<unsigned> bufs;
    for (auto &[k, v] : a.banks)
      bufs.insert(k);
    for (auto &[k, v] : b.banks)
      bufs.insert(k);
    for (unsigned k : bufs) {
      const std::vector<int64_t> *x = a.banks.count(k) ? &a.banks.at(k) : nullptr;
      const std::vector<int64_t> *y = b.banks.count(k) ? &b.banks.at(k) : nullptr;
      size_t n = std::max(x ? x->size() : 0, y ? y->size() : 0);
      auto &dst = banks[k];
      dst.resize(std::max(dst.size(), n), 0);
      for (size_t i = 0; i < n; ++i)
        dst[i] += std::max(x && i < x->size() ? (*x)[i] : 0, y && i < y->size() ? (*y)[i] : 0);
    }
    addMaxOf(dataAddressed, a.dataAddressed, b.dataAddressed);
    scattered.insert(a.scattered.begin(), a.scattered.end());
    scattered.insert(b.scattered.begin(), b.scattered.end());
  }
};

/// What the walk of one pipelined body found; it depends only on the loop
/// and its unroll factor, so the DSE's lane choices reuse it.
struct WalkSummary {
  Counters counters;
  /// The walk ran out of its budget (kWalkBudget operations), or was not
  /// started because it would have: the counts are a part of the real ones.
  bool exhausted = false;
  SmallVector<int64_t> carried;
  int64_t maxArrival = 0;
  /// The longest path from a load of a read-modify-write buffer to the store
  /// of its update, the store included (Walker::memoryChain).
  int64_t memoryChain = 0;
  std::optional<int64_t> firstEvent;
  std::vector<unsigned> accessed;
  std::vector<std::string> notes;
  /// By buffer and accesses allowed per bank.
  std::map<std::pair<unsigned, int64_t>, PartitionChoice> partitions;
};
/// What one process's estimates share whatever the configuration: the walk
/// of each pipelined body per unroll factor, and how often each scf.if holds.
/// The timing of one pipelined body whose unrolled copies start
/// floor(k * II / unroll) cycles apart: its depth and first push.
struct SlotTiming {
  int64_t depth = 0;
  std::optional<int64_t> firstEvent;
  /// Copy k's first push is max(firstEvent, k II / unroll + lag): lag is
  /// the part of it that waits for the copy's start (unset: none does).
  std::optional<int64_t> lag;
  bool exhausted = false; // out of budget: a part of the copies timed
};

/// A pipelined body without loop-carried values, for every II at once: its
/// latest arrival with the last copy started at s is max(atZero, s + late)
/// (`late` unset: nothing in that copy waits for its start), and its first
/// event that of the first copy. Not `usable` when the last copy has the
/// earlier event.
struct SlotStarts {
  bool usable = false;
  bool exhausted = false; // the late copy's walk ran out of budget
  int64_t atZero = 0;
  std::optional<int64_t> late;
  std::optional<int64_t> firstEvent;
  std::optional<int64_t> lag; // the late copy's first event less its start
};

/// A start later than any arrival in a body, for SlotStarts.
constexpr int64_t kLateStart = int64_t(1) << 40;

/// Where the search for the fill before a process's first push ended: the
/// elements pulled, and the way to the last of those pulls (each loop with
/// its iteration, each scf.if with its side, the pull last). Both follow from
/// program order alone, so every configuration shares them; only the time
/// of that pull is each configuration's own (ProcessModel::fillTimeAlong).
struct FillPath {
  bool met = false;
  int64_t count = 0;
  std::vector<std::pair<Operation *, int64_t>> steps;
};

struct WalkCache {
  std::map<std::pair<Operation *, int64_t>, WalkSummary> walks;
  /// By the port searched (ProcessModel::eventSet), the loops pipelined
  /// (their ids) and the output lanes: a pipeline iteration's pulls all
  /// count, and a word leaves with its last element.
  std::map<std::tuple<int64_t, std::vector<unsigned>, std::vector<int64_t>>, FillPath> fills;
  /// By loop, unroll and II.
  std::map<std::tuple<Operation *, int64_t, int64_t>, SlotTiming> timings;
  /// By loop and unroll.
  std::map<std::pair<Operation *, int64_t>, SlotStarts> slotStarts;
  llvm::DenseMap<Operation *, double> ifProbability;
  /// The table's figures of each operation: the walks ask for them once per
  /// unrolled copy under every configuration.
  llvm::DenseMap<Operation *, OpCost> opCosts;
  /// Whether a block reaches an event (push or pull mode) for given values of
  /// the induction variables around it: the first/last event searches try
  /// the same iterations under every configuration.
  /// Keyed by the event set searched (ProcessModel::eventSet).
  std::map<std::tuple<Block *, int64_t, std::vector<std::pair<void *, int64_t>>>, bool> reaches;
  /// ProcessModel::firstWordIteration by loop, event set, first pushing
  /// iteration, output lanes and the induction variables around it.
  std::map<std::tuple<Operation *, int64_t, int64_t, std::vector<int64_t>, std::vector<std::pair<void *, int64_t>>>,
           int64_t>
      firstWords;
};

struct ResolvedLoop {
  unsigned id = 0;
  Bounds bounds;
  int64_t unroll = 1; // effective factor (full = trip)
  bool pipelined = false;
  int64_t ii = 1;
};

class Walker;

class ProcessModel {
public:
  ProcessModel(dfg::ProcessOp process, const ProcessConfig &config, const CostOptions &options,
               WalkCache *cache = nullptr)
      : process(process), config(config), options(options), cache(cache) {
    autoPartition = config.autoPartition.value_or(options.autoPartition);
  }

  ProcessCost run();

private:
  // Structure.
  void collectLoops();
  void collectBuffers();
  void markEvents();
  int findBuffer(Value memref, unsigned *argNo);
  std::optional<unsigned> portArg(Value port);
  /// Lanes of stream argument `arg` under the configuration (1 for others).
  int64_t streamLanes(unsigned arg);
  bool hasLoop(Block &block);

  // Costs.
  int64_t seqBlock(Block &block);
  int64_t loopCycles(scf::ForOp loop);
  void markScattered(mlir::scf::ForOp loop, int64_t unroll, Counters &c);
  // Sequential code run with known induction variables: an scf.if holding
  // loops costs its taken branch, not its frequency-weighted average.
  bool unevenLoop(scf::ForOp loop);
  int64_t knownCycles(Block &block, Known &known);
  int64_t knownLoopCycles(scf::ForOp loop, Known &known);
  std::vector<int64_t> iterationStarts(scf::ForOp loop, Known &known, int64_t t);
  scf::ForOp perfectInner(scf::ForOp loop);
  void pipelineCost(scf::ForOp loop, LoopCost &lc);
  SlotTiming slotTiming(scf::ForOp loop, int64_t ii);
  void walkCopy(scf::ForOp loop, Walker &w, int64_t start);
  double ifProbability(scf::IfOp op);
  const OpCost &opCost(Operation *op);
  double countIfProbability(scf::IfOp op);
  std::optional<double> countJointFraction(ArrayRef<std::pair<Value, bool>> conds);

  // First output; first and last pull. The search looks for the leaves of
  // `events` (pushes and sink stores, or pulls with `pullMode`).
  std::optional<int64_t> findFirst(Block &block, Known &known, int64_t t);
  std::optional<int64_t> findLast(Block &block, Known &known, int64_t t);
  /// Cycles from the start of a pipelined loop to the pushes of copy `k`
  /// of its slot `j`.
  int64_t pushAt(scf::ForOp loop, int64_t j, int64_t k);
  bool reaches(Block &block, Known &known);
  // What a process pushes after its last pull of one port (the pulls are
  // `events`): the elements on the output whose holders are `pushes`.
  bool burstAfterLastPull(Block &block, Known &known, int64_t t,
                          const llvm::DenseSet<Operation *> &pushes, int64_t &count,
                          std::optional<int64_t> &first, std::optional<int64_t> slot = {});
  /// The time of the last pull of `path` (from its step `i` on) under this
  /// configuration: fillBeforeFirstPush's clock, walked along the path only.
  int64_t fillTimeAlong(Block &block, ArrayRef<std::pair<Operation *, int64_t>> path, size_t i,
                        Known &known, int64_t t, std::optional<int64_t> slot = {});
  bool fillBeforeFirstPush(Block &block, Known &known, int64_t t,
                           const llvm::DenseSet<Operation *> &pushes, int64_t &count, int64_t &last,
                           std::optional<int64_t> slot = {});
  int64_t portElements(BlockArgument port);
  bool searchReaches(Block &block, Known &known);
  std::optional<int64_t> searchIters(scf::ForOp loop, Known &known, int64_t lo, int64_t hi, bool backwards,
                                     llvm::function_ref<bool(int64_t)> test);
  std::optional<int64_t> countHolds(Value cond, ArrayRef<scf::ForOp> loops, size_t level, Known &known);
  bool isEvent(Operation &op) const {
    return pullMode ? isa<dfg::PullOp>(op) : isa<dfg::PushOp, memref::StoreOp>(op);
  }
  /// A word of L lanes leaves with its L-th element: counts pushes per
  /// port and says which push completes a first word on every port its
  /// loop pushes (a sink store at once).
  bool completesWord(Operation &op, llvm::DenseMap<unsigned, int64_t> &pushed);
  ArrayRef<unsigned> wordPorts(Operation *push);
  /// The output lanes by argument (the fill's cache key).
  std::vector<int64_t> outputLanes();
  /// From iteration `n` of pipelined `loop` (whose pushes `events` holds)
  /// on, the iteration that pushes the first word whole (at most `last`).
  int64_t firstWordIteration(scf::ForOp loop, Known &known, int64_t n, int64_t last);
  bool countPushes(Block &block, Known &known, llvm::DenseMap<unsigned, int64_t> &pushed);

  friend class Walker;

  dfg::ProcessOp process;
  const ProcessConfig &config;
  const CostOptions &options;
  bool autoPartition = false;
  WalkCache *cache;
  llvm::DenseMap<Operation *, OpCost> opCosts; // opCost's, when no cache is given
  ProcessCost result;
  llvm::DenseMap<Operation *, unsigned> loopIds;
  llvm::DenseMap<Operation *, ResolvedLoop> resolved;
  llvm::DenseMap<Operation *, int64_t> opCycles;     // memo: one execution of a loop / if
  llvm::DenseMap<Block *, int64_t> straightCycles;   // critical path of a block's straight-line ops
  llvm::DenseMap<Operation *, bool> uneven;          // memo of unevenLoop
  /// A pipelined loop's pushes (pushAt): its first copy's first event
  /// (unset: at the loop's depth) and the lag of a later copy's.
  struct PushTiming {
    std::optional<int64_t> first;
    int64_t lag = 0;
  };
  llvm::DenseMap<Operation *, PushTiming> pushTiming;
  llvm::DenseSet<Operation *> eventAncestors;        // ops holding a push (or sink store)
  llvm::DenseSet<Operation *> pullAncestors;         // ops holding a pull
  const llvm::DenseSet<Operation *> *events = &eventAncestors;
  bool pullMode = false;
  /// findLast answers the end of the pipelined loop that holds the last
  /// event rather than the event's issue (ProcessCost::trailOut).
  bool endMode = false;
  /// Which set `events` is, for WalkCache::reaches: 0 the outputs, 1 every
  /// pull, 2 + n the pulls of argument n, -1 - n the pushes of argument n.
  int64_t eventSet = 0;
  std::vector<Buffer> buffers;
  llvm::DenseMap<Operation *, unsigned> allocaBuffer;
  std::map<std::string, unsigned> globalBuffer;
  std::map<std::string, std::pair<int64_t, int64_t>> sequentialOps; // shared FSM operators
  int64_t enumBudget = kEnumBudget;
  /// fillBeforeFirstPush: the loops and branches it is in, and the way to
  /// the last pull it met.
  std::vector<std::pair<Operation *, int64_t>> fillStack, fillLast;
  /// fillBeforeFirstPush met the push inside a pipeline iteration and walks
  /// the rest of that iteration's pulls.
  bool fillFinishing = false;
  /// fillBeforeFirstPush: the elements pushed so far, by port.
  llvm::DenseMap<unsigned, int64_t> fillPushed;
  /// wordPorts' answers, by push.
  llvm::DenseMap<Operation *, llvm::SmallVector<unsigned>> pushPorts;
};

/// Walks straight-line code, unrolling every loop it meets (inside a pipeline)
/// or skipping loops (sequential code), and records arrival times,
/// loop-carried path lengths and the resources used per iteration.
class Walker {
public:
  Walker(ProcessModel &m, bool skipLoops) : m(m), skipLoops(skipLoops) {}

  void walkBlock(Block &block, Counters &c);

  ProcessModel &m;
  bool skipLoops;
  Known known;
  Residues residues;
  llvm::DenseMap<Value, int64_t> arrival, carry;
  /// A buffer and its indices: no allocation for up to five dims.
  using AccessKey = SmallVector<int64_t, 6>;
  std::set<AccessKey> loadKeys;
  /// Buffer and exact indices of the loads met in this iteration, all copies.
  std::set<AccessKey> sharedLoads;
  /// Whether each index value is computed from data (Walker.cpp,
  /// dataAddress): the same in every copy and iteration.
  llvm::DenseMap<Value, bool> dataAddresses;
  llvm::DenseMap<Value, int64_t> opaque; // unknown index values -> key id
  int64_t maxArrival = 0;
  /// Buffers the pipeline stores back what it loaded (ming.carried_distance):
  /// a load of one starts a path carried through memory, as an iter_arg
  /// starts one through a register, and a store ends it. `memoryChain` is
  /// the longest such path, the store's cycle included.
  llvm::DenseSet<Value> carriedBuffers;
  int64_t memoryChain = 0;
  std::optional<int64_t> firstEvent;     // arrival of the first push / sink store
  std::optional<int64_t> copyEvent;      // the same in the copy being walked
  int64_t pullBase = 0;                  // start of the unrolled copy being walked
  /// The loop-carried values the last walked copy yields (ProcessModel::walkCopy).
  SmallVector<int64_t> copyArr, copyCar;
  /// An unrolled accumulation timed as a tree (walkFor): the latest arrival
  /// of its terms, how many there are, and the latency of one tree level.
  struct Chain {
    int64_t latestTerm = 0, terms = 0, level = 0;
  };
  /// scf.for results that are such trees: an enclosing loop accumulating
  /// through them extends the same tree (a reduction over input channels
  /// and kernel rows and columns is one sum, balanced as a whole).
  llvm::DenseMap<Value, Chain> chains;
  int64_t budget = kWalkBudget;
  bool exhausted = false;
  int64_t ifsWalked = 0; // names the scf.if instances for Access::alt

  int64_t arr(Value v) const {
    auto it = arrival.find(v);
    return it == arrival.end() ? 0 : it->second;
  }
  int64_t car(Value v) const {
    if (carry.empty()) // a pipeline without loop-carried values: no lookup
      return -1;
    auto it = carry.find(v);
    return it == carry.end() ? -1 : it->second;
  }
  void define(Value v, int64_t a, int64_t c) {
    arrival[v] = a;
    if (c >= 0)
      carry[v] = c;
    else if (!carry.empty())
      carry.erase(v);
    maxArrival = std::max(maxArrival, a);
  }
  /// An index's part of a load key: its `value` (evalInt, which the access
  /// has already made) or, unknown, an id of `v` that no value can take.
  int64_t keyOf(Value v, std::optional<int64_t> value) {
    if (value)
      return *value;
    auto [it, inserted] = opaque.try_emplace(v, int64_t(opaque.size()));
    return INT64_MIN / 2 + it->second;
  }

private:
  void walkFor(scf::ForOp loop, Counters &c);
  void walkIf(scf::IfOp op, Counters &c);
  void access(Operation *op, Value memref, ValueRange indices, bool isLoad, Counters &c);
  void event(int64_t at) {
    if (!firstEvent || at < *firstEvent)
      firstEvent = at;
    if (!copyEvent || at < *copyEvent)
      copyEvent = at;
  }
};

} // namespace ming::cost

#endif // MING_ANALYSIS_PROCESSMODEL_H
