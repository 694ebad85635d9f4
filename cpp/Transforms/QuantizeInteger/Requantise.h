// The requantisation arithmetic of ming-quantize-integer: a real multiplier
// as an integer multiplier and shift (fixedPoint), and IntBuilder, which
// builds the integer constants, fills, broadcasts and the requantising
// generic (onnxruntime's rounding) that the rewrites (Rewriter.cpp) emit.
// Header-only, like the emit helpers of convert-linalg-to-dfg. Private to
// this folder.
#ifndef MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H
#define MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H

#include "QDQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>

namespace ming::quant {

/// Multipliers m[c] and one shift s with M[c] ~= m[c] / 2^s, m < 2^31.
struct FixedPoint {
  SmallVector<int64_t> m;
  int shift;
};

inline std::optional<FixedPoint> fixedPoint(ArrayRef<double> reals) {
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

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H
