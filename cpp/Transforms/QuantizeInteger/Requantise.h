// The requantisation arithmetic of ming-quantize-integer: a real multiplier
// as an integer multiplier and shift (fixedPoint), and IntBuilder, which
// builds the integer constants, fills, broadcasts and the requantising
// generic (onnxruntime's rounding) that the rewrites (Rewriter.cpp) emit.
// Header-only, like the emit helpers of convert-linalg-to-dfg. Private to
// this folder.
#ifndef MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H
#define MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H

#include "OneDsp.h"
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

  /// `x` (an i64 whose magnitude never exceeds `bound`) through the
  /// narrowest signed type that holds it: the multiplier it feeds is then
  /// as wide as the value, not as its i64 carrier (a 22 x 31-bit product
  /// takes 2 DSP48E2, a 64 x 31-bit one 5), in the cost model and in Vitis,
  /// which sizes a multiplier by its operands' sign extensions.
  static Value narrow(OpBuilder &nb, Location l, Value x, int64_t bound) {
    unsigned bits = APInt(64, static_cast<uint64_t>(bound)).getActiveBits() + 1;
    if (bound < 0 || bits >= 64)
      return x;
    Value t = arith::TruncIOp::create(nb, l, nb.getIntegerType(bits), x);
    return arith::ExtSIOp::create(nb, l, nb.getI64Type(), t);
  }

  /// The largest magnitude an integer of `t`'s element type takes.
  static int64_t magnitude(Type t) {
    return int64_t(1) << (getElementTypeOrSelf(t).getIntOrFloatBitWidth() - 1);
  }

  /// The largest magnitude of `q - zp` for q of `t`'s element type.
  static int64_t centredMagnitude(Type t, int64_t zp) { return magnitude(t) + std::llabs(zp); }

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

  /// A generic over `acc` with elements of type `out`: each of `vectors`
  /// (constants with one element per index along `dim`) joins acc as an
  /// input, and `body` gets acc's element in i64 plus `offset`, then the
  /// vectors' elements.
  Value perElement(Value acc, int dim, int64_t offset, ArrayRef<Value> vectors, Type out,
                   llvm::function_ref<Value(OpBuilder &, Location, Value, ValueRange)> body) {
    auto t = cast<RankedTensorType>(acc.getType());
    MLIRContext *ctx = b.getContext();
    unsigned rank = t.getRank();
    AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(dim < 0 ? 0 : dim, ctx));
    SmallVector<Value> ins{acc};
    SmallVector<AffineMap> maps{id};
    for (Value v : vectors) {
      ins.push_back(v);
      maps.push_back(channel);
    }
    maps.push_back(id);
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    return linalg::GenericOp::create(
               b, loc, TypeRange{RankedTensorType::get(t.getShape(), out)}, ins, ValueRange{empty(acc, out)}, maps,
               iters,
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value x = arith::ExtSIOp::create(nb, l, nb.getI64Type(), args[0]);
                 if (offset != 0)
                   x = arith::AddIOp::create(nb, l, x,
                                             arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(offset)));
                 linalg::YieldOp::create(nb, l, body(nb, l, x, args.drop_front()));
               })
        .getResult(0);
  }

  /// out = requant(acc + offset) with per-index multipliers along `dim` of
  /// acc (or one multiplier when fp.m has one element); |acc + offset| is at
  /// most `bound` (what the producer can reach; -1 when unknown). In one
  /// DSP (OneDsp.h) where that is exact.
  Value requantise(Value acc, const FixedPoint &fp, int dim, int64_t offset, int64_t bound, const Quant &q,
                   Type out) {
    if (std::optional<OneDsp> one = oneDsp(fp.m, fp.shift, bound, q.lo - q.zp, q.hi - q.zp))
      return requantiseOneDsp(acc, *one, dim, offset, q, out);
    bool perChannel = llvm::any_of(fp.m, [&](int64_t m) { return m != fp.m[0]; });
    // Multipliers below 2^31 are stored as i32: a ROM half as wide, and a
    // multiplier input of 32 bits.
    bool narrowM = llvm::all_of(fp.m, [](int64_t m) { return m < (int64_t(1) << 31); });
    SmallVector<Value> vectors;
    if (perChannel)
      vectors.push_back(constVector(fp.m, narrowM ? b.getI32Type() : b.getI64Type()));
    int64_t m0 = fp.m[0];
    int shift = fp.shift;
    return perElement(acc, dim, offset, vectors, out, [&](OpBuilder &nb, Location l, Value x, ValueRange v) {
      x = narrow(nb, l, x, bound);
      Value m = !perChannel ? arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(m0)).getResult()
                : narrowM   ? arith::ExtSIOp::create(nb, l, nb.getI64Type(), v[0]).getResult()
                            : v[0];
      Value prod = arith::MulIOp::create(nb, l, x, m);
      return requantTail(nb, l, prod, shift, q.zp, q.lo, q.hi, out);
    });
  }

  /// requantise in the form `one` gives: x clamped and centred to 18 bits,
  /// times a 27-bit signed operand, plus the centre's product (OneDsp).
  Value requantiseOneDsp(Value acc, const OneDsp &one, int dim, int64_t offset, const Quant &q, Type out) {
    bool perChannel = llvm::any_of(one.m, [&](int64_t m) { return m != one.m[0]; });
    bool centred = one.centre != 0;
    // The DSP's operand: the multiplier, less 2^26 with an offset.
    const int64_t offset26 = one.offset ? int64_t(1) << 26 : 0;
    SmallVector<int64_t> operand;
    for (int64_t m : one.m)
      operand.push_back(m - offset26);
    SmallVector<Value> vectors;
    if (perChannel) {
      vectors.push_back(constVector(operand, b.getI32Type()));
      if (centred)
        vectors.push_back(constVector(one.k, b.getI64Type()));
    }
    return perElement(acc, dim, offset, vectors, out, [&](OpBuilder &nb, Location l, Value x, ValueRange v) {
      auto c = [&](int64_t value) {
        return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(value)).getResult();
      };
      if (one.clamp) {
        x = arith::MaxSIOp::create(nb, l, x, c(one.xlo));
        x = arith::MinSIOp::create(nb, l, x, c(one.xhi));
        if (centred)
          x = arith::SubIOp::create(nb, l, x, c(one.centre));
      }
      x = narrow(nb, l, x, (int64_t(1) << 17) - 1);
      Value m = perChannel ? narrow(nb, l, arith::ExtSIOp::create(nb, l, nb.getI64Type(), v[0]),
                                    (int64_t(1) << 26) - 1)
                           : c(operand[0]);
      Value prod = arith::MulIOp::create(nb, l, x, m);
      if (one.offset)
        prod = arith::AddIOp::create(nb, l, prod, arith::ShLIOp::create(nb, l, x, c(26)));
      if (centred)
        prod = arith::AddIOp::create(nb, l, prod, perChannel ? v[1] : c(one.k[0]));
      return requantTail(nb, l, prod, one.shift, q.zp, q.lo, q.hi, out);
    });
  }
};

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_REQUANTISE_H
