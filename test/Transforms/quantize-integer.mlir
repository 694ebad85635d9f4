// ming-quantize-integer on hand-written fake-quant linalg in the form IREE
// imports onnxruntime's QDQ models: quantize = divf/roundeven/addf/clamp/fptosi,
// dequantize = [extsi/subi] sitofp/mulf.
// REQUIRES: ming-opt
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer))' | FileCheck %s
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer))' --verify-diagnostics > /dev/null
// RUN: not ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1}))' 2>&1 | FileCheck %s --check-prefix=STRICT

// Conv 2->2 3x3 pad 1 with bias; input scale 0.5 zp 1, weights 0.25 per
// tensor, bias 0.125 (= 0.5 * 0.25), output scale 1.0 zp -128 (a ReLU folded
// into the clamp). The input quantize and the output dequantize stay float.
// CHECK-LABEL: func.func @conv
// CHECK: %[[XQ:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4x4xi8>)
// CHECK:   arith.divf
// CHECK:   math.roundeven
// CHECK: %[[ZP:.*]] = arith.constant 1 : i8
// CHECK: %[[PAD:.*]] = tensor.pad %[[XQ]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:   tensor.yield %[[ZP]] : i8
// CHECK: } : tensor<1x2x4x4xi8> to tensor<1x2x6x6xi8>
// Bias in units of 0.125 minus zp_in * sum(w) per output channel:
// [8 - 1*20, -4 - 1*(-20)] = [-12, 16].
// CHECK: arith.constant dense<[-12, 16]> : tensor<2xi32>
// CHECK: %[[INIT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x4x4xi32>)
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} ins(%[[PAD]], %{{.*}} : tensor<1x2x6x6xi8>, tensor<2x2x3x3xi8>) outs(%[[INIT]] : tensor<1x2x4x4xi32>)
// CHECK:   arith.extsi %{{.*}} : i8 to i32
// CHECK:   arith.extsi %{{.*}} : i8 to i32
// CHECK:   arith.muli
// CHECK:   arith.addi
// Requantisation: 0.125 = 2^30 / 2^33, rounding half to even
// ((p + 2^32 - 1 + ((p >> 33) & 1)) >> 33), zp -128, clamp.
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<1x2x4x4xi32>)
// CHECK:   arith.extsi %{{.*}} : i32 to i64
// CHECK:   %[[P:.*]] = arith.muli %{{.*}}, %c1073741824_i64
// CHECK:   %[[Q:.*]] = arith.shrsi %[[P]], %c33_i64
// CHECK:   %[[ODD:.*]] = arith.andi %[[Q]], %c1_i64
// CHECK:   %[[R:.*]] = arith.addi %[[P]], %c4294967295_i64
// CHECK:   %[[R2:.*]] = arith.addi %[[R]], %[[ODD]]
// CHECK:   arith.shrsi %[[R2]], %c33_i64
// CHECK:   arith.addi %{{.*}}, %c-128_i64
// CHECK:   arith.maxsi
// CHECK:   arith.minsi
// CHECK:   arith.trunci %{{.*}} : i64 to i8
// CHECK: linalg.generic {{.*}} ins(%[[Y]] : tensor<1x2x4x4xi8>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK:   arith.sitofp
// CHECK:   arith.mulf
// CHECK-NOT: linalg.conv
// CHECK: return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c1 = affine_map<(d0) -> (d0)>
func.func @conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 1.0 : f32
  %zp_in_i = arith.constant 1 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_w = arith.constant 0.25 : f32
  %s_b = arith.constant 0.125 : f32
  %s_out = arith.constant 1.0 : f32
  %zp_out = arith.constant -128.0 : f32
  %zp_out_i = arith.constant -128 : i32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1, 1, 1], [1, 2, 1], [1, 1, 1]], [[1, 1, 1], [1, 2, 1], [1, 1, 1]]],
                             [[[-1, -1, -1], [-1, -2, -1], [-1, -1, -1]], [[-1, -1, -1], [-1, -2, -1], [-1, -1, -1]]]]> : tensor<2x2x3x3xi8>
  %bias = arith.constant dense<[8, -4]> : tensor<2xi32>
  %e8 = tensor.empty() : tensor<1x2x4x4xi8>
  %ef = tensor.empty() : tensor<1x2x4x4xf32>
  %xq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x4x4xf32>) outs(%e8 : tensor<1x2x4x4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2x4x4xi8>
  %xd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xq : tensor<1x2x4x4xi8>) outs(%ef : tensor<1x2x4x4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x2x4x4xf32>
  %ew = tensor.empty() : tensor<2x2x3x3xf32>
  %wd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<2x2x3x3xi8>) outs(%ew : tensor<2x2x3x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_w : f32
    linalg.yield %1 : f32
  } -> tensor<2x2x3x3xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [#c1, #c1], iterator_types = ["parallel"]} ins(%bias : tensor<2xi32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s_b : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %padded = tensor.pad %xd low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %bb = linalg.broadcast ins(%bd : tensor<2xf32>) outs(%ef : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %wd : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%bb : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %yq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : tensor<1x2x4x4xf32>) outs(%e8 : tensor<1x2x4x4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2x4x4xi8>
  %yd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%yq : tensor<1x2x4x4xi8>) outs(%ef : tensor<1x2x4x4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i64
    %c = arith.extsi %zp_out_i : i32 to i64
    %1 = arith.subi %0, %c : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s_out : f32
    linalg.yield %3 : f32
  } -> tensor<1x2x4x4xf32>
  return %yd : tensor<1x2x4x4xf32>
}

// -----

// Gemm with weights quantised per output channel (scales 0.5 and 0.25,
// input scale 0.5), bias added after the matmul, output scale 0.25:
// multipliers 1 and 0.5 -> [2^30, 2^29] with shift 30, stored as i32.
// The accumulator never exceeds max(4 + 128 * 3, 0 + 128 * 6) = 768 in
// magnitude: it reaches the multiplier in the 18-bit port, and the
// multipliers, exact at 26 bits ([2^25, 2^24], shift 25), in the 27-bit one
// (one DSP48E2; quantize-integer-one-dsp.mlir).
// CHECK-LABEL: func.func @gemm_per_channel
// CHECK: arith.constant dense<[-4, 0]> : tensor<2xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xi8>, tensor<3x2xi8>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK: arith.constant dense<[33554432, 16777216]> : tensor<2xi32>
// CHECK: ^bb0(%[[ACC:.*]]: i32, %[[M:.*]]: i32, %{{.*}}: i8):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[ACC]] : i32 to i64
// CHECK-NEXT: %[[NARROW:.*]] = arith.trunci %[[WIDE]] : i64 to i18
// CHECK-NEXT: %[[X:.*]] = arith.extsi %[[NARROW]] : i18 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-NEXT: %[[MT:.*]] = arith.trunci %[[M64]] : i64 to i27
// CHECK-NEXT: %[[MN:.*]] = arith.extsi %[[MT]] : i27 to i64
// CHECK-NEXT: arith.muli %[[X]], %[[MN]] : i64
// CHECK: arith.shrsi %{{.*}}, %c25_i64
// CHECK-NOT: linalg.matmul
// CHECK: return
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm_per_channel(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1, 2], [1, 2], [1, 2]]> : tensor<3x2xi8>
  %sw = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  // Bias 0.5 and 1.5: 2 and 12 in units of 0.25 and 0.125, minus zp 2 * sum(w) = (3, 6).
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x3xi8>
  %ef = tensor.empty() : tensor<1x3xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%e8 : tensor<1x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x3xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x3xi8>) outs(%ef : tensor<1x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<3x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<3x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<3x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [#m2, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bd : tensor<1x2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %e28 = tensor.empty() : tensor<1x2xi8>
  %yq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<1x2xf32>) outs(%e28 : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_out : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}

// -----

// The same Gemm with a ReLU (cmpf + select, as IREE writes it) and a clip at
// 1.0 between the bias add and the quantize, as tf2onnx writes int8 TFLite:
// quantising is monotone, so they become the requantisation's bounds
// Q(0) = 0 and Q(1.0) = 4, and the float ops go.
// CHECK-LABEL: func.func @gemm_relu_clip
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xi8>, tensor<3x2xi8>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK: arith.maxsi %{{.*}}, %c0_i64
// CHECK: arith.minsi %{{.*}}, %c4_i64
// CHECK-NOT: arith.select
// CHECK-NOT: arith.minimumf %{{.*}}, %cst
// CHECK: return
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm_relu_clip(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1, 2], [1, 2], [1, 2]]> : tensor<3x2xi8>
  %sw = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  // Bias 0.5 and 1.5: 2 and 12 in units of 0.25 and 0.125, minus zp 2 * sum(w) = (3, 6).
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x3xi8>
  %ef = tensor.empty() : tensor<1x3xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%e8 : tensor<1x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x3xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x3xi8>) outs(%ef : tensor<1x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<3x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<3x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<3x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [#m2, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bd : tensor<1x2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %relu = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<1x2xf32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  %one = arith.constant 1.0 : f32
  %clip = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%relu : tensor<1x2xf32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.minimumf %in, %one : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %e28 = tensor.empty() : tensor<1x2xi8>
  %yq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%clip : tensor<1x2xf32>) outs(%e28 : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_out : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}

// -----

// The same clamp as tf2onnx's ReLU6 imports (its bounds as rank-0 tensor
// operands, each select keeping the bound when the compare holds): the same
// requantisation bounds, and no float op left.
// CHECK-LABEL: func.func @gemm_relu6_tensor_bounds
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xi8>, tensor<3x2xi8>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK: arith.maxsi %{{.*}}, %c0_i64
// CHECK: arith.minsi %{{.*}}, %c4_i64
// CHECK-NOT: arith.select
// CHECK-NOT: arith.cmpf
// CHECK: return
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm_relu6_tensor_bounds(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1, 2], [1, 2], [1, 2]]> : tensor<3x2xi8>
  %sw = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  // Bias 0.5 and 1.5: 2 and 12 in units of 0.25 and 0.125, minus zp 2 * sum(w) = (3, 6).
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x3xi8>
  %ef = tensor.empty() : tensor<1x3xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%e8 : tensor<1x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x3xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x3xi8>) outs(%ef : tensor<1x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<3x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<3x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<3x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [#m2, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bd : tensor<1x2xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %six = arith.constant dense<1.0> : tensor<f32>
  %nought = arith.constant dense<0.0> : tensor<f32>
  %clip = linalg.generic {indexing_maps = [#m2, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, #m2], iterator_types = ["parallel", "parallel"]} ins(%sum, %nought, %six : tensor<1x2xf32>, tensor<f32>, tensor<f32>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: f32, %l: f32, %h: f32, %out: f32):
    %0 = arith.cmpf ult, %in, %l : f32
    %1 = arith.select %0, %l, %in : f32
    %2 = arith.cmpf ugt, %1, %h : f32
    %3 = arith.select %2, %h, %1 : f32
    linalg.yield %3 : f32
  } -> tensor<1x2xf32>
  %e28 = tensor.empty() : tensor<1x2xi8>
  %yq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%clip : tensor<1x2xf32>) outs(%e28 : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_out : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}


// -----

// A ReLU between a dequantize and a quantize of the same scale and zero
// point: not the same integers (the ReLU narrows the bounds to Q(0) = 0), a
// requantisation by 1 that clamps.
// CHECK-LABEL: func.func @relu_same_scale
// CHECK: %[[XQ:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xi8>)
// CHECK: linalg.generic {{.*}} ins(%[[XQ]] : tensor<4xi8>)
// CHECK: arith.maxsi %{{.*}}, %c0_i64
// CHECK-NOT: arith.select
// CHECK: return
#v = affine_map<(d0) -> (d0)>
func.func @relu_same_scale(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %relu = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%relu : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// Sigmoid as IREE imports it (negf, exp, addf 1, divf) between a dequantize
// (scale 1/16) and a quantize (scale 1/256, zero point -128): a table of
// Q(sigmoid(q / 16)) for the 256 values q of the input, read at q + 128. In
// hexadecimal, q = -128 -> -128 (80), q = -1 -> -4 (FC), q = 0 -> 0 (00),
// q = 1 -> 4 (04), q = 127 -> 127 (7F): sigmoid(7.94) = 0.99964 rounds to
// 256 steps, clamped.
// CHECK-LABEL: func.func @sigmoid
// CHECK: %[[XQ:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xi8>)
// CHECK: math.roundeven
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{80([0-9A-F]{2}){126}FC0004([0-9A-F]{2}){125}7F}}"> : tensor<256xi8>
// CHECK: linalg.generic {{.*}} ins(%[[XQ]] : tensor<4xi8>) outs(%{{.*}} : tensor<4xi8>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:   %[[I:.*]] = arith.index_cast %[[IN]] : i8 to index
// CHECK-NEXT:   %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:   %[[J:.*]] = arith.addi %[[I]], %[[C128]] : index
// CHECK-NEXT:   %[[V:.*]] = tensor.extract %[[T]][%[[J]]] : tensor<256xi8>
// CHECK-NEXT:   linalg.yield %[[V]] : i8
// CHECK-NOT: {{arith\.[a-z]+f |math\.|sitofp|fptosi}}
// CHECK: return
#v = affine_map<(d0) -> (d0)>
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.0625 : f32
  %one = arith.constant 1.0 : f32
  %s_out = arith.constant 0.00390625 : f32
  %zp_out = arith.constant -128.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %sig = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sig : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// HardSwish as IREE imports it: five generics, x + 3, a ReLU, a min with a
// rank-0 constant operand, / 6, and the product with x itself; one tensor
// (zero point 10, scale 0.05) feeds them all, so it is one function of 256
// values: q = -128 -> -50 (CE, hardswish(-6.9) = 0 is the zero point),
// q = 0 -> -58 (C6, hardswish(-0.5) = -0.208), q = 10 -> -50 (CE), q = 11 ->
// -49 (CF), q = 127 -> 127 (7F, 5.85 is beyond the range of scale 0.025).
// CHECK-LABEL: func.func @hardswish
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{CE([0-9A-F]{2}){127}C6([0-9A-F]{2}){9}CECF([0-9A-F]{2}){115}7F}}"> : tensor<256xi8>
// CHECK: tensor.extract %[[T]]
// CHECK-NOT: {{arith\.[a-z]+f |math\.|sitofp|fptosi}}
// CHECK: return
#v = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @hardswish(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.05 : f32
  %zp = arith.constant 10.0 : f32
  %zp_i = arith.constant 10 : i32
  %three = arith.constant 3.0 : f32
  %six = arith.constant 6.0 : f32
  %six_t = arith.constant dense<6.0> : tensor<f32>
  %s_out = arith.constant 0.025 : f32
  %zp_out = arith.constant -50.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %three : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#v, #scalar, #v], iterator_types = ["parallel"]} ins(%r, %six_t : tensor<4xf32>, tensor<f32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.cmpf olt, %in, %k : f32
    %1 = arith.select %0, %in, %k : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %dv = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%m : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %six : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %hs = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%dv, %xd : tensor<4xf32>, tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %0 = arith.mulf %in, %in2 : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%hs : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// Tanh, then a clip at 0.5 (as tf2onnx writes a fused activation): the clip
// is part of the function, so the table is exact: scale 0.02 in, 0.01 out,
// q = -128 -> -99 (9D, tanh(-2.56) = -0.988), q = -1 -> -2 (FE), q = 0 -> 0,
// q = 1 -> 2 (02), q = 127 -> 50 (32, the clip).
// CHECK-LABEL: func.func @tanh_clip
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{9D([0-9A-F]{2}){126}FE0002([0-9A-F]{2}){125}32}}"> : tensor<256xi8>
// CHECK: tensor.extract %[[T]]
// CHECK-NOT: {{arith\.[a-z]+f |math\.|sitofp|fptosi}}
// CHECK: return
#v = affine_map<(d0) -> (d0)>
func.func @tanh_clip(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.02 : f32
  %half = arith.constant 0.5 : f32
  %s_out = arith.constant 0.01 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %th = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %clip = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%th : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.minimumf %in, %half : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%clip : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// A mask computed by a generic of its own (i1, as IREE writes Softplus's
// threshold) and a select by it: integers between the floats are part of the
// function. f(x) = x > 0 ? x : x / 4, scale 1/8 in, 1/16 out: q = -128 -> -64
// (C0), q = -1 -> 0 (-1/32 is half a step: to even), q = 0 -> 0, q = 1 -> 2,
// q = 127 -> 127 (7F, clamped).
// CHECK-LABEL: func.func @select_by_mask
// CHECK: %[[T:.*]] = arith.constant dense<"0x{{C0([0-9A-F]{2}){126}000002([0-9A-F]{2}){125}7F}}"> : tensor<256xi8>
// CHECK: tensor.extract %[[T]]
// CHECK-NOT: {{arith\.[a-z]+f |math\.|sitofp|fptosi}}
// CHECK: return
#v = affine_map<(d0) -> (d0)>
func.func @select_by_mask(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.125 : f32
  %quarter = arith.constant 0.25 : f32
  %s_out = arith.constant 0.0625 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi1>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %mask = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%e1 : tensor<4xi1>) {
  ^bb0(%in: f32, %out: i1):
    %0 = arith.cmpf ogt, %in, %zero : f32
    linalg.yield %0 : i1
  } -> tensor<4xi1>
  %small = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %quarter : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %sel = linalg.generic {indexing_maps = [#v, #v, #v, #v], iterator_types = ["parallel"]} ins(%mask, %xd, %small : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%m: i1, %a: f32, %b: f32, %out: f32):
    %0 = arith.select %m, %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sel : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// Unsupported: an op the table's compile-time evaluator does not know
// (math.sin) keeps the float path with a warning (an error with strict=1).
// CHECK-LABEL: func.func @unsupported
// CHECK: math.sin
// STRICT: error: quantize kept in float: cannot rewrite its input on integers (an elementwise function with 'math.sin', which the table's compile-time evaluator does not know)
#v = affine_map<(d0) -> (d0)>
func.func @unsupported(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.5 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %ex = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.sin %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  // expected-warning @+1 {{quantize kept in float: cannot rewrite its input on integers (an elementwise function with 'math.sin', which the table's compile-time evaluator does not know)}}
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%ex : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// A function without a value at some input: log of a negative number is NaN,
// which no quantize maps to an integer. The float path stays, with a warning
// naming the first such input.
// CHECK-LABEL: func.func @not_a_number
// CHECK: math.log
#v = affine_map<(d0) -> (d0)>
func.func @not_a_number(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.5 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %xd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %lg = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%xd : tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.log %in : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  // expected-warning @+1 {{quantize kept in float: cannot rewrite its input on integers (an elementwise function that is not a number at the quantised input -128)}}
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%lg : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %yq : tensor<4xi8>
}

// -----

// A float model (no quantize): unchanged, named ops stay named.
// CHECK-LABEL: func.func @float_only
// CHECK: linalg.matmul
func.func @float_only(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// QUInt8 activations (fptoui, clamp to [0, 255]) whose bytes are the
// function's result are not rewritten: a warning, the float path stays
// (quantize-integer-unsigned.mlir has those that are).
func.func @unsigned(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.5 : f32
  %zp = arith.constant 128.0 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  // expected-warning @+1 {{unsigned (QUInt8) quantize: a reader of its bytes is not a dequantize or a move, not rewritten on integers, the float path stays}}
  %xq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptoui %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  return %xq : tensor<4xi8>
}

// -----

// An int8 model input whose scale is 1 (MLPerf Tiny ResNet-8: scale 1, zero
// point -128): its dequantize has no multiplication, only (x - zp) as float.
// It is a dequantize all the same, and the Gemm reading it becomes integer.
// CHECK-LABEL: func.func @input_scale_one
// CHECK-NOT: arith.sitofp
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xi8>, tensor<3x2xi8>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK-NOT: arith.mulf
// CHECK: return %{{.*}} : tensor<1x2xi8>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @input_scale_one(%x: tensor<1x3xi8>) -> tensor<1x2xi8> {
  %zp_in = arith.constant -128 : i64
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_w = arith.constant 0.5 : f32
  %s_out = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi8>
  %ef = tensor.empty() : tensor<1x3xf32>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xi8>) outs(%ef : tensor<1x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i64
    %1 = arith.subi %0, %zp_in : i64
    %2 = arith.sitofp %1 : i64 to f32
    linalg.yield %2 : f32
  } -> tensor<1x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<3x2xi8>) outs(%ew : tensor<3x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_w : f32
    linalg.yield %1 : f32
  } -> tensor<3x2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
  %e28 = tensor.empty() : tensor<1x2xi8>
  %yq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<1x2xf32>) outs(%e28 : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  return %yq : tensor<1x2xi8>
}

// -----

// Softmax over the last axis as IREE writes it (max with its argmax, x - max,
// exp, sum, exp / sum) between an int8 input (scale 0.25, zp 3) and an int8
// output of scale 1/256, zp -128 (TFLite's): the max on the i8 values, exp
// of q - max in [-255, 0] a 256-entry i32 table of round(2^28 exp(0.25 d))
// (28 fraction bits: a row of 4 sums below 2^30; its last three entries
// 162814334, 209057743, 2^28, printed in little-endian hex), an i32 sum, and
// roundeven(e * 2^30 / (sum << 22)) - 128 by an unsigned division whose
// remainder rounds half to even. The quotient is at most 2^30 / 2^22 = 256,
// so the division is 9 compare-subtract steps, (sum << 22) << 8 first and
// << 0 last; no divider. No float is left.
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<2x4xi8>) outs(%{{.*}} : tensor<2x1xi8>)
// CHECK: arith.maxsi
// CHECK: %[[EXP:.*]] = arith.constant dense<"0x00000000{{[0-9A-F]*}}7E59B409CFF7750C00000010"> : tensor<256xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4xi8>, tensor<2x1xi8>) outs(%{{.*}} : tensor<2x4xi32>)
// CHECK: arith.subi
// CHECK: tensor.extract %[[EXP]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<2x4xi32>) outs(%{{.*}} : tensor<2x1xi32>)
// CHECK: arith.addi
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4xi32>, tensor<2x1xi32>) outs(%{{.*}} : tensor<2x4xi8>)
// CHECK: %[[M:.*]] = arith.constant 1073741824 : i64
// CHECK: arith.muli %{{.*}}, %[[M]] : i64
// CHECK: %[[K:.*]] = arith.constant 22 : i64
// CHECK: %[[DEN:.*]] = arith.shli %{{.*}}, %[[K]] : i64
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[S8:.*]] = arith.shli %[[DEN]], %[[C8]] : i64
// CHECK: arith.cmpi uge, %{{.*}}, %[[S8]] : i64
// CHECK-COUNT-8: arith.cmpi uge, %{{.*}}, %{{.*}} : i64
// CHECK-NOT: arith.cmpi uge
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi ugt
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK-NOT: {{arith\.[a-z]+f |math\.|sitofp|fptosi}}
// CHECK: return %{{.*}} : tensor<2x4xi8>
#sm = affine_map<(d0, d1) -> (d0, d1)>
#sm_row = affine_map<(d0, d1) -> (d0)>
#sm_b = affine_map<(d0, d1) -> (d0, 0)>
func.func @softmax(%x: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %zp_in = arith.constant 3 : i64
  %s_in = arith.constant 0.25 : f32
  %s_out = arith.constant 0.00390625 : f32
  %zp_out = arith.constant -128.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ef = tensor.empty() : tensor<2x4xf32>
  %xd = linalg.generic {indexing_maps = [#sm, #sm], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x4xi8>) outs(%ef : tensor<2x4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i64
    %1 = arith.subi %0, %zp_in : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<2x4xf32>
  %ei = tensor.empty() : tensor<2xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2xi64>) -> tensor<2xi64>
  %em = tensor.empty() : tensor<2xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<2xf32>) -> tensor<2xf32>
  %max:2 = linalg.generic {indexing_maps = [#sm, #sm_row, #sm_row], iterator_types = ["parallel", "reduction"]} ins(%xd : tensor<2x4xf32>) outs(%fm, %fi : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %0 = linalg.index 1 : index
    %1 = arith.index_cast %0 : index to i64
    %2 = arith.maximumf %in, %out : f32
    %3 = arith.cmpf ogt, %in, %out : f32
    %4 = arith.select %3, %1, %out_i : i64
    linalg.yield %2, %4 : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  %maxe = tensor.expand_shape %max#0 [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
  %sub = linalg.generic {indexing_maps = [#sm, #sm_b, #sm], iterator_types = ["parallel", "parallel"]} ins(%xd, %maxe : tensor<2x4xf32>, tensor<2x1xf32>) outs(%ef : tensor<2x4xf32>) {
  ^bb0(%in: f32, %in_m: f32, %out: f32):
    %0 = arith.subf %in, %in_m : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#sm, #sm], iterator_types = ["parallel", "parallel"]} ins(%sub : tensor<2x4xf32>) outs(%ef : tensor<2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %es = tensor.empty() : tensor<2x1xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x1xf32>) -> tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [#sm, #sm_b], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<2x4xf32>) outs(%fs : tensor<2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x1xf32>
  %div = linalg.generic {indexing_maps = [#sm, #sm_b, #sm], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<2x4xf32>, tensor<2x1xf32>) outs(%ef : tensor<2x4xf32>) {
  ^bb0(%in: f32, %in_s: f32, %out: f32):
    %0 = arith.divf %in, %in_s : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %e8 = tensor.empty() : tensor<2x4xi8>
  %yq = linalg.generic {indexing_maps = [#sm, #sm], iterator_types = ["parallel", "parallel"]} ins(%div : tensor<2x4xf32>) outs(%e8 : tensor<2x4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<2x4xi8>
  return %yq : tensor<2x4xi8>
}

// -----

// Softmax over the first axis (the reductions run along d0): the integer
// rewrite takes the last axis only, so the float path stays with a warning.
// CHECK-LABEL: func.func @softmax_first_axis
// CHECK: math.exp
// CHECK: arith.fptosi
#sf = affine_map<(d0, d1) -> (d0, d1)>
#sf_col = affine_map<(d0, d1) -> (d1)>
#sf_b = affine_map<(d0, d1) -> (0, d1)>
func.func @softmax_first_axis(%x: tensor<4x2xi8>) -> tensor<4x2xi8> {
  %s_in = arith.constant 0.25 : f32
  %s_out = arith.constant 0.00390625 : f32
  %zp_out = arith.constant -128.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ef = tensor.empty() : tensor<4x2xf32>
  %xd = linalg.generic {indexing_maps = [#sf, #sf], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x2xi8>) outs(%ef : tensor<4x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_in : f32
    linalg.yield %1 : f32
  } -> tensor<4x2xf32>
  %em = tensor.empty() : tensor<1x2xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<1x2xf32>) -> tensor<1x2xf32>
  %max = linalg.generic {indexing_maps = [#sf, #sf_b], iterator_types = ["reduction", "parallel"]} ins(%xd : tensor<4x2xf32>) outs(%fm : tensor<1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %sub = linalg.generic {indexing_maps = [#sf, #sf_b, #sf], iterator_types = ["parallel", "parallel"]} ins(%xd, %max : tensor<4x2xf32>, tensor<1x2xf32>) outs(%ef : tensor<4x2xf32>) {
  ^bb0(%in: f32, %in_m: f32, %out: f32):
    %0 = arith.subf %in, %in_m : f32
    linalg.yield %0 : f32
  } -> tensor<4x2xf32>
  %exp = linalg.generic {indexing_maps = [#sf, #sf], iterator_types = ["parallel", "parallel"]} ins(%sub : tensor<4x2xf32>) outs(%ef : tensor<4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x2xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%em : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [#sf, #sf_b], iterator_types = ["reduction", "parallel"]} ins(%exp : tensor<4x2xf32>) outs(%fs : tensor<1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x2xf32>
  %div = linalg.generic {indexing_maps = [#sf, #sf_b, #sf], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x2xf32>, tensor<1x2xf32>) outs(%ef : tensor<4x2xf32>) {
  ^bb0(%in: f32, %in_s: f32, %out: f32):
    %0 = arith.divf %in, %in_s : f32
    linalg.yield %0 : f32
  } -> tensor<4x2xf32>
  %e8 = tensor.empty() : tensor<4x2xi8>
  // expected-warning @+1 {{quantize kept in float: cannot rewrite its input on integers (a softmax not over the last axis)}}
  %yq = linalg.generic {indexing_maps = [#sf, #sf], iterator_types = ["parallel", "parallel"]} ins(%div : tensor<4x2xf32>) outs(%e8 : tensor<4x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4x2xi8>
  return %yq : tensor<4x2xi8>
}
// -----

// A ReduceMean between a dequantize and a quantize, as IREE imports it: a
// sum over the map (one input), a division by the count, and a reshape
// (the Squeeze after it) before the quantize. The quantize moves above the
// reshape, and the mean is an i32 sum requantised by 0.5 / (4 * 0.25): no
// float op is left between the quantize and the dequantize.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x2x2x2xi8>) outs(%{{.*}} : tensor<1x2x1x1xi32>)
// CHECK: arith.addi
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x2x1x1xi8> into tensor<1x2xi8>
// CHECK-NOT: arith.divf
// CHECK: return
#q4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#r4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#q2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reduce_mean(%x: tensor<1x2x2x2xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e8 = tensor.empty() : tensor<1x2x2x2xi8>
  %ef = tensor.empty() : tensor<1x2x2x2xf32>
  %xq = linalg.generic {indexing_maps = [#q4, #q4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x2x2xf32>) outs(%e8 : tensor<1x2x2x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2x2x2xi8>
  %xd = linalg.generic {indexing_maps = [#q4, #q4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xq : tensor<1x2x2x2xi8>) outs(%ef : tensor<1x2x2x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x2x2x2xf32>
  %es = tensor.empty() : tensor<1x2x1x1xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%es : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#q4, #r4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%xd : tensor<1x2x2x2xf32>) outs(%fill : tensor<1x2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#q4, #q4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x1x1xf32>) outs(%es : tensor<1x2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.divf %in, %four : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x1x1xf32>
  %flat = tensor.collapse_shape %mean [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
  %e2 = tensor.empty() : tensor<1x2xi8>
  %ef2 = tensor.empty() : tensor<1x2xf32>
  %yq = linalg.generic {indexing_maps = [#q2, #q2], iterator_types = ["parallel", "parallel"]} ins(%flat : tensor<1x2xf32>) outs(%e2 : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#q2, #q2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%ef2 : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_out : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}
