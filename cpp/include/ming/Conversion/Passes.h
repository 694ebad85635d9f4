// Declarations of ming's conversion passes (td/ming/Conversion/Passes.td).
#ifndef MING_CONVERSION_PASSES_H
#define MING_CONVERSION_PASSES_H

#include "ming/Dfg/Dfg.h"
#include "ming/EmitHLS/EmitHLS.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ming {
#define GEN_PASS_DECL
#include "ming/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

#endif
