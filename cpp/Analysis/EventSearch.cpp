// First and last events of a process (first output, first and last pull):
// searches bounded by the number of ops and loop levels, not trip counts.
// Each loop level asks the iteration search (IterationSearch.cpp) for the
// iteration to walk.
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
  auto key = std::make_tuple(&block, eventSet, std::move(ivs));
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
          int64_t w = firstWordIteration(loop, known, *n, last);
          known.erase(iv);
          return t + pushAt(loop, w / r.unroll, w % r.unroll);
        }
        t += lc.cycles;
        continue;
      }
      // Iterations that differ in cycles are timed one by one: placed at
      // multiples of the average, a conditional block that runs in the last
      // iteration only would spread over all of them.
      if (unevenLoop(loop)) {
        std::vector<int64_t> starts = iterationStarts(loop, known, t);
        if (!starts.empty()) {
          for (int64_t n = 0; n < b.trip; ++n) {
            known[iv] = b.lb + n * b.step;
            std::optional<int64_t> at = findFirst(*loop.getBody(), known, starts[n]);
            if (at || enumBudget < 0) {
              known.erase(iv);
              return at ? at : starts[n];
            }
          }
          known.erase(iv);
          t = starts.back();
          continue;
        }
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

/// The output ports pushed in the loop that holds `push` (its outermost
/// pipelined loop, else its own loop): a fork sends its first words on
/// every port before its consumers all have one, and a word of the widest
/// port is what the last of them waits for.
ArrayRef<unsigned> ProcessModel::wordPorts(Operation *push) {
  auto [it, fresh] = pushPorts.try_emplace(push);
  if (!fresh)
    return it->second;
  Operation *scope = push->getParentOfType<scf::ForOp>();
  for (Operation *op = scope; op && op != process.getOperation(); op = op->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && resolved.count(loop) && resolved[loop].pipelined)
      scope = loop;
  llvm::SmallVector<unsigned> ports;
  auto add = [&](dfg::PushOp p) {
    if (std::optional<unsigned> arg = portArg(p.getPort()); arg && !llvm::is_contained(ports, *arg))
      ports.push_back(*arg);
  };
  if (scope)
    scope->walk(add);
  else if (auto p = dyn_cast<dfg::PushOp>(push))
    add(p);
  return pushPorts[push] = std::move(ports);
}

bool ProcessModel::completesWord(Operation &op, llvm::DenseMap<unsigned, int64_t> &pushed) {
  auto push = dyn_cast<dfg::PushOp>(op);
  if (!push)
    return true;
  std::optional<unsigned> arg = portArg(push.getPort());
  if (!arg)
    return true;
  ++pushed[*arg];
  return llvm::all_of(wordPorts(&op), [&](unsigned port) { return pushed.lookup(port) >= streamLanes(port); });
}

std::vector<int64_t> ProcessModel::outputLanes() {
  std::vector<int64_t> lanes;
  for (BlockArgument arg : process.getArguments())
    if (isa<dfg::OutputType>(arg.getType()))
      lanes.push_back(streamLanes(arg.getArgNumber()));
  return lanes;
}

/// The pushes of `block` in program order, the loops in it walked iteration
/// by iteration: whether one completes a word (or the budget ran out).
bool ProcessModel::countPushes(Block &block, Known &known, llvm::DenseMap<unsigned, int64_t> &pushed) {
  for (Operation &op : block.without_terminator()) {
    if (!events->contains(&op))
      continue;
    if (--enumBudget < 0)
      return true;
    if (isEvent(op)) {
      if (completesWord(op, pushed))
        return true;
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Bounds b = resolved[loop].bounds;
      Value iv = loop.getInductionVar();
      for (int64_t n = 0; n < b.trip; ++n) {
        known[iv] = b.lb + n * b.step;
        if (countPushes(*loop.getBody(), known, pushed)) {
          known.erase(iv);
          return true;
        }
      }
      known.erase(iv);
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      if (Block *taken = takenBranch(ifOp, known))
        if (countPushes(*taken, known, pushed))
          return true;
  }
  return false;
}

/// The simulator moves an L-lane word when its L-th element is pushed: a
/// map taking 44 elements an iteration in 4-lane words and pushing 11-lane
/// words sends its first word with the 11th copy, not the first. A word
/// not whole by the loop's end is taken at the loop's last pushing
/// iteration (the rest of it comes later, in code the search left).
int64_t ProcessModel::firstWordIteration(scf::ForOp loop, Known &known, int64_t n, int64_t last) {
  std::vector<int64_t> lanes = outputLanes();
  if (llvm::all_of(lanes, [](int64_t l) { return l <= 1; }))
    return n;
  Value iv = loop.getInductionVar();
  known.erase(iv);
  std::vector<std::pair<void *, int64_t>> ivs;
  for (auto &[v, x] : known)
    ivs.push_back({v.getAsOpaquePointer(), x});
  llvm::sort(ivs);
  auto key = std::make_tuple(loop.getOperation(), eventSet, n, std::move(lanes), std::move(ivs));
  if (cache)
    if (auto it = cache->firstWords.find(key); it != cache->firstWords.end())
      return it->second;
  int64_t budget = enumBudget;
  Bounds b = resolved[loop].bounds;
  llvm::DenseMap<unsigned, int64_t> pushed;
  int64_t pushing = n, found = -1;
  for (int64_t m = n; m <= last && m < b.trip && enumBudget >= 0 && found < 0; ++m) {
    known[iv] = b.lb + m * b.step;
    int64_t before = 0;
    for (auto &[arg, count] : pushed)
      before += count;
    if (countPushes(*loop.getBody(), known, pushed)) {
      found = m;
      break;
    }
    int64_t after = 0;
    for (auto &[arg, count] : pushed)
      after += count;
    if (after > before)
      pushing = m;
  }
  known.erase(iv);
  int64_t w = found >= 0 ? found : pushing;
  if (cache && (enumBudget >= 0 || budget < 0))
    cache->firstWords.emplace(std::move(key), w);
  return w;
}

/// Copy k of a slot of u issues floor(k II / u) into it (the simulator's
/// spread, docs/simulator.md). What it pushes first waits for that start
/// (a window pipelining three rows whose first output is in the second row
/// pushes it a third of the II after the first row's would be) and for
/// whatever the first copy's push waits for that is not its start (a
/// value every copy shares), `lag` being the rest.
int64_t ProcessModel::pushAt(scf::ForOp loop, int64_t j, int64_t k) {
  const ResolvedLoop &r = resolved[loop];
  const LoopCost &lc = result.loops[r.id];
  auto it = pushTiming.find(loop);
  PushTiming p = it == pushTiming.end() ? PushTiming{} : it->second;
  return j * lc.ii + std::max(p.first.value_or(lc.depth), k * lc.ii / r.unroll + p.lag);
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
      if (!r.pipelined && unevenLoop(loop)) {
        std::vector<int64_t> starts = iterationStarts(loop, known, start);
        if (!starts.empty()) {
          for (int64_t n = b.trip - 1; n >= 0; --n) {
            known[iv] = b.lb + n * b.step;
            std::optional<int64_t> at = findLast(*loop.getBody(), known, starts[n]);
            if (at || enumBudget < 0) {
              known.erase(iv);
              return at ? at : starts[n];
            }
          }
          known.erase(iv);
          continue;
        }
      }
      int64_t body = lc.iterCycles;
      int64_t copy = lc.flatIters ? body
                                  : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
      std::optional<int64_t> found;
      auto n = searchIters(loop, known, 0, b.trip - 1, /*backwards=*/true, [&](int64_t n) {
        int64_t j = n / r.unroll, k = n % r.unroll;
        if (r.pipelined) {
          if (!reaches(*loop.getBody(), known))
            return false;
          found = endMode ? start + lc.cycles : start + j * lc.ii + (pullMode ? k * lc.ii / r.unroll : 0);
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

/// Walks `block` (started at `t`) backwards from its end, loops iteration by
/// iteration, adding to `count` the elements pushed on the output whose push
/// holders are `pushes` after the last pull of `events` in program order,
/// and setting `first` to the time of the earliest of them (`slot`: the push
/// time of the pipeline iteration being walked). True once that pull is met
/// (or the enumeration budget runs out). Program order, not time, decides,
/// so the count is the same whatever loop is pipelined or unrolled.
bool ProcessModel::burstAfterLastPull(Block &block, Known &known, int64_t t,
                                      const llvm::DenseSet<Operation *> &pushes, int64_t &count,
                                      std::optional<int64_t> &first, std::optional<int64_t> slot) {
  SmallVector<std::pair<Operation *, int64_t>> starts;
  for (Operation &op : block.without_terminator()) {
    starts.push_back({&op, t});
    if (isa<scf::ForOp, scf::IfOp>(op))
      t += opCycles.lookup(&op);
  }
  for (auto &[opPtr, start] : llvm::reverse(starts)) {
    Operation &op = *opPtr;
    if (!events->contains(&op) && !pushes.contains(&op))
      continue;
    if (--enumBudget < 0 || isa<dfg::PullOp>(op))
      return true;
    if (isa<dfg::PushOp>(op)) {
      count += 1;
      first = slot ? *slot : start;
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      const ResolvedLoop &r = resolved[loop];
      Bounds b = r.bounds;
      Value iv = loop.getInductionVar();
      std::vector<int64_t> seqStarts;
      int64_t body = 0, copy = 0;
      if (!slot && !r.pipelined) {
        const LoopCost &lc = result.loops[r.id];
        if (unevenLoop(loop))
          seqStarts = iterationStarts(loop, known, start);
        body = lc.iterCycles;
        copy = lc.flatIters ? body : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
      }
      bool met = false;
      for (int64_t n = b.trip - 1; n >= 0 && !met; --n) {
        known[iv] = b.lb + n * b.step;
        int64_t j = n / r.unroll, k = n % r.unroll;
        std::optional<int64_t> at = slot;
        int64_t from = start;
        if (!slot && r.pipelined) {
          at = start + pushAt(loop, j, k);
        } else if (!slot) {
          from = seqStarts.empty() ? start + j * body + k * copy : seqStarts[n];
        }
        met = burstAfterLastPull(*loop.getBody(), known, from, pushes, count, first, at);
      }
      known.erase(iv);
      if (met)
        return true;
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      if (Block *taken = takenBranch(ifOp, known))
        if (burstAfterLastPull(*taken, known, start, pushes, count, first, slot))
          return true;
  }
  return false;
}

/// Walks `block` (started at `t`) forwards in program order, loops iteration
/// by iteration, adding to `count` the elements pulled from the port whose
/// pulls are `events` before the first push (`pushes`), and setting `last` to
/// the time of the last of those pulls (`slot`: the issue of the pipeline
/// iteration being walked). True once the push is met (or the budget runs out).
///
/// A pipeline iteration pulls everything at its issue and pushes at its last
/// stage, so a push inside one does not end the search there: the rest of
/// that iteration's pulls count too (`fillFinishing`). A window whose row
/// loop is pipelined around its pixels waits for the whole row, not for the
/// first pixel that program order reaches before the first push.
bool ProcessModel::fillBeforeFirstPush(Block &block, Known &known, int64_t t,
                                       const llvm::DenseSet<Operation *> &pushes, int64_t &count,
                                       int64_t &last, std::optional<int64_t> slot) {
  for (Operation &op : block.without_terminator()) {
    if (!events->contains(&op) && (fillFinishing || !pushes.contains(&op))) {
      if (isa<scf::ForOp, scf::IfOp>(op))
        t += opCycles.lookup(&op);
      continue;
    }
    if (--enumBudget < 0)
      return true;
    if (pushes.contains(&op) && isa<dfg::PushOp, memref::StoreOp>(op)) {
      if (!completesWord(op, fillPushed))
        continue;
      if (!slot)
        return true;
      fillFinishing = true;
      continue;
    }
    if (isa<dfg::PullOp>(op)) {
      count += 1;
      last = slot ? *slot : t;
      fillLast = fillStack;
      fillLast.push_back({&op, 0});
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      const ResolvedLoop &r = resolved[loop];
      Bounds b = r.bounds;
      Value iv = loop.getInductionVar();
      std::vector<int64_t> seqStarts;
      int64_t body = 0, copy = 0, ii = 1;
      if (!slot) {
        const LoopCost &lc = result.loops[r.id];
        ii = lc.ii;
        if (!r.pipelined && unevenLoop(loop))
          seqStarts = iterationStarts(loop, known, t);
        body = lc.iterCycles;
        copy = lc.flatIters ? body : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
      }
      bool met = false;
      // Inside a pipeline iteration whose push was met, the loop's later
      // iterations are that iteration's too.
      for (int64_t n = 0; n < b.trip && (!met || (fillFinishing && slot)); ++n) {
        known[iv] = b.lb + n * b.step;
        int64_t j = n / r.unroll, k = n % r.unroll;
        std::optional<int64_t> at = slot;
        int64_t from = t;
        if (!slot && r.pipelined)
          at = t + j * ii + k * ii / r.unroll;
        else if (!slot)
          from = seqStarts.empty() ? t + j * body + k * copy : seqStarts[n];
        fillStack.push_back({loop, n});
        met = fillBeforeFirstPush(*loop.getBody(), known, from, pushes, count, last, at);
        fillStack.pop_back();
      }
      known.erase(iv);
      t += opCycles.lookup(loop);
      if (met && !(fillFinishing && slot)) {
        fillFinishing = false;
        return true;
      }
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (Block *taken = takenBranch(ifOp, known)) {
        fillStack.push_back({ifOp, taken == &ifOp.getThenRegion().front() ? 0 : 1});
        bool met = fillBeforeFirstPush(*taken, known, t, pushes, count, last, slot);
        fillStack.pop_back();
        if (met && !(fillFinishing && slot)) {
          fillFinishing = false;
          return true;
        }
      }
      t += opCycles.lookup(ifOp);
    }
  }
  return fillFinishing && slot;
}

int64_t ProcessModel::fillTimeAlong(Block &block, ArrayRef<std::pair<Operation *, int64_t>> path,
                                    size_t i, Known &known, int64_t t, std::optional<int64_t> slot) {
  if (i >= path.size())
    return slot ? *slot : t;
  for (Operation &op : block.without_terminator()) {
    if (&op != path[i].first) {
      // Every loop and branch before the way on runs whole first, as in
      // the search.
      if (isa<scf::ForOp, scf::IfOp>(op))
        t += opCycles.lookup(&op);
      continue;
    }
    if (isa<dfg::PullOp>(op))
      return slot ? *slot : t;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      const ResolvedLoop &r = resolved[loop];
      Bounds b = r.bounds;
      int64_t n = path[i].second;
      int64_t j = n / r.unroll, k = n % r.unroll;
      std::optional<int64_t> at = slot;
      int64_t from = t;
      if (!slot) {
        const LoopCost &lc = result.loops[r.id];
        if (r.pipelined) {
          at = t + j * lc.ii + k * lc.ii / r.unroll;
        } else {
          std::vector<int64_t> seqStarts;
          if (unevenLoop(loop))
            seqStarts = iterationStarts(loop, known, t);
          int64_t body = lc.iterCycles;
          int64_t copy = lc.flatIters ? body : (body - (hasLoop(*loop.getBody()) ? 1 : 0)) / r.unroll;
          from = seqStarts.empty() ? t + j * body + k * copy : seqStarts[n];
        }
      }
      Value iv = loop.getInductionVar();
      known[iv] = b.lb + n * b.step;
      int64_t time = fillTimeAlong(*loop.getBody(), path, i + 1, known, from, at);
      known.erase(iv);
      return time;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Region &side = path[i].second == 0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
      return fillTimeAlong(side.front(), path, i + 1, known, t, slot);
    }
    break;
  }
  return slot ? *slot : t;
}

} // namespace ming::cost
