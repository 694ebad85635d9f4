// Two LeakyRelus as IREE imports them (found by scripts/onnx_fuzz.py): each
// forks its input into max(0, x) and min(0, x) * alpha, which meet in an add.
// The DSE packs the max branch's output into one word of 32 lanes, so that
// branch delivers nothing before its 32nd element while the other keeps
// going: the fork's FIFO to the other branch must hold that word's lag, or
// the design deadlocks (it did: the word into the join was not counted).
// REQUIRES: ming-opt
// RUN: ming-opt %s --simulate | FileCheck %s
// CHECK: simulation of 'fuzz': ok
#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @fuzz(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %cst = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = arith.constant 1.000000e-01 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<8x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst, %arg0 : tensor<f32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.cmpf ogt, %in, %in_2 : f32
      %10 = arith.select %9, %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<8x4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst, %arg0 : tensor<f32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.cmpf olt, %in, %in_2 : f32
      %10 = arith.select %9, %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<8x4xf32>
    %3 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.mulf %in, %cst_0 : f32
      linalg.yield %9 : f32
    } -> tensor<8x4xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%1, %3 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.addf %in, %in_2 : f32
      linalg.yield %9 : f32
    } -> tensor<8x4xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst, %4 : tensor<f32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.cmpf ogt, %in, %in_2 : f32
      %10 = arith.select %9, %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<8x4xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst, %4 : tensor<f32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.cmpf olt, %in, %in_2 : f32
      %10 = arith.select %9, %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<8x4xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.mulf %in, %cst_1 : f32
      linalg.yield %9 : f32
    } -> tensor<8x4xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5, %7 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%0 : tensor<8x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.addf %in, %in_2 : f32
      linalg.yield %9 : f32
    } -> tensor<8x4xf32>
    return %8 : tensor<8x4xf32>
  }
}

