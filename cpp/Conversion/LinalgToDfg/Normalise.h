// What convert-linalg-to-dfg does to the linalg function before it builds the
// graph: choose and check the function, then rewrite it so the graph builder
// meets fewer shapes of the same thing (Normalise.cpp, LiftWindows.cpp,
// GatherWindows.cpp). The
// readers of constants are shared with the graph builder.
#ifndef MING_CONVERSION_LINALGTODFG_NORMALISE_H
#define MING_CONVERSION_LINALGTODFG_NORMALISE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace ming::lowering {

/// The function to compile (`top`, or the module's only one), or a
/// diagnostic; the other functions are dropped.
mlir::FailureOr<mlir::func::FuncOp> theFunction(mlir::ModuleOp module, llvm::StringRef top);

/// Checks every op of the body and generalises named linalg ops; with
/// `gatherWindows`, convolutions are split (gatherConvolutionWindows).
mlir::LogicalResult normalise(mlir::func::FuncOp func, bool gatherWindows);

/// 1-D sliding windows become 2-D windows over a unit axis (LiftWindows.cpp).
mlir::LogicalResult liftOneDimWindows(mlir::func::FuncOp func);

/// Convolutions become a gather of their windows (a generic marked with
/// kWindowTaps) and a contraction over it (GatherWindows.cpp).
void gatherConvolutionWindows(mlir::func::FuncOp func);

/// The dims of a gather's result (a generic marked with kWindowTaps) that
/// index the window positions: rows, then columns.
llvm::SmallVector<unsigned> gatheredPixelDims(mlir::linalg::GenericOp gather);

/// Whether the payload of `op` computes on integers only (its unused block
/// arguments aside: a pool's window-shape operand may be f32).
bool integerPayload(mlir::linalg::GenericOp op);

/// The constant `v` is defined by, if any.
mlir::TypedAttr constantOf(mlir::Value v);

/// The constant a fill-like generic writes everywhere (linalg.fill after
/// generalisation), if `op` is one.
mlir::TypedAttr fillValue(mlir::linalg::GenericOp op);

/// A generic that only broadcasts (or permutes) a constant tensor, as a
/// bias broadcast to a feature map: the constant, and the map from the
/// generic's result coordinates to the constant's.
struct ConstantBroadcast {
  mlir::arith::ConstantOp constant;
  mlir::AffineMap through;
};
std::optional<ConstantBroadcast> constantBroadcast(mlir::linalg::GenericOp op);

/// The constant value yielded by a tensor.pad, if it is one.
mlir::TypedAttr padValue(mlir::tensor::PadOp pad);

} // namespace ming::lowering

#endif
