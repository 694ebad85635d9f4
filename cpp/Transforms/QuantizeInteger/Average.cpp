// Average pooling and ReduceMean on integers (Rewriter.h): the window sum in
// i32, then the division by the number of cells each window counts. That
// number is one constant, or, where the padding is not counted (SAME
// padding as Keras and TFLite write it), one per output position: the front
// end writes such a pool as a sum over zero padding divided by the kernel
// size, times a constant n / count per position (onnx_windows.py).
//
// Two roundings, because the references differ: onnxruntime averages in
// float and rounds the quotient half to even; TFLite's integer kernel
// divides the sum of the raw int8 values (zero point included) by the count
// and rounds half away from zero. The pass's `rounding` option picks one.
#include "Requantise.h"
#include "Rewriter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

namespace ming::quant {

namespace {

/// Bits of a signed integer whose magnitude is at most `v`.
unsigned signedBits(int64_t v) { return APInt(64, static_cast<uint64_t>(v)).getActiveBits() + 1; }

} // namespace

std::optional<Rewriter::Average> Rewriter::matchAverage(linalg::GenericOp g) {
  if (!isElementwise(g) || g.getNumDpsInputs() < 1 || g.getNumDpsInputs() > 2)
    return std::nullopt;
  Block *body = g.getBody();
  Operation *op = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0).getDefiningOp();
  // (sum) / n
  if (auto div = dyn_cast_or_null<arith::DivFOp>(op); div && g.getNumDpsInputs() == 1 &&
                                                      div.getLhs() == body->getArgument(0)) {
    auto n = scalarConstant(div.getRhs());
    auto sum = g.getDpsInputOperand(0)->get().getDefiningOp<linalg::GenericOp>();
    if (n && *n > 0 && sum && matchReduction(sum) == Reduction::Sum)
      return Average{sum, *n, {}, {}, {}};
    return std::nullopt;
  }
  // ((sum) / n) * (n / count): a count per position, the constant factor
  // read through a projection of the loops.
  if (!isa_and_nonnull<arith::MulFOp>(op) || g.getNumDpsInputs() != 2 || !readsBothInputs(op, body))
    return std::nullopt;
  for (unsigned i = 0; i < 2; ++i) {
    OpOperand *avgOperand = g.getDpsInputOperand(i), *factor = g.getDpsInputOperand(1 - i);
    auto avg = avgOperand->get().getDefiningOp<linalg::GenericOp>();
    if (!avg || !g.getMatchingIndexingMap(avgOperand).isIdentity())
      continue;
    std::optional<Average> inner = matchAverage(avg);
    if (!inner || !inner->counts.empty())
      continue;
    auto vals = denseValues(factor->get());
    auto type = dyn_cast<RankedTensorType>(factor->get().getType());
    AffineMap map = g.getMatchingIndexingMap(factor);
    if (!vals || !type || !type.hasStaticShape() || !map.isProjectedPermutation(/*allowZeroInResults=*/true))
      continue;
    // The factor is n / count: count = n / factor, an integer from 1 to n.
    SmallVector<int64_t> counts;
    for (double f : *vals) {
      double c = f > 0 ? inner->divisor / f : 0;
      int64_t r = std::llround(c);
      if (!(c > 0.5) || r > static_cast<int64_t>(inner->divisor) || std::fabs(c - r) > 1e-4 * r)
        return std::nullopt;
      counts.push_back(r);
    }
    inner->counts = std::move(counts);
    inner->countsShape.assign(type.getShape().begin(), type.getShape().end());
    inner->countsMap = map;
    return inner;
  }
  return std::nullopt;
}

/// Q(sum / count): i32 sum, then the division by the count as the
/// reference rounds it (the file's head).
std::optional<Value> Rewriter::average(const Average &avg, const Quant &q, Type outElem) {
  linalg::GenericOp sum = avg.sum;
  auto x = asQuant(sum.getDpsInputOperand(0)->get());
  if (!x)
    return std::nullopt;
  auto init = spreadSource(sum.getDpsInitOperand(0)->get());
  std::optional<double> start = init ? scalarConstant(init->first) : std::nullopt;
  if (!start || *start != 0)
    return fail("a sum pooling that does not start from 0"), std::nullopt;
  // Terms per output: the pool's window, or the reduced loops' trips.
  int64_t n = 1;
  if (sum.getNumDpsInputs() == 2) {
    auto window = dyn_cast<RankedTensorType>(sum.getDpsInputOperand(1)->get().getType());
    if (!window || !window.hasStaticShape())
      return fail("a pooling window of unknown size"), std::nullopt;
    n = window.getNumElements();
  } else {
    for (auto [range, type] : llvm::zip(sum.getStaticLoopRanges(), sum.getIteratorTypesArray()))
      if (type == utils::IteratorType::reduction) {
        if (ShapedType::isDynamic(range))
          return fail("a sum over a dynamic range"), std::nullopt;
        n *= range;
      }
  }
  bool perPosition = !avg.counts.empty();
  // TFLite's kernel divides raw sums by the count of the cells it reads,
  // the output encoded as the input (it requires that): where the divisor
  // is the window's size or the counts stand for it.
  bool tflite = rounding == Rounding::Tflite && x->zp == q.zp &&
                std::fabs(x->scale - q.scale) <= 1e-6 * q.scale && std::fabs(avg.divisor - double(n)) < 1e-9;
  IntBuilder ib{b, sum.getLoc()};
  Value acc = sumOnIntegers(sum, *x);
  int64_t bound = n * IntBuilder::centredMagnitude(x->q.getType(), x->zp);
  if (!perPosition && !tflite) {
    auto fp = fixedPoint({x->scale / (avg.divisor * q.scale)});
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    return ib.requantise(acc, *fp, -1, -n * x->zp, bound, q, outElem);
  }
  // The count of each output: a constant, or read per position from a
  // constant tensor of i8 (i16 past 127).
  int64_t most = perPosition ? *llvm::max_element(avg.counts) : std::llround(avg.divisor);
  Value counts;
  if (perPosition) {
    if (most > 4096)
      return fail("an average over more than 4,096 cells per position"), std::nullopt;
    Type elem = b.getIntegerType(most < 128 ? 8 : 16);
    auto type = RankedTensorType::get(avg.countsShape, elem);
    SmallVector<APInt> ints;
    for (int64_t c : avg.counts)
      ints.push_back(APInt(elem.getIntOrFloatBitWidth(), c));
    counts = arith::ConstantOp::create(b, sum.getLoc(), DenseElementsAttr::get(type, ints));
  }
  // onnxruntime: roundeven(S * scale_in / (count * scale_out)) + zp_out,
  // S the centred sum: a multiplier per count, read at the count.
  // TFLite: the raw sum S + count * zp, divided by the count half away from
  // zero: (|raw| + count / 2) * ceil(2^s / count) >> s is exactly
  // floor((|raw| + count / 2) / count) while |raw| + count / 2 <= R and
  // R * count < 2^s (the rounding error of the reciprocal stays below one
  // count's step).
  SmallVector<double> reals;
  int64_t reach = bound + most * std::llabs(x->zp) + most / 2; // R
  int shift = tflite ? static_cast<int>(signedBits(reach * most)) : 0;
  SmallVector<int64_t> mult(most + 1, 0);
  if (tflite) {
    if (shift > 40)
      return fail("an average whose exact division needs a shift above 40"), std::nullopt;
    for (int64_t c = 1; c <= most; ++c)
      mult[c] = ((int64_t(1) << shift) + c - 1) / c;
  } else {
    for (int64_t c = 1; c <= most; ++c)
      reals.push_back(x->scale / (double(c) * q.scale));
    auto fp = fixedPoint(reals);
    if (!fp)
      return fail("a requantisation multiplier out of range"), std::nullopt;
    shift = fp->shift;
    for (int64_t c = 1; c <= most; ++c)
      mult[c] = fp->m[c - 1];
  }
  Value table = perPosition ? ib.constVector(mult, b.getI64Type()) : Value();
  int64_t centred = -n * x->zp;
  auto resultType = cast<RankedTensorType>(acc.getType());
  unsigned rank = resultType.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  SmallVector<Value> ins{acc};
  SmallVector<AffineMap> maps{id};
  if (perPosition) {
    ins.push_back(counts);
    maps.push_back(avg.countsMap);
  }
  maps.push_back(id);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, sum.getLoc(), TypeRange{RankedTensorType::get(resultType.getShape(), outElem)}, ins,
             ValueRange{ib.empty(acc, outElem)}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               auto c = [&](int64_t v) {
                 return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v)).getResult();
               };
               Type i64 = nb.getI64Type();
               Value s = arith::ExtSIOp::create(nb, l, i64, args[0]);
               if (centred != 0)
                 s = arith::AddIOp::create(nb, l, s, c(centred));
               Value count = perPosition ? arith::ExtUIOp::create(nb, l, i64, args[1]).getResult() : c(most);
               Value m = perPosition ? tensor::ExtractOp::create(
                                           nb, l, table,
                                           ValueRange{arith::IndexCastOp::create(nb, l, nb.getIndexType(), count)})
                                           .getResult()
                                     : c(mult[most]);
               if (!tflite) {
                 Value prod = arith::MulIOp::create(nb, l, IntBuilder::narrow(nb, l, s, bound), m);
                 linalg::YieldOp::create(nb, l, ib.requantTail(nb, l, prod, shift, q.zp, q.lo, q.hi, outElem));
                 return;
               }
               // The raw sum: the centred one plus the zero point of each
               // cell the window reads inside the input.
               Value raw = s;
               if (x->zp != 0)
                 raw = arith::AddIOp::create(nb, l, s,
                                             perPosition ? arith::MulIOp::create(nb, l, count, c(x->zp)).getResult()
                                                         : c(most * x->zp));
               Value negative = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, raw, c(0));
               Value magnitude =
                   arith::SelectOp::create(nb, l, negative, arith::SubIOp::create(nb, l, c(0), raw), raw);
               Value half = perPosition ? arith::ShRUIOp::create(nb, l, count, c(1)).getResult() : c(most / 2);
               Value num = IntBuilder::narrow(nb, l, arith::AddIOp::create(nb, l, magnitude, half), reach);
               Value quot = arith::ShRSIOp::create(nb, l, arith::MulIOp::create(nb, l, num, m), c(shift));
               Value r = arith::SelectOp::create(nb, l, negative, arith::SubIOp::create(nb, l, c(0), quot), quot);
               r = arith::MaxSIOp::create(nb, l, r, c(q.lo));
               r = arith::MinSIOp::create(nb, l, r, c(q.hi));
               linalg::YieldOp::create(nb, l, arith::TruncIOp::create(nb, l, outElem, r).getResult());
             })
      .getResult(0);
}

/// The window sum (or the reduction) on the i8 values, accumulated in i32
/// from 0: the raw sum, zero points included.
Value Rewriter::sumOnIntegers(linalg::GenericOp sum, const QInfo &x) {
  IntBuilder ib{b, sum.getLoc()};
  Type i32 = b.getI32Type();
  Value acc0 = ib.fill(sum.getResult(0), i32, 0);
  SmallVector<Value> ins{x.q};
  if (sum.getNumDpsInputs() == 2)
    ins.push_back(sum.getDpsInputOperand(1)->get());
  return linalg::GenericOp::create(b, sum.getLoc(), TypeRange{acc0.getType()}, ins, ValueRange{acc0},
                                   sum.getIndexingMapsArray(), sum.getIteratorTypesArray(),
                                   [&](OpBuilder &nb, Location l, ValueRange args) {
                                     Value a = arith::ExtSIOp::create(nb, l, i32, args[0]);
                                     linalg::YieldOp::create(
                                         nb, l, arith::AddIOp::create(nb, l, args.back(), a).getResult());
                                   })
      .getResult(0);
}

} // namespace ming::quant
