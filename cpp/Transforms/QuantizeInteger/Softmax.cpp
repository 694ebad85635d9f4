// Softmax and LogSoftmax of a quantised tensor on integers (Rewriter.h).
// IREE writes an ONNX Softmax over the last axis as five generics: a max
// reduction of the row, x - max, exp, a sum reduction of the exponentials,
// and exp / sum; LogSoftmax ends in a log of the sum and (x - max) - log.
// With an 8-bit input of scale s, x_i - max is s * d with d = q_i - max(q)
// in [-255, 0], so exp(s * d) takes 256 values, known at compile time: a
// table of fixed-point integers T[d + 255] = round(2^F exp(s d)). The row's
// sum is an integer add, and the quantised softmax
//   roundeven(T_i / sum / scale_out) + zp_out
// is one integer division with its remainder deciding the rounding (half to
// even, as QuantizeLinear rounds), done as a long division over the few bits
// the quotient can have. The only approximation is the table's
// rounding: F is chosen as large as the sum of the row allows in i32, so the
// result is off a step only where the exact value lies within about
// n 2^-F steps of a rounding tie. The log-softmax's log is a table over the
// sum's leading bits (logSoftmax, below).
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

/// The row sum of exp(x - max(x)) as IREE writes it: `sumG` reduces
/// exp(`shifted`) over one axis, `shifted` being x minus the row's max,
/// broadcast along that axis.
static std::optional<SoftmaxOf> matchExpSum(linalg::GenericOp expG, linalg::GenericOp sumG) {
  if (!payload<math::ExpOp>(expG, 1) || !sumG || sumG.getNumResults() != 1 ||
      !expG.getMatchingIndexingMap(expG.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  int axis = rowReduction(sumG, expG.getResult(0));
  if (axis < 0 || !accumulates<arith::AddFOp>(sumG) || fillValue(sumG.getDpsInitOperand(0)->get()) != 0.0)
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

static std::optional<SoftmaxOf> matchSoftmax(linalg::GenericOp div) {
  if (!payload<arith::DivFOp>(div, 2) || !div.getMatchingIndexingMap(div.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  auto expG = div.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
  auto sumG = div.getDpsInputOperand(1)->get().getDefiningOp<linalg::GenericOp>();
  std::optional<SoftmaxOf> sm = matchExpSum(expG, sumG);
  OpOperand *sumRead = div.getDpsInputOperand(1);
  if (!sm || !readsRow(div.getMatchingIndexingMap(sumRead), sumRead->get().getType(), sm->axis))
    return std::nullopt;
  return sm;
}

/// log_softmax(x) as IREE writes it, read back from its last generic `sub`:
/// (x - max) - log(sum of exp(x - max)), the log on the row's sum.
static std::optional<SoftmaxOf> matchLogSoftmax(linalg::GenericOp sub) {
  if (!payload<arith::SubFOp>(sub, 2) || !sub.getMatchingIndexingMap(sub.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  Value shifted = sub.getDpsInputOperand(0)->get();
  auto logG = sub.getDpsInputOperand(1)->get().getDefiningOp<linalg::GenericOp>();
  if (!payload<math::LogOp>(logG, 1) || !logG.getMatchingIndexingMap(logG.getDpsInputOperand(0)).isIdentity())
    return std::nullopt;
  auto sumG = logG.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
  auto expG = sumG && sumG.getNumDpsInputs() == 1
                  ? sumG.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>()
                  : linalg::GenericOp();
  // The same x - max feeds the exp and the subtraction.
  if (!expG || expG.getDpsInputOperand(0)->get() != shifted)
    return std::nullopt;
  std::optional<SoftmaxOf> sm = matchExpSum(expG, sumG);
  OpOperand *logRead = sub.getDpsInputOperand(1);
  if (!sm || !readsRow(sub.getMatchingIndexingMap(logRead), logRead->get().getType(), sm->axis))
    return std::nullopt;
  return sm;
}

bool isSoftmax(linalg::GenericOp div) { return matchSoftmax(div).has_value(); }

bool isLogSoftmax(linalg::GenericOp sub) { return matchLogSoftmax(sub).has_value(); }

namespace {

/// What Softmax and LogSoftmax share on the integers: the row's max of the
/// i8 values, e_i = T[q_i - max + 255] = round(2^F exp(s (q_i - max))) and
/// the row's sum of e, with the maps to read a row value at an element.
struct ExpRows {
  QInfo x;
  Type intType;
  int fraction = 0; // F
  int64_t n = 0;    // the row's length
  Value maxQ, e, sum;
  AffineMap id, rowMap;
  RankedTensorType fullType; // the element tensor's shape, element type unset
};

std::optional<ExpRows> expRows(Rewriter &r, SoftmaxOf sm, AffineMap rowMap, Location loc, StringRef what) {
  auto rowType = cast<RankedTensorType>(sm.x.getType());
  int rank = rowType.getRank();
  if (sm.axis != rank - 1)
    return r.fail("a " + what + " not over the last axis"), std::nullopt;
  int64_t n = rowType.getDimSize(sm.axis);
  if (ShapedType::isDynamic(n))
    return r.fail("a " + what + " over an axis of unknown length"), std::nullopt;
  auto x = r.asQuant(sm.x);
  if (!x)
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(elementTypeOf(x->q));
  if (!intType || intType.getWidth() != 8)
    return r.fail("a " + what + " of a quantised tensor that is not 8-bit"), std::nullopt;
  // Fraction bits: the row's sum, at most n 2^F, stays at most 2^30.
  int f = 30 - static_cast<int>(llvm::Log2_64_Ceil(static_cast<uint64_t>(n)));
  if (f < 12)
    return r.fail("a " + what + " over an axis too long for an i32 sum"), std::nullopt;
  SmallVector<int64_t> table;
  for (int64_t k = 0; k < 256; ++k)
    table.push_back(std::llround(std::ldexp(std::exp(x->scale * double(k - 255)), f)));

  OpBuilder &b = r.b;
  IntBuilder ib{b, loc};
  Type i32 = b.getI32Type();
  ExpRows rows{*x, intType, f, n};
  Value sumF = sm.sum.getResult(0);
  SmallVector<AffineMap> reduceMaps = sm.sum.getIndexingMapsArray();
  SmallVector<utils::IteratorType> reduceIters = sm.sum.getIteratorTypesArray();
  rows.id = b.getMultiDimIdentityMap(rank);
  rows.rowMap = rowMap;
  rows.fullType = rowType;
  SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
  ArrayRef<int64_t> rowShape = cast<RankedTensorType>(sumF.getType()).getShape();
  auto rowTensor = [&](Type elem) { return RankedTensorType::get(rowShape, elem); };

  // The row's max on the integers (dequantising is increasing).
  Value maxInit = ib.fill(sumF, intType, -128);
  rows.maxQ = linalg::GenericOp::create(b, loc, TypeRange{rowTensor(intType)}, ValueRange{x->q},
                                        ValueRange{maxInit}, reduceMaps, reduceIters,
                                        [](OpBuilder &nb, Location l, ValueRange args) {
                                          linalg::YieldOp::create(
                                              nb, l, arith::MaxSIOp::create(nb, l, args[1], args[0]).getResult());
                                        })
                  .getResult(0);
  // e_i = T[q_i - max + 255]: a ROM read at an address the data gives.
  Value rom = ib.constVector(table, i32);
  rows.e = linalg::GenericOp::create(
               b, loc, TypeRange{RankedTensorType::get(rowType.getShape(), i32)}, ValueRange{x->q, rows.maxQ},
               ValueRange{ib.empty(x->q, i32)}, ArrayRef<AffineMap>{rows.id, rowMap, rows.id}, parallel,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value d = arith::SubIOp::create(nb, l, arith::ExtSIOp::create(nb, l, i32, args[0]),
                                                 arith::ExtSIOp::create(nb, l, i32, args[1]));
                 Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(), d);
                 index = arith::AddIOp::create(nb, l, index, arith::ConstantIndexOp::create(nb, l, 255));
                 linalg::YieldOp::create(nb, l, tensor::ExtractOp::create(nb, l, rom, ValueRange{index}).getResult());
               })
               .getResult(0);
  rows.sum = linalg::GenericOp::create(b, loc, TypeRange{rowTensor(i32)}, ValueRange{rows.e},
                                       ValueRange{ib.fill(sumF, i32, 0)}, reduceMaps, reduceIters,
                                       [](OpBuilder &nb, Location l, ValueRange args) {
                                         linalg::YieldOp::create(
                                             nb, l, arith::AddIOp::create(nb, l, args[1], args[0]).getResult());
                                       })
                 .getResult(0);
  return rows;
}

/// v + zp clamped to [lo, hi], as `outElem`.
Value toOutput(OpBuilder &nb, Location l, Value v, const Quant &q, Type outElem) {
  auto c = [&](int64_t k) { return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(k)).getResult(); };
  Value r = arith::AddIOp::create(nb, l, v, c(q.zp));
  r = arith::MaxSIOp::create(nb, l, r, c(q.lo));
  r = arith::MinSIOp::create(nb, l, r, c(q.hi));
  return arith::TruncIOp::create(nb, l, outElem, r);
}

} // namespace

std::optional<Value> Rewriter::softmax(linalg::GenericOp div, const Quant &q, Type outElem) {
  std::optional<SoftmaxOf> sm = matchSoftmax(div);
  if (!sm)
    return fail("not a softmax"), std::nullopt;
  Location loc = div.getLoc();
  std::optional<ExpRows> rows =
      expRows(*this, *sm, div.getMatchingIndexingMap(div.getDpsInputOperand(1)), loc, "softmax");
  if (!rows)
    return std::nullopt;
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

  IntBuilder ib{b, loc};
  Type i64 = b.getI64Type();
  SmallVector<utils::IteratorType> parallel(rows->fullType.getRank(), utils::IteratorType::parallel);
  // roundeven(e * m / (sum << k)) + zp, clamped: the quotient, rounded up
  // where twice the remainder passes the divisor or ties with an odd one.
  return linalg::GenericOp::create(
             b, loc, TypeRange{RankedTensorType::get(rows->fullType.getShape(), outElem)},
             ValueRange{rows->e, rows->sum}, ValueRange{ib.empty(rows->x.q, outElem)},
             ArrayRef<AffineMap>{rows->id, rows->rowMap, rows->id}, parallel,
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
               linalg::YieldOp::create(nb, l, toOutput(nb, l, arith::AddIOp::create(nb, l, quot, up), q, outElem));
             })
      .getResult(0);
}

// LogSoftmax: out_i = s (q_i - max) - ln(sum / 2^F), in output steps, the
// fixed point of G fraction bits:
//   roundeven(((q_i - max) A - L) / 2^G) + zp,  A = round(2^G s / s_out),
// L = 2^G ln(sum / 2^F) / s_out from the sum's leading bits: the sum lies in
// [2^F, n 2^F] (the max's own term is 2^F), so sum = 2^(F + p) m, m in
// [1, 2), p in [0, ceil(log2 n)] counted by compares against 2^(F + j), and
// L = p C + ln m, C = round(2^G ln 2 / s_out), ln m interpolated linearly in
// a table of 2^B + 1 points over [1, 2] by the next R bits. Once per row,
// so its one multiply costs nothing beside the row. The errors, below
// 2^-(2B+3) in ln m and 128 units of 2^-G from A's rounding, are far below
// a step: the output differs from the exact one only within about
// 2^-(2B+3) / s_out + 2^(7-G) steps of a rounding tie (a table of 2^10
// midpoints alone was off a step at 0.004 from one).
static constexpr int kLogTableBits = 10;

std::optional<Value> Rewriter::logSoftmax(linalg::GenericOp sub, const Quant &q, Type outElem) {
  std::optional<SoftmaxOf> sm = matchLogSoftmax(sub);
  if (!sm)
    return fail("not a log-softmax"), std::nullopt;
  Location loc = sub.getLoc();
  std::optional<ExpRows> rows =
      expRows(*this, *sm, sub.getMatchingIndexingMap(sub.getDpsInputOperand(1)), loc, "log-softmax");
  if (!rows)
    return std::nullopt;
  int f = rows->fraction;
  int bits = std::min(kLogTableBits, f);
  int powers = static_cast<int>(llvm::Log2_64_Ceil(static_cast<uint64_t>(rows->n)));
  // G: the largest value, |(q - max) A| + L <= (255 s + ln n + 1) / s_out,
  // stays below 2^40, so every i64 step is exact.
  double span = (255.0 * rows->x.scale + std::log(double(rows->n)) + 1.0) / q.scale;
  int g = std::min(24, 40 - static_cast<int>(std::ceil(std::log2(std::max(span, 1.0)))));
  if (g < 8)
    return fail("a log-softmax whose output scale is too fine for its input's range"), std::nullopt;
  double unit = std::ldexp(1.0, g) / q.scale;
  int64_t a = std::llround(rows->x.scale * unit), c = std::llround(std::log(2.0) * unit);
  // R interpolation bits below the B table bits; both fit under F.
  int interp = std::min(12, f - bits);
  SmallVector<int64_t> table;
  for (int64_t k = 0; k <= (int64_t(1) << bits); ++k)
    table.push_back(std::llround(std::log1p(double(k) / double(int64_t(1) << bits)) * unit));

  IntBuilder ib{b, loc};
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // An i32 ROM where the values allow (half the bits), else i64.
  bool narrow = table.back() < (int64_t(1) << 31);
  Value rom = ib.constVector(table, narrow ? i32 : i64);
  auto rowType = cast<RankedTensorType>(rows->sum.getType());
  SmallVector<utils::IteratorType> rowParallel(rowType.getRank(), utils::IteratorType::parallel);
  AffineMap rowId = b.getMultiDimIdentityMap(rowType.getRank());
  // L per row: p C by compares, then ln m from the table.
  Value logRow = linalg::GenericOp::create(
                     b, loc, TypeRange{RankedTensorType::get(rowType.getShape(), i64)}, ValueRange{rows->sum},
                     ValueRange{ib.empty(rows->sum, i64)}, ArrayRef<AffineMap>{rowId, rowId}, rowParallel,
                     [&](OpBuilder &nb, Location l, ValueRange args) {
                       auto c32 = [&](int64_t v) {
                         return arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(v)).getResult();
                       };
                       auto c64 = [&](int64_t v) {
                         return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
                       };
                       Value sum = args[0], p = c32(0), whole = c64(0);
                       for (int j = 1; j <= powers; ++j) {
                         Value over = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::uge, sum,
                                                            c32(int64_t(1) << (f + j)));
                         p = arith::AddIOp::create(nb, l, p, arith::ExtUIOp::create(nb, l, i32, over));
                         whole = arith::AddIOp::create(nb, l, whole,
                                                       arith::SelectOp::create(nb, l, over, c64(c), c64(0)));
                       }
                       // sum >> (p + F - B - R) lies in [2^(B+R), 2^(B+R+1)):
                       // the table's index above the R bits, the fraction below.
                       Value shift = arith::AddIOp::create(nb, l, p, c32(f - bits - interp));
                       Value top = arith::ShRUIOp::create(nb, l, sum, shift);
                       Value k = arith::SubIOp::create(nb, l, arith::ShRUIOp::create(nb, l, top, c32(interp)),
                                                       c32(int64_t(1) << bits));
                       Value t = arith::AndIOp::create(nb, l, top, c32((int64_t(1) << interp) - 1));
                       Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(), k);
                       Value next = arith::AddIOp::create(nb, l, index, arith::ConstantIndexOp::create(nb, l, 1));
                       auto read = [&](Value at) -> Value {
                         Value v = tensor::ExtractOp::create(nb, l, rom, ValueRange{at});
                         return narrow ? arith::ExtSIOp::create(nb, l, i64, v).getResult() : v;
                       };
                       Value lo = read(index), hi = read(next);
                       Value slope = arith::MulIOp::create(nb, l, arith::SubIOp::create(nb, l, hi, lo),
                                                           arith::ExtUIOp::create(nb, l, i64, t));
                       Value frac =
                           arith::AddIOp::create(nb, l, lo, arith::ShRSIOp::create(nb, l, slope, c64(interp)));
                       linalg::YieldOp::create(nb, l, arith::AddIOp::create(nb, l, whole, frac).getResult());
                     })
                     .getResult(0);
  SmallVector<utils::IteratorType> parallel(rows->fullType.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{RankedTensorType::get(rows->fullType.getShape(), outElem)},
             ValueRange{rows->x.q, rows->maxQ, logRow}, ValueRange{ib.empty(rows->x.q, outElem)},
             ArrayRef<AffineMap>{rows->id, rows->rowMap, rows->rowMap, rows->id}, parallel,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               auto c64 = [&](int64_t v) {
                 return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
               };
               Value d = arith::SubIOp::create(nb, l, arith::ExtSIOp::create(nb, l, i64, args[0]),
                                               arith::ExtSIOp::create(nb, l, i64, args[1]));
               Value v = arith::SubIOp::create(nb, l, arith::MulIOp::create(nb, l, d, c64(a)), args[2]);
               // Half to even: floor((v + 2^(G-1) - 1 + (floor(v / 2^G) & 1)) / 2^G).
               Value odd = arith::AndIOp::create(nb, l, arith::ShRSIOp::create(nb, l, v, c64(g)), c64(1));
               Value biased = arith::AddIOp::create(nb, l, v, c64((int64_t(1) << (g - 1)) - 1));
               Value rounded =
                   arith::ShRSIOp::create(nb, l, arith::AddIOp::create(nb, l, biased, odd), c64(g));
               linalg::YieldOp::create(nb, l, toOutput(nb, l, rounded, q, outElem));
             })
      .getResult(0);
}

} // namespace ming::quant
