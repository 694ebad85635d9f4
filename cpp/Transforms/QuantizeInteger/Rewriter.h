// The rewrites of ming-quantize-integer: Rewriter rebuilds on integers what
// computes the input of a quantize (an anchor), layer by layer: contractions,
// pooling, additions, products, clamps, data movement (Rewriter.cpp), and
// elementwise functions of one tensor as lookup tables (Lookup.cpp),
// softmax and log-softmax with a table of exponentials (Softmax.cpp). The
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

/// Float elementwise generics that compute a value from one tensor, the
/// others they read being constants (Lookup.cpp).
struct UnaryChain {
  Value source;                       // the one tensor
  SmallVector<linalg::GenericOp> ops; // each after those it reads; the value's last
};

/// The chain computing `v`, or nothing when `v` is not an elementwise
/// function of one tensor (or is that tensor).
std::optional<UnaryChain> unaryChain(Value v);

/// Whether `div` is the last generic of a softmax as IREE writes it (exp of
/// x - max(x), divided by its sum over one axis; Softmax.cpp).
bool isSoftmax(linalg::GenericOp div);

/// Whether `sub` is the last generic of a log-softmax as IREE writes it
/// ((x - max(x)) - log of the sum of its exp over one axis; Softmax.cpp).
bool isLogSoftmax(linalg::GenericOp sub);

/// Whose rounding the integers follow where the references differ:
/// onnxruntime's (float arithmetic, half to even) or TFLite's kernels (an
/// average: the raw sum over the cells it reads divided by their count, half
/// away from zero; LeakyRelu: XNNPACK's 8-bit fixed-point multiply).
enum class Rounding { Onnx, Tflite };

struct Rewriter {
  func::FuncOp func;
  OpBuilder b;
  Rounding rounding = Rounding::Onnx;
  std::string why; // the reason of the last failure
  llvm::DenseMap<Value, QInfo> memo;

  explicit Rewriter(func::FuncOp f) : func(f), b(f.getContext()) {}

  bool fail(const Twine &reason) {
    why = reason.str();
    return false;
  }

  std::optional<QInfo> asQuant(Value v);
  std::optional<QInfo> asQuantUncached(Value v);
  Value reshapedLike(Operation *reshape, Value v);

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
  /// An average pooling or a mean: `sum` / `divisor`, and where the
  /// padding is not counted, the cells each output counts (`counts`, shaped
  /// `countsShape`, read through `countsMap` from the average's loops).
  struct Average {
    linalg::GenericOp sum;
    double divisor;
    SmallVector<int64_t> counts;
    SmallVector<int64_t> countsShape;
    AffineMap countsMap;
  };
  static std::optional<Average> matchAverage(linalg::GenericOp g);
  /// Q(average) on integers, rounded as `rounding` says (Average.cpp).
  std::optional<Value> average(const Average &avg, const Quant &q, Type outElem);
  Value sumOnIntegers(linalg::GenericOp sum, const QInfo &x);
  std::optional<Value> add(linalg::GenericOp g, const Quant &q, Type outElem);
  std::optional<Value> mul(linalg::GenericOp g, const Quant &q, Type outElem);
  /// Q(f(D(x))) for an elementwise f of one i8 tensor x: a lookup in the
  /// 256 values of the function, computed at compile time (Lookup.cpp).
  std::optional<Value> lookup(linalg::GenericOp qop, const UnaryChain &chain);
  /// Q(softmax(D(x))) over the last axis of an i8 tensor x, `div` the
  /// softmax's last generic (exp / sum): integer max, a table of exp, an
  /// integer sum and division (Softmax.cpp).
  std::optional<Value> softmax(linalg::GenericOp div, const Quant &q, Type outElem);
  /// Q(log_softmax(D(x))) likewise, `sub` its last generic: the same max,
  /// table and sum, the row's log from the sum's leading bits (Softmax.cpp).
  std::optional<Value> logSoftmax(linalg::GenericOp sub, const Quant &q, Type outElem);
  std::optional<Value> rewriteAnchor(linalg::GenericOp qop, const Quant &anchor);
  /// The integers `qop` gives for `in`, its input with clamps and reshapes
  /// (`reshaped`) peeled off (`q`: the bounds the clamps narrowed).
  std::optional<Value> quantised(linalg::GenericOp qop, Value in, const Quant &q, const Quant &anchor,
                                 Type outElem, bool reshaped);
};

} // namespace ming::quant

#endif // MING_TRANSFORMS_QUANTIZEINTEGER_REWRITER_H
