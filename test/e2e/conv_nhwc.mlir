// RUN: %python %root/scripts/e2e.py %s --work %t
// conv_2d_nhwc_hwcf 3->8 3x3, padding 1, int8 requant + ReLU (bias on the last dim).
#bias4_3 = affine_map<(d0, d1, d2, d3) -> (d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_nhwc(%arg0: tensor<1x32x32x3xi8>) -> tensor<1x32x32x8xi8> {
  %w1 = arith.constant dense<[[[[6, 0, 1, -5, -2, -7, -2, 4], [4, 5, 0, 1, 8, 2, 3, -6], [7, 1, -7, -6, 7, 0, 5, -3]], [[-7, 8, 8, 0, -4, -5, 4, -4], [-5, 1, 7, 6, -3, -3, 0, 7], [4, -4, 3, 7, -8, 4, 7, 7]], [[-8, 8, -5, -6, 4, 3, 8, -4], [5, 2, -7, -4, 4, -1, 8, -2], [8, -7, 1, 2, 8, 3, 1, 6]]], [[[-2, 4, -3, -5, 4, 2, 7, -1], [-7, -4, -7, -7, 7, -7, 8, 5], [-5, -3, 7, -4, 5, 5, 0, 3]], [[-6, -5, 2, 4, 6, 3, -6, 0], [5, 1, 1, 7, 8, 2, 7, 8], [7, 2, 3, 0, -1, -4, -6, 0]], [[1, 6, -8, -8, -7, -5, 0, 8], [-3, -1, -2, 6, -5, -2, 1, 4], [-5, 3, -5, -5, 5, -7, -1, -4]]], [[[0, 0, 5, 6, -4, -5, 6, -3], [-3, 5, -2, -8, 6, 2, 0, 7], [3, 3, 6, 2, -7, -7, -8, -1]], [[1, -4, -5, 7, -6, -5, -5, -4], [6, -3, 1, 5, 6, -2, -1, 2], [-6, -3, -6, -4, -6, 6, 8, 8]], [[-4, 7, -6, -3, 6, -6, 3, -5], [4, -6, 2, 8, 1, 7, 4, -5], [2, 4, -2, -3, 4, 0, 1, -4]]]]> : tensor<3x3x3x8xi8>
  %c2 = arith.constant 0 : i8
  %padded3 = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c2 : i8
  } : tensor<1x32x32x3xi8> to tensor<1x34x34x3xi8>
  %empty4 = tensor.empty() : tensor<1x32x32x8xi32>
  %c5 = arith.constant 0 : i32
  %init6 = linalg.fill ins(%c5 : i32) outs(%empty4 : tensor<1x32x32x8xi32>) -> tensor<1x32x32x8xi32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded3, %w1 : tensor<1x34x34x3xi8>, tensor<3x3x3x8xi8>) outs(%init6 : tensor<1x32x32x8xi32>) -> tensor<1x32x32x8xi32>
  %bias7 = arith.constant dense<[-158, -220, -51, -146, -139, -252, 119, -222]> : tensor<8xi32>
  %empty8 = tensor.empty() : tensor<1x32x32x8xi8>
  %q9 = linalg.generic {indexing_maps = [#id4, #bias4_3, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias7 : tensor<1x32x32x8xi32>, tensor<8xi32>) outs(%empty8 : tensor<1x32x32x8xi8>) {
  ^bb0(%a0: i32, %a1: i32, %out: i8):
    %m = arith.constant 21 : i32
    %s = arith.constant 10 : i32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 127 : i32
    %0 = arith.addi %a0, %a1 : i32
    %1 = arith.muli %0, %m : i32
    %2 = arith.shrsi %1, %s : i32
    %3 = arith.maxsi %2, %lo : i32
    %4 = arith.minsi %3, %hi : i32
    %r = arith.trunci %4 : i32 to i8
    linalg.yield %r : i8
  } -> tensor<1x32x32x8xi8>
  return %q9 : tensor<1x32x32x8xi8>
}
