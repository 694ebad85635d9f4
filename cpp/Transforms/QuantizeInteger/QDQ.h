// The QDQ vocabulary of ming-quantize-integer (QuantizeInteger.cpp): what a
// dequantize, a quantize, a constant leaf of a body and a reduction look
// like, and the matchers that read them off the float linalg.generic ops
// (QDQ.cpp). Shared by the requantisation arithmetic, the rewrites and the
// pass. Private to this folder.
#ifndef MING_TRANSFORMS_QUANTIZEINTEGER_QDQ_H
#define MING_TRANSFORMS_QUANTIZEINTEGER_QDQ_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <utility>

namespace ming::quant {
using namespace mlir;

Value stripExt(Value v);
std::optional<double> scalarConstant(Value v);
std::optional<SmallVector<double>> denseValues(Value v);

/// A per-element operand of a generic body that is a constant: one value, or
/// values varying along loop dimension `dim`.
struct Leaf {
  SmallVector<double> vals;
  int dim = -1;
};

std::optional<Leaf> leafOf(Value v, linalg::GenericOp g);
bool isElementwise(linalg::GenericOp g);
Type elementTypeOf(Value v);

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

std::optional<Dequant> matchDequant(Value v);

/// A quantize: clamp(roundeven(x / scale) + zp, lo, hi) to an integer type.
struct Quant {
  double scale;
  int64_t zp, lo, hi;
};

std::optional<Quant> matchQuant(linalg::GenericOp g);

int singleDim(AffineMap m);

/// Whether `op`'s two operands are the first two arguments of `body`, in
/// either order (a commutative op of a generic's two inputs).
bool readsBothInputs(Operation *op, Block *body);

/// What a two-input generic accumulates into its init.
enum class Reduction { MulAdd, Sum, Max };

std::optional<Reduction> matchReduction(linalg::GenericOp g);

std::optional<std::pair<Value, AffineMap>> spreadSource(Value v);

/// Re-encodes every unsigned (QUInt8) quantize of `func` as a signed one with
/// its zero point moved by 128, and every reader of its bytes to match
/// (Unsigned.cpp). False, changing nothing, when a reader is not understood.
bool signUnsignedQuantizes(func::FuncOp func);

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_QDQ_H
