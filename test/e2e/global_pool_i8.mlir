// RUN: %python %root/scripts/e2e.py %s --work %t
// A whole-map sum pool on an NHWC stream (Keras's AveragePooling2D over the
// whole map, DS-CNN's 25x5): channels arrive innermost, so the pool adds each
// element to its channel's accumulator as it passes (no line buffer, no
// reorder). The init (7) and an elementwise producer fix the stream order.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @global_pool(%arg0: tensor<1x8x6x16xi8>) -> tensor<1x1x1x16xi32> {
  %e0 = tensor.empty() : tensor<1x8x6x16xi8>
  %floor = arith.constant -100 : i8
  %clipped = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%arg0 : tensor<1x8x6x16xi8>) outs(%e0 : tensor<1x8x6x16xi8>) {
  ^bb0(%x: i8, %out: i8):
    %m = arith.maxsi %x, %floor : i8
    linalg.yield %m : i8
  } -> tensor<1x8x6x16xi8>
  %e1 = tensor.empty() : tensor<1x1x1x16xi32>
  %seven = arith.constant 7 : i32
  %init = linalg.fill ins(%seven : i32) outs(%e1 : tensor<1x1x1x16xi32>) -> tensor<1x1x1x16xi32>
  %win = tensor.empty() : tensor<8x6xi32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[8, 6]> : tensor<2xi64>}
      ins(%clipped, %win : tensor<1x8x6x16xi8>, tensor<8x6xi32>) outs(%init : tensor<1x1x1x16xi32>) -> tensor<1x1x1x16xi32>
  return %pool : tensor<1x1x1x16xi32>
}
