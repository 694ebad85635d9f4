// Column pairs: an int8 depthwise window computes the outputs of two
// adjacent columns per iteration. The window register is one column wider
// (3x4), the column loop steps by two, the first column's outputs are pushed
// and the second's held in a register per channel, pushed after them; each
// weight is read once for both taps. ming-pack-int8 then computes each such
// pair of products in one 27x18 multiply.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg,ming-pack-int8)' | FileCheck %s --check-prefix=PACK

// 6x6 padded by 1: 8 padded columns, the first skipped, 7 left: odd, so the
// pairs start at column 0 (a padding column shifted in once more).
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG:   memref.alloca() {{.*}} : memref<2x8x4xi8>
// CHECK-DAG:   memref.alloca() {{.*}}complete = [1, 2]{{.*}} : memref<3x4x4xi8>
// CHECK-DAG:   memref.alloca() {{.*}}complete = [1]{{.*}} : memref<4xi32>
// CHECK:       scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}} step %c2
// CHECK-COUNT-2: dfg.pull
// CHECK:       scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32)
// CHECK:       arith.muli {{.*}} : i32
// CHECK:       arith.muli {{.*}} : i32
// CHECK:       dfg.push
// CHECK:       memref.store %{{.*}} : memref<4xi32>
// CHECK:       memref.load %{{.*}} : memref<4xi32>
// CHECK-NEXT:  dfg.push
// PACK-LABEL:  dfg.process @window{{[0-9]+}}
// PACK:        arith.muli %{{.*}}, %{{.*}} : i36
// PACK-NOT:    arith.muli {{.*}} : i32
// PACK-LABEL:  dfg.graph
func.func @depthwise_i8(%x: tensor<1x6x6x4xi8>) -> tensor<1x6x6x4xi32> {
  %pad = arith.constant 0 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %pad : i8
  } : tensor<1x6x6x4xi8> to tensor<1x8x8x4xi8>
  %w = arith.constant dense<[[[1, -2, 3, -4], [5, -6, 7, -8], [9, -10, 11, -12]],
                             [[13, -14, 15, -16], [17, -18, 19, -20], [21, -22, 23, -24]],
                             [[25, -26, 27, -28], [29, -30, 31, -32], [33, -34, 35, -36]]]> : tensor<3x3x4xi8>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x6x6x4xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x8x4xi8>, tensor<3x3x4xi8>) outs(%f : tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32>
  return %r : tensor<1x6x6x4xi32>
}

// -----

// Not paired: a stride of 2 along the columns, and a float window.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK:       memref.alloca() {{.*}} : memref<3x3x4xi8>
// CHECK-NOT:   step %c2
// CHECK-LABEL: dfg.process @store
func.func @strided_i8(%x: tensor<1x9x9x4xi8>) -> tensor<1x4x4x4xi32> {
  %w = arith.constant dense<3> : tensor<3x3x4xi8>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x4xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x4xi8>, tensor<3x3x4xi8>) outs(%f : tensor<1x4x4x4xi32>) -> tensor<1x4x4x4xi32>
  return %r : tensor<1x4x4x4xi32>
}

// -----

// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK:       memref.alloca() {{.*}} : memref<3x3x4xf32>
// CHECK-NOT:   step %c2
// CHECK-LABEL: dfg.process @store
func.func @float(%x: tensor<1x8x8x4xf32>) -> tensor<1x6x6x4xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x4xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%f : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

// Not paired: the accumulator starts from a streamed tensor (pulled per
// output element, in the order the outputs leave).
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK:       memref.alloca() {{.*}} : memref<3x3x4xi8>
// CHECK-NOT:   step %c2
// CHECK-LABEL: dfg.process @store
func.func @streamed_init(%x: tensor<1x8x8x4xi8>, %acc: tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32> {
  %w = arith.constant dense<3> : tensor<3x3x4xi8>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xi8>, tensor<3x3x4xi8>) outs(%acc : tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32>
  return %r : tensor<1x6x6x4xi32>
}
