// conv_relu (shared/BENCHMARKS.md): conv 3->8, 3x3, padding 1, stride 1, ReLU,
// int8 activations and weights, int32 accumulation, requantised to int8
// (multiply by 77, shift right by 10, clamp to [0, 127] which also is the ReLU).
// Written as IREE's ONNX importer writes it: tensor.pad + named conv + generics.
#map_id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map_bias = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @conv_relu(%x: tensor<1x3x32x32xi8>) -> tensor<1x8x32x32xi8> {
  %weights = arith.constant dense<[[[[2, -4, 4], [-7, -6, -5], [3, -7, 8]], [[-2, -7, -6], [5, 5, -6], [-1, -6, 5]], [[-7, -5, -1], [-7, 4, -7], [-1, -7, -4]]], [[[1, 5, -4], [-5, 1, -3], [-5, -2, 3]], [[-5, -6, -7], [-2, 7, 5], [2, 6, 6]], [[3, 1, -1], [-3, -1, -6], [1, 8, 7]]], [[[2, 6, 1], [-6, -5, 8], [5, -3, 2]], [[-4, 7, 5], [-7, -6, 2], [2, 3, 7]], [[6, -6, -6], [0, 7, -6], [-7, 1, 6]]], [[[1, 4, 3], [-8, 6, 3], [-3, -5, 7]], [[-7, -2, 1], [-4, -1, 4], [4, 7, -6]], [[-3, 6, 4], [0, -4, 5], [0, 5, 3]]], [[[4, -1, -4], [-6, -3, -4], [-1, -1, -8]], [[7, -3, 0], [1, -8, -4], [5, 3, 2]], [[-4, 8, -7], [6, 4, 4], [4, 4, -5]]], [[[7, 4, -7], [-2, -6, -2], [6, -3, -5]], [[2, -7, -5], [-8, -4, -5], [3, -8, -6]], [[-2, 4, -4], [0, 3, 3], [7, -5, -5]]], [[[7, 6, 7], [7, 1, -6], [-4, -5, 2]], [[0, 7, -3], [8, -8, -2], [8, 3, -4]], [[-8, 8, 1], [-6, 0, 8], [3, -3, 3]]], [[[-1, 8, 2], [-1, -2, -1], [4, -1, -2]], [[8, 7, 3], [-8, -8, 0], [7, 0, -2]], [[3, 6, 3], [3, -6, -1], [-5, -1, 7]]]]> : tensor<8x3x3x3xi8>
  %bias = arith.constant dense<[-14, 22, -12, 59, -64, 58, 24, -43]> : tensor<8xi32>
  %c0_i8 = arith.constant 0 : i8
  %c0_i32 = arith.constant 0 : i32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0_i8 : i8
  } : tensor<1x3x32x32xi8> to tensor<1x3x34x34xi8>
  %empty = tensor.empty() : tensor<1x8x32x32xi32>
  %zero = linalg.fill ins(%c0_i32 : i32) outs(%empty : tensor<1x8x32x32xi32>) -> tensor<1x8x32x32xi32>
  %acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %weights : tensor<1x3x34x34xi8>, tensor<8x3x3x3xi8>)
      outs(%zero : tensor<1x8x32x32xi32>) -> tensor<1x8x32x32xi32>
  %out_empty = tensor.empty() : tensor<1x8x32x32xi8>
  %y = linalg.generic {indexing_maps = [#map_id, #map_bias, #map_id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %bias : tensor<1x8x32x32xi32>, tensor<8xi32>) outs(%out_empty : tensor<1x8x32x32xi8>) {
  ^bb0(%a: i32, %b: i32, %o: i8):
    %mult = arith.constant 77 : i32
    %shift = arith.constant 10 : i32
    %lo = arith.constant 0 : i32
    %hi = arith.constant 127 : i32
    %s = arith.addi %a, %b : i32
    %m = arith.muli %s, %mult : i32
    %q = arith.shrsi %m, %shift : i32
    %c1 = arith.maxsi %q, %lo : i32
    %c2 = arith.minsi %c1, %hi : i32
    %r = arith.trunci %c2 : i32 to i8
    linalg.yield %r : i8
  } -> tensor<1x8x32x32xi8>
  return %y : tensor<1x8x32x32xi8>
}
