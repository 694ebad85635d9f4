// A quantised LeakyRelu (IREE's cmpf/mulf/select between a dequantize and a
// quantize) becomes a 256-entry table. By default it holds the float
// function rounded half to even; for TFLite models (rounding=tflite) it holds
// what TFLite's default kernels (XNNPACK) compute: each side's scale rounded
// to 8 fraction bits, out = ((q - zp) M + 128) >> 8 + zp_out.
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1}))' | FileCheck %s --check-prefix=ORT
// RUN: ming-opt %s --pass-pipeline='builtin.module(func.func(ming-quantize-integer{strict=1 rounding=tflite}))' | FileCheck %s --check-prefix=TFL

// Input scale 1/16, zero point 0; output scale 0.1, zero point 0; slope
// 0.3. Above 0 the scale is 0.625 (M = 160), below 0.1875 (M = 48).
// At q = 4 (entry 132) the float value is 2.5 less an f32 ulp: 2; XNNPACK's
// (4 * 160 + 128) >> 8 = 3. At q = -8 (entry 120) the float value is -1.5
// less an ulp: -2; XNNPACK's (-8 * 48 + 128) >> 8 = -1. Entries 120 to 132
// (the table prints as hex bytes, from byte 120): FE FF FF FF FF FF 00 00 00
// 01 01 02 02, and FF FF FF FF FF FF 00 00 00 01 01 02 03.
// ORT: arith.constant dense<"0xE8E8E8E9E9E9E9E9EAEAEAEAEAEAEBEBEBEBEBECECECECECECEDEDEDEDEDEEEEEEEEEEEFEFEFEFEFF0F0F0F0F0F0F1F1F1F1F1F2F2F2F2F2F2F3F3F3F3F3F4F4F4F4F4F5F5F5F5F5F5F6F6F6F6F6F7F7F7F7F7F8F8F8F8F8F8F9F9F9F9F9FAFAFAFAFAFBFBFBFBFBFCFCFCFCFCFCFDFDFDFDFDFEFEFEFEFEFEFFFFFFFFFF0000000101020203040405060607080809090A0B0B0C0C0D0E0E0F101011121213131415151616171818191A1A1B1C1C1D1D1E1F1F202021222223242425262627272829292A2A2B2C2C2D2E2E2F303031313233333434353636373838393A3A3B3B3C3D3D3E3E3F404041424243444445454647474848494A4A4B4C4C4D4E4E4F4F"> : tensor<256xi8>
// TFL: arith.constant dense<"0xE8E8E8E9E9E9E9E9EAEAEAEAEAEAEBEBEBEBEBECECECECECEDEDEDEDEDEDEEEEEEEEEEEFEFEFEFEFF0F0F0F0F0F0F1F1F1F1F1F2F2F2F2F2F3F3F3F3F3F3F4F4F4F4F4F5F5F5F5F5F6F6F6F6F6F6F7F7F7F7F7F8F8F8F8F8F9F9F9F9F9F9FAFAFAFAFAFBFBFBFBFBFCFCFCFCFCFCFDFDFDFDFDFEFEFEFEFEFFFFFFFFFFFF0000000101020303040405060607080809090A0B0B0C0D0D0E0E0F101011121213131415151617171818191A1A1B1C1C1D1D1E1F1F202121222223242425262627272829292A2B2B2C2C2D2E2E2F303031313233333435353636373838393A3A3B3B3C3D3D3E3F3F404041424243444445454647474849494A4A4B4C4C4D4E4E4F4F"> : tensor<256xi8>
#id = affine_map<(d0) -> (d0)>
func.func @leaky(%x: tensor<16xi8>) -> tensor<16xi8> {
  %s = arith.constant 6.250000e-02 : f32
  %so = arith.constant 1.000000e-01 : f32
  %zf = arith.constant 0.000000e+00 : f32
  %lo = arith.constant -1.280000e+02 : f32
  %hi = arith.constant 1.270000e+02 : f32
  %alpha = arith.constant 3.000000e-01 : f32
  %e = tensor.empty() : tensor<16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xi8>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: i8, %out: f32):
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.mulf %0, %s : f32
    linalg.yield %1 : f32
  } -> tensor<16xf32>
  %l = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%d : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zf : f32
    %1 = arith.mulf %in, %alpha : f32
    %2 = arith.select %0, %in, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16xf32>
  %eq = tensor.empty() : tensor<16xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%l : tensor<16xf32>) outs(%eq : tensor<16xi8>) {
  ^bb0(%in: f32, %out: i8):
    %0 = arith.divf %in, %so : f32
    %1 = math.roundeven %0 : f32
    %2 = arith.addf %1, %zf : f32
    %3 = arith.maximumf %2, %lo : f32
    %4 = arith.minimumf %3, %hi : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<16xi8>
  return %q : tensor<16xi8>
}
