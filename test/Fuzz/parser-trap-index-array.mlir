// Found by scripts/fuzz.py (test/Tools/frontend/tosa_conv_relu.mlir with
// `stride = array<i64: 1, 1>` mutated to `array<index: 1, 1>`): MLIR 22's dense
// array parser asks the index type for its bit width, a segmentation fault in
// every mode (and in mlir-opt-22). ming-opt refuses it with a located error.
// RUN: not ming-opt %s --dse 2>&1 | FileCheck %s
// RUN: not ming-opt %s --hls %t 2>&1 | FileCheck %s
// RUN: not ming-opt %s 2>&1 | FileCheck %s
// CHECK: parser-trap-index-array.mlir:[[@LINE+4]]:43: error: dense arrays of 'index' are not supported (MLIR's parser would crash here); use array<i64: ...>
// CHECK-NOT: Stack dump
// RUN: sed 's/array<index: 1, 1>/array < index >/' %s > %t.empty.mlir
// RUN: not ming-opt %t.empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
func.func @f() attributes {stride = array<index: 1, 1>} {
  return
}
// EMPTY: error: dense arrays of 'index' are not supported
