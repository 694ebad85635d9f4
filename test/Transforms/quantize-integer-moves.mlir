// Values moved between a dequantize and a quantize (a transpose between
// reshapes, as DepthToSpace imports; a slice of a padded map, as a
// transposed convolution's channel group) are moved as integers: the same
// i8 values where the scales agree, a requantisation where they do not.
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1}))' | FileCheck %s
#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @transpose
// CHECK-NOT: f32
// CHECK: tensor.expand_shape %arg0 {{.*}} : tensor<2x3xi8> into tensor<2x3x1xi8>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3x1xi8>) outs(%{{.*}} : tensor<3x1x2xi8>)
// CHECK-NEXT: ^bb0(%[[IN:[a-z0-9_]+]]: i8, %{{[a-z0-9_]+}}: i8):
// CHECK-NEXT: linalg.yield %[[IN]] : i8
// CHECK: tensor.collapse_shape {{.*}} : tensor<3x1x2xi8> into tensor<3x2xi8>
// CHECK-NOT: f32
// CHECK: return
func.func @transpose(%x: tensor<2x3xi8>) -> tensor<3x2xi8> {
  %s = arith.constant 6.250000e-02 : f32
  %zf = arith.constant 0.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xi8>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2x3xf32>
  %x3 = tensor.expand_shape %d [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %et = tensor.empty() : tensor<3x1x2xf32>
  %t3 = linalg.transpose ins(%x3 : tensor<2x3x1xf32>) outs(%et : tensor<3x1x2xf32>) permutation = [1, 2, 0]
  %t = tensor.collapse_shape %t3 [[0, 1], [2]] : tensor<3x1x2xf32> into tensor<3x2xf32>
  %eq = tensor.empty() : tensor<3x2xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<3x2xf32>) outs(%eq : tensor<3x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<3x2xi8>
  return %q : tensor<3x2xi8>
}

// Output scale twice the input's: the i8 values halved (a requantisation
// on integers, which the pass's clean-up moves before the slice), the
// padding the zero point; no float.
// CHECK-LABEL: func.func @slice
// CHECK-NOT: f32
// CHECK: tensor.pad %arg0 low[0, 1] high[0, 1]
// CHECK: arith.shrsi
// CHECK: tensor.extract_slice %{{.*}}[0, 2] [4, 3] [1, 1] : tensor<4x8xi8> to tensor<4x3xi8>
// CHECK-NOT: f32
// CHECK: return
func.func @slice(%x: tensor<4x6xi8>) -> tensor<4x3xi8> {
  %s = arith.constant 6.250000e-02 : f32
  %so = arith.constant 1.250000e-01 : f32
  %zf = arith.constant 0.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xi8>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4x6xf32>
  %p = tensor.pad %d low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zf : f32
  } : tensor<4x6xf32> to tensor<4x8xf32>
  %sl = tensor.extract_slice %p[0, 2] [4, 3] [1, 1] : tensor<4x8xf32> to tensor<4x3xf32>
  %eq = tensor.empty() : tensor<4x3xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sl : tensor<4x3xf32>) outs(%eq : tensor<4x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4x3xi8>
  return %q : tensor<4x3xi8>
}
