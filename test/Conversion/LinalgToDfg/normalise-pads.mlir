// What IREE writes for ceil_mode pools (found by scripts/onnx_fuzz.py):
// the pad value as an f64 constant truncated to f32 (arith.truncf does not
// fold the inexact -DBL_MAX: it becomes -inf, as the C++ cast rounds), the
// input padded twice with it (one pad: 1 row, 2 + 1 columns), and a pool of a
// padded constant of ones (a constant: read by index, no stream).
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// CHECK-LABEL: dfg.process @window1
// The padded width is 4 + 2 + 1 = 7: the line buffer holds Keff - 1 = 1 row.
// CHECK: memref.alloca() {{.*}} : memref<1x7x1xf32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-NOT: arith.truncf
// CHECK: dfg.graph
func.func @twice(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant -1.7976931348623157E+308 : f64
  %v = arith.truncf %big : f64 to f32
  %p = tensor.pad %x low[0, 0, 0, 2] high[0, 0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %v : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x5x6xf32>
  %pp = tensor.pad %p low[0, 0, 0, 0] high[0, 0, 0, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<1x1x5x6xf32> to tensor<1x1x5x7xf32>
  %e = tensor.empty() : tensor<1x1x4x6xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x1x4x6xf32>) -> tensor<1x1x4x6xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%pp, %k : tensor<1x1x5x7xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x4x6xf32>) -> tensor<1x1x4x6xf32>
  return %r : tensor<1x1x4x6xf32>
}

// -----

// The count of an average pool: a sum over a padded constant of ones is a
// reduction nest reading that constant (padded to 1x1x3x3 at compile time).
// CHECK: memref.global "private" constant @weights : memref<1x1x3x3xf32> = dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00, 0.000000e+00]
// CHECK-LABEL: dfg.process @reduce0(%{{.*}}: !dfg.out<f32>)
// CHECK: memref.get_global @weights
// CHECK: dfg.graph
func.func @ones(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ones = arith.constant dense<1.0> : tensor<1x1x2x2xf32>
  %p = tensor.pad %ones low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x1x2x2xf32> to tensor<1x1x3x3xf32>
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %cnt = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
           ins(%p, %k : tensor<1x1x3x3xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
       ins(%x, %cnt : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) outs(%e : tensor<1x1x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}
