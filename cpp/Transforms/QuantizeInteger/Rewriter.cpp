// The rewrites of ming-quantize-integer (Rewriter.h): each float layer
// between dequantizes and a quantize rebuilt on integers, i8 x i8 -> i32
// with the zero points folded into the accumulator and a requantisation
// (Requantise.h) at the end. Kept apart from the matching of the QDQ
// vocabulary (QDQ.cpp) and from the pass that picks the anchors.
#include "Rewriter.h"
#include "Requantise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

namespace ming::quant {

/// An elementwise clamp of one float tensor by constants (ReLU as IREE
/// writes it, cmpf + select; Clip as max/min, or as cmpf + select with its
/// bounds as scalar tensor operands, as tf2onnx's ReLU6 imports): its input
/// and bounds.
struct Clamp {
  Value input;
  std::optional<double> lo, hi;
};

static std::optional<Clamp> clampOf(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || !isElementwise(g) || g.getNumDpsInputs() < 1 || !isa<FloatType>(elementTypeOf(v)) ||
      !isa<FloatType>(elementTypeOf(g.getDpsInputOperand(0)->get())) ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  // Operands past the first hold the bounds: constants of one value.
  auto bound = [&](Value b) -> std::optional<double> {
    std::optional<Leaf> leaf = leafOf(b, g);
    return leaf && leaf->dim < 0 ? std::optional<double>(leaf->vals.front()) : std::nullopt;
  };
  for (unsigned k = 1; k < g.getNumDpsInputs(); ++k)
    if (!scalarConstant(g.getDpsInputOperand(k)->get()))
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
      std::optional<double> k = bound(op->getOperand(1));
      Value rest = op->getOperand(0);
      if (!k) {
        k = bound(op->getOperand(0));
        rest = op->getOperand(1);
      }
      if (!k)
        return std::nullopt;
      isa<arith::MaximumFOp, arith::MaxNumFOp>(op) ? lower(*k) : upper(*k);
      x = rest;
      continue;
    }
    // select(x > k, x, k) = max(x, k); select(x < k, x, k) = min(x, k);
    // and with the values swapped, select(x < k, k, x) = max(x, k),
    // select(x > k, k, x) = min(x, k).
    auto sel = dyn_cast<arith::SelectOp>(op);
    auto cmp = sel ? sel.getCondition().getDefiningOp<arith::CmpFOp>() : nullptr;
    if (!cmp)
      return std::nullopt;
    bool keepsX = cmp.getLhs() == sel.getTrueValue();
    if (!keepsX && cmp.getLhs() != sel.getFalseValue())
      return std::nullopt;
    std::optional<double> k = bound(cmp.getRhs());
    std::optional<double> other = bound(keepsX ? sel.getFalseValue() : sel.getTrueValue());
    if (!k || !other || *k != *other)
      return std::nullopt;
    bool greater;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OGT: case arith::CmpFPredicate::UGT:
    case arith::CmpFPredicate::OGE: case arith::CmpFPredicate::UGE:
      greater = true;
      break;
    case arith::CmpFPredicate::OLT: case arith::CmpFPredicate::ULT:
    case arith::CmpFPredicate::OLE: case arith::CmpFPredicate::ULE:
      greater = false;
      break;
    default:
      return std::nullopt;
    }
    greater == keepsX ? lower(*k) : upper(*k);
    x = cmp.getLhs();
  }
  if (!c.lo && !c.hi)
    return std::nullopt;
  return c;
}

/// `reshape` (a collapse or expand of a float tensor) applied to `v`, of
/// another element type, at the insertion point.
Value Rewriter::reshapedLike(Operation *reshape, Value v) {
  Operation *clone = b.clone(*reshape);
  clone->setOperand(0, v);
  auto t = cast<RankedTensorType>(reshape->getResult(0).getType());
  clone->getResult(0).setType(t.clone(elementTypeOf(v)));
  return clone->getResult(0);
}

/// A generic that only moves its one input to its identity-indexed output:
/// the input and `perm`, result dimension i being input dimension perm[i].
static std::optional<std::pair<Value, SmallVector<int64_t>>> permutationOf(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops())
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  if (yield.getNumOperands() != 1 || yield.getOperand(0) != g.getBody()->getArgument(0))
    return std::nullopt;
  AffineMap in = g.getMatchingIndexingMap(g.getDpsInputOperand(0));
  AffineMap out = g.getMatchingIndexingMap(g.getDpsInitOperand(0));
  if (!out.isIdentity() || !in.isPermutation())
    return std::nullopt;
  SmallVector<int64_t> perm(in.getNumResults());
  for (unsigned j = 0; j < in.getNumResults(); ++j)
    perm[cast<AffineDimExpr>(in.getResult(j)).getPosition()] = j;
  return std::make_pair(g.getDpsInputOperand(0)->get(), perm);
}

/// `v` as a per-tensor quantised i8 tensor, built before the current
/// insertion point when it goes through pads, reshapes or max pooling.
std::optional<QInfo> Rewriter::asQuant(Value v) {
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

std::optional<QInfo> Rewriter::asQuantUncached(Value v) {
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
  // Values moved, not computed (a reshape, a crop or channel group, a
  // transpose: DepthToSpace, a channel shuffle, a grouped convolution's
  // input): the same integers, moved the same way.
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ExtractSliceOp>(def)) {
    auto src = asQuant(def->getOperand(0));
    if (!src)
      return std::nullopt;
    return QInfo{reshapedLike(def, src->q), src->scale, src->zp};
  }
  if (auto perm = permutationOf(v)) {
    auto src = asQuant(perm->first);
    if (!src)
      return std::nullopt;
    auto g = cast<linalg::GenericOp>(def);
    Type elem = elementTypeOf(src->q);
    Value init = IntBuilder{b, loc}.empty(g.getResult(0), elem);
    auto moved = linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, ValueRange{src->q}, ValueRange{init},
                                           g.getIndexingMapsArray(), g.getIteratorTypesArray(),
                                           [](OpBuilder &nb, Location l, ValueRange args) {
                                             linalg::YieldOp::create(nb, l, args[0]);
                                           });
    return QInfo{moved.getResult(0), src->scale, src->zp};
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

std::optional<Rewriter::ConstQ> Rewriter::constQuant(Value v) {
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
  // A transposed constant (Gemm's B under transB, which the importer writes
  // as a transpose of the dequantised weights): the same values permuted,
  // the per-channel axis moved with them.
  if (auto perm = permutationOf(v)) {
    auto src = constQuant(perm->first);
    DenseElementsAttr attr;
    if (!src || !matchPattern(src->d.q, m_Constant(&attr)))
      return std::nullopt;
    ArrayRef<int64_t> perms = perm->second, from = src->type.getShape();
    SmallVector<int64_t> shape, stride(from.size(), 1);
    for (int64_t d : perms)
      shape.push_back(from[d]);
    for (int64_t i = int64_t(from.size()) - 2; i >= 0; --i)
      stride[i] = stride[i + 1] * from[i + 1];
    SmallVector<APInt> bits(attr.getValues<APInt>());
    SmallVector<APInt> outBits;
    SmallVector<int64_t> idx(shape.size(), 0);
    for (int64_t n = 0, total = src->type.getNumElements(); n < total; ++n) {
      int64_t at = 0;
      for (auto [i, d] : llvm::enumerate(perms))
        at += idx[i] * stride[d];
      outBits.push_back(bits[at]);
      for (int64_t i = int64_t(shape.size()) - 1; i >= 0 && ++idx[i] == shape[i]; --i)
        idx[i] = 0;
    }
    auto type = RankedTensorType::get(shape, src->type.getElementType());
    src->d.q = arith::ConstantOp::create(b, v.getLoc(), DenseElementsAttr::get(type, outBits));
    if (src->d.axis >= 0)
      src->d.axis = static_cast<int>(llvm::find(perms, src->d.axis) - perms.begin());
    src->vals = *denseValues(src->d.q);
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
std::optional<Value> Rewriter::contraction(linalg::GenericOp g, std::optional<ConstQ> addBias, int addBiasDim,
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
  // and of their magnitudes (for the accumulator's range).
  SmallVector<int64_t> wsum(channels, 0), wabs(channels, 0);
  for (size_t i = 0; i < w->vals.size(); ++i) {
    wsum[(i / inner) % channels] += static_cast<int64_t>(w->vals[i]);
    wabs[(i / inner) % channels] += std::llabs(static_cast<int64_t>(w->vals[i]));
  }
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
  int64_t bound = 0; // |acc| never exceeds it: |init| + |x|max * sum |w|
  for (int64_t c = 0; c < channels; ++c) {
    double unit = x->scale * w->d.scaleAt(c);
    initVals[c] = std::llround(biasF[c] / unit) - x->zp * wsum[c];
    bound = std::max<int64_t>(bound, std::llabs(initVals[c]) + IntBuilder::magnitude(x->q.getType()) * wabs[c]);
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
  return ib.requantise(acc.getResult(0), *fp, outDim, 0, bound, q, outElem);
}

/// The values of `q - zp` for q of `v`'s integer element type.
static std::pair<int64_t, int64_t> centredRange(Value v, int64_t zp) {
  unsigned w = getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  if (w == 0 || w > 16)
    return {1, 0}; // empty: too wide to check every value
  return {-(int64_t(1) << (w - 1)) - zp, (int64_t(1) << (w - 1)) - 1 - zp};
}

/// Q(D(a) + D(b)): both rescaled to a common shift, added, requantised. The
/// integer generic reads its inputs through the float one's maps, so an
/// operand broadcast along some axes (LayerNorm's per-pixel shift, a
/// per-channel bias map) is read the same way.
std::optional<Value> Rewriter::add(linalg::GenericOp g, const Quant &q, Type outElem) {
  auto a = asQuant(g.getDpsInputOperand(0)->get());
  if (!a)
    return std::nullopt;
  auto c = asQuant(g.getDpsInputOperand(1)->get());
  if (!c)
    return std::nullopt;
  if (!g.getMatchingIndexingMap(g.getDpsInitOperand(0)).isIdentity())
    return fail("an add whose result is not written in order"), std::nullopt;
  auto fp = fixedPoint({a->scale / q.scale, c->scale / q.scale});
  if (!fp)
    return fail("a requantisation multiplier out of range"), std::nullopt;
  IntBuilder ib{b, g.getLoc()};
  int64_t za = a->zp, zc = c->zp, ma = fp->m[0], mc = fp->m[1];
  int shift = fp->shift;
  auto [alo, ahi] = centredRange(a->q, za);
  auto [clo, chi] = centredRange(c->q, zc);
  // Each term in one DSP where multipliers of 26 bits give every output.
  if (auto s = shortMultipliers(fp->m, shift, alo, ahi, clo, chi, q.zp, q.lo, q.hi,
                                [](int64_t x, int64_t y, ArrayRef<int64_t> m) { return x * m[0] + y * m[1]; })) {
    ma = s->first[0];
    mc = s->first[1];
    shift = s->second;
  }
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
                 e = IntBuilder::narrow(nb, l, e, IntBuilder::centredMagnitude(v.getType(), z));
                 return arith::MulIOp::create(nb, l, e, k(m)).getResult();
               };
               // Named first: as call arguments their order would be the compiler's.
               Value first = term(args[0], za, ma);
               Value second = term(args[1], zc, mc);
               Value s = arith::AddIOp::create(nb, l, first, second);
               linalg::YieldOp::create(nb, l, ib.requantTail(nb, l, s, shift, q.zp, q.lo, q.hi, outElem));
             })
      .getResult(0);
}

/// Q(D(a) * D(b)) (e.g. by a quantised constant): the product of the
/// zero-point-free integers, requantised.
std::optional<Value> Rewriter::mul(linalg::GenericOp g, const Quant &q, Type outElem) {
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
  auto [alo, ahi] = centredRange(a->q, za);
  auto [clo, chi] = centredRange(c->q, zc);
  // The product's multiply in one DSP where a multiplier of 26 bits gives
  // every output.
  if (auto s = shortMultipliers(fp->m, shift, alo, ahi, clo, chi, q.zp, q.lo, q.hi,
                                [](int64_t x, int64_t y, ArrayRef<int64_t> m) { return x * y * m[0]; })) {
    m = s->first[0];
    shift = s->second;
  }
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
                 e = arith::SubIOp::create(nb, l, e, k(z));
                 return IntBuilder::narrow(nb, l, e, IntBuilder::centredMagnitude(v.getType(), z));
               };
               Value p = arith::MulIOp::create(nb, l, centred(args[0], za), centred(args[1], zc));
               p = IntBuilder::narrow(nb, l, p,
                                      IntBuilder::centredMagnitude(args[0].getType(), za) *
                                          IntBuilder::centredMagnitude(args[1].getType(), zc));
               p = arith::MulIOp::create(nb, l, p, k(m));
               linalg::YieldOp::create(nb, l, ib.requantTail(nb, l, p, shift, q.zp, q.lo, q.hi, outElem));
             })
      .getResult(0);
}

/// The integer value replacing anchor `qop`, or nullopt with `why` set.
/// A reshape of a value computed in float here (not of quantised values,
/// which asQuant moves as integers): a ReduceMean's division before the
/// Squeeze that follows it.
static bool reshapesFloatResult(Operation *def) {
  if (!isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
    return false;
  Value src = def->getOperand(0);
  auto g = src.getDefiningOp<linalg::GenericOp>();
  return g && !matchDequant(src) && matchReduction(g) != Reduction::Max;
}

std::optional<Value> Rewriter::rewriteAnchor(linalg::GenericOp qop, const Quant &anchor) {
  why.clear();
  Value in = qop.getDpsInputOperand(0)->get();
  Type outElem = elementTypeOf(qop.getResult(0));
  b.setInsertionPoint(qop);
  // Quantising is monotone, so Q(clamp(y, a, b)) = clamp(Q(y), Q(a), Q(b)):
  // a ReLU or clip before the quantize narrows its integer bounds. It is
  // elementwise, so Q(reshape(y)) = reshape(Q(y)): the integers of y are
  // built and reshaped.
  Quant q = anchor;
  SmallVector<Operation *> reshapes;
  for (bool more = true; more;) {
    more = false;
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
    if (reshapesFloatResult(in.getDefiningOp())) {
      reshapes.push_back(in.getDefiningOp());
      in = in.getDefiningOp()->getOperand(0);
      more = true;
    }
  }
  std::optional<Value> r = quantised(qop, in, q, anchor, outElem, !reshapes.empty());
  if (!r)
    return r;
  Value v = *r;
  for (Operation *reshape : llvm::reverse(reshapes))
    v = reshapedLike(reshape, v);
  return v;
}

std::optional<Value> Rewriter::quantised(linalg::GenericOp qop, Value in, const Quant &q, const Quant &anchor,
                                         Type outElem, bool reshaped) {
  Operation *def = in.getDefiningOp();
  // A quantised value re-quantised: the same i8 values, or a rescale.
  if (matchDequant(in) ||
      isa_and_nonnull<tensor::PadOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ExtractSliceOp>(def) ||
      permutationOf(in) ||
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
    return IntBuilder{b, qop.getLoc()}.requantise(x->q, *fp, -1, -x->zp,
                                                  IntBuilder::centredMagnitude(x->q.getType(), x->zp), q,
                                                  outElem);
  }
  auto g = dyn_cast_or_null<linalg::GenericOp>(def);
  if (!g) {
    fail(def ? "'" + def->getName().getStringRef().str() + "'" : std::string("a function argument"));
    return std::nullopt;
  }
  if (matchReduction(g) == Reduction::MulAdd)
    return contraction(g, std::nullopt, -1, q, outElem);
  if (isSoftmax(g))
    return softmax(g, q, outElem);
  if (isLogSoftmax(g))
    return logSoftmax(g, q, outElem);
  // What the quantize reads, clamps included, as a function of one tensor
  // (Sigmoid, HardSwish, a division by a constant): computed for each of
  // its 256 values. The clamps are part of the function: the table is exact.
  // (A table has the quantize's shape: not where a reshape was peeled.)
  std::optional<UnaryChain> chain =
      reshaped ? std::nullopt : unaryChain(qop.getDpsInputOperand(0)->get());
  if (isElementwise(g) && g.getNumDpsInputs() <= 2) {
    auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
    Block *body = g.getBody();
    Operation *op = yield.getOperand(0).getDefiningOp();
    // An average pooling or a mean: sum / n, times n / count per position
    // where the padding is not counted (Average.cpp).
    if (std::optional<Average> avg = matchAverage(g))
      return average(*avg, q, outElem);
    if (isa_and_nonnull<arith::DivFOp>(op) && !chain)
      return fail("a division that is not an average pooling"), std::nullopt;
    if (isa_and_nonnull<arith::AddFOp>(op) && g.getNumDpsInputs() == 2 && readsBothInputs(op, body)) {
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
      if (!chain)
        return add(g, q, outElem);
    }
    if (isa_and_nonnull<arith::MulFOp>(op) && g.getNumDpsInputs() == 2 && readsBothInputs(op, body) && !chain)
      return mul(g, q, outElem);
  }
  if (chain)
    return lookup(qop, *chain);
  return fail("float arithmetic this pass does not know"), std::nullopt;
}

} // namespace ming::quant
