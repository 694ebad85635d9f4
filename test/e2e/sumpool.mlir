// RUN: %python %root/scripts/e2e.py %s --work %t
// pooling_nchw_sum 3x3 stride 1, no padding, f32 (32x32 -> 30x30).
func.func @sumpool(%arg0: tensor<1x8x32x32xf32>) -> tensor<1x8x30x30xf32> {
  %empty1 = tensor.empty() : tensor<1x8x30x30xf32>
  %c2 = arith.constant 0.0 : f32
  %init3 = linalg.fill ins(%c2 : f32) outs(%empty1 : tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32>
  %win4 = tensor.empty() : tensor<3x3xf32>
  %pool5 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%arg0, %win4 : tensor<1x8x32x32xf32>, tensor<3x3xf32>) outs(%init3 : tensor<1x8x30x30xf32>) -> tensor<1x8x30x30xf32>
  return %pool5 : tensor<1x8x30x30xf32>
}
