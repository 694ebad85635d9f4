// Declarations of every ming pass (td/ming/Transforms/Passes.td).
#ifndef MING_TRANSFORMS_PASSES_H
#define MING_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace ming {
#define GEN_PASS_DECL
#include "ming/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

#endif
