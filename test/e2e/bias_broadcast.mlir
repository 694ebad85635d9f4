// RUN: %python %root/scripts/e2e.py %s --work %t
// bias add as IREE's importers write it: linalg.broadcast of a bias[8] over N,H,W, then linalg.add.
func.func @bias_broadcast(%arg0: tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32> {
  %bias1 = arith.constant dense<[-0.5284024, -0.14178601, -0.81545395, 0.18520552, 0.5653974, 0.735156, -0.34709027, -0.78083926]> : tensor<8xf32>
  %empty2 = tensor.empty() : tensor<1x8x32x32xf32>
  %bb = linalg.broadcast ins(%bias1 : tensor<8xf32>) outs(%empty2 : tensor<1x8x32x32xf32>) dimensions = [0, 2, 3]
  %empty3 = tensor.empty() : tensor<1x8x32x32xf32>
  %y = linalg.add ins(%arg0, %bb : tensor<1x8x32x32xf32>, tensor<1x8x32x32xf32>) outs(%empty3 : tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return %y : tensor<1x8x32x32xf32>
}
