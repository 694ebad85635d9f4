// The pattern matching of ming-quantize-integer: reads the scales, zero
// points and clamps of the QDQ fake-quant generics, constant operands of
// generic bodies and the reductions the rewrites know (declared in QDQ.h).
// Kept apart from the rewrites, which only ask what a value is.
#include "QDQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

namespace ming::quant {

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

std::optional<Dequant> matchDequant(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !isElementwise(g) || g.getNumDpsInputs() < 1 || !isa<FloatType>(elementTypeOf(v)))
    return std::nullopt;
  OpOperand *in = g.getDpsInputOperand(0);
  if (!isa<RankedTensorType>(in->get().getType()) || !isa<IntegerType>(elementTypeOf(in->get())) ||
      !g.getMatchingIndexingMap(in).isIdentity())
    return std::nullopt;
  // (x - zp) as float times the scale; a scale of 1 leaves no multiplication
  // (tf2onnx's int8 input of MLPerf Tiny ResNet-8: scale 1, zero point -128).
  auto fromConversion = [&](Value conv, const Leaf &scale) -> std::optional<Dequant> {
    auto toFloat = conv.getDefiningOp<arith::SIToFPOp>();
    if (!toFloat)
      return std::nullopt;
    Value x = toFloat.getIn();
    Leaf zp{{0.0}, -1};
    if (auto sub = x.getDefiningOp<arith::SubIOp>()) {
      auto z = leafOf(sub.getRhs(), g);
      if (!z)
        return std::nullopt;
      zp = *z;
      x = sub.getLhs();
    }
    // An unsigned widening reads bytes the signed arithmetic cannot:
    // ming-quantize-integer re-encodes those first (Unsigned.cpp), and what
    // it leaves stays float.
    if (x.getDefiningOp<arith::ExtUIOp>())
      return std::nullopt;
    x = stripExt(x);
    if (x != g.getBody()->getArgument(0))
      return std::nullopt;
    if (scale.dim >= 0 && zp.dim >= 0 && scale.dim != zp.dim)
      return std::nullopt;
    return Dequant{in->get(), scale.vals, zp.vals, std::max(scale.dim, zp.dim)};
  };
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  Value result = yield.getOperand(0);
  if (result.getDefiningOp<arith::SIToFPOp>())
    return fromConversion(result, Leaf{{1.0}, -1});
  auto mul = result.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (auto [conv, other] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}}) {
    auto scale = leafOf(other, g);
    if (!conv.getDefiningOp<arith::SIToFPOp>() || !scale)
      continue;
    return fromConversion(conv, *scale);
  }
  return std::nullopt;
}

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

bool readsBothInputs(Operation *op, Block *body) {
  if (!op || op->getNumOperands() != 2 || body->getNumArguments() < 2)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (op->getOperand(0) == a && op->getOperand(1) == b) || (op->getOperand(0) == b && op->getOperand(1) == a);
}

std::optional<Reduction> matchReduction(linalg::GenericOp g) {
  // Pools read a window tensor beside their input; a ReduceMean's sum reads
  // only its input.
  unsigned inputs = g.getNumDpsInputs();
  if ((inputs != 1 && inputs != 2) || g.getNumDpsInits() != 1 || g.getNumReductionLoops() == 0)
    return std::nullopt;
  Block *body = g.getBody();
  Value a = body->getArgument(0), b = inputs == 2 ? body->getArgument(1) : Value(),
        out = body->getArgument(inputs);
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
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(acc) && other == a && inputs == 2)
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

} // namespace ming::quant
