// Sliding-window geometry: stride, dilation and asymmetric padding change
// the line buffer and the output condition, not the streaming structure.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// Dilation 2 with a 3x3 kernel spans 5 rows: 4 buffered rows of width 10.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG: memref.alloca() {{.*}} : memref<4x10x1xf32>
// CHECK-DAG: memref.alloca() {{.*}} : memref<5x5x1xf32>
// Taps are every other row and column of the window.
// CHECK: arith.muli %{{.*}}, %c2
func.func @dilated(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x6x6xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x3x3xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x6x6xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%f : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %r : tensor<1x2x6x6xf32>
}

// -----

// Stride 2 and padding low 1 / high 0: the padded image is 9 wide; a window
// completes only on the stride grid (remainder 0) and inside the 4x4 output.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG: memref.alloca() {{.*}} : memref<2x9x3xi8>
// CHECK-DAG: memref.alloca() {{.*}} : memref<3x3x3xi8>
// CHECK: scf.for %{{.*}} to %c9
// CHECK: scf.for %{{.*}} to %c9
// The pad value -128 enters outside the image.
// CHECK: arith.constant -128 : i8
// CHECK: arith.divui %{{.*}}, %c2
// CHECK: arith.remui %{{.*}}, %c2
// CHECK: arith.cmpi slt, %{{.*}}, %c4
func.func @strided(%x: tensor<1x3x8x8xi8>) -> tensor<1x3x4x4xi8> {
  %pad = arith.constant -128 : i8
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %pad : i8
  } : tensor<1x3x8x8xi8> to tensor<1x3x9x9xi8>
  %k = tensor.empty() : tensor<3x3xi8>
  %e = tensor.empty() : tensor<1x3x4x4xi8>
  %f = linalg.fill ins(%pad : i8) outs(%e : tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xi8>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %k : tensor<1x3x9x9xi8>, tensor<3x3xi8>) outs(%f : tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xi8>
  return %r : tensor<1x3x4x4xi8>
}

// -----

// Depthwise: the channel indexes both the window and the output; the window
// register still holds every channel of the pixel.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG: memref.alloca() {{.*}} : memref<2x6x4xf32>
// CHECK-DAG: memref.alloca() {{.*}} : memref<3x3x4xf32>
// CHECK-LABEL: dfg.process @store4
// CHECK: scf.for %{{.*}} to %c64
func.func @depthwise(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3x3xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
