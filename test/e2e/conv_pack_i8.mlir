// RUN: %python %root/scripts/e2e.py %s --work %t --keep \
// RUN:   --ming-opt 'sh -c "exec ming-opt $1 --hls $3 --dsp 40" dsp40' | FileCheck %s
// RUN: FileCheck %s --check-prefix=CPP --input-file=%t/prj/conv_pack.cpp
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/prj/report.md
// RUN: %python -c "import numpy as n; x = n.fromfile('%t/in0.bin', n.int8); assert x.min() == -128 and x.max() == 127, (x.min(), x.max())"
// int8 DSP packing checked exactly: conv 4->8 3x3 (no padding) on 16x16
// with weights covering every i8 value (-128 in both lanes of a pair) and the
// e2e inputs (uniform over i8; -128 and 127 among them, checked above), i32
// outputs straight from the accumulators, which start from a bias broadcast
// over the pixels (as in an integer-quantised model; the window reads the
// eight biases from their ROM in place). At 40 DSPs the DSE packs the
// output-channel pairs, two MACs per DSP48E2: 985 cycles on 36 DSPs (the
// window's pipeline over the pixels of a row, 2 BRAM18K of FIFOs), where
// without packing the same budget gives 2097 (the packed window is the
// slowest process; the NCHW output leaves through a row reorder and a store
// that writes whole memory rows).
// C simulation equals mlir-runner element for element.
// CHECK: out0 tensor<1x8x14x14xi32>: max error 0, mismatches 0/1568
// CHECK: e2e: conv_pack_i8.mlir: PASS
// The idiom: the weight pair in one 27-bit word, one 27x8 product, the low
// 18 bits and the high part with its borrow.
// CPP:      const ap_int<27> [[HI:v[0-9]+]] = static_cast<ap_uint<27>>({{v[0-9]+}}) << {{v[0-9]+}};
// CPP:      const ap_int<27> [[WORD:v[0-9]+]] = [[HI]] + {{v[0-9]+}};
// CPP:      const ap_int<36> [[W36:v[0-9]+]] = static_cast<ap_int<36>>([[WORD]]);
// CPP:      const ap_int<36> [[P:v[0-9]+]] = [[W36]] * {{v[0-9]+}};
// CPP:      const ap_int<18> {{v[0-9]+}} = static_cast<ap_int<18>>([[P]]);
// CPP:      const ap_int<36> {{v[0-9]+}} = [[P]] >> {{v[0-9]+}};
// REPORT:   | ming (dataflow) | 985 | 36 | 2 | 0 |
func.func @conv_pack(%x: tensor<1x4x16x16xi8>) -> tensor<1x8x14x14xi32> {
  %w = arith.constant dense<[[[[-128, -18, 79], [-80, 17, 114], [-45, 52, -107]], [[-10, 87, -72], [25, 122, -37], [60, -99, -2]], [[95, -64, 33], [-126, -29, 68], [-91, 6, 103]], [[-56, 41, -118], [-21, 76, -83], [14, 111, -48]]], [[[-128, -110, -13], [84, -75, 22], [119, -40, 57]], [[-102, -5, 92], [-67, 30, 127], [-32, 65, -94]], [[3, 100, -59], [38, -121, -24], [73, -86, 11]], [[108, -51, 46], [-113, -16, 81], [-78, 19, 116]]], [[[127, 54, -105], [-8, 89, -70], [27, 124, -35]], [[62, -97, 0], [97, -62, 35], [-124, -27, 70]], [[-89, 8, 105], [-54, 43, -116], [-19, 78, -81]], [[16, 113, -46], [51, -108, -11], [86, -73, 24]]], [[[-128, -38, 59], [-100, -3, 94], [-65, 32, -127]], [[-30, 67, -92], [5, 102, -57], [40, -119, -22]], [[75, -84, 13], [110, -49, 48], [-111, -14, 83]], [[-76, 21, 118], [-41, 56, -103], [-6, 91, -68]]], [[[29, 126, -33], [64, -95, 2], [99, -60, 37]], [[-122, -25, 72], [-87, 10, 107], [-52, 45, -114]], [[-17, 80, -79], [18, 115, -44], [53, -106, -9]], [[88, -71, 26], [123, -36, 61], [-98, -1, 96]]], [[[-63, 34, -125], [-28, 69, -90], [7, 104, -55]], [[42, -117, -20], [77, -82, 15], [112, -47, 50]], [[-109, -12, 85], [-74, 23, 120], [-39, 58, -101]], [[-4, 93, -66], [31, -128, -31], [66, -93, 4]]], [[[101, -58, 39], [-120, -23, 74], [-85, 12, 109]], [[-50, 47, -112], [-15, 82, -77], [20, 117, -42]], [[55, -104, -7], [90, -69, 28], [125, -34, 63]], [[-96, 1, 98], [-61, 36, -123], [-26, 71, -88]]], [[[9, 106, -53], [44, -115, -18], [79, -80, 17]], [[114, -45, 52], [-107, -10, 87], [-72, 25, 122]], [[-37, 60, -99], [-2, 95, -64], [33, -126, -29]], [[68, -91, 6], [103, -56, 41], [-118, -21, 76]]]]> : tensor<8x4x3x3xi8>
  %bias = arith.constant dense<[-100000, 99999, 0, 1, -1, 12345, -54321, 7]> : tensor<8xi32>
  %empty = tensor.empty() : tensor<1x8x14x14xi32>
  %init = linalg.broadcast ins(%bias : tensor<8xi32>) outs(%empty : tensor<1x8x14x14xi32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x16x16xi8>, tensor<8x4x3x3xi8>) outs(%init : tensor<1x8x14x14xi32>) -> tensor<1x8x14x14xi32>
  return %conv : tensor<1x8x14x14xi32>
}
