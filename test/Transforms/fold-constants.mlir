// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops,ming-fold-constants))' | FileCheck %s

// A transposed constant weight (ONNX Gemm with transB) and a dequantised i8
// weight become constants; the matmul reading them is left alone.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: arith.constant dense<{{\[}}[-5.000000e-01, 1.000000e+00], [6.350000e+01, -6.400000e+01]]> : tensor<2x2xf32>
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @gemm(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %q = arith.constant dense<[[-1, 2], [127, -128]]> : tensor<2x2xi8>
  %scale = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  %dq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<2x2xi8>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%a: i8, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %m = arith.mulf %f, %scale : f32
    linalg.yield %m : f32
  } -> tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<3x2xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<3x2xf32>, tensor<2x2xf32>) outs(%fo : tensor<3x2xf32>) -> tensor<3x2xf32>
  %z = linalg.matmul ins(%y, %dq : tensor<3x2xf32>, tensor<2x2xf32>) outs(%fo : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %z : tensor<3x2xf32>
}

// -----

// A bias broadcast to a feature map would grow the data: left alone. A
// reduction over constants (a per-channel sum of weights) folds in its own
// order; a reshape of a constant folds.
// CHECK-LABEL: func.func @grow_and_reduce
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<2xf32>)
// CHECK: %[[SUM:.*]] = arith.constant dense<[3, 7]> : tensor<2xi32>
// CHECK-NOT: linalg.generic
// CHECK: return {{.*}}, %[[SUM]]
#b = affine_map<(d0, d1, d2) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @grow_and_reduce(%x: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2xi32>) {
  %bias = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x4x4xf32>
  %bb = linalg.generic {indexing_maps = [#b, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : tensor<2xf32>) outs(%e : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x4x4xf32>
  %w = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
  %w2 = tensor.expand_shape %w [[0, 1]] output_shape [2, 2] : tensor<4xi8> into tensor<2x2xi8>
  %c0 = arith.constant 0 : i32
  %es = tensor.empty() : tensor<2xi32>
  %fs = linalg.fill ins(%c0 : i32) outs(%es : tensor<2xi32>) -> tensor<2xi32>
  %s = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%w2 : tensor<2x2xi8>) outs(%fs : tensor<2xi32>) {
  ^bb0(%a: i8, %acc: i32):
    %a32 = arith.extsi %a : i8 to i32
    %t = arith.addi %a32, %acc : i32
    linalg.yield %t : i32
  } -> tensor<2xi32>
  return %bb, %s : tensor<2x4x4xf32>, tensor<2xi32>
}
