// Found by scripts/fuzz.py (a number of test/e2e/bias_broadcast.mlir mutated to
// 1e39): MLIR 22's parser of linalg.broadcast dereferences a null attribute when
// the `dimensions` list does not parse, a segmentation fault in every mode (and
// in mlir-opt-22). ming-opt refuses such input with a located error first.
// RUN: not ming-opt %s --hls %t 2>&1 | FileCheck %s
// RUN: not ming-opt %s --convert-linalg-to-dfg 2>&1 | FileCheck %s
// RUN: not ming-opt %s --dse 2>&1 | FileCheck %s
// RUN: not ming-opt %s --simulate 2>&1 | FileCheck %s
// RUN: not ming-opt %s 2>&1 | FileCheck %s
// RUN: not ming-opt - < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not ming-opt - --hls %t < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// CHECK: parser-trap-broadcast.mlir:[[@LINE+6]]:93: error: 'linalg.broadcast' expects 'dimensions = [i, j, ...]', a list of integers within i64 (MLIR's parser would crash here)
// CHECK-NEXT: dimensions = [0, 2, 1e39]
// CHECK-NEXT: ^
// STDIN: <stdin>:[[@LINE+3]]:93: error: 'linalg.broadcast' expects 'dimensions
// CHECK-NOT: Stack dump
func.func @bias(%b: tensor<8xf32>, %e: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) dimensions = [0, 2, 1e39]
  return %0 : tensor<1x8x4x4xf32>
}
