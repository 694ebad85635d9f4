// RUN: %python %root/scripts/e2e.py %s --work %t
// linalg.transpose NCHW -> NHWC, int8.
func.func @transpose(%arg0: tensor<1x8x32x32xi8>) -> tensor<1x32x32x8xi8> {
  %empty1 = tensor.empty() : tensor<1x32x32x8xi8>
  %t = linalg.transpose ins(%arg0 : tensor<1x8x32x32xi8>) outs(%empty1 : tensor<1x32x32x8xi8>) permutation = [0, 2, 3, 1]
  return %t : tensor<1x32x32x8xi8>
}
