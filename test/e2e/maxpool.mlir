// RUN: %python %root/scripts/e2e.py %s --work %t
// pooling_nchw_max 2x2 stride 2 on int8 (32x32 -> 16x16).
func.func @maxpool(%arg0: tensor<1x8x32x32xi8>) -> tensor<1x8x16x16xi8> {
  %empty1 = tensor.empty() : tensor<1x8x16x16xi8>
  %c2 = arith.constant -128 : i8
  %init3 = linalg.fill ins(%c2 : i8) outs(%empty1 : tensor<1x8x16x16xi8>) -> tensor<1x8x16x16xi8>
  %win4 = tensor.empty() : tensor<2x2xi8>
  %pool5 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%arg0, %win4 : tensor<1x8x32x32xi8>, tensor<2x2xi8>) outs(%init3 : tensor<1x8x16x16xi8>) -> tensor<1x8x16x16xi8>
  return %pool5 : tensor<1x8x16x16xi8>
}
