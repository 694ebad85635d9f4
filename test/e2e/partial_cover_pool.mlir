// RUN: %python %root/scripts/e2e.py %s --work %t
// A 2x2 sum pool of stride 2 on a 2x3 map: one output, but the last column
// is never read. Taken for a whole-map window, it was streamed as a
// reduction of all six pixels, and every sum was wrong.
func.func @partial_cover(%x: tensor<1x2x3x4xi32>) -> tensor<1x1x1x4xi32> {
  %e = tensor.empty() : tensor<1x1x1x4xi32>
  %zero = arith.constant 0 : i32
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1x1x1x4xi32>) -> tensor<1x1x1x4xi32>
  %win = tensor.empty() : tensor<2x2xi32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<1x2x3x4xi32>, tensor<2x2xi32>) outs(%init : tensor<1x1x1x4xi32>) -> tensor<1x1x1x4xi32>
  return %pool : tensor<1x1x1x4xi32>
}
