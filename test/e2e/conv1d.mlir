// RUN: %python %root/scripts/e2e.py %s --work %t
// 1-D layers: conv 3->4, kernel 3, padding 2/1, stride 2, dilation 2, then a
// 1-D max pool (kernel 2, stride 2); f32, checked against mlir-runner. Each
// becomes a 2-D window over a unit axis (no full buffer).
// RUN: ming-opt %s --convert-linalg-to-dfg 2>&1 | FileCheck %s
// CHECK-NOT: remark: {{.*}}reordering
// CHECK-COUNT-2: kind = #dfg.kind<sliding_window>
func.func @conv1d(%x: tensor<1x3x17xf32>) -> tensor<1x4x4xf32> {
  %w = arith.constant dense<[[[0.5, -0.25, 0.125], [0.3, 0.2, -0.1], [-0.4, 0.6, 0.05]],
                             [[0.1, 0.2, 0.3], [-0.3, -0.2, -0.1], [0.7, -0.6, 0.5]],
                             [[-0.05, 0.15, -0.25], [0.35, -0.45, 0.55], [0.2, 0.1, 0.0]],
                             [[0.9, -0.8, 0.7], [0.0, 0.25, -0.5], [0.125, 0.375, -0.625]]]> : tensor<4x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x3x17xf32> to tensor<1x3x20xf32>
  %e = tensor.empty() : tensor<1x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%p, %w : tensor<1x3x20xf32>, tensor<4x3x3xf32>) outs(%f : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %k = tensor.empty() : tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x4x4xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m = linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%c, %k : tensor<1x4x8xf32>, tensor<2xf32>) outs(%f2 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %m : tensor<1x4x4xf32>
}
