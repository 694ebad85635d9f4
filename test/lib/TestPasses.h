// Declarations of the test-only passes (test/lib/TestPasses.td).
#ifndef MING_TEST_PASSES_H
#define MING_TEST_PASSES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ming {
#define GEN_PASS_DECL
#include "ming/Test/TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "ming/Test/TestPasses.h.inc"
} // namespace ming

#endif
