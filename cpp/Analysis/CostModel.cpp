// Cost model of streaming processes and graphs (see CostModel.h and
// docs/cost-model.md for every figure and formula).
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

static constexpr llvm::StringLiteral kPipelineII = "ming.pipeline_ii";
static constexpr llvm::StringLiteral kUnroll = "ming.unroll";
static constexpr llvm::StringLiteral kPartitionComplete = "ming.partition_complete_dims";
static constexpr llvm::StringLiteral kPartitionCyclic = "ming.partition_cyclic";

/// Latencies in cycles at 200 MHz (docs/cost-model.md, table "Operations").
static constexpr int64_t kLatFifo = 1;       // dfg.pull / dfg.push
static constexpr int64_t kLatBram = 2;       // BRAM read: address + data register
static constexpr int64_t kLatLutram = 1;     // LUTRAM read: output register
static constexpr int64_t kLatExternal = 1;   // m_axi read inside a burst
/// Visits of unrolled operations the model makes for one pipelined body
/// before it gives up (and says so in the notes).
static constexpr int64_t kWalkBudget = 4'000'000;
/// Iterations enumerated to find a condition's frequency or the first output.
static constexpr int64_t kEnumBudget = 2'000'000;
/// Most parallel lanes of one channel the DSE is offered.
static constexpr int64_t kMaxLanes = 64;
/// Largest unroll factor offered for a pipelined loop: past it, even an
/// iteration with one stream access outruns its port (64 lanes at II 1 take
/// 64 iterations a cycle; 4x that only raises the II), and copies of a MAC
/// body exceed any board's DSPs.
static constexpr int64_t kMaxUnroll = 4 * kMaxLanes;

static int64_t ceilDiv(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

//===----------------------------------------------------------------------===//
// Operation table
//===----------------------------------------------------------------------===//

int64_t multiplierDsp(unsigned wa, unsigned wb, unsigned wr) {
  if (wa < wb)
    std::swap(wa, wb);
  if (wb == 0)
    return 0;
  if (wa <= 27 && wb <= 18)
    return 1;
  // Signed operands split into 26-bit (A port) and 17-bit (B port) unsigned
  // slices; slice (i, j) contributes from bit 26i + 17j on, so slices past
  // the result width need no DSP (UG579, wide multipliers by cascading).
  int64_t na = ceilDiv(wa, 26), nb = ceilDiv(wb, 17), tiles = 0;
  for (int64_t i = 0; i < na; ++i)
    for (int64_t j = 0; j < nb; ++j)
      if (26 * i + 17 * j < int64_t(wr))
        ++tiles;
  return std::max<int64_t>(tiles, 1);
}

static unsigned bitWidth(Type type) {
  if (type.isIndex())
    return 32; // index prints as int in the HLS C++
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 32;
}

/// Signed bits needed for a constant.
static unsigned constantBits(const APInt &value) {
  return std::max<unsigned>(1, value.getSignificantBits());
}

/// Width a multiplier operand really needs: through extensions, constants.
static unsigned effectiveWidth(Value v) {
  if (Operation *def = v.getDefiningOp()) {
    if (isa<arith::ExtSIOp, arith::ExtUIOp>(def)) {
      unsigned w = bitWidth(def->getOperand(0).getType());
      return isa<arith::ExtUIOp>(def) ? w + 1 : w; // unsigned into a signed port
    }
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return constantBits(value);
  }
  return bitWidth(v.getType());
}

static std::string floatName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

OpCost operationCost(Operation *op) {
  OpCost c;
  Type type = op->getNumResults() ? op->getResult(0).getType()
                                  : (op->getNumOperands() ? op->getOperand(0).getType() : Type());
  auto named = [&](llvm::StringRef base, Type t) {
    return (base + " " + floatName(t)).str();
  };
  // Floating point: Vitis HLS operator cores at 200 MHz on UltraScale+.
  auto flt = [&](llvm::StringRef base, Type t, int64_t dsp32, int64_t lat32, int64_t dsp64,
                 int64_t lat64, int64_t dsp16, int64_t lat16) {
    c.kind = named(base, t);
    unsigned w = bitWidth(t);
    if (w >= 64) {
      c.dsp = dsp64;
      c.latency = lat64;
    } else if (w <= 16) {
      c.dsp = dsp16;
      c.latency = lat16;
    } else {
      c.dsp = dsp32;
      c.latency = lat32;
    }
  };
  Type operandType = op->getNumOperands() ? op->getOperand(0).getType() : type;
  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::MulFOp>([&](auto) { flt("mulf", type, 3, 3, 11, 5, 2, 3); })
      .Case<arith::AddFOp, arith::SubFOp>([&](auto) { flt("addf", type, 2, 4, 3, 5, 2, 4); })
      .Case<arith::DivFOp>([&](auto) { flt("divf", type, 0, 10, 0, 22, 0, 6); })
      .Case<math::SqrtOp>([&](auto) { flt("sqrtf", type, 0, 10, 0, 22, 0, 6); })
      .Case<math::ExpOp>([&](auto) { flt("expf", type, 7, 10, 26, 20, 4, 6); })
      .Case<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(
          [&](auto) { flt("maxf", type, 0, 1, 0, 1, 0, 1); })
      .Case<arith::CmpFOp>([&](auto) { flt("cmpf", operandType, 0, 1, 0, 1, 0, 1); })
      .Case<arith::NegFOp, math::AbsFOp>([&](auto) { flt("negf", type, 0, 0, 0, 0, 0, 0); })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](auto) { flt("itofp", type, 0, 4, 0, 5, 0, 3); })
      .Case<arith::FPToSIOp, arith::FPToUIOp>(
          [&](auto) { flt("fptoi", operandType, 0, 4, 0, 5, 0, 3); })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { flt("fpconv", type, 0, 2, 0, 2, 0, 2); })
      .Case<arith::MulIOp>([&](arith::MulIOp mul) {
        unsigned wa = effectiveWidth(mul.getLhs()), wb = effectiveWidth(mul.getRhs());
        unsigned wr = bitWidth(type);
        wa = std::min(wa, wr);
        wb = std::min(wb, wr);
        c.kind = "muli " + std::to_string(std::max(wa, wb)) + "x" +
                 std::to_string(std::min(wa, wb)) + "->" + std::to_string(wr);
        // A multiplication by a power of two is a shift: wiring.
        APInt value;
        for (Value operand : {mul.getLhs(), mul.getRhs()})
          if (matchPattern(operand, m_ConstantInt(&value)) && (value.isPowerOf2() || value.isZero())) {
            c.kind = "muli pow2";
            c.latency = 0;
            return;
          }
        c.dsp = multiplierDsp(wa, wb, wr);
        c.latency = c.dsp > 1 ? 3 : 2;
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([&](auto) {
        c.kind = "divi " + std::to_string(bitWidth(type));
        c.latency = bitWidth(type) + 4; // radix-2 divider, one bit per cycle
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::CmpIOp, arith::AndIOp, arith::OrIOp,
            arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
            arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::SelectOp>([&](Operation *o) {
        c.kind = o->getName().stripDialect().str() + " " + std::to_string(bitWidth(operandType));
        c.latency = 1;
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::BitcastOp>([&](Operation *o) {
        c.kind = "cast";
        c.latency = 0;
      })
      .Default([&](Operation *o) {
        c.kind = o->getName().getStringRef().str();
        c.latency = 1;
        c.known = false;
      });
  return c;
}

//===----------------------------------------------------------------------===//
// BRAM shapes
//===----------------------------------------------------------------------===//

int64_t bram18kBlocks(int64_t words, int64_t width) {
  if (words <= 0 || width <= 0)
    return 0;
  // (depth, width) of one RAMB18E2 (UG573); 512x36 in simple dual-port mode.
  static constexpr std::pair<int64_t, int64_t> shapes[] = {
      {16384, 1}, {8192, 2}, {4096, 4}, {2048, 9}, {1024, 18}, {512, 36}};
  int64_t best = INT64_MAX;
  for (auto [d, w] : shapes)
    best = std::min(best, ceilDiv(width, w) * ceilDiv(words, d));
  return best;
}

int64_t channelBram18k(int64_t lanes, int64_t depth, int64_t width, const CostOptions &options) {
  if (depth <= options.srlMaxDepth || depth * width <= options.srlMaxBits)
    return 0;
  return lanes * bram18kBlocks(depth, width);
}

//===----------------------------------------------------------------------===//
// Integer evaluation of index arithmetic (loop bounds, window conditions)
//===----------------------------------------------------------------------===//

using Known = llvm::DenseMap<Value, int64_t>;

static std::optional<int64_t> evalInt(Value v, const Known &known, int depth = 0) {
  if (auto it = known.find(v); it != known.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return std::nullopt;
  // arith.constant read directly: matchPattern folds, and this runs for every
  // condition of every iteration the first-output search tries.
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(c.getValue());
    if (!attr)
      return std::nullopt;
    const APInt &cst = attr.getValue();
    return v.getType().isInteger(1) ? int64_t(cst.getBoolValue()) : cst.getSExtValue();
  }
  APInt cst;
  if (def->hasTrait<OpTrait::ConstantLike>() && matchPattern(v, m_ConstantInt(&cst)))
    return v.getType().isInteger(1) ? int64_t(cst.getBoolValue()) : cst.getSExtValue();
  auto arg = [&](unsigned i) { return evalInt(def->getOperand(i), known, depth + 1); };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return arg(0);
  if (def->getNumOperands() == 3 && isa<arith::SelectOp>(def)) {
    auto c = arg(0);
    if (!c)
      return std::nullopt;
    return *c ? arg(1) : arg(2);
  }
  if (def->getNumOperands() != 2)
    return std::nullopt;
  auto a = arg(0);
  if (!a)
    return std::nullopt;
  // Short-circuit booleans: a false operand decides andi, a true one ori.
  if (isa<arith::AndIOp>(def) && v.getType().isInteger(1) && *a == 0)
    return 0;
  if (isa<arith::OrIOp>(def) && v.getType().isInteger(1) && *a != 0)
    return 1;
  auto b = arg(1);
  if (!b)
    return std::nullopt;
  int64_t x = *a, y = *b;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return x + y; })
      .Case([&](arith::SubIOp) { return x - y; })
      .Case([&](arith::MulIOp) { return x * y; })
      .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(x / y) : std::nullopt;
      })
      .Case([&](arith::DivUIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(int64_t(uint64_t(x) / uint64_t(y))) : std::nullopt;
      })
      .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(x % y) : std::nullopt;
      })
      .Case([&](arith::RemUIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(int64_t(uint64_t(x) % uint64_t(y))) : std::nullopt;
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (!y)
          return std::nullopt;
        int64_t q = x / y;
        return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
      })
      .Case([&](arith::AndIOp) { return x & y; })
      .Case([&](arith::OrIOp) { return x | y; })
      .Case([&](arith::XOrIOp) { return x ^ y; })
      .Case([&](arith::MaxSIOp) { return std::max(x, y); })
      .Case([&](arith::MinSIOp) { return std::min(x, y); })
      .Case([&](arith::ShLIOp) { return x << y; })
      .Case([&](arith::ShRSIOp) { return x >> y; })
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        uint64_t ux = x, uy = y;
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq: return x == y;
        case arith::CmpIPredicate::ne: return x != y;
        case arith::CmpIPredicate::slt: return x < y;
        case arith::CmpIPredicate::sle: return x <= y;
        case arith::CmpIPredicate::sgt: return x > y;
        case arith::CmpIPredicate::sge: return x >= y;
        case arith::CmpIPredicate::ult: return ux < uy;
        case arith::CmpIPredicate::ule: return ux <= uy;
        case arith::CmpIPredicate::ugt: return ux > uy;
        case arith::CmpIPredicate::uge: return ux >= uy;
        }
        return std::nullopt;
      })
      .Default([](Operation *) { return std::nullopt; });
}

namespace {

struct Bounds {
  int64_t lb = 0, step = 1, trip = 1;
  bool constant = true;
};

Bounds loopBounds(scf::ForOp loop) {
  Bounds b;
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0) {
    b.constant = false;
    return b;
  }
  b.lb = *lb;
  b.step = *step;
  b.trip = *ub > *lb ? ceilDiv(*ub - *lb, *step) : 0;
  return b;
}

//===----------------------------------------------------------------------===//
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
  int64_t autoFactor = 1;           // further cyclic partitioning (autoPartition)
  bool cyclic = false;              // the IR already has the DSE's cyclic partitioning
  bool accessed = false;            // some access not folded to a constant
  int64_t loadLatency = kLatBram;
};

/// What a stretch of unrolled code uses per iteration.
struct Counters {
  std::map<std::string, std::pair<int64_t, int64_t>> ops; // kind -> (count, dsp per op)
  std::map<unsigned, int64_t> ports;                      // argument -> accesses
  std::map<unsigned, std::vector<int64_t>> banks;         // buffer -> accesses per bank

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
    std::set<unsigned> keys;
    for (auto &[k, v] : a.ports)
      keys.insert(k);
    for (auto &[k, v] : b.ports)
      keys.insert(k);
    for (unsigned k : keys) {
      int64_t x = a.ports.count(k) ? a.ports.at(k) : 0;
      int64_t y = b.ports.count(k) ? b.ports.at(k) : 0;
      ports[k] += std::max(x, y);
    }
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
  }
};

/// What the walk of one pipelined body found; it depends only on the loop
/// and its unroll factor, so the DSE's lane choices reuse it.
struct WalkSummary {
  Counters counters;
  SmallVector<int64_t> carried;
  int64_t maxArrival = 0;
  std::optional<int64_t> firstEvent;
  std::vector<unsigned> accessed;
  std::vector<std::string> notes;
};
/// What one process's estimates share whatever the configuration: the walk
/// of each pipelined body per unroll factor, and how often each scf.if holds.
struct WalkCache {
  std::map<std::pair<Operation *, int64_t>, WalkSummary> walks;
  llvm::DenseMap<Operation *, double> ifProbability;
  /// Whether a block reaches an event (push or pull mode) for given values of
  /// the induction variables around it: the first/last event searches try
  /// the same iterations under every configuration.
  std::map<std::tuple<Block *, bool, std::vector<std::pair<void *, int64_t>>>, bool> reaches;
};

struct ResolvedLoop {
  unsigned id = 0;
  Bounds bounds;
  int64_t unroll = 1; // effective factor (full = trip)
  bool pipelined = false;
  int64_t ii = 1;
};

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
  bool hasLoop(Block &block);

  // Costs.
  int64_t seqBlock(Block &block);
  int64_t loopCycles(scf::ForOp loop);
  scf::ForOp perfectInner(scf::ForOp loop);
  void pipelineCost(scf::ForOp loop, LoopCost &lc);
  double ifProbability(scf::IfOp op);
  double countIfProbability(scf::IfOp op);

  // First output; first and last pull. The search looks for the leaves of
  // `events` (pushes and sink stores, or pulls with `pullMode`).
  std::optional<int64_t> findFirst(Block &block, Known &known, int64_t t);
  std::optional<int64_t> findLast(Block &block, Known &known, int64_t t);
  bool reaches(Block &block, Known &known);
  bool searchReaches(Block &block, Known &known);
  std::optional<int64_t> searchIters(scf::ForOp loop, Known &known, int64_t lo, int64_t hi, bool backwards,
                                     llvm::function_ref<bool(int64_t)> test);
  std::optional<int64_t> countHolds(Value cond, ArrayRef<scf::ForOp> loops, size_t level, Known &known);
  bool isEvent(Operation &op) const {
    return pullMode ? isa<dfg::PullOp>(op) : isa<dfg::PushOp, memref::StoreOp>(op);
  }

  friend class Walker;

  dfg::ProcessOp process;
  const ProcessConfig &config;
  const CostOptions &options;
  bool autoPartition = false;
  WalkCache *cache;
  ProcessCost result;
  llvm::DenseMap<Operation *, unsigned> loopIds;
  llvm::DenseMap<Operation *, ResolvedLoop> resolved;
  llvm::DenseMap<Operation *, int64_t> opCycles;     // memo: one execution of a loop / if
  llvm::DenseMap<Operation *, int64_t> pushOffset;   // pipelined loop -> cycles to its first event
  llvm::DenseSet<Operation *> eventAncestors;        // ops holding a push (or sink store)
  llvm::DenseSet<Operation *> pullAncestors;         // ops holding a pull
  const llvm::DenseSet<Operation *> *events = &eventAncestors;
  bool pullMode = false;
  std::vector<Buffer> buffers;
  llvm::DenseMap<Operation *, unsigned> allocaBuffer;
  std::map<std::string, unsigned> globalBuffer;
  std::map<std::string, std::pair<int64_t, int64_t>> sequentialOps; // shared FSM operators
  int64_t enumBudget = kEnumBudget;
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
  llvm::DenseMap<Value, int64_t> arrival, carry;
  std::set<std::vector<int64_t>> loadKeys;
  llvm::DenseMap<Value, int64_t> opaque; // unknown index values -> key id
  int64_t maxArrival = 0;
  std::optional<int64_t> firstEvent;     // arrival of the first push / sink store
  int64_t budget = kWalkBudget;
  bool exhausted = false;

  int64_t arr(Value v) const {
    auto it = arrival.find(v);
    return it == arrival.end() ? 0 : it->second;
  }
  int64_t car(Value v) const {
    auto it = carry.find(v);
    return it == carry.end() ? -1 : it->second;
  }
  void define(Value v, int64_t a, int64_t c) {
    arrival[v] = a;
    if (c >= 0)
      carry[v] = c;
    else
      carry.erase(v);
    maxArrival = std::max(maxArrival, a);
  }
  int64_t keyOf(Value v) {
    if (auto k = evalInt(v, known))
      return *k;
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
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

void ProcessModel::collectLoops() {
  unsigned next = 0;
  process.getBody().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    unsigned id = next++;
    loopIds[loop] = id;
    ResolvedLoop r;
    r.id = id;
    r.bounds = loopBounds(loop);
    if (!r.bounds.constant) {
      result.notes.push_back("L" + std::to_string(id) + ": dynamic bounds, counted as one iteration");
    }
    LoopChoice choice;
    if (auto it = config.loops.find(id); it != config.loops.end())
      choice = it->second;
    auto attrInt = [&](llvm::StringRef name) -> std::optional<int64_t> {
      if (auto a = loop->getAttrOfType<IntegerAttr>(name))
        return a.getInt();
      return std::nullopt;
    };
    int64_t unroll = choice.unroll.value_or(attrInt(kUnroll).value_or(1));
    r.unroll = unroll <= 0 ? std::max<int64_t>(r.bounds.trip, 1)
                           : std::min(unroll, std::max<int64_t>(r.bounds.trip, 1));
    r.pipelined = choice.pipeline.value_or(loop->hasAttr(kPipelineII));
    r.ii = std::max<int64_t>(1, choice.ii.value_or(attrInt(kPipelineII).value_or(1)));
    resolved[loop] = r;
  });
}

int ProcessModel::findBuffer(Value memref, unsigned *argNo) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (arg.getOwner()->getParentOp() == process.getOperation()) {
      *argNo = arg.getArgNumber();
      return -2; // external memory
    }
    return -1;
  }
  Operation *def = memref.getDefiningOp();
  if (auto alloca = dyn_cast_or_null<memref::AllocaOp>(def)) {
    auto it = allocaBuffer.find(alloca);
    return it == allocaBuffer.end() ? -1 : int(it->second);
  }
  if (auto global = dyn_cast_or_null<memref::GetGlobalOp>(def)) {
    auto it = globalBuffer.find(global.getName().str());
    return it == globalBuffer.end() ? -1 : int(it->second);
  }
  return -1;
}

void ProcessModel::collectBuffers() {
  auto layout = [&](Buffer &b, MemRefType type) {
    b.shape.assign(type.getShape().begin(), type.getShape().end());
    b.width = bitWidth(type.getElementType());
    b.elements = type.hasStaticShape() ? type.getNumElements() : 1;
    b.irBanks = 1;
    for (unsigned d : b.partDims)
      if (d < b.shape.size())
        b.irBanks *= b.shape[d];
    int64_t words = ceilDiv(b.elements, b.irBanks);
    b.loadLatency = words <= 1 ? 0 : words * b.width <= options.lutramMaxBits ? kLatLutram : kLatBram;
  };
  process.getBody().walk([&](Operation *op) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      Buffer b;
      b.anchor = op;
      b.name = "alloca";
      b.cyclic = op->hasAttr(kPartitionCyclic);
      if (auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kPartitionComplete))
        for (int64_t d : dims.asArrayRef())
          if (d >= 1)
            b.partDims.push_back(unsigned(d - 1));
      layout(b, alloca.getType());
      allocaBuffer[op] = buffers.size();
      buffers.push_back(std::move(b));
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      std::string name = global.getName().str();
      if (globalBuffer.count(name))
        return;
      Buffer b;
      b.anchor = op;
      b.name = "@" + name;
      b.rom = true;
      auto sym = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, global.getNameAttr());
      b.rom = !sym || sym.getConstant();
      b.cyclic = op->hasAttr(kPartitionCyclic);
      layout(b, global.getType());
      globalBuffer[name] = buffers.size();
      buffers.push_back(std::move(b));
    }
  });
}

std::optional<unsigned> ProcessModel::portArg(Value port) {
  if (auto arg = dyn_cast<BlockArgument>(port))
    if (arg.getOwner()->getParentOp() == process.getOperation())
      return arg.getArgNumber();
  return std::nullopt;
}

void ProcessModel::markEvents() {
  bool anyPush = false;
  process.getBody().walk([&](dfg::PushOp) { anyPush = true; });
  process.getBody().walk([&](Operation *op) {
    bool isEvent = isa<dfg::PushOp>(op);
    if (!anyPush)
      if (auto store = dyn_cast<memref::StoreOp>(op))
        isEvent = isa<BlockArgument>(store.getMemRef()) &&
                  cast<BlockArgument>(store.getMemRef()).getOwner()->getParentOp() ==
                      process.getOperation();
    if (isa<dfg::PullOp>(op))
      for (Operation *p = op; p && p != process.getOperation(); p = p->getParentOp())
        pullAncestors.insert(p);
    if (!isEvent)
      return;
    for (Operation *p = op; p && p != process.getOperation(); p = p->getParentOp())
      eventAncestors.insert(p);
  });
}

bool ProcessModel::hasLoop(Block &block) {
  for (Operation &op : block)
    if (op.walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted())
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Walker
//===----------------------------------------------------------------------===//

void Walker::walkBlock(Block &block, Counters &c) {
  for (Operation &op : block.without_terminator()) {
    if (--budget < 0) {
      exhausted = true;
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!skipLoops)
        walkFor(loop, c);
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (skipLoops &&
          ifOp->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted())
        continue;
      walkIf(ifOp, c);
      continue;
    }
    if (auto pull = dyn_cast<dfg::PullOp>(op)) {
      if (auto p = m.portArg(pull.getPort()))
        c.ports[*p] += 1;
      int64_t a = kLatFifo;
      if (pull.getLane())
        a = std::max(a, arr(pull.getLane()) + kLatFifo);
      define(pull.getValue(), a, -1);
      continue;
    }
    if (auto push = dyn_cast<dfg::PushOp>(op)) {
      if (auto p = m.portArg(push.getPort()))
        c.ports[*p] += 1;
      int64_t a = arr(push.getValue());
      maxArrival = std::max(maxArrival, a + kLatFifo);
      event(a + kLatFifo);
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      access(&op, load.getMemRef(), load.getIndices(), true, c);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      access(&op, store.getMemRef(), store.getIndices(), false, c);
      continue;
    }
    if (isa<memref::AllocaOp, memref::GetGlobalOp>(op) || op.hasTrait<OpTrait::ConstantLike>()) {
      for (Value r : op.getResults())
        define(r, 0, -1);
      continue;
    }
    // Arithmetic.
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIntOrIndex() &&
        evalInt(op.getResult(0), known)) {
      define(op.getResult(0), 0, -1); // folds to a constant once unrolled
      continue;
    }
    int64_t in = 0, inCarry = -1;
    for (Value v : op.getOperands()) {
      in = std::max(in, arr(v));
      inCarry = std::max(inCarry, car(v));
    }
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIndex()) {
      // Address arithmetic: LUTs folded into the memory access.
      define(op.getResult(0), in, inCarry);
      continue;
    }
    OpCost oc = operationCost(&op);
    if (!oc.known && op.getNumResults() > 0)
      m.result.notes.push_back("not in the table: " + oc.kind + " (0 DSP, 1 cycle)");
    if (oc.dsp > 0 || oc.latency > 0) {
      auto &slot = c.ops[oc.kind];
      slot.first += 1;
      slot.second = oc.dsp;
    }
    for (Value r : op.getResults())
      define(r, in + oc.latency, inCarry >= 0 ? inCarry + oc.latency : -1);
  }
}

void Walker::walkFor(scf::ForOp loop, Counters &c) {
  Bounds b = loopBounds(loop);
  SmallVector<int64_t> argArr, argCar;
  for (Value init : loop.getInitArgs()) {
    argArr.push_back(arr(init));
    argCar.push_back(car(init));
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  // An unrolled accumulation through an associative, exact operation (integer
  // add, min/max, bit logic) is rebalanced into a tree by HLS: n terms cost
  // ceil(log2(n + 1)) levels after the last term arrives, not n.
  SmallVector<Value> other(yield.getNumOperands());
  for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumOperands() != 2 ||
        !isa<arith::AddIOp, arith::OrIOp, arith::AndIOp, arith::XOrIOp, arith::MaxSIOp,
             arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp, arith::MaximumFOp,
             arith::MinimumFOp>(def))
      continue;
    Value acc = loop.getRegionIterArgs()[k];
    if (def->getOperand(0) == acc)
      other[k] = def->getOperand(1);
    else if (def->getOperand(1) == acc)
      other[k] = def->getOperand(0);
  }
  SmallVector<int64_t> latest(argArr.begin(), argArr.end());
  for (int64_t i = 0; i < b.trip && !exhausted; ++i) {
    if (b.constant)
      known[loop.getInductionVar()] = b.lb + i * b.step;
    for (auto [k, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
      define(iterArg, argArr[k], argCar[k]);
    walkBlock(*loop.getBody(), c);
    for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
      argArr[k] = arr(v);
      argCar[k] = car(v);
      if (other[k]) {
        latest[k] = std::max(latest[k], arr(other[k]));
        int64_t level = arr(v) - std::max(arr(loop.getRegionIterArgs()[k]), arr(other[k]));
        argArr[k] = std::min(argArr[k], latest[k] + level * llvm::Log2_64_Ceil(i + 2));
      }
    }
  }
  known.erase(loop.getInductionVar());
  for (auto [k, r] : llvm::enumerate(loop.getResults()))
    define(r, argArr[k], argCar[k]);
}

void Walker::walkIf(scf::IfOp op, Counters &c) {
  std::optional<int64_t> cond = evalInt(op.getCondition(), known);
  auto results = [&](Region &region) {
    SmallVector<std::pair<int64_t, int64_t>> out;
    if (region.empty())
      return out;
    for (Value v : region.front().getTerminator()->getOperands())
      out.push_back({arr(v), car(v)});
    return out;
  };
  if (cond) {
    Region &taken = *cond ? op.getThenRegion() : op.getElseRegion();
    if (!taken.empty())
      walkBlock(taken.front(), c);
    auto out = results(taken);
    for (auto [k, r] : llvm::enumerate(op.getResults()))
      define(r, k < out.size() ? out[k].first : 0, k < out.size() ? out[k].second : -1);
    return;
  }
  Counters thenC, elseC;
  walkBlock(op.getThenRegion().front(), thenC);
  auto t = results(op.getThenRegion());
  if (!op.getElseRegion().empty())
    walkBlock(op.getElseRegion().front(), elseC);
  auto e = results(op.getElseRegion());
  c.addMax(thenC, elseC);
  int64_t condAt = arr(op.getCondition());
  for (auto [k, r] : llvm::enumerate(op.getResults())) {
    int64_t a = std::max({condAt, k < t.size() ? t[k].first : 0, k < e.size() ? e[k].first : 0});
    int64_t cr = std::max(k < t.size() ? t[k].second : -1, k < e.size() ? e[k].second : -1);
    define(r, a, cr);
  }
}

void Walker::access(Operation *op, Value memref, ValueRange indices, bool isLoad, Counters &c) {
  int64_t idxAt = 0;
  for (Value v : indices)
    idxAt = std::max(idxAt, arr(v));
  unsigned argNo = 0;
  int bi = m.findBuffer(memref, &argNo);
  if (bi == -2) { // external memory (load/store nodes)
    c.ports[argNo] += 1;
    if (isLoad)
      define(op->getResult(0), idxAt + kLatExternal, -1);
    else {
      int64_t a = std::max(idxAt, arr(op->getOperand(0)));
      maxArrival = std::max(maxArrival, a + 1);
      if (m.eventAncestors.contains(op))
        event(a + 1);
    }
    return;
  }
  if (bi < 0) {
    if (isLoad)
      define(op->getResult(0), idxAt + kLatBram, -1);
    return;
  }
  Buffer &buf = m.buffers[bi];
  SmallVector<std::optional<int64_t>> idx;
  bool allKnown = true;
  for (Value v : indices) {
    idx.push_back(evalInt(v, known));
    allKnown &= idx.back().has_value();
  }
  if (isLoad && buf.rom && allKnown) { // constant-folded ROM read
    define(op->getResult(0), 0, -1);
    return;
  }
  buf.accessed = true;
  if (isLoad) {
    std::vector<int64_t> key{int64_t(bi)};
    for (Value v : indices)
      key.push_back(keyOf(v));
    bool fresh = loadKeys.insert(key).second;
    define(op->getResult(0), idxAt + buf.loadLatency, -1);
    if (!fresh)
      return;
  } else {
    maxArrival = std::max(maxArrival, std::max(idxAt, arr(op->getOperand(0))) + 1);
  }
  // Banks reached: a known index in a partitioned dim picks one, an unknown
  // one reaches all of that dim (a multiplexer over the banks).
  auto &counts = c.banks[bi];
  counts.resize(buf.irBanks, 0);
  std::vector<int64_t> reach{0};
  for (unsigned d : buf.partDims) {
    if (d >= idx.size() || d >= buf.shape.size())
      continue;
    int64_t size = buf.shape[d];
    std::vector<int64_t> next;
    for (int64_t base : reach) {
      if (idx[d]) {
        next.push_back(base * size + std::clamp<int64_t>(*idx[d], 0, size - 1));
      } else {
        for (int64_t k = 0; k < size; ++k)
          next.push_back(base * size + k);
      }
    }
    reach = std::move(next);
  }
  for (int64_t bank : reach)
    if (bank >= 0 && bank < int64_t(counts.size()))
      counts[bank] += 1;
}

//===----------------------------------------------------------------------===//
// Loop and block cycles
//===----------------------------------------------------------------------===//

void ProcessModel::pipelineCost(scf::ForOp loop, LoopCost &lc) {
  const ResolvedLoop &r = resolved[loop];
  WalkSummary local;
  WalkSummary *sum = &local;
  bool hit = false;
  if (cache) {
    auto [it, inserted] = cache->walks.try_emplace({loop.getOperation(), r.unroll});
    sum = &it->second;
    hit = !inserted;
  }
  if (!hit) {
    Walker w(*this, /*skipLoops=*/false);
    size_t notesBefore = result.notes.size();
    SmallVector<int64_t> argArr(loop.getInitArgs().size(), 0),
        argCar(loop.getInitArgs().size(), 0);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (int64_t k = 0; k < r.unroll && !w.exhausted; ++k) {
      w.loadKeys.clear(); // the pipelined IV differs between copies
      w.opaque.clear();
      for (auto [j, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
        w.define(iterArg, argArr[j], argCar[j]);
      w.walkBlock(*loop.getBody(), sum->counters);
      for (auto [j, v] : llvm::enumerate(yield.getOperands())) {
        argArr[j] = w.arr(v);
        argCar[j] = w.car(v);
      }
    }
    if (w.exhausted)
      result.notes.push_back("L" + std::to_string(r.id) +
                             ": unrolled body too large, counted in part");
    sum->carried = argCar;
    sum->maxArrival = w.maxArrival;
    sum->firstEvent = w.firstEvent;
    for (auto &[bi, counts] : sum->counters.banks)
      sum->accessed.push_back(bi);
    for (auto [bi, b] : llvm::enumerate(buffers))
      if (b.accessed)
        sum->accessed.push_back(bi);
    sum->notes.assign(result.notes.begin() + notesBefore, result.notes.end());
  } else {
    for (unsigned bi : sum->accessed)
      buffers[bi].accessed = true;
    result.notes.append(sum->notes.begin(), sum->notes.end());
  }
  Counters &c = sum->counters;
  SmallVector<int64_t> &argCar = sum->carried;
  lc.iiRequested = r.ii;
  lc.iiRecurrence = 0;
  for (int64_t cr : argCar)
    lc.iiRecurrence = std::max(lc.iiRecurrence, cr);
  lc.iiPorts = 0;
  std::string portWhy;
  for (auto [arg, n] : c.ports) {
    Type t = process.getArgument(arg).getType();
    int64_t perCycle = 1;
    if (auto in = dyn_cast<dfg::InputType>(t))
      perCycle = in.getLanes();
    else if (auto out = dyn_cast<dfg::OutputType>(t))
      perCycle = out.getLanes();
    else if (auto mem = dyn_cast<MemRefType>(t))
      perCycle = std::max<int64_t>(1, options.axiBits / std::max<int64_t>(1, bitWidth(mem.getElementType())));
    if (auto it = config.lanes.find(arg); it != config.lanes.end() && !isa<MemRefType>(t))
      perCycle = std::max<int64_t>(1, it->second);
    int64_t ii = ceilDiv(n, perCycle);
    lc.portAccesses[arg] = n;
    if (ii > lc.iiPorts) {
      lc.iiPorts = ii;
      portWhy = "port arg" + std::to_string(arg);
    }
  }
  lc.iiMemory = 0;
  std::string memWhy;
  for (auto &[bi, counts] : c.banks) {
    Buffer &buf = buffers[bi];
    int64_t words = ceilDiv(buf.elements, buf.irBanks);
    int64_t worst = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    int64_t ii = words <= 1 ? 0 : ceilDiv(worst, options.memPorts);
    // A buffer the DSE partitioned (ming.partition_cyclic, written from this
    // same computation) counts as partitioned when the IR is estimated as is.
    // Banks enough for the requested II, not for II 1: at II k a bank serves
    // 2k accesses per iteration.
    if (autoPartition || buf.cyclic) {
      int64_t factor = ceilDiv(ii, std::max<int64_t>(lc.iiRequested, 1));
      buf.autoFactor = std::max(buf.autoFactor, std::min(std::max<int64_t>(factor, 1), words));
      continue;
    }
    if (ii > lc.iiMemory) {
      lc.iiMemory = ii;
      memWhy = "memory " + buf.name;
    }
  }
  lc.ii = lc.iiRequested;
  lc.iiLimiter = "request";
  auto raise = [&](int64_t v, const std::string &why) {
    if (v > lc.ii) {
      lc.ii = v;
      lc.iiLimiter = why;
    }
  };
  raise(lc.iiRecurrence, "recurrence");
  raise(lc.iiPorts, portWhy);
  raise(lc.iiMemory, memWhy);
  lc.depth = std::max<int64_t>(1, sum->maxArrival);
  int64_t iters = ceilDiv(r.bounds.trip, r.unroll);
  // The last iteration still needs its port accesses' cycles (a fully
  // unrolled loop of 128 pulls on one lane takes 128 cycles, not its depth).
  lc.cycles = iters > 0 ? (iters - 1) * lc.ii + std::max(lc.depth, lc.iiPorts) : 0;
  lc.dsp = 0;
  for (auto &[kind, v] : c.ops) {
    lc.opCounts[kind] = v.first;
    int64_t units = options.shareAcrossII ? ceilDiv(v.first, lc.ii) : v.first;
    lc.dsp += units * v.second;
  }
  if (sum->firstEvent)
    pushOffset[loop] = *sum->firstEvent;
}

int64_t ProcessModel::loopCycles(scf::ForOp loop) {
  if (auto it = opCycles.find(loop); it != opCycles.end())
    return it->second;
  const ResolvedLoop &r = resolved[loop];
  LoopCost &lc = result.loops[r.id];
  lc.trip = r.bounds.trip;
  lc.unroll = r.unroll;
  lc.pipelined = r.pipelined;
  if (r.pipelined) {
    pipelineCost(loop, lc);
    // Loops inside are fully unrolled.
    loop.getBody()->walk([&](scf::ForOp inner) {
      LoopCost &il = result.loops[loopIds[inner]];
      il.insidePipeline = true;
      il.pipelined = false;
      il.unroll = il.trip = loopBounds(inner).trip;
    });
  } else if (scf::ForOp inner = perfectInner(loop)) {
    // Loop flattening of a perfect nest around a pipeline (Vitis does it by
    // default): one pipeline over the product of the trip counts.
    loopCycles(inner);
    const LoopCost &in = result.loops[loopIds[inner]];
    int64_t innerIters = in.flatIters ? in.flatIters : ceilDiv(in.trip, in.unroll);
    lc.flatIters = r.bounds.trip * innerIters;
    lc.ii = in.ii;
    lc.depth = in.depth;
    lc.iterCycles = innerIters * in.ii;
    lc.cycles = lc.flatIters > 0 ? (lc.flatIters - 1) * in.ii + std::max(in.depth, in.iiPorts) : 0;
  } else {
    int64_t iters = ceilDiv(r.bounds.trip, r.unroll);
    int64_t iter;
    if (!hasLoop(*loop.getBody())) {
      // Straight-line body: its unrolled copies as one dataflow graph.
      Walker w(*this, /*skipLoops=*/false);
      Counters c;
      for (int64_t k = 0; k < r.unroll; ++k)
        w.walkBlock(*loop.getBody(), c);
      for (auto &[kind, v] : c.ops) {
        auto &slot = sequentialOps[kind];
        slot.first = std::max(slot.first, v.first);
        slot.second = v.second;
        lc.opCounts[kind] = v.first;
      }
      iter = std::max<int64_t>(1, w.maxArrival);
    } else {
      // One state to enter/leave the body's loops, copies run one after another.
      iter = r.unroll * seqBlock(*loop.getBody()) + 1;
    }
    lc.iterCycles = iter;
    lc.cycles = iters * iter;
  }
  opCycles[loop] = lc.cycles;
  return lc.cycles;
}

/// The only loop in the body of a sequential, not unrolled, `loop` without
/// loop-carried values, when that loop is pipelined or itself such a nest.
scf::ForOp ProcessModel::perfectInner(scf::ForOp loop) {
  const ResolvedLoop &r = resolved[loop];
  if (r.pipelined || r.unroll != 1 || !loop.getInitArgs().empty())
    return {};
  scf::ForOp inner;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    auto f = dyn_cast<scf::ForOp>(op);
    if (!f || inner || !f.getInitArgs().empty())
      return {};
    inner = f;
  }
  if (!inner)
    return {};
  if (resolved[inner].pipelined || perfectInner(inner))
    return inner;
  return {};
}

double ProcessModel::ifProbability(scf::IfOp op) {
  if (!cache)
    return countIfProbability(op);
  auto it = cache->ifProbability.find(op);
  if (it == cache->ifProbability.end())
    it = cache->ifProbability.try_emplace(op, countIfProbability(op)).first;
  return it->second;
}

double ProcessModel::countIfProbability(scf::IfOp op) {
  // The loops whose induction variables decide the condition.
  SmallVector<Value> work{op.getCondition()};
  llvm::DenseSet<Value> seen;
  SmallVector<scf::ForOp> loops;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg != loop.getInductionVar() || !loopBounds(loop).constant)
        return 1.0;
      loops.push_back(loop);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumRegions() || def->getNumResults() != 1)
      return 1.0;
    if (!def->hasTrait<OpTrait::ConstantLike>() && !isa<arith::ArithDialect>(def->getDialect()))
      return 1.0;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  int64_t total = 1;
  SmallVector<Bounds> bounds;
  for (scf::ForOp l : loops) {
    bounds.push_back(loopBounds(l));
    total *= std::max<int64_t>(1, bounds.back().trip);
  }
  // Counted per loop level, outermost first, over stretches and periods (see
  // "Iteration search") when the condition has that form.
  {
    SmallVector<scf::ForOp> nest(loops.begin(), loops.end());
    llvm::sort(nest, [](scf::ForOp a, scf::ForOp b) { return a->isProperAncestor(b); });
    bool chain = true;
    for (size_t i = 0; i + 1 < nest.size(); ++i)
      chain &= nest[i]->isProperAncestor(nest[i + 1]);
    Known known;
    if (chain && llvm::all_of(bounds, [](const Bounds &b) { return b.trip > 0; }))
      if (auto yes = countHolds(op.getCondition(), nest, 0, known))
        return total ? double(*yes) / double(total) : 1.0;
  }
  if (total > enumBudget)
    return 1.0;
  enumBudget -= total;
  int64_t yes = 0;
  Known known;
  for (int64_t n = 0; n < total; ++n) {
    int64_t rest = n;
    for (auto [l, b] : llvm::zip(loops, bounds)) {
      known[l.getInductionVar()] = b.lb + (rest % std::max<int64_t>(1, b.trip)) * b.step;
      rest /= std::max<int64_t>(1, b.trip);
    }
    auto v = evalInt(op.getCondition(), known);
    if (!v)
      return 1.0;
    yes += *v != 0;
  }
  return total ? double(yes) / double(total) : 1.0;
}

int64_t ProcessModel::seqBlock(Block &block) {
  int64_t t = 0;
  for (Operation &op : block.without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      t += loopCycles(loop);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      bool loops = ifOp->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted();
      if (!loops)
        continue; // counted by the straight-line walk below
      double p = ifProbability(ifOp);
      int64_t thenC = seqBlock(ifOp.getThenRegion().front());
      int64_t elseC = ifOp.getElseRegion().empty() ? 0 : seqBlock(ifOp.getElseRegion().front());
      int64_t c = int64_t(std::llround(p * double(thenC) + (1.0 - p) * double(elseC)));
      opCycles[ifOp] = c;
      t += c;
    }
  }
  // Straight-line operations between the loops: their critical path.
  Walker w(*this, /*skipLoops=*/true);
  Counters c;
  w.walkBlock(block, c);
  for (auto &[kind, v] : c.ops) {
    auto &slot = sequentialOps[kind];
    slot.first = std::max(slot.first, v.first);
    slot.second = v.second;
  }
  return t + w.maxArrival;
}

//===----------------------------------------------------------------------===//
// First output
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Iteration search
//===----------------------------------------------------------------------===//
//
// The first/last-event searches ask, loop by loop, for the first (or last)
// iteration whose body reaches an event. Whether a body reaches one depends on
// the iteration number n only through the conditions of the scf.if ops on the
// way to the events. Those are comparisons of index arithmetic, and in the
// processes convert-linalg-to-dfg writes each one is either monotone in n (a
// bound: `r >= pad`, `c < pad + W`) or periodic in n (the stride grid:
// `(r - k) mod s == 0`). Between the points where a monotone comparison can
// change (found by bisection) every condition is periodic with the least
// common multiple P of the periods, so one period per stretch decides it:
// a search tries at most (breakpoints + 1) * P iterations per loop level,
// whatever the trip count. Conditions outside these forms fall back to
// trying iterations one by one (bounded by the enumeration budget).

namespace {
/// How an integer value depends on the iteration number n of one loop, the
/// induction variables of the loops around it being known.
struct IterShape {
  enum Kind {
    Fixed,    // independent of n
    Inner,    // depends on the induction variable of a loop inside: fixed here
    Opaque,   // never evaluated (data, iter_args): independent of n
    Affine,   // coef * n + c
    Monotone, // non-decreasing (dir 1) or non-increasing (dir -1)
    Periodic, // value(n + period) == value(n) between breakpoints
    Bad,      // none of these: enumerate
  } kind = Fixed;
  int64_t coef = 0;
  int dir = 0;
  int64_t period = 1;

  bool varies() const { return kind == Affine || kind == Monotone || kind == Periodic; }
  static IterShape of(Kind k) {
    IterShape s;
    s.kind = k;
    return s;
  }
  static IterShape affine(int64_t c) {
    if (c == 0)
      return of(Fixed);
    IterShape s = of(Affine);
    s.coef = c;
    s.dir = c > 0 ? 1 : -1;
    return s;
  }
  static IterShape monotone(int d) {
    IterShape s = of(Monotone);
    s.dir = d;
    return s;
  }
  static IterShape periodic(int64_t p) {
    IterShape s = of(Periodic);
    s.period = std::max<int64_t>(1, p);
    return s;
  }
};

/// A monotone difference x - y (y may be null) whose sign changes are
/// breakpoints of the search.
struct SignTerm {
  Value x, y;
  int dir;
};

/// What the search of one loop needs: the breakpoints' terms and the period.
struct IterPlan {
  bool ok = true;
  int64_t period = 1;
  std::vector<SignTerm> terms;
};
} // namespace

/// Most iterations a search tries per stretch; a longer period enumerates.
static constexpr int64_t kMaxPeriod = 4096;

static int64_t lcmCapped(int64_t a, int64_t b) {
  int64_t g = std::gcd(a, b);
  int64_t l = a / g;
  if (l > kMaxPeriod / std::max<int64_t>(1, b))
    return kMaxPeriod + 1;
  return l * b;
}

namespace {
class IterPlanner {
public:
  IterPlanner(scf::ForOp loop, const Known &known) : loop(loop), known(known) {}

  IterPlan plan(Block &body, const llvm::DenseSet<Operation *> &events) {
    body.walk([&](Operation *op) {
      if (!plan_.ok || !events.contains(op))
        return;
      if (auto inner = dyn_cast<scf::ForOp>(op)) {
        // Inner bounds that move with n would change the body's iterations.
        if (!loopBounds(inner).constant)
          plan_.ok = false;
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        if (!boolean(ifOp.getCondition(), 0))
          plan_.ok = false;
      }
    });
    if (plan_.period > kMaxPeriod)
      plan_.ok = false;
    return plan_;
  }

  /// The plan of one i1 value (an scf.if condition counted over the loop).
  IterPlan planCondition(Value cond) {
    if (!boolean(cond, 0) || plan_.period > kMaxPeriod)
      plan_.ok = false;
    return plan_;
  }

private:
  scf::ForOp loop;
  const Known &known;
  IterPlan plan_;
  llvm::DenseMap<Value, IterShape> memo;

  /// Whether an i1 condition is a function of classifiable comparisons.
  bool boolean(Value v, int depth) {
    if (depth > 32)
      return false;
    IterShape s = shape(v, depth);
    if (s.kind == IterShape::Fixed || s.kind == IterShape::Inner || s.kind == IterShape::Opaque)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::SelectOp>(def)) {
      for (Value o : def->getOperands())
        if (!boolean(o, depth + 1))
          return false;
      return true;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def))
      return atom(cmp, depth);
    return false;
  }

  bool atom(arith::CmpIOp cmp, int depth) {
    IterShape x = shape(cmp.getLhs(), depth + 1), y = shape(cmp.getRhs(), depth + 1);
    if (x.kind == IterShape::Bad || y.kind == IterShape::Bad)
      return false;
    IterShape d = combine(x, negate(y));
    if (d.kind == IterShape::Bad)
      return false;
    if (d.kind == IterShape::Periodic)
      plan_.period = lcmCapped(plan_.period, d.period);
    else if (d.kind == IterShape::Affine || d.kind == IterShape::Monotone)
      plan_.terms.push_back({cmp.getLhs(), cmp.getRhs(), d.dir});
    bool isUnsigned = cmp.getPredicate() == arith::CmpIPredicate::ult ||
                      cmp.getPredicate() == arith::CmpIPredicate::ule ||
                      cmp.getPredicate() == arith::CmpIPredicate::ugt ||
                      cmp.getPredicate() == arith::CmpIPredicate::uge;
    // An unsigned comparison also changes where an operand changes sign.
    if (isUnsigned)
      for (auto [v, s] : {std::pair{cmp.getLhs(), x}, std::pair{cmp.getRhs(), y}}) {
        if (s.kind == IterShape::Affine || s.kind == IterShape::Monotone)
          plan_.terms.push_back({v, Value(), s.dir});
        else if (s.kind == IterShape::Periodic)
          return false;
      }
    return true;
  }

  static IterShape negate(IterShape s) {
    if (s.kind == IterShape::Affine)
      return IterShape::affine(-s.coef);
    if (s.kind == IterShape::Monotone)
      s.dir = -s.dir;
    return s;
  }

  /// The shape of a + b.
  static IterShape combine(IterShape a, IterShape b) {
    using K = IterShape;
    if (a.kind == K::Bad || b.kind == K::Bad)
      return K::of(K::Bad);
    if (a.kind == K::Opaque || b.kind == K::Opaque)
      return K::of(K::Opaque); // evalInt fails on it for every n
    if (!a.varies() || !b.varies()) {
      const IterShape &v = a.varies() ? a : b, &f = a.varies() ? b : a;
      if (!v.varies())
        return K::of(a.kind == K::Inner || b.kind == K::Inner ? K::Inner : K::Fixed);
      // Inner plus a varying term: fixed at this level, varying inside.
      return f.kind == K::Inner ? K::of(K::Bad) : v;
    }
    if (a.kind == K::Affine && b.kind == K::Affine)
      return K::affine(a.coef + b.coef);
    if (a.kind == K::Periodic && b.kind == K::Periodic)
      return K::periodic(lcmCapped(a.period, b.period));
    if (a.kind != K::Periodic && b.kind != K::Periodic && a.dir == b.dir)
      return K::monotone(a.dir);
    return K::of(K::Bad);
  }

  std::optional<int64_t> fixedValue(Value v) { return evalInt(v, known); }

  IterShape shape(Value v, int depth) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    IterShape s = compute(v, depth);
    memo[v] = s;
    return s;
  }

  IterShape compute(Value v, int depth) {
    using K = IterShape;
    if (depth > 32)
      return K::of(K::Bad);
    if (v == loop.getInductionVar())
      return K::affine(loopBounds(loop).step);
    if (known.count(v))
      return K::of(K::Fixed);
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto owner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (owner && arg == owner.getInductionVar() && loop->isProperAncestor(owner))
        return K::of(K::Inner);
      return K::of(K::Opaque);
    }
    Operation *def = v.getDefiningOp();
    if (def->hasTrait<OpTrait::ConstantLike>())
      return K::of(K::Fixed);
    auto arg = [&](unsigned i) { return shape(def->getOperand(i), depth + 1); };
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
      return arg(0);
    // Anything evalInt does not evaluate never has a value.
    bool evaluated = isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp, arith::DivUIOp,
                         arith::RemSIOp, arith::RemUIOp, arith::FloorDivSIOp, arith::AndIOp, arith::OrIOp,
                         arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::ShLIOp, arith::ShRSIOp,
                         arith::CmpIOp, arith::SelectOp>(def);
    if (!evaluated)
      return K::of(K::Opaque);
    SmallVector<IterShape> ops;
    bool anyVaries = false, anyBad = false, anyOpaque = false, anyInner = false;
    for (unsigned i = 0; i < def->getNumOperands(); ++i) {
      ops.push_back(arg(i));
      anyVaries |= ops.back().varies();
      anyBad |= ops.back().kind == K::Bad;
      anyOpaque |= ops.back().kind == K::Opaque;
      anyInner |= ops.back().kind == K::Inner;
    }
    if (anyBad)
      return K::of(K::Bad);
    // Booleans are taken apart by `boolean`; here only whether they vary
    // (a varying one is Bad inside arithmetic).
    if (isa<arith::CmpIOp>(def) || v.getType().isInteger(1)) {
      if (isa<arith::CmpIOp>(def) && anyOpaque)
        return K::of(K::Opaque);
      if (!anyVaries)
        return K::of(anyInner ? K::Inner : K::Fixed);
      return K::of(K::Bad);
    }
    if (!anyVaries)
      return K::of(anyOpaque ? K::Opaque : anyInner ? K::Inner : K::Fixed);
    if (anyOpaque && !isa<arith::SelectOp>(def))
      return K::of(K::Opaque);
    if (anyInner)
      return K::of(K::Bad);
    if (isa<arith::AddIOp>(def))
      return combine(ops[0], ops[1]);
    if (isa<arith::SubIOp>(def))
      return combine(ops[0], negate(ops[1]));
    if (isa<arith::MulIOp>(def)) {
      if (ops[0].varies() && ops[1].varies())
        return K::of(K::Bad);
      IterShape s = ops[0].varies() ? ops[0] : ops[1];
      auto k = fixedValue(def->getOperand(ops[0].varies() ? 1 : 0));
      if (!k)
        return K::of(K::Opaque);
      if (*k == 0)
        return K::of(K::Fixed);
      if (s.kind == K::Affine)
        return K::affine(s.coef * *k);
      if (s.kind == K::Monotone)
        s.dir *= *k > 0 ? 1 : -1;
      return s;
    }
    if (isa<arith::DivSIOp, arith::FloorDivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(def)) {
      if (ops[1].varies())
        return K::of(K::Bad);
      auto k = fixedValue(def->getOperand(1));
      if (!k || *k == 0)
        return K::of(K::Opaque);
      IterShape s = ops[0];
      if (isa<arith::RemSIOp, arith::RemUIOp>(def)) {
        if (s.kind == K::Periodic)
          return s;
        if (s.kind != K::Affine)
          return K::of(K::Bad);
        // Periodic on each side of the dividend's zero crossing.
        plan_.terms.push_back({def->getOperand(0), Value(), s.dir});
        int64_t m = *k < 0 ? -*k : *k;
        return K::periodic(m / std::gcd(m, s.coef < 0 ? -s.coef : s.coef));
      }
      if (s.kind == K::Periodic)
        return s;
      // Unsigned division jumps where the dividend turns negative; monotone
      // on either side.
      if (isa<arith::DivUIOp>(def)) {
        plan_.terms.push_back({def->getOperand(0), Value(), s.dir});
        return K::monotone(s.dir);
      }
      return K::monotone(*k > 0 ? s.dir : -s.dir);
    }
    if (isa<arith::MaxSIOp, arith::MinSIOp>(def)) {
      IterShape c = combine(ops[0], ops[1]); // same rules: compatible directions
      if (c.kind == K::Affine)
        return K::monotone(c.dir);
      return c;
    }
    return K::of(K::Bad);
  }
};
} // namespace

/// The points in [lo, hi + 1] where a monotone term of `plan` reaches 0 or
/// 1 in its direction, lo and hi + 1 included; `known[iv]` is left set.
static std::vector<int64_t> planCuts(const IterPlan &plan, scf::ForOp loop, Known &known, int64_t lo,
                                     int64_t hi) {
  Bounds b = loopBounds(loop);
  Value iv = loop.getInductionVar();
  auto at = [&](int64_t n) { known[iv] = b.lb + n * b.step; };
  // Breakpoints: where a monotone term reaches 0 and 1 (in its direction).
  // A term is monotone between the breakpoints of the terms inside it (an
  // unsigned division's dividend changing sign), which come first in
  // plan.terms: each one is bisected within the stretches found so far.
  std::vector<int64_t> cuts{lo, hi + 1};
  for (const SignTerm &term : plan.terms) {
    std::vector<int64_t> stretches = cuts;
    auto value = [&](int64_t n) -> std::optional<int64_t> {
      at(n);
      auto x = evalInt(term.x, known);
      if (!x)
        return std::nullopt;
      if (!term.y)
        return *x * term.dir;
      auto y = evalInt(term.y, known);
      if (!y)
        return std::nullopt;
      return (*x - *y) * term.dir;
    };
    for (size_t part = 0; part + 1 < stretches.size(); ++part) {
      for (int64_t threshold : {0, 1}) {
        // The first n of the stretch with value(n) >= threshold (non-decreasing).
        int64_t l = stretches[part], h = stretches[part + 1];
        int64_t end = h;
        bool ok = true;
        while (l < h) {
          int64_t mid = l + (h - l) / 2;
          auto v = value(mid);
          if (!v) {
            ok = false;
            break;
          }
          if (*v >= threshold)
            h = mid;
          else
            l = mid + 1;
        }
        if (!ok)
          continue; // a term that does not evaluate never decides a condition
        if (l < end)
          cuts.push_back(l);
      }
    }
    llvm::sort(cuts);
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  }
  return cuts;
}

std::optional<int64_t> ProcessModel::searchIters(scf::ForOp loop, Known &known, int64_t lo, int64_t hi,
                                                 bool backwards, llvm::function_ref<bool(int64_t)> test) {
  if (lo > hi)
    return std::nullopt;
  Bounds b = loopBounds(loop);
  Value iv = loop.getInductionVar();
  auto at = [&](int64_t n) { known[iv] = b.lb + n * b.step; };
  IterPlan plan;
  if (b.constant) {
    known.erase(iv);
    IterPlanner planner(loop, known);
    plan = planner.plan(*loop.getBody(), *events);
  } else {
    plan.ok = false;
  }
  // The first of the first `count` iterations of [s, e), in search order,
  // that passes `test`.
  auto scan = [&](int64_t s, int64_t e, int64_t count) -> std::optional<int64_t> {
    for (int64_t i = 0; i < count; ++i) {
      int64_t n = backwards ? e - 1 - i : s + i;
      at(n);
      if (test(n))
        return n;
      if (enumBudget < 0)
        return std::nullopt;
    }
    return std::nullopt;
  };
  // Not in the forms above: one iteration after the other.
  if (!plan.ok)
    return scan(lo, hi + 1, hi - lo + 1);
  std::vector<int64_t> cuts = planCuts(plan, loop, known, lo, hi);
  int64_t period = plan.period;
  auto trySegment = [&](int64_t s, int64_t e) { return scan(s, e, std::min(e - s, period)); };
  size_t segments = cuts.size() - 1;
  for (size_t i = 0; i < segments; ++i) {
    size_t j = backwards ? segments - 1 - i : i;
    int64_t s = cuts[j], e = cuts[j + 1];
    if (s > hi || e <= lo)
      continue;
    if (auto n = trySegment(std::max(s, lo), std::min(e, hi + 1)))
      return n;
    if (enumBudget < 0)
      return std::nullopt;
  }
  return std::nullopt;
}

/// How many points of the product of `loops[level..]` (outermost first, each
/// inside the previous) satisfy `cond`, the outer induction variables known:
/// per level, each stretch between breakpoints sums one period's counts,
/// each weighted by how often its residue recurs. None when a condition is
/// not of the classified forms.
std::optional<int64_t> ProcessModel::countHolds(Value cond, ArrayRef<scf::ForOp> loops, size_t level,
                                                Known &known) {
  if (level == loops.size()) {
    auto v = evalInt(cond, known);
    if (!v)
      return std::nullopt;
    return *v != 0 ? 1 : 0;
  }
  scf::ForOp loop = loops[level];
  Bounds b = loopBounds(loop);
  Value iv = loop.getInductionVar();
  known.erase(iv);
  IterPlanner planner(loop, known);
  IterPlan plan = planner.planCondition(cond);
  if (!plan.ok || !b.constant)
    return std::nullopt;
  std::vector<int64_t> cuts = planCuts(plan, loop, known, 0, b.trip - 1);
  int64_t total = 0;
  for (size_t s = 0; s + 1 < cuts.size(); ++s) {
    int64_t from = cuts[s], len = cuts[s + 1] - cuts[s];
    for (int64_t i = 0; i < std::min(len, plan.period); ++i) {
      known[iv] = b.lb + (from + i) * b.step;
      auto inner = countHolds(cond, loops, level + 1, known);
      if (!inner) {
        known.erase(iv);
        return std::nullopt;
      }
      total += *inner * ((len - i + plan.period - 1) / plan.period);
    }
  }
  known.erase(iv);
  return total;
}

/// The branch of `op` the event searches follow with the known induction
/// values (then when the condition is unknown), or null when it is empty.
static Block *takenBranch(scf::IfOp op, const Known &known) {
  auto cond = evalInt(op.getCondition(), known);
  Region &region = !cond || *cond ? op.getThenRegion() : op.getElseRegion();
  return region.empty() ? nullptr : &region.front();
}

bool ProcessModel::reaches(Block &block, Known &known) {
  if (!cache)
    return searchReaches(block, known);
  std::vector<std::pair<void *, int64_t>> ivs;
  for (auto &[v, x] : known)
    ivs.push_back({v.getAsOpaquePointer(), x});
  llvm::sort(ivs);
  auto key = std::make_tuple(&block, pullMode, std::move(ivs));
  if (auto it = cache->reaches.find(key); it != cache->reaches.end())
    return it->second;
  int64_t budget = enumBudget;
  bool r = searchReaches(block, known);
  if (enumBudget >= 0 || budget < 0) // an answer cut short by the budget is not kept
    cache->reaches.emplace(std::move(key), r);
  return r;
}

bool ProcessModel::searchReaches(Block &block, Known &known) {
  for (Operation &op : block.without_terminator()) {
    if (!events->contains(&op))
      continue;
    if (--enumBudget < 0)
      return true;
    if (isEvent(op))
      return true;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Bounds b = loopBounds(loop);
      bool any = searchIters(loop, known, 0, b.trip - 1, /*backwards=*/false,
                             [&](int64_t) { return reaches(*loop.getBody(), known); })
                     .has_value();
      known.erase(loop.getInductionVar());
      if (any)
        return true;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      auto cond = evalInt(ifOp.getCondition(), known);
      if (!cond || *cond) {
        if (reaches(ifOp.getThenRegion().front(), known))
          return true;
      }
      if ((!cond || !*cond) && !ifOp.getElseRegion().empty())
        if (reaches(ifOp.getElseRegion().front(), known))
          return true;
    }
  }
  return false;
}

std::optional<int64_t> ProcessModel::findFirst(Block &block, Known &known, int64_t t) {
  for (Operation &op : block.without_terminator()) {
    if (!events->contains(&op)) {
      if (isa<scf::ForOp, scf::IfOp>(op))
        t += opCycles.lookup(&op);
      continue;
    }
    if (enumBudget < 0)
      return t;
    if (isEvent(op))
      return t;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      const ResolvedLoop &r = resolved[loop];
      const LoopCost &lc = result.loops[r.id];
      Bounds b = r.bounds;
      int64_t iters = ceilDiv(b.trip, r.unroll);
      Value iv = loop.getInductionVar();
      // Iteration n is copy k = n % unroll of slot j = n / unroll.
      int64_t last = iters * r.unroll - 1;
      if (r.pipelined) {
        auto n = searchIters(loop, known, 0, last, /*backwards=*/false,
                             [&](int64_t) { return reaches(*loop.getBody(), known); });
        known.erase(iv);
        if (n) {
          int64_t j = *n / r.unroll, k = *n % r.unroll;
          // A pull happens when its iteration issues: iteration k of a
          // slot of `unroll` issues k * II / unroll cycles into it (the
          // simulator's spread, docs/simulator.md).
          if (pullMode)
            return t + j * lc.ii + k * lc.ii / r.unroll;
          auto off = pushOffset.find(loop);
          return t + j * lc.ii + (off == pushOffset.end() ? lc.depth : off->second);
        }
        t += lc.cycles;
        continue;
      }
      int64_t body = lc.iterCycles;
      int64_t copy = lc.flatIters ? body
                                  : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
      std::optional<int64_t> found;
      auto n = searchIters(loop, known, 0, last, /*backwards=*/false, [&](int64_t n) {
        found = findFirst(*loop.getBody(), known, t + n / r.unroll * body + n % r.unroll * copy);
        return found.has_value();
      });
      known.erase(iv);
      if (n)
        return found;
      if (enumBudget < 0)
        return t;
      t += lc.cycles;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (Block *taken = takenBranch(ifOp, known))
        if (auto at = findFirst(*taken, known, t))
          return at;
      t += opCycles.lookup(ifOp);
    }
  }
  --enumBudget;
  return std::nullopt;
}

/// The time of the last event in `block` started at `t`: findFirst walking
/// backwards (operations, iterations and unrolled copies from the last).
std::optional<int64_t> ProcessModel::findLast(Block &block, Known &known, int64_t t) {
  // Start times of the operations, advanced as findFirst does.
  SmallVector<std::pair<Operation *, int64_t>> starts;
  for (Operation &op : block.without_terminator()) {
    starts.push_back({&op, t});
    if (isa<scf::ForOp, scf::IfOp>(op))
      t += opCycles.lookup(&op);
  }
  for (auto &[opPtr, start] : llvm::reverse(starts)) {
    Operation &op = *opPtr;
    if (!events->contains(&op))
      continue;
    if (enumBudget < 0 || isEvent(op))
      return start;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      const ResolvedLoop &r = resolved[loop];
      const LoopCost &lc = result.loops[r.id];
      Bounds b = r.bounds;
      Value iv = loop.getInductionVar();
      int64_t body = lc.iterCycles;
      int64_t copy = lc.flatIters ? body
                                  : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
      std::optional<int64_t> found;
      auto n = searchIters(loop, known, 0, b.trip - 1, /*backwards=*/true, [&](int64_t n) {
        int64_t j = n / r.unroll, k = n % r.unroll;
        if (r.pipelined) {
          if (!reaches(*loop.getBody(), known))
            return false;
          found = start + j * lc.ii + (pullMode ? k * lc.ii / r.unroll : 0);
          return true;
        }
        found = findLast(*loop.getBody(), known, start + j * body + k * copy);
        return found.has_value();
      });
      known.erase(iv);
      if (n)
        return found;
      if (enumBudget < 0)
        return start;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      if (Block *taken = takenBranch(ifOp, known))
        if (auto at = findLast(*taken, known, start))
          return at;
  }
  --enumBudget;
  return std::nullopt;
}

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

//===----------------------------------------------------------------------===//
// Vanilla baseline
//===----------------------------------------------------------------------===//

ProcessConfig vanillaConfig(dfg::ProcessOp process) {
  ProcessConfig cfg;
  cfg.autoPartition = false;
  unsigned next = 0;
  process.getBody().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    bool innermost = !loop.getBody()
                           ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
                           .wasInterrupted();
    LoopChoice &c = cfg.loops[next++];
    c.unroll = 1;
    c.pipeline = innermost;
    c.ii = 1;
  });
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (isa<dfg::InputType, dfg::OutputType>(process.getArgument(a).getType()))
      cfg.lanes[a] = 1;
  return cfg;
}

/// Elements that go through port `arg` of `process` in one run: per pull or
/// push the product of the enclosing trip counts. `conditional` tells whether
/// some access sits under an scf.if (then the count is an upper bound).
static int64_t portElements(dfg::ProcessOp process, unsigned arg, bool &conditional) {
  conditional = false;
  int64_t total = 0;
  Value port = process.getArgument(arg);
  process.getBody().walk([&](Operation *op) {
    Value p;
    if (auto pull = dyn_cast<dfg::PullOp>(op))
      p = pull.getPort();
    else if (auto push = dyn_cast<dfg::PushOp>(op))
      p = push.getPort();
    if (!p || p != port)
      return;
    int64_t n = 1;
    for (Operation *o = op->getParentOp(); o && o != process.getOperation(); o = o->getParentOp()) {
      if (auto loop = dyn_cast<scf::ForOp>(o))
        n *= std::max<int64_t>(loopBounds(loop).trip, 0);
      else if (isa<scf::IfOp>(o))
        conditional = true;
    }
    total += n;
  });
  return total;
}

BaselineCost estimateBaseline(dfg::GraphOp graph, const CostOptions &options) {
  BaselineCost out;
  std::map<std::string, ProcessCost> costs;
  // Channel end -> (instance's process, argument number).
  llvm::DenseMap<Value, std::pair<dfg::ProcessOp, unsigned>> ends;
  for (Operation &op : graph.getBody().front()) {
    auto inst = dyn_cast<dfg::InstantiateOp>(op);
    if (!inst)
      continue;
    auto process = SymbolTable::lookupNearestSymbolFrom<dfg::ProcessOp>(inst, inst.getCalleeAttr());
    if (!process)
      continue;
    auto it = costs.find(process.getSymName().str());
    if (it == costs.end())
      it = costs.emplace(process.getSymName().str(),
                         estimate(process, vanillaConfig(process), options))
               .first;
    out.cycles += it->second.cycles;
    out.dsp += it->second.dsp;
    out.bram18k += it->second.bram18k;
    for (auto [i, port] : llvm::enumerate(inst.getPorts()))
      ends[port] = {process, unsigned(i)};
  }
  for (Operation &op : graph.getBody().front()) {
    auto ch = dyn_cast<dfg::ChannelOp>(op);
    if (!ch)
      continue;
    auto w = ends.find(ch.getWrite()), r = ends.find(ch.getRead());
    std::optional<int64_t> exact, bound;
    for (auto it : {w, r}) {
      if (it == ends.end())
        continue;
      bool conditional = false;
      int64_t n = portElements(it->second.first, it->second.second, conditional);
      if (!conditional && !exact)
        exact = n;
      bound = bound ? std::min(*bound, n) : n;
    }
    int64_t elements = exact ? *exact : bound.value_or(0);
    int64_t width = bitWidth(ch.getElementType());
    if (elements > 1 && elements * width > options.lutramMaxBits)
      out.tensorBram18k += bram18kBlocks(elements, width);
  }
  out.bram18k += out.tensorBram18k;
  return out;
}

} // namespace ming::cost
