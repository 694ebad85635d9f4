// int8 DSP packing (ming/Transforms/PackInt8.h): a loop stepped by two whose
// two iterations run in lockstep, each pair of i8 x i8 multiplies sharing an
// operand computed by one 27x18 multiply; and such pairs standing in one
// block (an int8 depthwise window's two columns). The packed form is plain
// arith, so the cost model counts it as one multiply of 27x8 bits (one
// DSP48E2), the C++ is ap_int arithmetic Vitis maps onto one DSP, and C
// simulation computes exactly what it computes.
#include "ming/Transforms/PackInt8.h"

#include "ming/Directives/Directives.h"
#include "ming/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace ming {
#define GEN_PASS_DEF_PACKINT8
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace ming::pack {

namespace {

/// Bits of the low product's lane: an i8 x i8 product needs 16 signed bits;
/// 18 is the DSP48E2's B port, the layout of AMD's WP486.
constexpr int64_t kLane = 18;

/// The i8 value `v` sign-extends, if it is one.
Value extendedI8(Value v) {
  auto ext = v.getDefiningOp<arith::ExtSIOp>();
  if (ext && ext.getIn().getType().isInteger(8))
    return ext.getIn();
  return {};
}

/// `x * wa` and `x * wb` (i8 values) from one 27x18 multiply, as `result`:
/// P = ((wa << 18) + wb) * x, x * wb = sext(P[17:0]) and
/// x * wa = (P >> 18) + (P[17:0] < 0).
std::pair<Value, Value> packedProducts(OpBuilder &b, Location loc, Value x, Value wa, Value wb,
                                       Type result) {
  auto constant = [&](Type t, int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v)).getResult();
  };
  auto resize = [&](Value v) -> Value {
    unsigned from = v.getType().getIntOrFloatBitWidth(), to = result.getIntOrFloatBitWidth();
    if (from == to)
      return v;
    if (from < to)
      return arith::ExtSIOp::create(b, loc, result, v);
    return arith::TruncIOp::create(b, loc, result, v);
  };
  Type i27 = b.getIntegerType(27), i36 = b.getIntegerType(36), i18 = b.getIntegerType(kLane);
  // The 27-bit port: wa in the high lane, wb sign-extended below it (the
  // sum is exact: |wa << 18| + |wb| < 2^26). One statement per op: the
  // order of the printed IR is fixed.
  Value wa27 = arith::ExtSIOp::create(b, loc, i27, wa);
  Value high = arith::ShLIOp::create(b, loc, wa27, constant(i27, kLane));
  Value wb27 = arith::ExtSIOp::create(b, loc, i27, wb);
  Value word = arith::AddIOp::create(b, loc, high, wb27);
  Value word36 = arith::ExtSIOp::create(b, loc, i36, word);
  Value x36 = arith::ExtSIOp::create(b, loc, i36, x);
  Value p = arith::MulIOp::create(b, loc, word36, x36);
  Value low = arith::TruncIOp::create(b, loc, i18, p);
  Value zero = constant(i18, 0);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, low, zero);
  Value shifted = arith::ShRSIOp::create(b, loc, p, constant(i36, kLane));
  Value borrow = arith::ExtUIOp::create(b, loc, i36, negative);
  Value upper = arith::AddIOp::create(b, loc, shifted, borrow);
  Value forA = resize(upper);
  Value forB = resize(low);
  return {forA, forB};
}

/// The two iterations of a loop cloned side by side: copy A (the even
/// iteration, the high lane) and copy B (the odd one, the low lane). A value
/// that is the same in both is computed once.
struct Lockstep {
  OpBuilder &b;
  /// The loop being packed: its body's loads are checked against the
  /// stores of an effect unit.
  scf::ForOp packing;
  IRMapping a, bm;
  unsigned packed = 0, pushes = 0;
  llvm::DenseSet<Value> pulled;
  std::string why;

  bool same(Value v) { return a.lookupOrDefault(v) == bm.lookupOrDefault(v); }

  /// What each copy must do itself: a stream access or a store.
  static bool isEffect(Operation *op) { return isa<dfg::PushOp, dfg::PullOp, memref::StoreOp>(op); }

  /// Whether `op` or an op in its regions satisfies `pred`.
  static bool any(Operation *op, llvm::function_ref<bool(Operation *)> pred) {
    return op
        ->walk([&](Operation *inner) { return pred(inner) ? WalkResult::interrupt() : WalkResult::advance(); })
        .wasInterrupted();
  }

  /// Whether `op` (its regions included) computes different values in the
  /// two copies or has effects each copy must have.
  bool varies(Operation *op) {
    return any(op, [&](Operation *inner) {
      return isEffect(inner) || llvm::any_of(inner->getOperands(), [&](Value o) { return !same(o); });
    });
  }

  /// The pair of `mul` in the two copies as one multiply, when one operand is
  /// shared and both are sign-extended i8 values (packedProducts).
  bool pair(arith::MulIOp mul) {
    Type result = mul.getType();
    if (!result.isSignlessInteger())
      return false;
    Value la = a.lookupOrDefault(mul.getLhs()), lb = bm.lookupOrDefault(mul.getLhs());
    Value ra = a.lookupOrDefault(mul.getRhs()), rb = bm.lookupOrDefault(mul.getRhs());
    Value shared, wa, wb;
    if (la == lb && ra != rb)
      shared = la, wa = ra, wb = rb;
    else if (ra == rb && la != lb)
      shared = ra, wa = la, wb = lb;
    else
      return false;
    Value x = extendedI8(shared), ha = extendedI8(wa), hb = extendedI8(wb);
    if (!x || !ha || !hb)
      return false;
    auto [upper, low] = packedProducts(b, mul.getLoc(), x, ha, hb, result);
    a.map(mul.getResult(), upper);
    bm.map(mul.getResult(), low);
    ++packed;
    return true;
  }

  LogicalResult fail(Operation *op, const Twine &reason) {
    why = (reason + " ('" + op->getName().getStringRef() + "')").str();
    return failure();
  }

  static bool hasEffects(Operation *op) { return any(op, isEffect); }

  /// A loop or branch that pulls and stores (the next input row of a
  /// matmul-like nest, filled while this one is computed): copy A's, then
  /// copy B's, where it stood. That order is the sequential one for what it
  /// does itself; the rest of the pair moves across it, which is sound when
  /// its ports are pulled nowhere else, no push precedes it, and every load
  /// of what it stores reads elsewhere (another half of a double buffer:
  /// `x mod k` against `(x + c) mod k`).
  LogicalResult effectUnit(Operation *op, bool top) {
    if (!top || op->getNumResults() || pushes)
      return fail(op, "a nested pull or store the two iterations cannot share the order of");
    SmallVector<Value> ports;
    bool ok = true;
    op->walk([&](Operation *inner) {
      if (auto pull = dyn_cast<dfg::PullOp>(inner)) {
        ok &= !pull.getLane() && !pulled.contains(pull.getPort());
        ports.push_back(pull.getPort());
      } else if (auto store = dyn_cast<memref::StoreOp>(inner)) {
        ok &= onlyStoredIn(store, op);
      } else {
        ok &= !isa<dfg::PushOp, memref::AllocaOp>(inner);
      }
    });
    if (!ok)
      return fail(op, "a nested pull or store the two iterations cannot share the order of");
    pulled.insert(ports.begin(), ports.end());
    b.clone(*op, a);
    b.clone(*op, bm);
    return success();
  }

  /// Whether `store`'s memref is stored only inside `unit` within the packed
  /// loop, and every load of it there provably reads another element.
  bool onlyStoredIn(memref::StoreOp store, Operation *unit) {
    Value memory = store.getMemRef();
    bool ok = true;
    packing.getBody()->walk([&](Operation *other) {
      if (auto st = dyn_cast<memref::StoreOp>(other))
        ok &= st.getMemRef() != memory || unit->isAncestor(st);
      if (auto load = dyn_cast<memref::LoadOp>(other))
        if (load.getMemRef() == memory)
          ok &= llvm::any_of(llvm::zip(store.getIndices(), load.getIndices()), [](auto pair) {
            return differentResidues(std::get<0>(pair), std::get<1>(pair));
          });
    });
    return ok;
  }

  /// Whether `u` and `v` always differ: `x mod k` and `(x + c) mod k` with
  /// c not a multiple of k (the two halves of a double buffer).
  static bool differentResidues(Value u, Value v) {
    struct Residue {
      Value x;
      int64_t k = 0, c = 0;
    };
    auto residue = [](Value w) -> std::optional<Residue> {
      auto rem = w.getDefiningOp<arith::RemUIOp>();
      std::optional<int64_t> k = rem ? getConstantIntValue(rem.getRhs()) : std::nullopt;
      if (!k || *k <= 0)
        return std::nullopt;
      Residue r{rem.getLhs(), *k, 0};
      if (auto add = r.x.getDefiningOp<arith::AddIOp>()) {
        if (std::optional<int64_t> c = getConstantIntValue(add.getRhs()))
          r = {add.getLhs(), *k, *c};
        else if (std::optional<int64_t> c = getConstantIntValue(add.getLhs()))
          r = {add.getRhs(), *k, *c};
      }
      return r;
    };
    std::optional<Residue> ru = residue(u), rv = residue(v);
    return ru && rv && ru->x == rv->x && ru->k == rv->k && (ru->c - rv->c) % ru->k != 0;
  }

  /// A nested loop: one loop carrying both copies' values when it varies.
  LogicalResult loop(scf::ForOp loop) {
    if (!varies(loop)) {
      Operation *once = b.clone(*loop, a);
      for (auto [r, c] : llvm::zip(loop->getResults(), once->getResults()))
        bm.map(r, c);
      return success();
    }
    if (!same(loop.getLowerBound()) || !same(loop.getUpperBound()) || !same(loop.getStep()))
      return fail(loop, "a nested loop's bounds differ between the iterations");
    SmallVector<Value> inits;
    for (Value v : loop.getInitArgs())
      inits.push_back(a.lookupOrDefault(v));
    for (Value v : loop.getInitArgs())
      inits.push_back(bm.lookupOrDefault(v));
    auto both = scf::ForOp::create(b, loop.getLoc(), a.lookupOrDefault(loop.getLowerBound()),
                                   a.lookupOrDefault(loop.getUpperBound()),
                                   a.lookupOrDefault(loop.getStep()), inits);
    both->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    unsigned n = loop.getNumRegionIterArgs();
    a.map(loop.getInductionVar(), both.getInductionVar());
    bm.map(loop.getInductionVar(), both.getInductionVar());
    for (unsigned k = 0; k < n; ++k) {
      a.map(loop.getRegionIterArgs()[k], both.getRegionIterArgs()[k]);
      bm.map(loop.getRegionIterArgs()[k], both.getRegionIterArgs()[n + k]);
    }
    {
      OpBuilder::InsertionGuard guard(b);
      Block *body = both.getBody();
      if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
        body->back().erase();
      b.setInsertionPointToEnd(body);
      if (failed(block(*loop.getBody(), false)))
        return failure();
      SmallVector<Value> yields;
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (Value v : yield.getOperands())
        yields.push_back(a.lookupOrDefault(v));
      for (Value v : yield.getOperands())
        yields.push_back(bm.lookupOrDefault(v));
      scf::YieldOp::create(b, yield.getLoc(), yields);
    }
    for (unsigned k = 0; k < n; ++k) {
      a.map(loop.getResult(k), both.getResult(k));
      bm.map(loop.getResult(k), both.getResult(n + k));
    }
    return success();
  }

  /// The ops of `src` (not its terminator), at the builder's point. `top`:
  /// the packed loop's own body, where pulls and pushes may stand.
  LogicalResult block(Block &src, bool top) {
    for (Operation &op : src.without_terminator()) {
      if (isa<scf::ForOp, scf::IfOp>(op) && hasEffects(&op)) {
        if (failed(effectUnit(&op, top)))
          return failure();
        continue;
      }
      if (auto inner = dyn_cast<scf::ForOp>(op)) {
        if (failed(loop(inner)))
          return failure();
        continue;
      }
      if (auto pull = dyn_cast<dfg::PullOp>(op)) {
        // Both pulls where the one stood, before any push: the stream's
        // order is kept, and the process reads one element ahead (a
        // convolution's bias, pulled per output channel).
        if (!top || pull.getLane() || pushes || !pulled.insert(pull.getPort()).second)
          return fail(&op, "a pull the two iterations cannot share the order of");
        b.clone(op, a);
        b.clone(op, bm);
        continue;
      }
      if (isa<dfg::PushOp>(op)) {
        // Both pushes where the one stood: the stream's order is kept only
        // while it is the one effect of an iteration.
        if (!top || ++pushes > 1)
          return fail(&op, "a push the two iterations cannot share the order of");
        b.clone(op, a);
        b.clone(op, bm);
        continue;
      }
      bool pure = op.getNumRegions() == 0 &&
                  (isMemoryEffectFree(&op) || isa<memref::LoadOp, memref::GetGlobalOp>(op));
      if (!pure)
        return fail(&op, "an operation with effects or regions");
      if (!varies(&op)) {
        Operation *once = b.clone(op, a);
        for (auto [r, c] : llvm::zip(op.getResults(), once->getResults()))
          bm.map(r, c);
        continue;
      }
      if (auto mul = dyn_cast<arith::MulIOp>(op); mul && pair(mul))
        continue;
      b.clone(op, a);
      b.clone(op, bm);
    }
    return success();
  }
};

/// Cheap refusals before any IR is built: no multiply, or effects the
/// lockstep copy cannot order (allocations; stores directly in the body).
bool worthTrying(scf::ForOp loop, std::string *why) {
  bool multiplies = false, effects = false;
  loop.getBody()->walk([&](Operation *op) {
    multiplies |= isa<arith::MulIOp>(op);
    effects |= isa<memref::AllocaOp>(op) ||
               (isa<memref::StoreOp>(op) && op->getBlock() == loop.getBody());
  });
  if (why)
    *why = !multiplies ? "no integer multiply" : "it allocates or stores outside a nested region";
  return multiplies && !effects;
}

} // namespace

unsigned packLoop(scf::ForOp loop, std::string *why, scf::ForOp *replacement) {
  auto say = [&](const Twine &text) {
    if (why)
      *why = text.str();
    return 0u;
  };
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return say("bounds are not constant");
  int64_t trip = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
  if (trip < 2 || trip % 2)
    return say("the trip count " + Twine(trip) + " is not even");
  if (loop.getNumResults())
    return say("it carries values from one iteration to the next");
  if (!worthTrying(loop, why))
    return 0;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value step2 = arith::ConstantIndexOp::create(b, loc, 2 * *step);
  auto both = scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), step2);
  both->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // An unroll factor counts iterations, which are now pairs.
  directives::LoopAttr directive = directives::getLoop(both);
  if (directive.getUnroll() > 1)
    directives::setLoop(both, directive.with(directive.getIi(), std::max<int64_t>(1, directive.getUnroll() / 2)));
  b.setInsertionPoint(both.getBody()->getTerminator());
  Lockstep ls{b, loop, {}, {}};
  Value odd = arith::AddIOp::create(b, loc, both.getInductionVar(),
                                    arith::ConstantIndexOp::create(b, loc, *step));
  ls.a.map(loop.getInductionVar(), both.getInductionVar());
  ls.bm.map(loop.getInductionVar(), odd);
  if (failed(ls.block(*loop.getBody(), true)) || !ls.packed) {
    both.erase();
    step2.getDefiningOp()->erase();
    return say(ls.why.empty() ? "no pair of i8 multiplies shares an operand" : ls.why);
  }
  loop.erase();
  // The copies' widenings the packed multiplies no longer read.
  SmallVector<Operation *> dead;
  both.getBody()->walk([&](arith::ExtSIOp ext) {
    if (ext->use_empty())
      dead.push_back(ext);
  });
  for (Operation *op : dead)
    op->erase();
  if (replacement)
    *replacement = both;
  return ls.packed;
}

namespace {
unsigned packIn(Region &region, llvm::function_ref<void(scf::ForOp, unsigned)> packed) {
  unsigned n = 0;
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        scf::ForOp now;
        if (unsigned pairs = packLoop(loop, nullptr, &now)) {
          ++n;
          if (packed)
            packed(now, pairs);
          continue;
        }
      }
      for (Region &inner : op.getRegions())
        n += packIn(inner, packed);
    }
  return n;
}
} // namespace

/// Whether `v` is available at `op`: defined in `op`'s block before it, or
/// before the op that holds it in an enclosing block.
static bool definedBefore(Value v, Operation *op) {
  Operation *holder = v.getParentBlock()->findAncestorOpInBlock(*op);
  Operation *def = v.getDefiningOp();
  return holder && (!def || def->isBeforeInBlock(holder));
}

/// Pairs of i8 x i8 multiplies in one block that share an operand (an int8
/// depthwise window's weight times the taps of two adjacent columns,
/// WindowBody.cpp): one multiply per pair, where the first stood.
static unsigned packShared(Block &block) {
  SmallVector<arith::MulIOp> muls;
  for (Operation &op : block)
    if (auto mul = dyn_cast<arith::MulIOp>(op); mul && mul.getType().isSignlessInteger() &&
                                                  extendedI8(mul.getLhs()) && extendedI8(mul.getRhs()))
      muls.push_back(mul);
  unsigned n = 0;
  llvm::DenseSet<Operation *> done;
  for (size_t i = 0; i < muls.size(); ++i) {
    if (done.contains(muls[i]))
      continue;
    for (size_t j = i + 1; j < muls.size(); ++j) {
      if (done.contains(muls[j]) || muls[i].getType() != muls[j].getType())
        continue;
      arith::MulIOp first = muls[i], second = muls[j];
      Value a0 = extendedI8(first.getLhs()), a1 = extendedI8(first.getRhs());
      Value b0 = extendedI8(second.getLhs()), b1 = extendedI8(second.getRhs());
      Value x, wa, wb;
      if (a0 == b0 && a1 != b1)
        x = a0, wa = a1, wb = b1;
      else if (a0 == b1 && a1 != b0)
        x = a0, wa = a1, wb = b0;
      else if (a1 == b0 && a0 != b1)
        x = a1, wa = a0, wb = b1;
      else if (a1 == b1 && a0 != b0)
        x = a1, wa = a0, wb = b0;
      else
        continue;
      // Built at the first multiply: the second's operands must be there.
      if (!definedBefore(wb, first) || !definedBefore(x, first))
        continue;
      OpBuilder b(first);
      auto [forFirst, forSecond] = packedProducts(b, first.getLoc(), x, wa, wb, first.getType());
      first.getResult().replaceAllUsesWith(forFirst);
      second.getResult().replaceAllUsesWith(forSecond);
      done.insert(first);
      done.insert(second);
      ++n;
      break;
    }
  }
  // The products' widenings the packed multiplies no longer read.
  llvm::SetVector<Operation *> widenings;
  for (Operation *op : done)
    for (Value operand : op->getOperands())
      if (auto ext = operand.getDefiningOp<arith::ExtSIOp>())
        widenings.insert(ext);
  for (Operation *op : done)
    op->erase();
  for (Operation *ext : widenings)
    if (ext->use_empty())
      ext->erase();
  return n;
}

unsigned packProcess(dfg::ProcessOp process, llvm::function_ref<void(scf::ForOp, unsigned)> packed) {
  unsigned n = packIn(process.getBody(), packed);
  SmallVector<Block *> blocks;
  process.getBody().walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    if (unsigned pairs = packShared(*block)) {
      ++n;
      if (packed)
        if (auto loop = dyn_cast<scf::ForOp>(block->getParentOp()))
          packed(loop, pairs);
    }
  return n;
}

} // namespace ming::pack

namespace {
struct PackInt8 : ming::impl::PackInt8Base<PackInt8> {
  using PackInt8Base::PackInt8Base;

  void runOnOperation() override {
    getOperation()->walk([&](ming::dfg::ProcessOp process) {
      ming::pack::packProcess(process, [&](scf::ForOp loop, unsigned pairs) {
        loop.emitRemark() << "int8 packing: " << pairs
                          << " pair(s) of multiplies per iteration, one DSP each";
      });
    });
  }
};
} // namespace
