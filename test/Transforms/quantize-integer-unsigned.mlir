// ming-quantize-integer on QUInt8 activations (onnxruntime quantize_static's
// default): each unsigned quantize (fptoui, clamp [0, 255]) is re-encoded as a
// signed one with its zero point moved by 128, its readers to match, and the
// rewrite then proceeds as for int8.
// REQUIRES: ming-opt
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ming-quantize-integer))' -verify-diagnostics | FileCheck %s

// A matmul between two QUInt8 activations (zero points 128 and 3): integer
// all the way, the input quantize now signed with zero point 0.
// CHECK-LABEL: func.func @matmul_u8
// CHECK: arith.addf %{{.*}}, %[[ZP:.*]] : f32
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi {{.*}} : f32 to i8
// CHECK-NOT: arith.fptoui
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3xi8>, tensor<3x2xi8>) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK-NOT: arith.fptoui
// CHECK: arith.sitofp
// CHECK: return %{{.*}} : tensor<1x2xf32>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#ma = affine_map<(d0, d1, d2) -> (d0, d2)>
#mb = affine_map<(d0, d1, d2) -> (d2, d1)>
#mc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_u8(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %s_in = arith.constant 0.25 : f32
  %zp_in = arith.constant 128.0 : f32
  %zp_in_i = arith.constant 128 : i64
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  %s_w = arith.constant 0.5 : f32
  %s_out = arith.constant 2.0 : f32
  %zp_out = arith.constant 3.0 : f32
  %zp_out_i = arith.constant 3 : i64
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi8>
  %e8 = tensor.empty() : tensor<1x3xi8>
  %xq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%e8 : tensor<1x3xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_in : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_in : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptoui %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x3xi8>
  %ef = tensor.empty() : tensor<1x3xf32>
  %xd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xq : tensor<1x3xi8>) outs(%ef : tensor<1x3xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extui %in : i8 to i64
    %1 = arith.subi %0, %zp_in_i : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s_in : f32
    linalg.yield %3 : f32
  } -> tensor<1x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %wd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<3x2xi8>) outs(%ew : tensor<3x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s_w : f32
    linalg.yield %1 : f32
  } -> tensor<3x2xf32>
  %eo = tensor.empty() : tensor<1x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xd, %wd : tensor<1x3xf32>, tensor<3x2xf32>) outs(%fill : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2xf32>
  %eq = tensor.empty() : tensor<1x2xi8>
  %yq = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<1x2xf32>) outs(%eq : tensor<1x2xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %s_out : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zp_out : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptoui %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<1x2xi8>
  %yd = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%yq : tensor<1x2xi8>) outs(%eo : tensor<1x2xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extui %in : i8 to i64
    %1 = arith.subi %0, %zp_out_i : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s_out : f32
    linalg.yield %3 : f32
  } -> tensor<1x2xf32>
  return %yd : tensor<1x2xf32>
}

// -----

// A pad of the unsigned bytes with the zero point (128) pads the signed ones
// with 0; a dequantize without zero point (uitofp) reads u = s + 128.
// CHECK-LABEL: func.func @pad_uitofp
// CHECK: arith.fptosi {{.*}} : f32 to i8
// CHECK: tensor.pad
// CHECK: %[[Z:.*]] = arith.constant 0 : i8
// CHECK: tensor.yield %[[Z]] : i8
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[M:.*]] = arith.constant -128 : i32
// CHECK: %[[S:.*]] = arith.subi %[[W]], %[[M]] : i32
// CHECK: arith.sitofp %[[S]] : i32 to f32
// CHECK-NOT: arith.uitofp
func.func @pad_uitofp(%x: tensor<4xf32>) -> tensor<6xf32> {
  %s = arith.constant 0.5 : f32
  %zp = arith.constant 128.0 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  %pad = arith.constant -128 : i8
  %e8 = tensor.empty() : tensor<4xi8>
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
  %p = tensor.pad %xq low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %pad : i8
  } : tensor<4xi8> to tensor<6xi8>
  %ef = tensor.empty() : tensor<6xf32>
  %xd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<6xi8>) outs(%ef : tensor<6xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.uitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<6xf32>
  return %xd : tensor<6xf32>
}

// -----

// The unsigned bytes are the function's result: their encoding is the
// interface, so nothing is re-encoded and the float path stays.
func.func @unsigned_result(%x: tensor<4xf32>) -> tensor<4xi8> {
  %s = arith.constant 0.5 : f32
  %zp = arith.constant 128.0 : f32
  %lo = arith.constant 0.0 : f32
  %hi = arith.constant 255.0 : f32
  %e8 = tensor.empty() : tensor<4xi8>
  // expected-warning @+1 {{unsigned (QUInt8) quantize: a reader of its bytes is not a dequantize or a move}}
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

// A uint8 model input (an i8 argument a dequantize widens with extui): the
// interface stays, one elementwise generic re-encodes the bytes (u xor 0x80),
// and the dequantize reads them signed with the zero point moved by 128.
// CHECK-LABEL: func.func @u8_input
// CHECK-SAME: (%[[ARG:.*]]: tensor<4xi8>)
// CHECK: %[[FLIP:.*]] = linalg.generic {{.*}} ins(%[[ARG]] : tensor<4xi8>)
// CHECK: arith.xori %{{.*}}, %{{.*}} : i8
// CHECK: linalg.generic {{.*}} ins(%[[FLIP]] : tensor<4xi8>)
// CHECK: %[[W:.*]] = arith.extsi %{{.*}} : i8 to i64
// CHECK: %[[ZP:.*]] = arith.constant 0 : i64
// CHECK: arith.subi %[[W]], %[[ZP]] : i64
// CHECK-NOT: arith.extui
func.func @u8_input(%x: tensor<4xi8>) -> tensor<4xf32> {
  %s = arith.constant 0.5 : f32
  %zp = arith.constant 128 : i64
  %ef = tensor.empty() : tensor<4xf32>
  %xd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xi8>) outs(%ef : tensor<4xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.extui %in : i8 to i64
    %1 = arith.subi %0, %zp : i64
    %2 = arith.sitofp %1 : i64 to f32
    %3 = arith.mulf %2, %s : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  return %xd : tensor<4xf32>
}
