// ming-quantize-integer's requantisations in one DSP48E2 per multiply
// (OneDsp.h). The first three: an int8 Gemm of 64 inputs, weights 127
// quantised per output channel, input scale 0.5. Its accumulator reaches
// 128 * 64 * 127 + 16,256 = 1,056,768 in magnitude (an i22), and its
// multipliers take 31 bits: two DSPs per lane.
// REQUIRES: ming-opt
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer))' | FileCheck %s

#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Output scale 2: multipliers 0.0025 and 0.00325, 31 bits at shift 39 as
// fixedPoint gives them. Outputs are saturated outside x in [-51001, 50601]:
// x is clamped to that range and centred on -200, an i18; the multipliers
// rounded to 26 bits (shift 34) round every x of it as the 31-bit ones do.
// The centre's product -200 M2 is added back from a second vector.
// CHECK-LABEL: func.func @clamped
// CHECK: %[[M:.*]] = arith.constant dense<[42949672, 55834576]> : tensor<2xi32>
// CHECK: %[[K:.*]] = arith.constant dense<[-8589934400, -11166915200]> : tensor<2xi64>
// CHECK: ins(%{{.*}}, %[[M]], %[[K]] : tensor<1x2xi32>, tensor<2xi32>, tensor<2xi64>)
// CHECK: ^bb0(%[[ACC:.*]]: i32, %[[MC:.*]]: i32, %[[KC:.*]]: i64, %{{.*}}: i8):
// CHECK-NEXT: %[[X:.*]] = arith.extsi %[[ACC]] : i32 to i64
// CHECK-NEXT: %[[LO:.*]] = arith.constant -51001 : i64
// CHECK-NEXT: %[[X1:.*]] = arith.maxsi %[[X]], %[[LO]] : i64
// CHECK-NEXT: %[[HI:.*]] = arith.constant 50601 : i64
// CHECK-NEXT: %[[X2:.*]] = arith.minsi %[[X1]], %[[HI]] : i64
// CHECK-NEXT: %[[C:.*]] = arith.constant -200 : i64
// CHECK-NEXT: %[[X3:.*]] = arith.subi %[[X2]], %[[C]] : i64
// CHECK-NEXT: %[[XT:.*]] = arith.trunci %[[X3]] : i64 to i18
// CHECK-NEXT: %[[XN:.*]] = arith.extsi %[[XT]] : i18 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extsi %[[MC]] : i32 to i64
// CHECK-NEXT: %[[MT:.*]] = arith.trunci %[[M64]] : i64 to i27
// CHECK-NEXT: %[[MN:.*]] = arith.extsi %[[MT]] : i27 to i64
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XN]], %[[MN]] : i64
// CHECK-NEXT: %[[PK:.*]] = arith.addi %[[P]], %[[KC]] : i64
// CHECK: arith.shrsi %[[PK]], %c34_i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @clamped(%x: tensor<1x64xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<127> : tensor<64x2xi8>
  %sw = arith.constant dense<[0.01, 0.013]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x64xi8>
  %ef = tensor.empty() : tensor<1x64xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf32>) outs(%e8 : tensor<1x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x64xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x64xi8>) outs(%ef : tensor<1x64xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x64xf32>
  %ew = tensor.empty() : tensor<64x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<64x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<64x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<64x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x64xf32>, tensor<64x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
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

#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Output scale 2.4425 and zero point -128, weight scales 0.00561 and 0.01961.
// Rounded to 26 bits, the first channel's multiplier has no value exact on
// its range [124, 221611]; at 27 bits it has, and the DSP takes it less 2^26
// (a signed 27-bit operand), the product gaining (x - centre) 2^26.
// CHECK-LABEL: func.func @offset
// CHECK: arith.constant dense<[-47379271, 1856793]> : tensor<2xi32>
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %[[KC:.*]]: i64, %{{.*}}: i8):
// CHECK: arith.maxsi %{{.*}}, %c124_i64
// CHECK: arith.minsi %{{.*}}, %c221611_i64
// CHECK: %[[XT:.*]] = arith.trunci %{{.*}} : i64 to i18
// CHECK-NEXT: %[[XN:.*]] = arith.extsi %[[XT]] : i18 to i64
// CHECK: %[[MT:.*]] = arith.trunci %{{.*}} : i64 to i27
// CHECK-NEXT: %[[MN:.*]] = arith.extsi %[[MT]] : i27 to i64
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XN]], %[[MN]] : i64
// CHECK-NEXT: %[[S:.*]] = arith.constant 26 : i64
// CHECK-NEXT: %[[XS:.*]] = arith.shli %[[XN]], %[[S]] : i64
// CHECK-NEXT: %[[PX:.*]] = arith.addi %[[P]], %[[XS]] : i64
// CHECK-NEXT: arith.addi %[[PX]], %[[KC]] : i64
// CHECK: arith.shrsi %{{.*}}, %c34_i64
func.func @offset(%x: tensor<1x64xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 2.4425 : f32
  %zero = arith.constant 0.0 : f32
  %zp_out = arith.constant -128.0 : f32
  %zp_out_i = arith.constant -128 : i32
  %w = arith.constant dense<127> : tensor<64x2xi8>
  %sw = arith.constant dense<[0.00561, 0.01961]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x64xi8>
  %ef = tensor.empty() : tensor<1x64xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf32>) outs(%e8 : tensor<1x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x64xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x64xi8>) outs(%ef : tensor<1x64xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x64xf32>
  %ew = tensor.empty() : tensor<64x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<64x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<64x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<64x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x64xf32>, tensor<64x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
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
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%e2 : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_out_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_out : f32
    linalg.yield %3 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}


// -----

#m2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Output scale 20: multipliers ten times smaller, an unsaturated range of
// about a million, wider than the 18-bit port. The two-DSP form stays: the
// accumulator as an i22, times the 31-bit multipliers.
// CHECK-LABEL: func.func @too_wide
// CHECK: arith.constant dense<[1099511603, 1429365146]> : tensor<2xi32>
// CHECK: ^bb0(%[[ACC:.*]]: i32, %[[M:.*]]: i32, %{{.*}}: i8):
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[ACC]] : i32 to i64
// CHECK-NEXT: %[[NARROW:.*]] = arith.trunci %[[WIDE]] : i64 to i22
// CHECK-NEXT: %[[X:.*]] = arith.extsi %[[NARROW]] : i22 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-NEXT: arith.muli %[[X]], %[[M64]] : i64
// CHECK-NOT: arith.shli
// CHECK: return
func.func @too_wide(%x: tensor<1x64xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.5 : f32
  %zp_in = arith.constant 2.0 : f32
  %zp_in_i = arith.constant 2 : i32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %s_out = arith.constant 20.0 : f32
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<127> : tensor<64x2xi8>
  %sw = arith.constant dense<[0.01, 0.013]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xi8>
  %bias = arith.constant dense<[2, 12]> : tensor<2xi32>
  %sb = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %e8 = tensor.empty() : tensor<1x64xi8>
  %ef = tensor.empty() : tensor<1x64xf32>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x64xf32>) outs(%e8 : tensor<1x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x64xi8>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x64xi8>) outs(%ef : tensor<1x64xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extsi %in : i8 to i32
    %1 = arith.subi %0, %zp_in_i : i32
    %2 = arith.sitofp %1 : i32 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x64xf32>
  %ew = tensor.empty() : tensor<64x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #col, #col, #m2], iterator_types = ["parallel", "parallel"]} ins(%w, %sw, %zw : tensor<64x2xi8>, tensor<2xf32>, tensor<2xi8>) outs(%ew : tensor<64x2xf32>) {
  ^bb0(%in: i8, %s: f32, %z: i8, %out: f32):
    %0 = arith.extsi %z : i8 to i16
    %1 = arith.extsi %in : i8 to i16
    %2 = arith.subi %1, %0 : i16
    %3 = arith.sitofp %2 : i16 to f32
    %4 = arith.mulf %3, %s : f32
    linalg.yield %4 : f32
  } -> tensor<64x2xf32>
  %eb = tensor.empty() : tensor<2xf32>
  %bd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias, %sb : tensor<2xi32>, tensor<2xf32>) outs(%eb : tensor<2xf32>) {
  ^bb0(%in: i32, %s: f32, %out: f32):
    %0 = arith.sitofp %in : i32 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%xd, %wd : tensor<1x64xf32>, tensor<64x2xf32>) outs(%fill : tensor<1x2xf32>) -> tensor<1x2xf32>
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

// A residual add of two int8 tensors (scales 0.0371 and 0.0523, output
// 0.0611): each term, a centred i9 times its 31-bit multiplier at shift 31
// (2 DSPs), takes multipliers of 26 bits at shift 26 instead (1 DSP each):
// all 65,536 pairs of inputs are checked to give the same output.
// 0.0371 / 0.0611 and 0.0523 / 0.0611 at shift 26: 40748589 and 57443430.
// CHECK-LABEL: func.func @add
// CHECK: ^bb0(%{{.*}}: i8, %{{.*}}: i8, %{{.*}}: i8):
// CHECK: arith.muli %{{.*}}, %c40748589_i64 : i64
// CHECK: arith.muli %{{.*}}, %c57443430_i64 : i64
// CHECK: arith.shrsi %{{.*}}, %c26_i64
// CHECK-NOT: arith.muli
// CHECK: return
#v = affine_map<(d0) -> (d0)>
func.func @add(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %sa = arith.constant 0.0371 : f32
  %sc = arith.constant 0.0523 : f32
  %so = arith.constant 0.0611 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %sa : f32
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
    %1 = arith.mulf %0, %sa : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %sc : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %yd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%yq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %sc : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%xd, %yd : tensor<4xf32>, tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %sd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %so : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %sd : tensor<4xf32>
}

// -----

// Their product: the i16 product of the centred inputs times 0.0371 x
// 0.0523 / 0.0611 with 26 bits at shift 30 (31 bits at shift 35 before),
// checked on every pair as well.
// CHECK-LABEL: func.func @mul
// CHECK: %[[P:.*]] = arith.extsi %{{.*}} : i16 to i64
// CHECK-NEXT: %[[M:.*]] = arith.constant 34098419 : i64
// CHECK-NEXT: arith.muli %[[P]], %[[M]] : i64
// CHECK: arith.shrsi %{{.*}}, %c30_i64
#v = affine_map<(d0) -> (d0)>
func.func @mul(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %sa = arith.constant 0.0371 : f32
  %sc = arith.constant 0.0523 : f32
  %so = arith.constant 0.0611 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  %ef = tensor.empty() : tensor<4xf32>
  %xq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %sa : f32
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
    %1 = arith.mulf %0, %sa : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %yq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %sc : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %yd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%yq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %sc : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%xd, %yd : tensor<4xf32>, tensor<4xf32>) outs(%ef : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e8 : tensor<4xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zero : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<4xi8>
  %sd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%sq : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %so : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %sd : tensor<4xf32>
}
