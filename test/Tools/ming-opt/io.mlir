// mlir-opt behaviour: stdin, -o, pass flags with options in order, --pass-pipeline,
// IR printing flags, generic form.
// REQUIRES: ming-opt
// RUN: ming-opt < %s | FileCheck %s --check-prefix=ID
// RUN: ming-opt - < %s -o %t && FileCheck %s --check-prefix=ID < %t
// RUN: ming-opt %s --canonicalize="max-iterations=3 test-convergence=false" | FileCheck %s --check-prefix=CANON
// RUN: ming-opt %s -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: ming-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s --check-prefix=CANON
// RUN: ming-opt %s --canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: ming-opt %s --canonicalize --mlir-print-ir-before-all 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: ming-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: ming-opt %s --canonicalize --dump-pass-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPE
// RUN: ming-opt %S/../../Analysis/kernel-analysis-plugin.mlir -split-input-file --linalg-generalize-named-ops --ming-test-kernel-analysis --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=QUIET
// RUN: ming-opt %S/../../Analysis/kernel-analysis-plugin.mlir -split-input-file --linalg-generalize-named-ops --ming-test-kernel-analysis 2>&1 >/dev/null | FileCheck %s --check-prefix=LOUD

// ID: %[[C:.*]] = arith.constant 2 : i32
// ID: arith.addi
// CANON-NOT: arith.addi
// CANON: arith.constant 4 : i32
// DUMP: // -----// IR Dump After Canonicalizer (canonicalize)
// BEFORE: // -----// IR Dump Before Canonicalizer (canonicalize)
// GENERIC: "func.func"()
// GENERIC: "arith.addi"
// PIPE: canonicalize{
// QUIET: remark: kernel:
// QUIET-NOT: see current operation
// LOUD: remark: kernel:
// LOUD: note: see current operation

func.func @fold() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.addi %a, %a : i32
  return %b : i32
}
