// A quantised add whose second operand is broadcast (LayerNorm's per-pixel
// shift added to every channel, as tf2onnx writes int8 TFLite models)
// runs on integers: the integer generic reads both operands through the
// float one's maps. Before, it kept its quantize in float.
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1}))' | FileCheck %s
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @add_row
// CHECK-NOT: f32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}} ins(%arg0, %arg1 : tensor<2x4xi8>, tensor<2x1xi8>) outs(%{{.*}} : tensor<2x4xi8>)
// CHECK: arith.muli
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK-NOT: f32
// CHECK: return
func.func @add_row(%a: tensor<2x4xi8>, %b: tensor<2x1xi8>) -> tensor<2x4xi8> {
  %sa = arith.constant 6.250000e-02 : f32
  %sb = arith.constant 1.250000e-01 : f32
  %so = arith.constant 1.000000e-01 : f32
  %zf = arith.constant 0.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %ea = tensor.empty() : tensor<2x4xf32>
  %da = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xi8>) outs(%ea : tensor<2x4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %sa : f32
    linalg.yield %1 : f32
  } -> tensor<2x4xf32>
  %eb = tensor.empty() : tensor<2x1xf32>
  %db = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x1xi8>) outs(%eb : tensor<2x1xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %sb : f32
    linalg.yield %1 : f32
  } -> tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%da, %db : tensor<2x4xf32>, tensor<2x1xf32>) outs(%ea : tensor<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %eq = tensor.empty() : tensor<2x4xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x4xf32>) outs(%eq : tensor<2x4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<2x4xi8>
  return %q : tensor<2x4xi8>
}
