// The compile-time evaluator of scalar arith and math ops, shared by the
// passes that compute at compile time what the model would compute at run
// time: ming-fold-constants (whole generics of constants) and
// ming-quantize-integer (the lookup table of an elementwise function of an
// 8-bit value). Floats are held as doubles and rounded to the result type
// after every op, so an f32 payload evaluates as f32 arithmetic does, op by
// op in the payload's order. Private to cpp/Transforms.
#ifndef MING_TRANSFORMS_SCALAREVAL_H
#define MING_TRANSFORMS_SCALAREVAL_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace ming::eval {

/// One scalar: a float held as double (f32 results rounded to float after
/// every op) or an integer held sign-extended from its width.
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

/// Bits of an integer or index type (index: 64), 0 for anything else.
int64_t widthOf(mlir::Type t);

/// `v` wrapped to `width` bits, sign-extended.
int64_t wrap(int64_t v, int64_t width);

/// `v` rounded to the precision of the float type `t` (f32; f64 as is).
double roundTo(mlir::Type t, double v);

/// A float or integer attribute as a scalar.
std::optional<Scalar> scalarOf(mlir::Attribute attr);

/// Whether `t` is a type the evaluator computes in: f32, f64, integers up
/// to 64 bits.
bool supportedElement(mlir::Type t);

/// Evaluates `op` on `in`; nothing for ops it does not know (and for
/// results without a value: a shift by the width or more, a division by
/// zero, a float out of range of an integer conversion). Callers must round
/// to nearest (the default) for math.roundeven.
std::optional<Scalar> evaluate(mlir::Operation *op, llvm::ArrayRef<Scalar> in);

/// Whether `evaluate` knows the kind of `op` (whatever its operands).
bool knows(mlir::Operation *op);

/// Evaluates a payload block (of a linalg.generic) point by point: its
/// arguments bound to the given scalars, `linalg.index d` to the d-th loop
/// index, constants defined inside or captured from outside read as such,
/// every other op by `evaluate`, in the block's order.
class BlockEvaluator {
public:
  explicit BlockEvaluator(mlir::Block &body) : body(body) {}

  /// The terminator's operands, or nothing with failedAt() naming the op
  /// without a value (null when a captured value is not a constant).
  std::optional<llvm::SmallVector<Scalar, 1>> run(llvm::ArrayRef<Scalar> args,
                                                  llvm::ArrayRef<int64_t> ivs = {});
  mlir::Operation *failedAt() const { return failed; }

private:
  std::optional<Scalar> valueOf(mlir::Value v);

  mlir::Block &body;
  llvm::DenseMap<mlir::Value, Scalar> env;
  mlir::Operation *failed = nullptr;
};

} // namespace ming::eval

#endif // MING_TRANSFORMS_SCALAREVAL_H
