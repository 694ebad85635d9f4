// Walker: one pipelined body unrolled, its arrival times, loop-carried path
// lengths and the resources it uses per iteration.
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
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {

// Walker
//===----------------------------------------------------------------------===//

int64_t leastWalkOps(Block &block, int64_t cap) {
  uint64_t n = 0;
  for (Operation &op : block.without_terminator()) {
    uint64_t here = 1;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      uint64_t trip = uint64_t(std::max<int64_t>(0, loopBounds(loop).trip));
      here = llvm::SaturatingAdd(here, llvm::SaturatingMultiply(trip, uint64_t(leastWalkOps(*loop.getBody(), cap))));
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      int64_t thenOps = leastWalkOps(ifOp.getThenRegion().front(), cap);
      int64_t elseOps = ifOp.getElseRegion().empty() ? 0 : leastWalkOps(ifOp.getElseRegion().front(), cap);
      here += uint64_t(std::min(thenOps, elseOps));
    }
    n = llvm::SaturatingAdd(n, here);
    if (n >= uint64_t(cap))
      return cap;
  }
  return int64_t(n);
}

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
      const int64_t fifo = m.options.target->fifoLatency;
      int64_t a = pullBase + fifo;
      if (pull.getLane())
        a = std::max(a, arr(pull.getLane()) + fifo);
      define(pull.getValue(), a, -1);
      known[pull.getValue()] = kUnknownInt; // data: what is computed from it is too
      continue;
    }
    if (auto push = dyn_cast<dfg::PushOp>(op)) {
      if (auto p = m.portArg(push.getPort()))
        c.ports[*p] += 1;
      int64_t a = arr(push.getValue());
      maxArrival = std::max(maxArrival, a + m.options.target->fifoLatency);
      event(a + m.options.target->fifoLatency);
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      known[load.getResult()] = kUnknownInt;
      access(&op, load.getMemRef(), load.getIndices(), true, c);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      access(&op, store.getMemRef(), store.getIndices(), false, c);
      continue;
    }
    // Constants have no operands; the trait lookup is slow enough to ask last.
    if (isa<memref::AllocaOp, memref::GetGlobalOp, arith::ConstantOp>(op) ||
        (op.getNumOperands() == 0 && op.hasTrait<OpTrait::ConstantLike>())) {
      for (Value r : op.getResults())
        define(r, 0, -1);
      continue;
    }
    // Arithmetic.
    // An integer known (or not) in this copy is remembered, so that the
    // values and addresses computed from it look it up instead of evaluating
    // the chain behind it again; a value walked again (another copy,
    // iteration) is evaluated afresh.
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIntOrIndex()) {
      Value r = op.getResult(0);
      std::optional<int64_t> value = evalDefinition(r, known);
      known[r] = value.value_or(kUnknownInt);
      if (value) {
        define(r, 0, -1); // folds to a constant once unrolled
        continue;
      }
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
    const OpCost &oc = m.opCost(&op);
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

/// The term `loop` adds to its accumulator `k` through an associative,
/// exact operation (`acc = acc op term`), or a float add the loop allows to
/// reassociate (ming.reassociate), if that is what it yields.
static Value accumulatedTerm(scf::ForOp loop, unsigned k) {
  Value acc = loop.getRegionIterArgs()[k];
  Operation *def = loop.getBody()->getTerminator()->getOperand(k).getDefiningOp();
  bool reassociable = isa_and_nonnull<arith::AddFOp>(def) && loop->hasAttr(directives::kReassociate);
  if (!def || def->getNumOperands() != 2 ||
      !(reassociable ||
        isa<arith::AddIOp, arith::OrIOp, arith::AndIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
            arith::MaxUIOp, arith::MinUIOp, arith::MaximumFOp, arith::MinimumFOp>(def)))
    return {};
  if (def->getOperand(0) == acc)
    return def->getOperand(1);
  if (def->getOperand(1) == acc)
    return def->getOperand(0);
  return {};
}

/// Whether `loop`'s accumulator `k` is such an accumulation, directly or
/// through a nested loop that continues it (starts from it, yields into it).
static bool accumulates(scf::ForOp loop, unsigned k) {
  if (accumulatedTerm(loop, k))
    return true;
  Value v = loop.getBody()->getTerminator()->getOperand(k);
  auto inner = v.getDefiningOp<scf::ForOp>();
  if (!inner)
    return false;
  unsigned j = cast<OpResult>(v).getResultNumber();
  return inner.getInitArgs()[j] == loop.getRegionIterArgs()[k] && accumulates(inner, j);
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
  // ceil(log2(n + 1)) levels after the last term arrives, not n. The terms
  // may come through a nested loop's accumulation started from this one's.
  SmallVector<Value> other(yield.getNumOperands());
  SmallVector<bool> nested(yield.getNumOperands(), false);
  for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
    if (v.getDefiningOp<scf::ForOp>())
      nested[k] = accumulates(loop, k);
    else
      other[k] = accumulatedTerm(loop, k);
  }
  SmallVector<int64_t> start(argArr.begin(), argArr.end());
  // An accumulation that continues the enclosing loop's (it starts from that
  // loop's partial sum and is what that loop yields) is a part of the
  // enclosing tree: timed from its own terms only, the enclosing loop adds
  // the levels of the whole.
  if (auto parent = dyn_cast<scf::ForOp>(loop->getParentOp())) {
    auto parentYield = cast<scf::YieldOp>(parent.getBody()->getTerminator());
    for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
      if (!other[k] && !nested[k])
        continue;
      auto partial = llvm::find(parent.getRegionIterArgs(), init);
      if (partial == parent.getRegionIterArgs().end())
        continue;
      if (parentYield.getOperand(partial - parent.getRegionIterArgs().begin()) == loop.getResult(k))
        start[k] = argArr[k] = 0;
    }
  }
  SmallVector<Chain> chain(yield.getNumOperands());
  SmallVector<bool> balanced(yield.getNumOperands(), false);
  for (int64_t i = 0; i < b.trip && !exhausted; ++i) {
    if (b.constant)
      known[loop.getInductionVar()] = b.lb + i * b.step;
    for (auto [k, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
      define(iterArg, argArr[k], argCar[k]);
    walkBlock(*loop.getBody(), c);
    for (auto [k, v] : llvm::enumerate(yield.getOperands())) {
      argArr[k] = arr(v);
      argCar[k] = car(v);
      Chain &ch = chain[k];
      if (other[k]) {
        ch.latestTerm = std::max(ch.latestTerm, arr(other[k]));
        ch.terms += 1;
        ch.level = arr(v) - std::max(arr(loop.getRegionIterArgs()[k]), arr(other[k]));
      } else if (auto it = nested[k] ? chains.find(v) : chains.end(); it != chains.end()) {
        ch.latestTerm = std::max(ch.latestTerm, it->second.latestTerm);
        ch.terms += it->second.terms;
        ch.level = std::max(ch.level, it->second.level);
      } else {
        continue;
      }
      balanced[k] = true;
      int64_t tree = std::max(start[k], ch.latestTerm) + ch.level * int64_t(llvm::Log2_64_Ceil(ch.terms + 1));
      // A nested accumulation's own arrival leaves out this loop's partial
      // sum: the tree is the whole sum's time.
      argArr[k] = other[k] ? std::min(argArr[k], tree) : tree;
    }
  }
  for (auto [k, r] : llvm::enumerate(loop.getResults()))
    if (balanced[k])
      chains[r] = chain[k];
  known.erase(loop.getInductionVar());
  for (auto [k, r] : llvm::enumerate(loop.getResults()))
    define(r, argArr[k], argCar[k]);
}

void Walker::walkIf(scf::IfOp op, Counters &c) {
  std::optional<int64_t> cond = evalCondition(op.getCondition(), known, residues);
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
  // Buffer accesses of the two sides are exclusive: tagged with this walk of
  // the if (an inner if's tag is kept; its accesses then add to the other
  // side's here, never fewer than run).
  int64_t alt = ifsWalked++;
  for (auto [side, sideC] : {std::pair<int, Counters *>{0, &thenC}, {1, &elseC}})
    for (auto &[bi, list] : sideC->accesses)
      for (Access a : list) {
        if (a.alt < 0) {
          a.alt = alt;
          a.branch = side;
        }
        c.accesses[bi].push_back(std::move(a));
      }
  int64_t condAt = arr(op.getCondition());
  for (auto [k, r] : llvm::enumerate(op.getResults())) {
    int64_t a = std::max({condAt, k < t.size() ? t[k].first : 0, k < e.size() ? e[k].first : 0});
    int64_t cr = std::max(k < t.size() ? t[k].second : -1, k < e.size() ? e[k].second : -1);
    define(r, a, cr);
  }
}

/// Whether an address is computed from data (a pulled or loaded value, a
/// value carried by a loop) rather than from loop indices and constants.
static bool dataAddress(Value v, int depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    return !loop || arg != loop.getInductionVar();
  }
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return false;
  if (isa<dfg::PullOp, memref::LoadOp>(def))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value o) { return dataAddress(o, depth + 1); });
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
      define(op->getResult(0), idxAt + m.options.target->externalLatency, -1);
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
      define(op->getResult(0), idxAt + m.options.target->bramLatency, -1);
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
    AccessKey key{int64_t(bi)};
    for (auto [v, value] : llvm::zip_equal(indices, idx))
      key.push_back(keyOf(v, value));
    bool fresh = loadKeys.insert(std::move(key)).second;
    define(op->getResult(0), idxAt + buf.loadLatency,
           carriedBuffers.contains(memref) ? buf.loadLatency : -1);
    if (!fresh)
      return;
  } else {
    maxArrival = std::max(maxArrival, std::max(idxAt, arr(op->getOperand(0))) + 1);
    if (int64_t carried = car(op->getOperand(0)); carried >= 0 && carriedBuffers.contains(memref))
      memoryChain = std::max(memoryChain, carried + 1);
  }
  // An address the data computes (a lookup table) may fall in any bank of a
  // partitioning: counted apart, against the ports alone.
  if (llvm::any_of(indices, [&](Value v) {
        auto [it, fresh] = dataAddresses.try_emplace(v, false);
        if (fresh)
          it->second = dataAddress(v);
        return it->second;
      })) {
    c.dataAddressed[bi] += 1;
    return;
  }
  // The DSE partitions this buffer: the choice (choosePartition) needs each
  // index's residue.
  if (m.autoPartition || buf.cyclic) {
    Access a;
    for (auto [v, value] : llvm::zip_equal(indices, idx))
      a.index.push_back(value ? std::make_pair(*value, int64_t(0))
                              : residueOf(v, known, residues, /*index=*/true).value_or(std::make_pair(0, -1)));
    // A load of an address every copy reads (a row buffer read by each
    // output of an unrolled loop) is one read once unrolled: Vitis merges
    // them.
    bool exact = llvm::all_of(a.index, [](auto r) { return r.second == 0; });
    AccessKey key{int64_t(bi)};
    for (auto r : a.index)
      key.push_back(r.first);
    if (!isLoad || !exact || sharedLoads.insert(std::move(key)).second)
      c.accesses[bi].push_back(std::move(a));
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

} // namespace ming::cost
