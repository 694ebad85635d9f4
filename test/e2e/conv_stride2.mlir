// RUN: %python %root/scripts/e2e.py %s --work %t
// conv 3->8 3x3, padding 1, stride 2 (32x32 -> 16x16), int8 requant + ReLU.
#bias4_1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_stride2(%arg0: tensor<1x3x32x32xi8>) -> tensor<1x8x16x16xi8> {
  %w1 = arith.constant dense<[[[[-3, 5, -2], [2, -1, 4], [-3, -7, -3]], [[2, 2, 8], [-4, -1, 8], [-7, 3, 8]], [[7, 3, 7], [-5, 4, 3], [0, 8, 6]]], [[[-5, 8, 6], [-2, 3, 5], [-5, -4, -5]], [[-1, 8, -2], [-3, 7, -1], [-7, 3, 4]], [[-1, 8, -8], [6, -4, 5], [0, 3, 4]]], [[[7, 2, 2], [-1, -8, -5], [-7, 5, -7]], [[-5, -5, 4], [-3, 0, 3], [1, 0, -2]], [[8, -5, 5], [-6, 0, 2], [-4, -4, -6]]], [[[-8, -4, -5], [3, 7, -8], [4, -2, 1]], [[8, -2, -6], [5, 7, -4], [1, 2, -6]], [[-8, -8, 2], [2, 8, 2], [4, -1, -7]]], [[[-3, 2, 3], [-3, -6, 7], [-5, -8, -2]], [[-8, 3, -7], [-3, -3, 4], [7, 3, 1]], [[-5, 3, 4], [-8, 1, -6], [-7, -2, 5]]], [[[2, 7, 4], [-3, 1, -4], [-4, 3, -5]], [[-1, -1, 0], [-4, -5, 4], [0, 7, 0]], [[5, 5, -6], [5, 5, 2], [-8, 6, -6]]], [[[7, 3, -2], [-3, 1, 6], [-3, 3, -2]], [[2, 3, 2], [-5, 7, 1], [6, -2, -8]], [[8, 8, 4], [-1, 2, -3], [-5, 6, -5]]], [[[7, 2, 5], [-6, 4, 4], [-8, 8, -4]], [[4, 5, -4], [8, -2, -4], [2, 4, 7]], [[-7, -8, 4], [7, -2, -8], [-7, -7, -6]]]]> : tensor<8x3x3x3xi8>
  %bias2 = arith.constant dense<[-119, 35, -163, -14, 246, 96, -242, -78]> : tensor<8xi32>
  %c3 = arith.constant 0 : i8
  %padded4 = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c3 : i8
  } : tensor<1x3x32x32xi8> to tensor<1x3x34x34xi8>
  %empty5 = tensor.empty() : tensor<1x8x16x16xi32>
  %c6 = arith.constant 0 : i32
  %init7 = linalg.fill ins(%c6 : i32) outs(%empty5 : tensor<1x8x16x16xi32>) -> tensor<1x8x16x16xi32>
  %conv8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded4, %w1 : tensor<1x3x34x34xi8>, tensor<8x3x3x3xi8>) outs(%init7 : tensor<1x8x16x16xi32>) -> tensor<1x8x16x16xi32>
  %empty9 = tensor.empty() : tensor<1x8x16x16xi8>
  %q10 = linalg.generic {indexing_maps = [#id4, #bias4_1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv8, %bias2 : tensor<1x8x16x16xi32>, tensor<8xi32>) outs(%empty9 : tensor<1x8x16x16xi8>) {
  ^bb0(%a0: i32, %a1: i32, %out: i8):
    %m = arith.constant 87 : i32
    %s = arith.constant 12 : i32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 127 : i32
    %0 = arith.addi %a0, %a1 : i32
    %1 = arith.muli %0, %m : i32
    %2 = arith.shrsi %1, %s : i32
    %3 = arith.maxsi %2, %lo : i32
    %4 = arith.minsi %3, %hi : i32
    %r = arith.trunci %4 : i32 to i8
    linalg.yield %r : i8
  } -> tensor<1x8x16x16xi8>
  return %q10 : tensor<1x8x16x16xi8>
}
