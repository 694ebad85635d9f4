// Softmax of a quantised tensor on integers (Rewriter.h). IREE writes an
// ONNX Softmax over the last axis as five generics: a max reduction of the
// row, x - max, exp, a sum reduction of the exponentials, and exp / sum.
// With an 8-bit input of scale s, x_i - max is s * d with d = q_i - max(q)
// in [-255, 0], so exp(s * d) takes 256 values, known at compile time: a
// table of fixed-point integers T[d + 255] = round(2^F exp(s d)). The row's
// sum is an integer add, and the quantised output
//   roundeven(T_i / sum / scale_out) + zp_out
// is one integer division with its remainder deciding the rounding (half to
// even, as QuantizeLinear rounds), done as a long division over the few bits
// the quotient can have. The only approximation is the table's
// rounding: F is chosen as large as the sum of the row allows in i32, so the
// result is off a step only where the exact value lies within about
// n 2^-F steps of a rounding tie.
#include "Rewriter.h"
#include "Requantise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

namespace ming::quant {

/// The only reduction loop of `g`, -1 when it has none or several.
static int reductionDim(linalg::GenericOp g) {
  int dim = -1;
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  for (auto [i, it] : llvm::enumerate(iters)) {
    if (it != utils::IteratorType::reduction)
      continue;
    if (dim >= 0)
      return -1;
    dim = static_cast<int>(i);
  }
  return dim;
}

/// Whether `m`, reading operand `type`, gives every loop dimension except
/// `axis` in order, with constant zeros at unit dimensions (the row's value,
/// broadcast along the axis).
static bool readsRow(AffineMap m, Type type, int axis) {
  auto shape = dyn_cast<RankedTensorType>(type);
  if (!shape || axis < 0)
    return false;
  unsigned next = 0;
  for (auto [i, e] : llvm::enumerate(m.getResults())) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0 || shape.getDimSize(i) != 1)
        return false;
      continue;
    }
    auto d = dyn_cast<AffineDimExpr>(e);
    if (next == static_cast<unsigned>(axis))
      ++next;
    if (!d || d.getPosition() != next)
      return false;
    ++next;
  }
  if (next == static_cast<unsigned>(axis))
    ++next;
  return next == m.getNumDims();
}

/// The block's yield is `op(arg0, out0)` (either order) of kind OpT.
template <typename... OpT>
static bool accumulates(linalg::GenericOp g) {
  Block *body = g.getBody();
  Operation *acc = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0).getDefiningOp();
  if (!acc || !isa<OpT...>(acc) || acc->getNumOperands() != 2)
    return false;
  Value in = body->getArgument(0), out = body->getArgument(g.getNumDpsInputs());
  return (acc->getOperand(0) == in && acc->getOperand(1) == out) ||
         (acc->getOperand(1) == in && acc->getOperand(0) == out);
}

/// A reduction of `in` along one loop dimension into its first result:
/// the input read by the identity, the result by readsRow. The axis, or -1.
static int rowReduction(linalg::GenericOp g, Value in) {
  if (g.getNumDpsInputs() != 1 || g.getDpsInputOperand(0)->get() != in ||
      !g.getMatchingIndexingMap(g.getDpsInputOperand(0)).isIdentity())
    return -1;
  int axis = reductionDim(g);
  OpOperand *init = g.getDpsInitOperand(0);
  if (!readsRow(g.getMatchingIndexingMap(init), init->get().getType(), axis))
    return -1;
  return axis;
}

/// The constant an init tensor is filled with.
static std::optional<double> fillValue(Value init) {
  auto spread = spreadSource(init);
  return spread ? scalarConstant(spread->first) : std::nullopt;
}

/// An elementwise generic whose yield is `OpT(arg0[, arg1])`.
template <typename OpT>
static OpT payload(linalg::GenericOp g, unsigned inputs) {
  if (!g || !isElementwise(g) || g.getNumDpsInputs() != inputs)
    return nullptr;
  Block *body = g.getBody();
  auto op = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0).getDefiningOp<OpT>();
  if (!op)
    return nullptr;
  for (unsigned i = 0; i < inputs; ++i)
    if (op->getOperand(i) != body->getArgument(i))
      return nullptr;
  return op;
}

/// softmax(x) as IREE writes it, read back from its last generic `div`
/// (exp / sum): the tensor x, the sum reduction, the reduced loop dimension
/// (any: the rewrite decides which it takes).
struct SoftmaxOf {
  Value x;
  linalg::GenericOp sum;
  int axis;
};

static std::optional<SoftmaxOf> matchSoftmax(linalg::GenericOp div) {
  if (!payload<arith::DivFOp>(div, 2) || !div.getMatchingIndexingMap(div.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  auto expG = div.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
  auto sumG = div.getDpsInputOperand(1)->get().getDefiningOp<linalg::GenericOp>();
  if (!payload<math::ExpOp>(expG, 1) || !sumG || sumG.getNumResults() != 1 ||
      !expG.getMatchingIndexingMap(expG.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  Value e = expG.getResult(0);
  int axis = rowReduction(sumG, e);
  OpOperand *sumRead = div.getDpsInputOperand(1);
  if (axis < 0 || !accumulates<arith::AddFOp>(sumG) || fillValue(sumG.getDpsInitOperand(0)->get()) != 0.0 ||
      !readsRow(div.getMatchingIndexingMap(sumRead), sumRead->get().getType(), axis))
    return std::nullopt;
  // e = exp(x - max(x)), the max broadcast along the axis.
  auto subG = expG.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
  if (!payload<arith::SubFOp>(subG, 2) || !subG.getMatchingIndexingMap(subG.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  Value x = subG.getDpsInputOperand(0)->get();
  OpOperand *maxRead = subG.getDpsInputOperand(1);
  if (!readsRow(subG.getMatchingIndexingMap(maxRead), maxRead->get().getType(), axis))
    return std::nullopt;
  Value max = maxRead->get();
  // The max may be reshaped to the broadcast's rank by inserting unit dims.
  if (auto expand = max.getDefiningOp<tensor::ExpandShapeOp>()) {
    for (const ReassociationIndices &group : expand.getReassociationIndices())
      if (llvm::count_if(group, [&](int64_t d) { return expand.getResultType().getDimSize(d) != 1; }) > 1)
        return std::nullopt;
    max = expand.getSrc();
  }
  auto maxG = max.getDefiningOp<linalg::GenericOp>();
  if (!maxG || cast<OpResult>(max).getResultNumber() != 0 || rowReduction(maxG, x) != axis ||
      !accumulates<arith::MaximumFOp, arith::MaxNumFOp>(maxG))
    return std::nullopt;
  std::optional<double> start = fillValue(maxG.getDpsInitOperand(0)->get());
  if (!start || *start > -std::numeric_limits<float>::max())
    return std::nullopt;
  return SoftmaxOf{x, sumG, axis};
}

bool isSoftmax(linalg::GenericOp div) { return matchSoftmax(div).has_value(); }

std::optional<Value> Rewriter::softmax(linalg::GenericOp div, const Quant &q, Type outElem) {
  std::optional<SoftmaxOf> sm = matchSoftmax(div);
  if (!sm)
    return fail("not a softmax"), std::nullopt;
  auto rowType = cast<RankedTensorType>(sm->x.getType());
  int rank = rowType.getRank();
  if (sm->axis != rank - 1)
    return fail("a softmax not over the last axis"), std::nullopt;
  int64_t n = rowType.getDimSize(sm->axis);
  if (ShapedType::isDynamic(n))
    return fail("a softmax over an axis of unknown length"), std::nullopt;
  auto x = asQuant(sm->x);
  if (!x)
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(elementTypeOf(x->q));
  if (!intType || intType.getWidth() != 8)
    return fail("a softmax of a quantised tensor that is not 8-bit"), std::nullopt;
  // Fraction bits: the row's sum, at most n 2^F, stays at most 2^30.
  int f = 30 - static_cast<int>(llvm::Log2_64_Ceil(static_cast<uint64_t>(n)));
  if (f < 12)
    return fail("a softmax over an axis too long for an i32 sum"), std::nullopt;
  SmallVector<int64_t> table;
  for (int64_t k = 0; k < 256; ++k)
    table.push_back(std::llround(std::ldexp(std::exp(x->scale * double(k - 255)), f)));
  // out = roundeven(T_i * M / sum), M = 1 / scale_out as m / 2^k: m below
  // 2^31 so T_i * m stays below 2^61, k at most 32 so sum * 2^k below 2^62.
  double mReal = 1.0 / q.scale;
  int exp2 = 0;
  std::frexp(mReal, &exp2); // mReal = g * 2^exp2, g in [0.5, 1)
  int k = std::min(32, 31 - exp2);
  if (k < 0)
    return fail("a softmax whose output scale is below 2^-31"), std::nullopt;
  int64_t m = std::llround(std::ldexp(mReal, k));
  uint64_t quotientMax = uint64_t(m) >> k;
  int quotientBits = quotientMax ? 64 - llvm::countl_zero(quotientMax) : 0;

  Location loc = div.getLoc();
  IntBuilder ib{b, loc};
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value sumF = sm->sum.getResult(0);
  SmallVector<AffineMap> reduceMaps = sm->sum.getIndexingMapsArray();
  SmallVector<utils::IteratorType> reduceIters = sm->sum.getIteratorTypesArray();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap rowMap = div.getMatchingIndexingMap(div.getDpsInputOperand(1));
  SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
  ArrayRef<int64_t> rowShape = cast<RankedTensorType>(sumF.getType()).getShape();
  auto rowTensor = [&](Type elem) { return RankedTensorType::get(rowShape, elem); };
  auto fullTensor = [&](Type elem) { return RankedTensorType::get(rowType.getShape(), elem); };

  // The row's max on the integers (dequantising is increasing).
  Value maxInit = ib.fill(sumF, intType, -128);
  Value maxQ = linalg::GenericOp::create(b, loc, TypeRange{rowTensor(intType)}, ValueRange{x->q}, ValueRange{maxInit},
                                         reduceMaps, reduceIters,
                                         [](OpBuilder &nb, Location l, ValueRange args) {
                                           linalg::YieldOp::create(
                                               nb, l, arith::MaxSIOp::create(nb, l, args[1], args[0]).getResult());
                                         })
                   .getResult(0);
  // e_i = T[q_i - max + 255]: a ROM read at an address the data gives.
  Value rom = ib.constVector(table, i32);
  Value e = linalg::GenericOp::create(
                b, loc, TypeRange{fullTensor(i32)}, ValueRange{x->q, maxQ}, ValueRange{ib.empty(x->q, i32)},
                ArrayRef<AffineMap>{id, rowMap, id}, parallel,
                [&](OpBuilder &nb, Location l, ValueRange args) {
                  Value d = arith::SubIOp::create(nb, l, arith::ExtSIOp::create(nb, l, i32, args[0]),
                                                  arith::ExtSIOp::create(nb, l, i32, args[1]));
                  Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(), d);
                  index = arith::AddIOp::create(nb, l, index, arith::ConstantIndexOp::create(nb, l, 255));
                  linalg::YieldOp::create(nb, l, tensor::ExtractOp::create(nb, l, rom, ValueRange{index}).getResult());
                })
                .getResult(0);
  Value sum = linalg::GenericOp::create(b, loc, TypeRange{rowTensor(i32)}, ValueRange{e},
                                        ValueRange{ib.fill(sumF, i32, 0)}, reduceMaps, reduceIters,
                                        [](OpBuilder &nb, Location l, ValueRange args) {
                                          linalg::YieldOp::create(
                                              nb, l, arith::AddIOp::create(nb, l, args[1], args[0]).getResult());
                                        })
                  .getResult(0);
  // roundeven(e * m / (sum << k)) + zp, clamped: the quotient, rounded up
  // where twice the remainder passes the divisor or ties with an odd one.
  int64_t zp = q.zp, lo = q.lo, hi = q.hi;
  return linalg::GenericOp::create(
             b, loc, TypeRange{fullTensor(outElem)}, ValueRange{e, sum}, ValueRange{ib.empty(x->q, outElem)},
             ArrayRef<AffineMap>{id, rowMap, id}, parallel,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               auto c = [&](int64_t v) {
                 return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
               };
               Value num = arith::MulIOp::create(nb, l, arith::ExtSIOp::create(nb, l, i64, args[0]), c(m));
               Value den = arith::ShLIOp::create(nb, l, arith::ExtSIOp::create(nb, l, i64, args[1]), c(k));
               // The quotient is at most m / 2^k (e_i is a term of the sum),
               // 9 bits for an output scale of 1/256: a long division by those
               // bits is a few compare-subtract steps where a divider takes a
               // cycle per bit of the 64-bit numerator. No step overflows:
               // den * 2^(bits-1) <= sum * m < 2^61.
               Value quot = c(0), rem = num;
               for (int j = quotientBits - 1; j >= 0; --j) {
                 Value step = arith::ShLIOp::create(nb, l, den, c(j));
                 Value fits = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::uge, rem, step);
                 rem = arith::SelectOp::create(nb, l, fits, arith::SubIOp::create(nb, l, rem, step), rem);
                 quot = arith::SelectOp::create(nb, l, fits, arith::OrIOp::create(nb, l, quot, c(int64_t(1) << j)),
                                                quot);
               }
               Value twice = arith::ShLIOp::create(nb, l, rem, c(1));
               Value odd = arith::AndIOp::create(nb, l, quot, c(1));
               Value tie = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, twice, den);
               Value above = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ugt, twice, den);
               Value up = arith::SelectOp::create(nb, l, above, c(1), arith::SelectOp::create(nb, l, tie, odd, c(0)));
               Value r = arith::AddIOp::create(nb, l, quot, up);
               r = arith::AddIOp::create(nb, l, r, c(zp));
               r = arith::MaxSIOp::create(nb, l, r, c(lo));
               r = arith::MinSIOp::create(nb, l, r, c(hi));
               linalg::YieldOp::create(nb, l, arith::TruncIOp::create(nb, l, outElem, r).getResult());
             })
      .getResult(0);
}

} // namespace ming::quant
