// RUN: %python %root/scripts/e2e.py %s --work %t
// linalg.batch_matmul of two int8 inputs, i32 results: [4x32x48] * [4x48x16].
func.func @batch_matmul(%arg0: tensor<4x32x48xi8>, %arg1: tensor<4x48x16xi8>) -> tensor<4x32x16xi32> {
  %empty1 = tensor.empty() : tensor<4x32x16xi32>
  %c2 = arith.constant 0 : i32
  %init3 = linalg.fill ins(%c2 : i32) outs(%empty1 : tensor<4x32x16xi32>) -> tensor<4x32x16xi32>
  %bmm = linalg.batch_matmul ins(%arg0, %arg1 : tensor<4x32x48xi8>, tensor<4x48x16xi8>) outs(%init3 : tensor<4x32x16xi32>) -> tensor<4x32x16xi32>
  return %bmm : tensor<4x32x16xi32>
}
