// Rewrites of the linalg function that convert-linalg-to-dfg applies before
// it builds the graph, so the graph builder meets fewer shapes of the same
// thing.
#ifndef MING_CONVERSION_LINALGTODFG_NORMALISE_H
#define MING_CONVERSION_LINALGTODFG_NORMALISE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ming::lowering {

/// 1-D sliding windows become 2-D windows over a unit axis (LiftWindows.cpp).
mlir::LogicalResult liftOneDimWindows(mlir::func::FuncOp func);

} // namespace ming::lowering

#endif
