// The iteration search under the event searches (EventSearch.cpp): the first
// or last iteration of one loop whose body reaches an event, and how many
// points of a loop nest satisfy a condition, in a number of tries bounded by
// the conditions' breakpoints and periods, not by trip counts.
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

} // namespace ming::cost
