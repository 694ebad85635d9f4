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
// The top padding row is skipped; the left column is not, as no right
// padding follows the previous row.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG: memref.alloca() {{.*}} : memref<2x9x3xi8>
// CHECK-DAG: memref.alloca() {{.*}} : memref<3x3x3xi8>
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c9
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c9
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

// -----

// Leading padding the image loop skips: a padded pixel costs the pipeline's
// II, and the top rows and left columns complete no window and only shift in
// the pad value the buffers start from (the left ones: which the window still
// holds from the previous row's right padding, at least as wide). Low 2 and
// high 1 around a 6x6 image, 3x3 kernel: all 2 top rows are skipped, 1 of
// the 2 left columns (the right padding is 1 wide).
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK-DAG: memref.alloca() {{.*}} : memref<2x9x1xf32>
// CHECK: scf.for %{{.*}} = %c2{{.*}} to %c9
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c9
func.func @skip_asymmetric(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x7x7xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x9x9xf32>
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %e = tensor.empty() : tensor<1x1x7x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x1x9x9xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32>
  return %r : tensor<1x1x7x7xf32>
}

// -----

// Stride 2 over a padded width of 10: skipping the left column would leave
// 9 columns, and the column loop unrolled by the stride would no longer
// complete one window per iteration; the columns start at 0, the rows at 1.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c10
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c10
func.func @skip_strided(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %r : tensor<1x1x4x4xf32>
}

// -----

// Two images share the buffers: the second one's top padding must shift the
// pad value over the first one's last rows, so no row is skipped (a column
// still is: the previous row's right padding covers it).
// CHECK-LABEL: dfg.process @window{{[0-9]+}}
// CHECK: scf.for %{{.*}} to %c2
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c8
func.func @skip_batch(%x: tensor<2x1x6x6xf32>) -> tensor<2x1x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<2x1x6x6xf32> to tensor<2x1x8x8xf32>
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %e = tensor.empty() : tensor<2x1x6x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x6x6xf32>) -> tensor<2x1x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<2x1x6x6xf32>) -> tensor<2x1x6x6xf32>
  return %r : tensor<2x1x6x6xf32>
}
