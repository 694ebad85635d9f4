// ming-quantize-integer on average pools as the front end writes them: a
// window sum over zero padding divided by the window's size, and where the
// padding is not counted (SAME), times a constant n / count per position.
// `rounding` picks the reference: onnxruntime (float average, half to even)
// or TFLite's integer kernel (raw sum / count, half away from zero).
// REQUIRES: ming-opt
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1}))' | FileCheck %s --check-prefix=ORT
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1 rounding=tflite}))' | FileCheck %s --check-prefix=TFL
// RUN: not ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer{rounding=even}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: ming-quantize-integer: rounding is 'onnx' or 'tflite', not 'even'

// 3x3, stride 1, SAME on 3x3: the counts are 4 at corners, 6 on edges, 9 in
// the middle. Input and output: scale 0.5, zero point 2.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#pos = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// ORT-LABEL: func.func @same
// The counts per position, i8, read through the factor's map:
// ORT: %[[COUNTS:.*]] = arith.constant dense<{{\[\[\[\[}}4, 6, 4], [6, 9, 6], [4, 6, 4]]]]> : tensor<1x1x3x3xi8>
// One multiplier per count (0.5 / (c 0.5) = 1 / c with a common shift 30):
// ORT: %[[M:.*]] = arith.constant dense<[0, 1073741824, 536870912, 357913941, 268435456, 214748365, 178956971, 153391689, 134217728, 119304647]> : tensor<10xi64>
// ORT: linalg.generic {{.*}} ins(%{{.*}}, %[[COUNTS]] : tensor<1x1x3x3xi32>, tensor<1x1x3x3xi8>) outs(%{{.*}} : tensor<1x1x3x3xi8>)
// The raw sum less nine zero points (the padding carries the zero point):
// ORT:   arith.constant -18 : i64
// ORT:   %[[C:.*]] = arith.extui %{{.*}} : i8 to i64
// ORT:   %[[I:.*]] = arith.index_cast %[[C]] : i64 to index
// ORT:   tensor.extract %[[M]][%[[I]]] : tensor<10xi64>
// ORT:   arith.muli
// ORT:   arith.shrsi
// ORT-NOT: arith.select
// ORT:   linalg.yield
// TFL-LABEL: func.func @same
// TFL: %[[COUNTS:.*]] = arith.constant dense<{{\[\[\[\[}}4, 6, 4], [6, 9, 6], [4, 6, 4]]]]> : tensor<1x1x3x3xi8>
// ceil(2^s / c) for s = 15: 2^15 is above the reach (9 * 130 + 9 * 2 + 4 =
// 1,192) times the count, so the reciprocal's error never reaches a step.
// TFL: %[[M:.*]] = arith.constant dense<[0, 32768, 16384, 10923, 8192, 6554, 5462, 4682, 4096, 3641]> : tensor<10xi64>
// TFL: linalg.generic
// TFL:   %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// TFL:   %[[C:.*]] = arith.extui %{{.*}} : i8 to i64
// TFL:   tensor.extract %[[M]]
// The raw sum: the centred one plus the count's zero points.
// TFL:   %[[ZC:.*]] = arith.muli %[[C]], %{{.*}} : i64
// TFL:   %[[RAW:.*]] = arith.addi %[[S]], %[[ZC]] : i64
// TFL:   %[[NEG:.*]] = arith.cmpi slt, %[[RAW]], %{{.*}} : i64
// TFL:   %[[HALF:.*]] = arith.shrui %[[C]], %{{.*}} : i64
// TFL:   arith.shrsi
// TFL:   arith.select %[[NEG]]
// TFL:   arith.maxsi
// TFL:   arith.minsi
func.func @same(%x: tensor<1x1x3x3xi8>) -> tensor<1x1x3x3xi8> {
  %s = arith.constant 5.000000e-01 : f32
  %zf = arith.constant 2.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %nine = arith.constant 9.000000e+00 : f32
  %zi = arith.constant 2 : i64
  %factor = arith.constant dense<[[[[2.25, 1.5, 2.25], [1.5, 1.0, 1.5], [2.25, 1.5, 2.25]]]]> : tensor<1x1x3x3xf32>
  %ef = tensor.empty() : tensor<1x1x3x3xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x3x3xi8>) outs(%ef : tensor<1x1x3x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i64
    %1 = arith.subi %0, %zi : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s : f32
    linalg.yield %3 : f32
  } -> tensor<1x1x3x3xf32>
  %p = tensor.pad %d low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %e: index):
    tensor.yield %zero : f32
  } : tensor<1x1x3x3xf32> to tensor<1x1x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ef : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x1x5x5xf32>, tensor<3x3xf32>) outs(%init : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x1x3x3xf32>) outs(%ef : tensor<1x1x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %nine : f32
    linalg.yield %0 : f32
  } -> tensor<1x1x3x3xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #pos, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%avg, %factor : tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) outs(%ef : tensor<1x1x3x3xf32>) {
  ^bb0(%in: f32, %f: f32, %out: f32):
    %0 = arith.mulf %in, %f : f32
    linalg.yield %0 : f32
  } -> tensor<1x1x3x3xf32>
  %eq = tensor.empty() : tensor<1x1x3x3xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%scaled : tensor<1x1x3x3xf32>) outs(%eq : tensor<1x1x3x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x1x3x3xi8>
  return %q : tensor<1x1x3x3xi8>
}

// -----

// A 2x2 pool without padding, input scale 0.5 zp 2, output scale 0.25 zp 0:
// TFLite's form needs input and output encoded alike, so both roundings are
// onnxruntime's requantisation by 0.5 / (4 0.25) = 1/2.
#id2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// ORT-LABEL: func.func @valid_rescaled
// ORT-NOT: tensor.extract
// ORT: return
// TFL-LABEL: func.func @valid_rescaled
// TFL-NOT: arith.cmpi slt
// TFL: return
func.func @valid_rescaled(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x2x2xi8> {
  %s = arith.constant 5.000000e-01 : f32
  %so = arith.constant 2.500000e-01 : f32
  %zf = arith.constant 0.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %zi = arith.constant 2 : i64
  %ef = tensor.empty() : tensor<1x1x4x4xf32>
  %d = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x4x4xi8>) outs(%ef : tensor<1x1x4x4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i64
    %1 = arith.subi %0, %zi : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s : f32
    linalg.yield %3 : f32
  } -> tensor<1x1x4x4xf32>
  %eo = tensor.empty() : tensor<1x1x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%d, %w : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %avg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x1x2x2xf32>) outs(%eo : tensor<1x1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %four : f32
    linalg.yield %0 : f32
  } -> tensor<1x1x2x2xf32>
  %eq = tensor.empty() : tensor<1x1x2x2xi8>
  %q = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%avg : tensor<1x1x2x2xf32>) outs(%eq : tensor<1x1x2x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x1x2x2xi8>
  return %q : tensor<1x1x2x2xi8>
}
