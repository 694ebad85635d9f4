// A linalg op with two results read (each row's min and max in one
// generic): split into two reductions fed by a fork, C-simulated and
// compared with mlir-runner on this linalg bit for bit.
// RUN: %python %root/scripts/e2e.py %s --work %t --exact | FileCheck %s
// CHECK: out0 tensor<6xf32>: max error 0.0, mismatches 0/6
// CHECK: out1 tensor<6xf32>: max error 0.0, mismatches 0/6
// CHECK: e2e: two_results.mlir: PASS
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @minmax(%x: tensor<6x10xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %lo = arith.constant 0x7F800000 : f32
  %hi = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6xf32>
  %a = linalg.fill ins(%lo : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %b = linalg.fill ins(%hi : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x10xf32>) outs(%a, %b : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%in: f32, %mn: f32, %mx: f32):
    %0 = arith.minimumf %in, %mn : f32
    %1 = arith.maximumf %in, %mx : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xf32>
}
