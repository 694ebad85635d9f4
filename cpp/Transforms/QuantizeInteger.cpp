// ming-quantize-integer: QDQ fake-quant float linalg (as IREE imports ONNX
// models quantised by onnxruntime's quantize_static) -> integer linalg: i8
// activations and weights, i32 accumulation, zero points folded into the
// accumulator's initial value, requantisation by integer multiplier and shift.
// See td/ming/Transforms/Passes.td for the contract.
//
// Vocabulary (all linalg.generic with identity maps on their main operand):
//   dequantize D:  i8/i32 -> f32, body [extsi; subi zp;] sitofp; mulf scale
//   quantize   Q:  f32 -> i8, body divf scale; roundeven; addf zp; max; min; fptosi
// Every Q whose input is not a function argument is an anchor: what computes
// its input is rebuilt on integers before it and the anchor's result is
// replaced; the float ops left without uses are erased.
#include "ming/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <map>
#include <tuple>
#include <limits>
#include <optional>

namespace ming {
#define GEN_PASS_DEF_QUANTIZEINTEGER
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Reading the fake-quant generics
//===----------------------------------------------------------------------===//

Value stripExt(Value v) {
  while (true) {
    if (auto e = v.getDefiningOp<arith::ExtSIOp>())
      v = e.getIn();
    else if (auto e = v.getDefiningOp<arith::ExtUIOp>())
      v = e.getIn();
    else
      return v;
  }
}

std::optional<double> scalarConstant(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  if (auto d = dyn_cast<DenseElementsAttr>(attr); d && d.isSplat()) {
    if (isa<FloatType>(d.getElementType()))
      return d.getSplatValue<APFloat>().convertToDouble();
    return static_cast<double>(d.getSplatValue<APInt>().getSExtValue());
  }
  return std::nullopt;
}

/// The elements of a constant tensor as doubles (floats or signed integers).
std::optional<SmallVector<double>> denseValues(Value v) {
  DenseElementsAttr d;
  if (!matchPattern(v, m_Constant(&d)))
    return std::nullopt;
  SmallVector<double> out;
  out.reserve(d.getNumElements());
  if (isa<FloatType>(d.getElementType())) {
    for (const APFloat &f : d.getValues<APFloat>())
      out.push_back(f.convertToDouble());
  } else if (isa<IntegerType>(d.getElementType())) {
    for (const APInt &i : d.getValues<APInt>())
      out.push_back(static_cast<double>(i.getSExtValue()));
  } else {
    return std::nullopt;
  }
  return out;
}

/// A per-element operand of a generic body that is a constant: one value, or
/// values varying along loop dimension `dim`.
struct Leaf {
  SmallVector<double> vals;
  int dim = -1;
};

std::optional<Leaf> leafOf(Value v, linalg::GenericOp g) {
  v = stripExt(v);
  if (auto c = scalarConstant(v))
    return Leaf{{*c}, -1};
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != g.getBody() || arg.getArgNumber() == 0 ||
      arg.getArgNumber() >= g.getNumDpsInputs())
    return std::nullopt;
  OpOperand *operand = g.getDpsInputOperand(arg.getArgNumber());
  if (auto c = scalarConstant(operand->get()))
    return Leaf{{*c}, -1};
  auto vals = denseValues(operand->get());
  AffineMap map = g.getMatchingIndexingMap(operand);
  if (!vals || map.getNumResults() != 1)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
  if (!dim)
    return std::nullopt;
  return Leaf{std::move(*vals), static_cast<int>(dim.getPosition())};
}

bool isElementwise(linalg::GenericOp g) {
  return g.getNumDpsInits() == 1 && g.getNumResults() == 1 &&
         g.getNumParallelLoops() == g.getNumLoops() &&
         g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity();
}

Type elementTypeOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

/// A dequantize: value = (q - zp) * scale, per tensor (one value) or per
/// channel along dimension `axis` of q.
struct Dequant {
  Value q;
  SmallVector<double> scale;
  SmallVector<double> zp;
  int axis = -1;
  double scaleAt(int64_t c) const { return scale.size() == 1 ? scale[0] : scale[c]; }
  double zpAt(int64_t c) const { return zp.size() == 1 ? zp[0] : zp[c]; }
};

std::optional<Dequant> matchDequant(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !isElementwise(g) || g.getNumDpsInputs() < 1 || !isa<FloatType>(elementTypeOf(v)))
    return std::nullopt;
  OpOperand *in = g.getDpsInputOperand(0);
  if (!isa<RankedTensorType>(in->get().getType()) || !isa<IntegerType>(elementTypeOf(in->get())) ||
      !g.getMatchingIndexingMap(in).isIdentity())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  auto mul = yield.getOperand(0).getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (auto [conv, other] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}}) {
    auto toFloat = conv.getDefiningOp<arith::SIToFPOp>();
    auto scale = leafOf(other, g);
    if (!toFloat || !scale)
      continue;
    Value x = toFloat.getIn();
    Leaf zp{{0.0}, -1};
    if (auto sub = x.getDefiningOp<arith::SubIOp>()) {
      auto z = leafOf(sub.getRhs(), g);
      if (!z)
        return std::nullopt;
      zp = *z;
      x = sub.getLhs();
    }
    x = stripExt(x);
    if (x != g.getBody()->getArgument(0))
      return std::nullopt;
    if (scale->dim >= 0 && zp.dim >= 0 && scale->dim != zp.dim)
      return std::nullopt;
    Dequant d{in->get(), scale->vals, zp.vals, std::max(scale->dim, zp.dim)};
    return d;
  }
  return std::nullopt;
}

/// A quantize: clamp(roundeven(x / scale) + zp, lo, hi) to an integer type.
struct Quant {
  double scale;
  int64_t zp, lo, hi;
};

std::optional<Quant> matchQuant(linalg::GenericOp g) {
  if (!isElementwise(g) || g.getNumDpsInputs() != 1)
    return std::nullopt;
  OpOperand *in = g.getDpsInputOperand(0);
  auto outType = dyn_cast<IntegerType>(elementTypeOf(g.getResult(0)));
  if (!isa<RankedTensorType>(in->get().getType()) || !isa<FloatType>(elementTypeOf(in->get())) ||
      !outType || outType.getWidth() > 32 || !g.getMatchingIndexingMap(in).isIdentity())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  auto toInt = yield.getOperand(0).getDefiningOp<arith::FPToSIOp>();
  if (!toInt)
    return std::nullopt;
  unsigned w = outType.getWidth();
  double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1) - 1;
  Value v = toInt.getIn();
  while (true) {
    Operation *op = v.getDefiningOp();
    if (!op || !isa<arith::MinimumFOp, arith::MinNumFOp, arith::MaximumFOp, arith::MaxNumFOp>(op))
      break;
    std::optional<double> c = scalarConstant(op->getOperand(1));
    Value rest = op->getOperand(0);
    if (!c) {
      c = scalarConstant(op->getOperand(0));
      rest = op->getOperand(1);
    }
    if (!c)
      return std::nullopt;
    if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
      hi = std::min(hi, *c);
    else
      lo = std::max(lo, *c);
    v = rest;
  }
  double zp = 0;
  if (auto add = v.getDefiningOp<arith::AddFOp>()) {
    std::optional<double> c = scalarConstant(add.getRhs());
    v = add.getLhs();
    if (!c) {
      c = scalarConstant(add.getLhs());
      v = add.getRhs();
    }
    if (!c)
      return std::nullopt;
    zp = *c;
  }
  auto round = v.getDefiningOp<math::RoundEvenOp>();
  if (!round)
    return std::nullopt;
  auto div = round.getOperand().getDefiningOp<arith::DivFOp>();
  if (!div || div.getLhs() != g.getBody()->getArgument(0))
    return std::nullopt;
  std::optional<double> scale = scalarConstant(div.getRhs());
  if (!scale || !(*scale > 0) || zp != std::floor(zp))
    return std::nullopt;
  return Quant{*scale, static_cast<int64_t>(zp), static_cast<int64_t>(std::ceil(lo)),
               static_cast<int64_t>(std::floor(hi))};
}

/// The loop dimension of a map with one result that is a dimension, else -1.
int singleDim(AffineMap m) {
  if (m.getNumResults() != 1)
    return -1;
  auto e = dyn_cast<AffineDimExpr>(m.getResult(0));
  return e ? static_cast<int>(e.getPosition()) : -1;
}

/// What a two-input generic accumulates into its init.
enum class Reduction { MulAdd, Sum, Max };

std::optional<Reduction> matchReduction(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 2 || g.getNumDpsInits() != 1 || g.getNumReductionLoops() == 0)
    return std::nullopt;
  Block *body = g.getBody();
  Value a = body->getArgument(0), b = body->getArgument(1), out = body->getArgument(2);
  Operation *acc = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0).getDefiningOp();
  if (!acc || acc->getNumOperands() != 2)
    return std::nullopt;
  Value other;
  if (acc->getOperand(0) == out)
    other = acc->getOperand(1);
  else if (acc->getOperand(1) == out)
    other = acc->getOperand(0);
  else
    return std::nullopt;
  if (isa<arith::AddFOp>(acc)) {
    if (other == a)
      return Reduction::Sum;
    if (auto mul = other.getDefiningOp<arith::MulFOp>())
      if ((mul.getLhs() == a && mul.getRhs() == b) || (mul.getLhs() == b && mul.getRhs() == a))
        return Reduction::MulAdd;
  }
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(acc) && other == a)
    return Reduction::Max;
  return std::nullopt;
}

/// The value a "fill" or "broadcast" generic (one input, body `yield in`)
/// spreads, with its indexing map; a scalar input has an empty map.
std::optional<std::pair<Value, AffineMap>> spreadSource(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !isElementwise(g) || g.getNumDpsInputs() != 1)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  if (yield.getOperand(0) != g.getBody()->getArgument(0))
    return std::nullopt;
  OpOperand *in = g.getDpsInputOperand(0);
  return std::pair{in->get(), g.getMatchingIndexingMap(in)};
}

//===----------------------------------------------------------------------===//
// Integer arithmetic
//===----------------------------------------------------------------------===//

/// Multipliers m[c] and one shift s with M[c] ~= m[c] / 2^s, m < 2^31.
struct FixedPoint {
  SmallVector<int64_t> m;
  int shift;
};

std::optional<FixedPoint> fixedPoint(ArrayRef<double> reals) {
  double top = 0;
  for (double r : reals) {
    if (!(r >= 0) || !std::isfinite(r))
      return std::nullopt;
    top = std::max(top, r);
  }
  int exp = 0;
  if (top > 0)
    std::frexp(top, &exp); // top = f * 2^exp, f in [0.5, 1)
  int shift = std::min(62, 31 - exp);
  if (shift < 1)
    return std::nullopt;
  FixedPoint fp{{}, shift};
  for (double r : reals)
    fp.m.push_back(static_cast<int64_t>(std::llround(std::ldexp(r, shift))));
  return fp;
}

struct IntBuilder {
  OpBuilder &b;
  Location loc;

  Value i64(int64_t v) { return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v)); }

  Value constVector(ArrayRef<int64_t> vals, Type elem) {
    auto type = RankedTensorType::get({static_cast<int64_t>(vals.size())}, elem);
    SmallVector<APInt> ints;
    for (int64_t v : vals)
      ints.push_back(APInt(elem.getIntOrFloatBitWidth(), v, /*isSigned=*/true));
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, ints));
  }

  Value empty(Value like, Type elem) {
    auto t = cast<RankedTensorType>(like.getType());
    return tensor::EmptyOp::create(b, loc, t.getShape(), elem);
  }

  /// A tensor shaped like `like` filled with `value` (of type `elem`).
  Value fill(Value like, Type elem, int64_t value) {
    Value c = arith::ConstantOp::create(b, loc, b.getIntegerAttr(elem, value));
    return linalg::FillOp::create(b, loc, ValueRange{c}, ValueRange{empty(like, elem)}).getResult(0);
  }

  /// A tensor shaped like `like` whose elements are vals[index along dim].
  Value broadcast(Value like, ArrayRef<int64_t> vals, Type elem, unsigned dim) {
    auto t = cast<RankedTensorType>(like.getType());
    Value src = constVector(vals, elem);
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineMap> maps{AffineMap::get(t.getRank(), 0, getAffineDimExpr(dim, ctx)),
                                AffineMap::getMultiDimIdentityMap(t.getRank(), ctx)};
    SmallVector<utils::IteratorType> iters(t.getRank(), utils::IteratorType::parallel);
    return linalg::GenericOp::create(b, loc, TypeRange{RankedTensorType::get(t.getShape(), elem)}, ValueRange{src},
                                     ValueRange{empty(like, elem)}, maps, iters,
                                     [](OpBuilder &nb, Location l, ValueRange args) {
                                       linalg::YieldOp::create(nb, l, args[0]);
                                     })
        .getResult(0);
  }

  /// clamp(round_half_even(prod / 2^s) + zp) in i64, truncated to `out`:
  /// (prod + 2^(s-1) - 1 + ((prod >> s) & 1)) >> s, onnxruntime's rounding.
  Value requantTail(OpBuilder &nb, Location l, Value prod, int shift, int64_t zp, int64_t lo, int64_t hi,
                    Type out) {
    auto c = [&](int64_t v) { return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult(); };
    Value odd = arith::AndIOp::create(nb, l, arith::ShRSIOp::create(nb, l, prod, c(shift)), c(1));
    Value r = arith::AddIOp::create(nb, l, prod, c((int64_t(1) << (shift - 1)) - 1));
    r = arith::AddIOp::create(nb, l, r, odd);
    r = arith::ShRSIOp::create(nb, l, r, c(shift));
    r = arith::AddIOp::create(nb, l, r, c(zp));
    r = arith::MaxSIOp::create(nb, l, r, c(lo));
    r = arith::MinSIOp::create(nb, l, r, c(hi));
    return arith::TruncIOp::create(nb, l, out, r);
  }

  /// out = requant(acc + offset) with per-index multipliers along `dim` of
  /// acc (or one multiplier when fp.m has one element).
  Value requantise(Value acc, const FixedPoint &fp, int dim, int64_t offset, const Quant &q, Type out) {
    auto t = cast<RankedTensorType>(acc.getType());
    MLIRContext *ctx = b.getContext();
    unsigned rank = t.getRank();
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<Value> ins{acc};
    SmallVector<AffineMap> maps{id};
    bool perChannel = llvm::any_of(fp.m, [&](int64_t m) { return m != fp.m[0]; });
    if (perChannel) {
      ins.push_back(constVector(fp.m, b.getI64Type()));
      maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(dim, ctx)));
    }
    maps.push_back(id);
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    int64_t m0 = fp.m[0];
    int shift = fp.shift;
    return linalg::GenericOp::create(
               b, loc, TypeRange{RankedTensorType::get(t.getShape(), out)}, ins, ValueRange{empty(acc, out)}, maps,
               iters,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value x = arith::ExtSIOp::create(nb, l, nb.getI64Type(), args[0]);
                 if (offset != 0)
                   x = arith::AddIOp::create(nb, l, x,
                                             arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(offset)));
                 Value m = perChannel ? args[1]
                                      : arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(m0)).getResult();
                 Value prod = arith::MulIOp::create(nb, l, x, m);
                 linalg::YieldOp::create(nb, l, requantTail(nb, l, prod, shift, q.zp, q.lo, q.hi, out));
               })
        .getResult(0);
  }
};

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

/// A per-tensor quantised activation: the float value equals (q - zp) * scale.
struct QInfo {
  Value q;
  double scale;
  int64_t zp;
};

/// An elementwise clamp of one float tensor by constants (ReLU as IREE
/// writes it, cmpf + select; Clip as max/min): its input and bounds.
struct Clamp {
  Value input;
  std::optional<double> lo, hi;
};

std::optional<Clamp> clampOf(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !isElementwise(g) || g.getNumDpsInputs() != 1 || !isa<FloatType>(elementTypeOf(v)) ||
      !isa<FloatType>(elementTypeOf(g.getDpsInputOperand(0)->get())) ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  Clamp c{g.getDpsInputOperand(0)->get(), std::nullopt, std::nullopt};
  Value arg = g.getBody()->getArgument(0);
  Value x = cast<linalg::YieldOp>(g.getBody()->getTerminator()).getOperand(0);
  auto lower = [&](double k) { c.lo = c.lo ? std::max(*c.lo, k) : k; };
  auto upper = [&](double k) { c.hi = c.hi ? std::min(*c.hi, k) : k; };
  while (x != arg) {
    Operation *op = x.getDefiningOp();
    if (!op || op->getBlock() != g.getBody())
      return std::nullopt;
    if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp, arith::MinNumFOp>(op)) {
      std::optional<double> k = scalarConstant(op->getOperand(1));
      Value rest = op->getOperand(0);
      if (!k) {
        k = scalarConstant(op->getOperand(0));
        rest = op->getOperand(1);
      }
      if (!k)
        return std::nullopt;
      isa<arith::MaximumFOp, arith::MaxNumFOp>(op) ? lower(*k) : upper(*k);
      x = rest;
      continue;
    }
    // select(x > k, x, k) = max(x, k); select(x < k, x, k) = min(x, k).
    auto sel = dyn_cast<arith::SelectOp>(op);
    auto cmp = sel ? sel.getCondition().getDefiningOp<arith::CmpFOp>() : nullptr;
    if (!cmp || cmp.getLhs() != sel.getTrueValue())
      return std::nullopt;
    std::optional<double> k = scalarConstant(cmp.getRhs());
    std::optional<double> other = scalarConstant(sel.getFalseValue());
    if (!k || !other || *k != *other)
      return std::nullopt;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OGT: case arith::CmpFPredicate::UGT:
    case arith::CmpFPredicate::OGE: case arith::CmpFPredicate::UGE:
      lower(*k);
      break;
    case arith::CmpFPredicate::OLT: case arith::CmpFPredicate::ULT:
    case arith::CmpFPredicate::OLE: case arith::CmpFPredicate::ULE:
      upper(*k);
      break;
    default:
      return std::nullopt;
    }
    x = sel.getTrueValue();
  }
  if (!c.lo && !c.hi)
    return std::nullopt;
  return c;
}

struct Rewriter {
  func::FuncOp func;
  OpBuilder b;
  std::string why; // the reason of the last failure
  llvm::DenseMap<Value, QInfo> memo;

  explicit Rewriter(func::FuncOp f) : func(f), b(f.getContext()) {}

  bool fail(const Twine &reason) {
    why = reason.str();
    return false;
  }

  /// `v` as a per-tensor quantised i8 tensor, built before the current
  /// insertion point when it goes through pads, reshapes or max pooling.
  std::optional<QInfo> asQuant(Value v) {
    if (auto d = matchDequant(v)) {
      if (d->scale.size() != 1 || d->zp.size() != 1) {
        fail("a per-channel quantised activation");
        return std::nullopt;
      }
      return QInfo{d->q, d->scale[0], static_cast<int64_t>(d->zp[0])};
    }
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    std::optional<QInfo> r = asQuantUncached(v);
    if (r)
      memo[v] = *r;
    return r;
  }

  std::optional<QInfo> asQuantUncached(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def) {
      fail("a float function argument");
      return std::nullopt;
    }
    Location loc = def->getLoc();
    if (auto pad = dyn_cast<tensor::PadOp>(def)) {
      auto src = asQuant(pad.getSource());
      Value padValue = pad.getConstantPaddingValue();
      std::optional<double> p = padValue ? scalarConstant(padValue) : std::nullopt;
      if (!src || !p)
        return src ? (fail("a pad with a non-constant value"), std::nullopt) : std::nullopt;
      auto intType = cast<IntegerType>(elementTypeOf(src->q));
      int64_t qmin = -(int64_t(1) << (intType.getWidth() - 1));
      int64_t qp;
      if (*p == 0)
        qp = src->zp;
      else if (*p <= -std::numeric_limits<float>::max())
        qp = qmin; // -inf or the least float, for max pooling: below every quantised value
      else {
        fail("a pad value other than 0, the least float and -inf");
        return std::nullopt;
      }
      Value cst = arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, qp));
      auto type = RankedTensorType::get(pad.getResultType().getShape(), intType);
      auto newPad = tensor::PadOp::create(b, loc, type, src->q, pad.getStaticLow(), pad.getStaticHigh(),
                                          pad.getLow(), pad.getHigh());
      Block *block = b.createBlock(&newPad.getRegion());
      for (unsigned i = 0; i < type.getRank(); ++i)
        block->addArgument(b.getIndexType(), loc);
      tensor::YieldOp::create(b, loc, cst);
      b.setInsertionPointAfter(newPad);
      return QInfo{newPad.getResult(), src->scale, src->zp};
    }
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def)) {
      auto src = asQuant(def->getOperand(0));
      if (!src)
        return std::nullopt;
      Operation *clone = b.clone(*def);
      clone->setOperand(0, src->q);
      auto t = cast<RankedTensorType>(v.getType());
      clone->getResult(0).setType(RankedTensorType::get(t.getShape(), elementTypeOf(src->q)));
      return QInfo{clone->getResult(0), src->scale, src->zp};
    }
    if (auto g = dyn_cast<linalg::GenericOp>(def)) {
      if (matchReduction(g) == Reduction::Max) {
        auto src = asQuant(g.getDpsInputOperand(0)->get());
        if (!src)
          return std::nullopt;
        // Max commutes with the increasing dequantisation; the init must
        // not be above every value (a -inf fill).
        auto init = spreadSource(g.getDpsInitOperand(0)->get());
        std::optional<double> start = init ? scalarConstant(init->first) : std::nullopt;
        if (!start || !(std::isinf(*start) && *start < 0)) {
          fail("a max pooling that does not start from -inf");
          return std::nullopt;
        }
        Type elem = elementTypeOf(src->q);
        IntBuilder ib{b, loc};
        int64_t qmin = -(int64_t(1) << (elem.getIntOrFloatBitWidth() - 1));
        Value initQ = ib.fill(g.getResult(0), elem, qmin);
        auto ng = linalg::GenericOp::create(
            b, loc, TypeRange{initQ.getType()}, ValueRange{src->q, g.getDpsInputOperand(1)->get()},
            ValueRange{initQ}, g.getIndexingMapsArray(), g.getIteratorTypesArray(),
            [](OpBuilder &nb, Location l, ValueRange args) {
              linalg::YieldOp::create(nb, l, arith::MaxSIOp::create(nb, l, args[2], args[0]).getResult());
            });
        return QInfo{ng.getResult(0), src->scale, src->zp};
      }
    }
    fail(Twine("'") + def->getName().getStringRef() + "' of float values");
    return std::nullopt;
  }

  /// A dequantised constant (weights, bias): its integer values, scales and
  /// zero points.
  struct ConstQ {
    Dequant d;
    SmallVector<double> vals;
    RankedTensorType type;
  };

  std::optional<ConstQ> constQuant(Value v) {
    // A reshaped constant (depthwise weights C x 1 x K x K -> C x K x K): the
    // same values, the per-channel axis moved to its group.
    if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>()) {
      auto src = constQuant(collapse.getSrc());
      if (!src)
        return std::nullopt;
      int axis = -1;
      if (src->d.axis >= 0) {
        for (auto [i, group] : llvm::enumerate(collapse.getReassociationIndices())) {
          if (!llvm::is_contained(group, src->d.axis))
            continue;
          for (int64_t dim : group)
            if (dim != src->d.axis && src->type.getDimSize(dim) != 1)
              return std::nullopt;
          axis = static_cast<int>(i);
        }
      }
      DenseElementsAttr attr;
      if (!matchPattern(src->d.q, m_Constant(&attr)))
        return std::nullopt;
      auto type = RankedTensorType::get(collapse.getResultType().getShape(), src->type.getElementType());
      src->d.q = arith::ConstantOp::create(b, collapse.getLoc(), attr.reshape(type));
      src->d.axis = axis;
      src->type = type;
      return src;
    }
    auto d = matchDequant(v);
    if (!d)
      return std::nullopt;
    auto vals = denseValues(d->q);
    if (!vals)
      return std::nullopt;
    return ConstQ{*d, std::move(*vals), cast<RankedTensorType>(d->q.getType())};
  }

  /// Q(out += a * b [+ bias]): an i8 x i8 -> i32 contraction and a requantisation.
  std::optional<Value> contraction(linalg::GenericOp g, std::optional<ConstQ> addBias, int addBiasDim,
                                   const Quant &q, Type outElem) {
    OpOperand *opA = g.getDpsInputOperand(0), *opB = g.getDpsInputOperand(1);
    std::optional<ConstQ> w = constQuant(opB->get());
    if (!w) {
      std::swap(opA, opB);
      w = constQuant(opB->get());
    }
    if (!w)
      return fail("a contraction without a dequantised constant operand"), std::nullopt;
    auto x = asQuant(opA->get());
    if (!x)
      return std::nullopt;
    if (!isa<IntegerType>(w->type.getElementType()) || w->type.getElementType().getIntOrFloatBitWidth() != 8)
      return fail("weights that are not i8"), std::nullopt;
    for (double z : w->d.zp)
      if (z != 0)
        return fail("weights with a non-zero zero point"), std::nullopt;
    // The weight dimension that is parallel (the output channel).
    AffineMap wMap = g.getMatchingIndexingMap(opB);
    AffineMap outMap = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
    int wDim = -1, outDim = -1;
    for (unsigned i = 0; i < wMap.getNumResults(); ++i) {
      auto e = dyn_cast<AffineDimExpr>(wMap.getResult(i));
      if (!e)
        return fail("a weight indexed by an expression"), std::nullopt;
      if (auto pos = outMap.getResultPosition(e)) {
        if (wDim >= 0)
          return fail("weights with several output dimensions (grouped convolution)"), std::nullopt;
        wDim = i;
        outDim = *pos;
      }
    }
    if (wDim < 0)
      return fail("weights without an output-channel dimension"), std::nullopt;
    if (w->d.axis >= 0 && w->d.axis != wDim)
      return fail("weights quantised per channel along a reduction dimension"), std::nullopt;
    ArrayRef<int64_t> wShape = w->type.getShape();
    int64_t channels = wShape[wDim];
    int64_t inner = 1;
    for (unsigned i = wDim + 1; i < wShape.size(); ++i)
      inner *= wShape[i];
    // Sum of the weights per output channel (for the input zero point).
    SmallVector<int64_t> wsum(channels, 0);
    for (size_t i = 0; i < w->vals.size(); ++i)
      wsum[(i / inner) % channels] += static_cast<int64_t>(w->vals[i]);
    // Bias in units of sx * sw[c]: the broadcast init and/or a following add.
    SmallVector<double> biasF(channels, 0.0);
    auto addBiasFrom = [&](const ConstQ &bq, bool fromInit, unsigned dimInOut) -> bool {
      if (bq.type.getRank() != 1 || bq.type.getDimSize(0) != channels || dimInOut != static_cast<unsigned>(outDim))
        return fail("a bias that is not one value per output channel");
      for (int64_t c = 0; c < channels; ++c)
        biasF[c] += (bq.vals[c] - bq.d.zpAt(c)) * bq.d.scaleAt(c);
      (void)fromInit;
      return true;
    };
    Value init = g.getDpsInitOperand(0)->get();
    auto spread = spreadSource(init);
    if (!spread)
      return fail("a contraction whose init is not a fill or a broadcast"), std::nullopt;
    if (auto z = scalarConstant(spread->first)) {
      if (*z != 0)
        return fail("a contraction starting from a non-zero constant"), std::nullopt;
    } else {
      auto bq = constQuant(spread->first);
      if (!bq)
        return fail("a contraction starting from a non-constant bias"), std::nullopt;
      AffineMap m = spread->second;
      int e = singleDim(m);
      if (e < 0 || !addBiasFrom(*bq, true, e))
        return fail("a bias that is not one value per output channel"), std::nullopt;
    }
    if (addBias && !addBiasFrom(*addBias, false, addBiasDim))
      return std::nullopt;
    // acc = sum x*w + (bias - zx * sum w); real = acc * sx * sw[c].
    SmallVector<int64_t> initVals(channels);
    SmallVector<double> mult(channels);
    for (int64_t c = 0; c < channels; ++c) {
      double unit = x->scale * w->d.scaleAt(c);
      initVals[c] = std::llround(biasF[c] / unit) - x->zp * wsum[c];
      mult[c] = unit / q.scale;
      if (std::llabs(initVals[c]) > (int64_t(1) << 31) - 1)
        return fail("a bias beyond i32"), std::nullopt;
    }
    auto fp = fixedPoint(mult);
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    IntBuilder ib{b, g.getLoc()};
    Type i32 = b.getI32Type();
    Value acc0 = ib.broadcast(g.getResult(0), initVals, i32, outDim);
    SmallVector<Value> ins(2);
    ins[opA->getOperandNumber()] = x->q;
    ins[opB->getOperandNumber()] = w->d.q;
    auto acc = linalg::GenericOp::create(b, g.getLoc(), TypeRange{acc0.getType()}, ins, ValueRange{acc0},
                                         g.getIndexingMapsArray(), g.getIteratorTypesArray(),
                                         [&](OpBuilder &nb, Location l, ValueRange args) {
                                           Value a = arith::ExtSIOp::create(nb, l, i32, args[0]);
                                           Value c = arith::ExtSIOp::create(nb, l, i32, args[1]);
                                           Value p = arith::MulIOp::create(nb, l, a, c);
                                           linalg::YieldOp::create(nb, l,
                                                                   arith::AddIOp::create(nb, l, args[2], p).getResult());
                                         });
    return ib.requantise(acc.getResult(0), *fp, outDim, 0, q, outElem);
  }

  /// Q(sum pooling / n): i32 sum, requantised with the zero point folded.
  std::optional<Value> average(linalg::GenericOp sum, double divisor, const Quant &q, Type outElem) {
    auto x = asQuant(sum.getDpsInputOperand(0)->get());
    if (!x)
      return std::nullopt;
    auto init = spreadSource(sum.getDpsInitOperand(0)->get());
    std::optional<double> start = init ? scalarConstant(init->first) : std::nullopt;
    if (!start || *start != 0)
      return fail("a sum pooling that does not start from 0"), std::nullopt;
    auto window = dyn_cast<RankedTensorType>(sum.getDpsInputOperand(1)->get().getType());
    if (!window || !window.hasStaticShape())
      return fail("a pooling window of unknown size"), std::nullopt;
    auto fp = fixedPoint({x->scale / (divisor * q.scale)});
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    IntBuilder ib{b, sum.getLoc()};
    Type i32 = b.getI32Type();
    Value acc0 = ib.fill(sum.getResult(0), i32, 0);
    auto acc = linalg::GenericOp::create(
        b, sum.getLoc(), TypeRange{acc0.getType()}, ValueRange{x->q, sum.getDpsInputOperand(1)->get()},
        ValueRange{acc0}, sum.getIndexingMapsArray(), sum.getIteratorTypesArray(),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value a = arith::ExtSIOp::create(nb, l, i32, args[0]);
          linalg::YieldOp::create(nb, l, arith::AddIOp::create(nb, l, args[2], a).getResult());
        });
    return ib.requantise(acc.getResult(0), *fp, -1, -window.getNumElements() * x->zp, q, outElem);
  }

  /// Q(D(a) + D(b)): both rescaled to a common shift, added, requantised.
  std::optional<Value> add(linalg::GenericOp g, const Quant &q, Type outElem) {
    auto a = asQuant(g.getDpsInputOperand(0)->get());
    if (!a)
      return std::nullopt;
    auto c = asQuant(g.getDpsInputOperand(1)->get());
    if (!c)
      return std::nullopt;
    if (!g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity() ||
        !g.getMatchingIndexingMap(g.getDpsInputOperand(1)).isIdentity())
      return fail("an add with broadcasting"), std::nullopt;
    auto fp = fixedPoint({a->scale / q.scale, c->scale / q.scale});
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    IntBuilder ib{b, g.getLoc()};
    int64_t za = a->zp, zc = c->zp, ma = fp->m[0], mc = fp->m[1];
    int shift = fp->shift;
    auto t = cast<RankedTensorType>(g.getResult(0).getType());
    return linalg::GenericOp::create(
               b, g.getLoc(), TypeRange{RankedTensorType::get(t.getShape(), outElem)}, ValueRange{a->q, c->q},
               ValueRange{ib.empty(g.getResult(0), outElem)}, g.getIndexingMapsArray(), g.getIteratorTypesArray(),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 auto k = [&](int64_t v) {
                   return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
                 };
                 auto term = [&](Value v, int64_t z, int64_t m) {
                   Value e = arith::ExtSIOp::create(nb, l, nb.getI64Type(), v);
                   e = arith::SubIOp::create(nb, l, e, k(z));
                   return arith::MulIOp::create(nb, l, e, k(m)).getResult();
                 };
                 Value s = arith::AddIOp::create(nb, l, term(args[0], za, ma), term(args[1], zc, mc));
                 linalg::YieldOp::create(nb, l, ib.requantTail(nb, l, s, shift, q.zp, q.lo, q.hi, outElem));
               })
        .getResult(0);
  }

  /// Q(D(a) * D(b)) (e.g. by a quantised constant): the product of the
  /// zero-point-free integers, requantised.
  std::optional<Value> mul(linalg::GenericOp g, const Quant &q, Type outElem) {
    auto a = asQuant(g.getDpsInputOperand(0)->get());
    if (!a)
      return std::nullopt;
    auto c = asQuant(g.getDpsInputOperand(1)->get());
    if (!c)
      return std::nullopt;
    auto fp = fixedPoint({a->scale * c->scale / q.scale});
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    IntBuilder ib{b, g.getLoc()};
    int64_t za = a->zp, zc = c->zp, m = fp->m[0];
    int shift = fp->shift;
    auto t = cast<RankedTensorType>(g.getResult(0).getType());
    return linalg::GenericOp::create(
               b, g.getLoc(), TypeRange{RankedTensorType::get(t.getShape(), outElem)}, ValueRange{a->q, c->q},
               ValueRange{ib.empty(g.getResult(0), outElem)}, g.getIndexingMapsArray(), g.getIteratorTypesArray(),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 auto k = [&](int64_t v) {
                   return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
                 };
                 auto centred = [&](Value v, int64_t z) {
                   Value e = arith::ExtSIOp::create(nb, l, nb.getI64Type(), v);
                   return arith::SubIOp::create(nb, l, e, k(z)).getResult();
                 };
                 Value p = arith::MulIOp::create(nb, l, centred(args[0], za), centred(args[1], zc));
                 p = arith::MulIOp::create(nb, l, p, k(m));
                 linalg::YieldOp::create(nb, l, ib.requantTail(nb, l, p, shift, q.zp, q.lo, q.hi, outElem));
               })
        .getResult(0);
  }

  /// The integer value replacing anchor `qop`, or nullopt with `why` set.
  std::optional<Value> rewriteAnchor(linalg::GenericOp qop, const Quant &anchor) {
    why.clear();
    Value in = qop.getDpsInputOperand(0)->get();
    Type outElem = elementTypeOf(qop.getResult(0));
    b.setInsertionPoint(qop);
    // Quantising is monotone, so Q(clamp(y, a, b)) = clamp(Q(y), Q(a), Q(b)):
    // a ReLU or clip before the quantize narrows its integer bounds.
    Quant q = anchor;
    while (auto bounds = clampOf(in)) {
      auto quantised = [&](double x) {
        return std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(x / q.scale)) + q.zp, q.lo, q.hi);
      };
      if (bounds->lo)
        q.lo = std::max(q.lo, quantised(*bounds->lo));
      if (bounds->hi)
        q.hi = std::min(q.hi, quantised(*bounds->hi));
      in = bounds->input;
    }
    Operation *def = in.getDefiningOp();
    // A quantised value re-quantised: the same i8 values, or a rescale.
    if (matchDequant(in) || isa_and_nonnull<tensor::PadOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def) ||
        (isa_and_nonnull<linalg::GenericOp>(def) &&
         matchReduction(cast<linalg::GenericOp>(def)) == Reduction::Max)) {
      auto x = asQuant(in);
      if (!x)
        return std::nullopt;
      // The same integers, unless a ReLU or clip narrowed the bounds.
      if (x->scale == q.scale && x->zp == q.zp && elementTypeOf(x->q) == outElem && q.lo == anchor.lo &&
          q.hi == anchor.hi)
        return x->q;
      auto fp = fixedPoint({x->scale / q.scale});
      if (!fp)
        return fail("a requantisation multiplier out of range"), std::nullopt;
      return IntBuilder{b, qop.getLoc()}.requantise(x->q, *fp, -1, -x->zp, q, outElem);
    }
    auto g = dyn_cast_or_null<linalg::GenericOp>(def);
    if (!g) {
      fail(def ? "'" + def->getName().getStringRef().str() + "'" : std::string("a function argument"));
      return std::nullopt;
    }
    if (matchReduction(g) == Reduction::MulAdd)
      return contraction(g, std::nullopt, -1, q, outElem);
    if (isElementwise(g) && g.getNumDpsInputs() <= 2) {
      auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
      Block *body = g.getBody();
      Operation *op = yield.getOperand(0).getDefiningOp();
      // (contraction) / n after a sum pooling.
      if (auto div = dyn_cast_or_null<arith::DivFOp>(op); div && g.getNumDpsInputs() == 1 &&
                                                          div.getLhs() == body->getArgument(0)) {
        auto n = scalarConstant(div.getRhs());
        auto sum = g.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
        if (n && *n > 0 && sum && matchReduction(sum) == Reduction::Sum)
          return average(sum, *n, q, outElem);
        return fail("a division that is not an average pooling"), std::nullopt;
      }
      if (auto addf = dyn_cast_or_null<arith::AddFOp>(op); addf && g.getNumDpsInputs() == 2 &&
                                                           ((addf.getLhs() == body->getArgument(0) &&
                                                             addf.getRhs() == body->getArgument(1)) ||
                                                            (addf.getLhs() == body->getArgument(1) &&
                                                             addf.getRhs() == body->getArgument(0)))) {
        // contraction + bias?
        for (unsigned i = 0; i < 2; ++i) {
          auto c = g.getDpsInputOperand(i)->get().getDefiningOp<linalg::GenericOp>();
          OpOperand *other = g.getDpsInputOperand(1 - i);
          if (!c || matchReduction(c) != Reduction::MulAdd ||
              !g.getMatchingIndexingMap(g.getDpsInputOperand(i)).isIdentity())
            continue;
          auto bias = constQuant(other->get());
          AffineMap m = g.getMatchingIndexingMap(other);
          int e = singleDim(m);
          if (!bias || e < 0)
            return fail("a contraction plus something other than a constant bias"), std::nullopt;
          return contraction(c, bias, e, q, outElem);
        }
        return add(g, q, outElem);
      }
      if (auto mulf = dyn_cast_or_null<arith::MulFOp>(op); mulf && g.getNumDpsInputs() == 2 &&
                                                           ((mulf.getLhs() == body->getArgument(0) &&
                                                             mulf.getRhs() == body->getArgument(1)) ||
                                                            (mulf.getLhs() == body->getArgument(1) &&
                                                             mulf.getRhs() == body->getArgument(0))))
        return mul(g, q, outElem);
    }
    return fail("float arithmetic this pass does not know"), std::nullopt;
  }
};

/// A generic that only moves data: one input, all loops parallel, the payload
/// yields the input element (a transpose, a broadcast).
bool isCopy(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops())
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield.getOperand(0) == body->getArgument(0);
}

/// `q` applied to `x` (same element types, x's shape): a clone of its payload.
Value quantizeLike(IRRewriter &rewriter, linalg::GenericOp q, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Type elem = elementTypeOf(q.getResult(0));
  Location loc = q.getLoc();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), elem);
  AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  auto g = linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()}, ValueRange{x},
                                     ValueRange{init}, ArrayRef<AffineMap>{id, id}, iters);
  rewriter.cloneRegionBefore(q.getRegion(), g.getRegion(), g.getRegion().end());
  return g.getResult(0);
}

/// A quantize of a concat or a slice is the concat or slice of quantizes (the
/// same elementwise map before and after moving data), so the integer rewrite
/// reaches the layers that compute their inputs (SqueezeNet's fire modules,
/// ShuffleNet's split). One quantize per sliced source, shared by its slices.
void quantizeBeforeDataMovement(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  std::map<std::pair<Operation *, std::tuple<double, int64_t, int64_t, int64_t>>, Value> sourceQ;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<std::pair<linalg::GenericOp, Quant>> quants;
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        quants.push_back({g, *q});
    });
    for (auto &[g, q] : quants) {
      Value in = g.getDpsInputOperand(0)->get();
      Operation *def = in.getDefiningOp();
      if (!def || !in.hasOneUse())
        continue;
      rewriter.setInsertionPoint(g);
      if (auto concat = dyn_cast<tensor::ConcatOp>(def)) {
        SmallVector<Value> parts;
        for (Value x : concat.getInputs())
          parts.push_back(quantizeLike(rewriter, g, x));
        Value c = tensor::ConcatOp::create(rewriter, concat.getLoc(), concat.getDim(), parts);
        rewriter.replaceOp(g, c);
        rewriter.eraseOp(concat);
        changed = true;
      } else if (auto move = dyn_cast<linalg::GenericOp>(def); move && isCopy(move)) {
        // A transpose or broadcast: the same copy of the quantized input.
        Value qx = quantizeLike(rewriter, g, move.getDpsInputOperand(0)->get());
        auto type = cast<RankedTensorType>(move.getResult(0).getType());
        Value init = tensor::EmptyOp::create(rewriter, move.getLoc(), type.getShape(),
                                             elementTypeOf(g.getResult(0)));
        auto copy = linalg::GenericOp::create(
            rewriter, move.getLoc(), TypeRange{init.getType()}, ValueRange{qx}, ValueRange{init},
            move.getIndexingMapsArray(), move.getIteratorTypesArray(),
            [](OpBuilder &b, Location loc, ValueRange args) {
              linalg::YieldOp::create(b, loc, args[0]);
            });
        rewriter.replaceOp(g, copy.getResult(0));
        rewriter.eraseOp(move);
        changed = true;
      } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
        Value src = slice.getSource();
        auto key = std::make_pair(src.getDefiningOp() ? src.getDefiningOp() : slice.getOperation(),
                                  std::make_tuple(q.scale, q.zp, q.lo, q.hi));
        Value qsrc;
        if (src.getDefiningOp() && sourceQ.count(key)) {
          qsrc = sourceQ[key];
        } else {
          OpBuilder::InsertionGuard guard(rewriter);
          if (Operation *d = src.getDefiningOp())
            rewriter.setInsertionPointAfter(d);
          else
            rewriter.setInsertionPointToStart(&func.getBody().front());
          qsrc = quantizeLike(rewriter, g, src);
          if (src.getDefiningOp())
            sourceQ[key] = qsrc;
        }
        auto type = cast<RankedTensorType>(g.getResult(0).getType());
        Value r = tensor::ExtractSliceOp::create(rewriter, slice.getLoc(), type, qsrc,
                                                 slice.getMixedOffsets(), slice.getMixedSizes(),
                                                 slice.getMixedStrides());
        rewriter.replaceOp(g, r);
        rewriter.eraseOp(slice);
        changed = true;
      }
    }
  }
}

bool isFloatTensor(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  return s && isa<FloatType>(s.getElementType());
}

struct QuantizeInteger : ming::impl::QuantizeIntegerBase<QuantizeInteger> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<std::pair<linalg::GenericOp, Quant>> anchors;
    bool any = false;
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        any = true;
      // QUInt8 activations (fptoui, clamp to [0, 255]) are not rewritten.
      if (g.getNumResults() == 1 && isa<IntegerType>(elementTypeOf(g.getResult(0))))
        if (cast<linalg::YieldOp>(g.getBody()->getTerminator()).getOperand(0).getDefiningOp<arith::FPToUIOp>()) {
          InFlightDiagnostic diag = strict ? g.emitError() : g.emitWarning();
          diag << "unsigned (QUInt8) quantize: not rewritten on integers, the float path stays";
          if (strict)
            signalPassFailure();
        }
    });
    if (!any)
      return;
    // Named ops (convolutions, matmuls, pooling, fills, broadcasts) as
    // generics: one matcher for all of them.
    IRRewriter rewriter(func.getContext());
    SmallVector<linalg::LinalgOp> named;
    func.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    quantizeBeforeDataMovement(func);
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        if (!isa<BlockArgument>(g.getDpsInputOperand(0)->get()))
          anchors.push_back({g, *q});
    });
    Rewriter rw(func);
    bool failedAny = false;
    for (auto &[qop, q] : anchors) {
      std::optional<Value> v = rw.rewriteAnchor(qop, q);
      if (v) {
        qop.getResult(0).replaceAllUsesWith(*v);
        continue;
      }
      failedAny = true;
      InFlightDiagnostic diag = strict ? qop.emitError() : qop.emitWarning();
      diag << "quantize kept in float: cannot rewrite its input on integers ("
           << (rw.why.empty() ? std::string("unsupported") : rw.why) << ")";
    }
    // Erase what the rewrite left without uses, innermost first.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<Operation *> dead;
      func.walk<WalkOrder::PostOrder>([&](Operation *op) {
        if (op != func && op->getParentOp() == func && isOpTriviallyDead(op))
          dead.push_back(op);
      });
      for (Operation *op : llvm::reverse(dead)) {
        op->erase();
        changed = true;
      }
    }
    // Float left between the input quantizes and the output dequantizes.
    func.walk([&](linalg::LinalgOp op) {
      bool floatOut = llvm::any_of(op->getResultTypes(), isFloatTensor);
      bool floatIn = llvm::any_of(op.getDpsInputs(), [](Value v) { return isFloatTensor(v.getType()); });
      if (!floatOut && !floatIn)
        return;
      auto g = dyn_cast<linalg::GenericOp>(op.getOperation());
      bool inputQuantize = g && matchQuant(g) && isa<BlockArgument>(g.getDpsInputOperand(0)->get());
      bool outputDequantize = g && matchDequant(g.getResult(0)) &&
                              llvm::all_of(g->getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); });
      bool shapeCarrier = g && !floatOut; // e.g. a pooling window: only its shape is read
      if (g && !floatOut && floatIn) {
        // Integer result from float inputs: only a window operand may be float.
        shapeCarrier = llvm::all_of(g.getDpsInputOperands(), [&](OpOperand *o) {
          return !isFloatTensor(o->get().getType()) || !g.payloadUsesValueFromOperand(o);
        });
      }
      if (inputQuantize || outputDequantize || shapeCarrier)
        return;
      if (!failedAny || strict)
        op->emitWarning("float arithmetic stays in the quantised datapath");
    });
    if (failedAny && strict)
      signalPassFailure();
  }
};

} // namespace
