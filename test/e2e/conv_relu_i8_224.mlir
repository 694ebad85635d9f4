// REQUIRES: slow
// RUN: %python %root/scripts/e2e.py %s --work %t
// conv_relu (shared/BENCHMARKS.md), int8, H=W=224: conv 3->8 3x3 pad 1, requant + ReLU.
#bias4_1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_relu(%arg0: tensor<1x3x224x224xi8>) -> tensor<1x8x224x224xi8> {
  %w1 = arith.constant dense<[[[[0, 0, 4], [8, -8, -6], [5, 8, -4]], [[-3, 6, -1], [-4, 6, -4], [-2, 2, 1]], [[-7, -8, 6], [4, 6, 1], [5, -3, -1]]], [[[5, -6, -3], [-6, -1, 8], [-6, -2, -2]], [[7, -5, 0], [-4, -8, 4], [-7, -4, 0]], [[0, -7, 8], [4, 8, -7], [4, -4, 1]]], [[[7, -4, 4], [-6, -3, 8], [-1, 0, -4]], [[-7, -1, 2], [-1, 5, -2], [2, 5, 7]], [[-1, -8, 4], [0, 6, -1], [-2, -7, -1]]], [[[2, 5, 6], [-5, 2, 5], [-4, -3, 6]], [[1, 0, 3], [0, 8, 4], [-8, -6, 1]], [[5, -7, 3], [4, 5, 6], [-5, 1, 5]]], [[[-2, -5, 0], [-7, -5, 6], [3, 6, 6]], [[6, -3, 0], [2, -4, 7], [-8, 6, 2]], [[-4, 4, -1], [6, 8, -4], [-1, -5, 3]]], [[[2, 6, 5], [8, 8, 7], [-6, -8, 0]], [[-3, 7, 5], [-1, 1, 2], [7, -8, 0]], [[3, -1, 7], [8, 6, -1], [7, -7, 3]]], [[[-4, -4, 3], [5, 7, -5], [6, 6, -3]], [[-7, 5, 6], [-1, -6, -6], [-2, 4, -3]], [[-8, 3, 4], [-5, 1, -2], [0, -8, 2]]], [[[-4, 1, -1], [2, -7, -2], [2, 5, -2]], [[-8, 4, 0], [3, -6, -1], [7, 6, -3]], [[2, -7, 5], [-4, -3, 8], [1, 6, -5]]]]> : tensor<8x3x3x3xi8>
  %bias2 = arith.constant dense<[132, 255, -217, -132, -181, -125, -97, -219]> : tensor<8xi32>
  %c3 = arith.constant 0 : i8
  %padded4 = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c3 : i8
  } : tensor<1x3x224x224xi8> to tensor<1x3x226x226xi8>
  %empty5 = tensor.empty() : tensor<1x8x224x224xi32>
  %c6 = arith.constant 0 : i32
  %init7 = linalg.fill ins(%c6 : i32) outs(%empty5 : tensor<1x8x224x224xi32>) -> tensor<1x8x224x224xi32>
  %conv8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded4, %w1 : tensor<1x3x226x226xi8>, tensor<8x3x3x3xi8>) outs(%init7 : tensor<1x8x224x224xi32>) -> tensor<1x8x224x224xi32>
  %empty9 = tensor.empty() : tensor<1x8x224x224xi8>
  %q10 = linalg.generic {indexing_maps = [#id4, #bias4_1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv8, %bias2 : tensor<1x8x224x224xi32>, tensor<8xi32>) outs(%empty9 : tensor<1x8x224x224xi8>) {
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
  } -> tensor<1x8x224x224xi8>
  return %q10 : tensor<1x8x224x224xi8>
}
