// RUN: %python %root/scripts/e2e.py %s --work %t --exact
// A float whole-map average pool on an NHWC stream (DS-CNN's float 25x5
// pool, smaller): channels arrive innermost, so each element is added to its
// channel's accumulator as it passes, a read-modify-write 16 elements apart.
// Each accumulator meets its terms row by row, the pool's own kernel order,
// so the design's sums equal mlir-runner's bit for bit (--exact); the
// division by the count follows in its own layer.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @global_pool_f32(%arg0: tensor<1x8x6x16xf32>) -> tensor<1x1x1x16xf32> {
  %e0 = tensor.empty() : tensor<1x8x6x16xf32>
  %floor = arith.constant -0.5 : f32
  %clipped = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%arg0 : tensor<1x8x6x16xf32>) outs(%e0 : tensor<1x8x6x16xf32>) {
  ^bb0(%x: f32, %out: f32):
    %m = arith.maximumf %x, %floor : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x16xf32>
  %e1 = tensor.empty() : tensor<1x1x1x16xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %win = tensor.empty() : tensor<8x6xf32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[8, 6]> : tensor<2xi64>}
      ins(%clipped, %win : tensor<1x8x6x16xf32>, tensor<8x6xf32>) outs(%init : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %e2 = tensor.empty() : tensor<1x1x1x16xf32>
  %count = arith.constant 48.0 : f32
  %avg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%pool : tensor<1x1x1x16xf32>) outs(%e2 : tensor<1x1x1x16xf32>) {
  ^bb0(%s: f32, %out: f32):
    %d = arith.divf %s, %count : f32
    linalg.yield %d : f32
  } -> tensor<1x1x1x16xf32>
  return %avg : tensor<1x1x1x16xf32>
}
