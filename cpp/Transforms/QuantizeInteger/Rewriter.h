// The rewrites of ming-quantize-integer: Rewriter rebuilds on integers what
// computes the input of a quantize (an anchor), layer by layer: contractions,
// pooling, additions, products, clamps, data movement (Rewriter.cpp). The
// pass (QuantizeInteger.cpp) only asks it for an anchor's replacement.
// Private to this folder.
#ifndef MING_TRANSFORMS_QUANTIZEINTEGER_REWRITER_H
#define MING_TRANSFORMS_QUANTIZEINTEGER_REWRITER_H

#include "QDQ.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace ming::quant {

/// A per-tensor quantised activation: the float value equals (q - zp) * scale.
struct QInfo {
  Value q;
  double scale;
  int64_t zp;
};

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

  std::optional<QInfo> asQuant(Value v);
  std::optional<QInfo> asQuantUncached(Value v);

  /// A dequantised constant (weights, bias): its integer values, scales and
  /// zero points.
  struct ConstQ {
    Dequant d;
    SmallVector<double> vals;
    RankedTensorType type;
  };

  std::optional<ConstQ> constQuant(Value v);
  std::optional<Value> contraction(linalg::GenericOp g, std::optional<ConstQ> addBias, int addBiasDim,
                                   const Quant &q, Type outElem);
  std::optional<Value> average(linalg::GenericOp sum, double divisor, const Quant &q, Type outElem);
  std::optional<Value> add(linalg::GenericOp g, const Quant &q, Type outElem);
  std::optional<Value> mul(linalg::GenericOp g, const Quant &q, Type outElem);
  std::optional<Value> rewriteAnchor(linalg::GenericOp qop, const Quant &anchor);
};

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_REWRITER_H
