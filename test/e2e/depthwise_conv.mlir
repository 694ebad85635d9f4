// RUN: %python %root/scripts/e2e.py %s --work %t
// depthwise_conv_2d_nchw_chw, 8 channels, 3x3, padding 1, int8 requant.
#bias4_1 = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @depthwise_conv(%arg0: tensor<1x8x32x32xi8>) -> tensor<1x8x32x32xi8> {
  %w1 = arith.constant dense<[[[-8, 3, -1], [2, -4, -6], [2, -7, -6]], [[3, 3, 6], [-1, -5, -5], [-5, -7, 4]], [[4, 0, 3], [-1, 4, -3], [0, -7, -5]], [[-1, -6, -3], [-8, -2, -6], [1, -3, 3]], [[-7, 2, -8], [4, -4, -8], [-4, 3, -4]], [[1, 8, 6], [-7, 7, -1], [-8, -5, 6]], [[5, -4, -6], [2, -1, 4], [-8, 6, 1]], [[7, -8, 2], [-7, 6, 6], [0, -6, -5]]]> : tensor<8x3x3xi8>
  %c2 = arith.constant 0 : i8
  %padded3 = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c2 : i8
  } : tensor<1x8x32x32xi8> to tensor<1x8x34x34xi8>
  %empty4 = tensor.empty() : tensor<1x8x32x32xi32>
  %c5 = arith.constant 0 : i32
  %init6 = linalg.fill ins(%c5 : i32) outs(%empty4 : tensor<1x8x32x32xi32>) -> tensor<1x8x32x32xi32>
  %dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded3, %w1 : tensor<1x8x34x34xi8>, tensor<8x3x3xi8>) outs(%init6 : tensor<1x8x32x32xi32>) -> tensor<1x8x32x32xi32>
  %bias7 = arith.constant dense<[9, -44, 7, 0, 37, 32, 60, -7]> : tensor<8xi32>
  %empty8 = tensor.empty() : tensor<1x8x32x32xi8>
  %q9 = linalg.generic {indexing_maps = [#id4, #bias4_1, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dw, %bias7 : tensor<1x8x32x32xi32>, tensor<8xi32>) outs(%empty8 : tensor<1x8x32x32xi8>) {
  ^bb0(%a0: i32, %a1: i32, %out: i8):
    %m = arith.constant 38 : i32
    %s = arith.constant 10 : i32
    %lo = arith.constant -128 : i32
    %hi = arith.constant 127 : i32
    %0 = arith.addi %a0, %a1 : i32
    %1 = arith.muli %0, %m : i32
    %2 = arith.shrsi %1, %s : i32
    %3 = arith.maxsi %2, %lo : i32
    %4 = arith.minsi %3, %hi : i32
    %r = arith.trunci %4 : i32 to i8
    linalg.yield %r : i8
  } -> tensor<1x8x32x32xi8>
  return %q9 : tensor<1x8x32x32xi8>
}
