// The cycles of sequential code in the process model: how often each
// scf.if runs (its condition's frequency over the loops that decide it,
// counted rather than assumed), and the cycles of blocks and loops outside
// pipelines, also for one known iteration of the loops around them.
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
#include <limits>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {

double ProcessModel::ifProbability(scf::IfOp op) {
  if (!cache)
    return countIfProbability(op);
  auto it = cache->ifProbability.find(op);
  if (it == cache->ifProbability.end())
    it = cache->ifProbability.try_emplace(op, countIfProbability(op)).first;
  return it->second;
}

const OpCost &ProcessModel::opCost(Operation *op) {
  auto &costs = cache ? cache->opCosts : opCosts;
  auto it = costs.find(op);
  if (it == costs.end())
    it = costs.try_emplace(op, operationCost(op, *options.target)).first;
  return it->second;
}

/// The constant-bound loops whose induction variables decide `roots`
/// through constants and arith ops; none when anything else does.
static std::optional<SmallVector<scf::ForOp>> decidingLoops(ArrayRef<Value> roots) {
  SmallVector<Value> work(roots.begin(), roots.end());
  llvm::DenseSet<Value> seen;
  SmallVector<scf::ForOp> loops;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg != loop.getInductionVar() || !loopBounds(loop).constant)
        return std::nullopt;
      loops.push_back(loop);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumRegions() || def->getNumResults() != 1)
      return std::nullopt;
    if (!def->hasTrait<OpTrait::ConstantLike>() && !isa<arith::ArithDialect>(def->getDialect()))
      return std::nullopt;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  return loops;
}

/// The bounds of `loops` and the number of points in their product; none
/// once that number passes `most`.
static std::optional<std::pair<SmallVector<Bounds>, int64_t>>
iterationSpace(ArrayRef<scf::ForOp> loops, int64_t most = std::numeric_limits<int64_t>::max()) {
  int64_t total = 1;
  SmallVector<Bounds> bounds;
  for (scf::ForOp l : loops) {
    bounds.push_back(loopBounds(l));
    total *= std::max<int64_t>(1, bounds.back().trip);
    if (total > most)
      return std::nullopt;
  }
  return std::make_pair(std::move(bounds), total);
}

/// How often all of `conds` (each a condition and whether it must hold)
/// hold together over the loops their induction variables come from,
/// enumerated; none when a condition depends on anything else or the
/// enumeration budget does not allow it.
std::optional<double> ProcessModel::countJointFraction(ArrayRef<std::pair<Value, bool>> conds) {
  SmallVector<Value> roots;
  for (auto &c : conds)
    roots.push_back(c.first);
  std::optional<SmallVector<scf::ForOp>> found = decidingLoops(roots);
  if (!found)
    return std::nullopt;
  SmallVector<scf::ForOp> &loops = *found;
  auto space = iterationSpace(loops, enumBudget);
  if (!space)
    return std::nullopt;
  auto &[bounds, total] = *space;
  enumBudget -= total;
  int64_t yes = 0;
  Known known;
  for (int64_t n = 0; n < total; ++n) {
    int64_t rest = n;
    for (auto [l, b] : llvm::zip(loops, bounds)) {
      known[l.getInductionVar()] = b.lb + (rest % std::max<int64_t>(1, b.trip)) * b.step;
      rest /= std::max<int64_t>(1, b.trip);
    }
    bool all = true;
    for (auto &[cond, want] : conds) {
      auto v = evalInt(cond, known);
      if (!v)
        return std::nullopt;
      all &= (*v != 0) == want;
    }
    yes += all;
  }
  return total ? double(yes) / double(total) : 1.0;
}

double ProcessModel::countIfProbability(scf::IfOp op) {
  // Inside other scf.if of the process, the frequency that weights this
  // one's loops is the conditional one, P(this | the enclosing conditions):
  // seqBlock multiplies it by theirs. A window's `row >= 2` around
  // `row % 2 == 0 && row / 2 < 8` would otherwise count the second (already
  // over every row) again under the first.
  SmallVector<std::pair<Value, bool>> outer;
  for (Operation *child = op, *p = op->getParentOp(); p && p != process.getOperation();
       child = p, p = p->getParentOp())
    if (auto parentIf = dyn_cast<scf::IfOp>(p))
      outer.push_back({parentIf.getCondition(), child->getParentRegion() == &parentIf.getThenRegion()});
  if (!outer.empty()) {
    SmallVector<std::pair<Value, bool>> all(outer.begin(), outer.end());
    all.push_back({op.getCondition(), true});
    std::optional<double> given = countJointFraction(outer);
    std::optional<double> both = given && *given > 0 ? countJointFraction(all) : std::nullopt;
    if (both)
      return std::min(1.0, *both / *given);
  }
  // The loops whose induction variables decide the condition.
  std::optional<SmallVector<scf::ForOp>> found = decidingLoops({op.getCondition()});
  if (!found)
    return 1.0;
  SmallVector<scf::ForOp> &loops = *found;
  auto [bounds, total] = *iterationSpace(loops);
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
  // Else every iteration, within the enumeration budget.
  return countJointFraction({{op.getCondition(), true}}).value_or(1.0);
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
  straightCycles[&block] = w.maxArrival;
  return t + w.maxArrival;
}

/// Whether the iterations of a sequential loop may differ in cycles: an
/// scf.if holding loops (outside any pipeline) runs in some of them only.
bool ProcessModel::unevenLoop(scf::ForOp loop) {
  if (auto it = uneven.find(loop); it != uneven.end())
    return it->second;
  const ResolvedLoop &r = resolved[loop];
  bool found = false;
  if (!r.pipelined && !result.loops[r.id].flatIters)
    loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto inner = dyn_cast<scf::ForOp>(op); inner && resolved[inner].pipelined)
        return WalkResult::skip();
      if (isa<scf::IfOp>(op) && opCycles.count(op)) { // seqBlock weighted it: it holds loops
        found = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  uneven[loop] = found;
  return found;
}

int64_t ProcessModel::knownCycles(Block &block, Known &known) {
  int64_t t = 0;
  for (Operation &op : block.without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      t += knownLoopCycles(loop, known);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      auto it = opCycles.find(ifOp);
      if (it == opCycles.end())
        continue; // no loops inside: in the straight-line path
      auto cond = evalInt(ifOp.getCondition(), known);
      if (!cond)
        t += it->second;
      else if (*cond)
        t += knownCycles(ifOp.getThenRegion().front(), known);
      else if (!ifOp.getElseRegion().empty())
        t += knownCycles(ifOp.getElseRegion().front(), known);
    }
  }
  return t + straightCycles.lookup(&block);
}

int64_t ProcessModel::knownLoopCycles(scf::ForOp loop, Known &known) {
  if (!unevenLoop(loop))
    return opCycles.lookup(loop);
  std::vector<int64_t> starts = iterationStarts(loop, known, 0);
  return starts.empty() ? opCycles.lookup(loop) : starts.back();
}

/// The start of each iteration of an uneven sequential loop started at `t`,
/// and its end last (trip + 1 entries), as the simulator runs it: `unroll`
/// copies after each other, one cycle per group to enter and leave the
/// loops inside. Empty when the enumeration budget runs out.
std::vector<int64_t> ProcessModel::iterationStarts(scf::ForOp loop, Known &known, int64_t t) {
  const ResolvedLoop &r = resolved[loop];
  Bounds b = r.bounds;
  Value iv = loop.getInductionVar();
  std::optional<int64_t> saved;
  if (auto it = known.find(iv); it != known.end())
    saved = it->second;
  std::vector<int64_t> starts;
  starts.reserve(b.trip + 1);
  for (int64_t n = 0; n < b.trip; ++n) {
    if ((enumBudget -= 1) < 0) {
      starts.clear();
      break;
    }
    starts.push_back(t);
    known[iv] = b.lb + n * b.step;
    t += knownCycles(*loop.getBody(), known);
    if ((n + 1) % r.unroll == 0 || n + 1 == b.trip)
      t += 1;
  }
  if (!starts.empty() || b.trip == 0)
    starts.push_back(t);
  if (saved)
    known[iv] = *saved;
  else
    known.erase(iv);
  return starts;
}

} // namespace ming::cost
