// convert-linalg-to-dfg splits a convolution (its window read by every
// output channel) whose window is a whole number of elements per output
// channel, or (a heavy pixel) at least as many elements as channels, into a window process that pushes each complete window, taps in
// the conv's reduction order (channels, rows, columns for NCHW), and a
// regular reduction over those windows, where the split pays: few padded
// pixels complete a window (a small map, a stride), or one pixel's MACs
// exceed a board's DSPs. The paper's cascade_conv (32x32, 8 channels: 1,024
// of 1,156 pixels complete a window, 576 MACs each) keeps whole windows, as
// do depthwise convolutions (no output-channel loop); gather-windows=0 keeps
// every convolution whole. The split's numbers are checked by C simulation
// in test/e2e (iree_onnx_net) and test/models (ResNet-8).
// RUN: ming-opt %s --split-input-file --convert-linalg-to-dfg | FileCheck %s
// RUN: ming-opt %s --split-input-file --convert-linalg-to-dfg=gather-windows=0 | FileCheck %s --check-prefix=OFF
// RUN: ming-opt %S/../../e2e/cascade_conv_i8.mlir --convert-linalg-to-dfg | FileCheck %s --check-prefix=WHOLE
// RUN: ming-opt %S/../../e2e/depthwise_conv.mlir --convert-linalg-to-dfg | FileCheck %s --check-prefix=DW

// A 4x4 map padded to 6x6: 16 of 36 pixels complete a window. The pixel
// loop over the padded input, the window complete, then its 8 x 3 x 3 taps
// pushed without arithmetic; the contraction right after it.
// CHECK-LABEL: dfg.process @window2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i8>)
// CHECK-SAME:    ming.port_elements = array<i64: 128, 1152>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c6
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               scf.for %{{.*}} = %{{.*}} to %c8
// CHECK:                 scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:                   scf.for %{{.*}} = %{{.*}} to %c3
// CHECK-NOT:                   arith.muli {{.*}} : i32
// CHECK:                       %[[TAP:.*]] = memref.load %{{.*}} : memref<3x3x8xi8>
// CHECK-NEXT:                  dfg.push %[[TAP]], %arg1 : !dfg.out<i8>
// CHECK-LABEL: dfg.process @reduce3(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// CHECK-SAME:    kind = #dfg.kind<regular_reduction>
// CHECK:         arith.muli
// CHECK-LABEL: dfg.graph @small_map
// CHECK:         dfg.instantiate @window2
// CHECK-NEXT:    dfg.channel
// CHECK-NEXT:    dfg.instantiate @reduce3
// OFF-LABEL: dfg.graph @small_map
// OFF-NOT:   dfg.instantiate @reduce
func.func @small_map(%x: tensor<1x8x4x4xi8>) -> tensor<1x8x4x4xi32> {
  %w = arith.constant dense<1> : tensor<8x8x3x3xi8>
  %c0 = arith.constant 0 : i8
  %z = arith.constant 0 : i32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0 : i8
  } : tensor<1x8x4x4xi8> to tensor<1x8x6x6xi8>
  %e = tensor.empty() : tensor<1x8x4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x8x4x4xi32>) -> tensor<1x8x4x4xi32>
  %r = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x8x6x6xi8>, tensor<8x8x3x3xi8>) outs(%f : tensor<1x8x4x4xi32>) -> tensor<1x8x4x4xi32>
  return %r : tensor<1x8x4x4xi32>
}

// -----

// A 32x32 map with 16 channels in and out: most pixels complete a window,
// but each needs 2,304 MACs, more than a board does in a cycle: split.
// CHECK-LABEL: dfg.process @window2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i8>)
// CHECK-LABEL: dfg.process @reduce3
// CHECK-SAME:    kind = #dfg.kind<regular_reduction>
// CHECK-LABEL: dfg.graph @heavy_pixels
// OFF-LABEL: dfg.graph @heavy_pixels
// OFF-NOT:   dfg.instantiate @reduce
func.func @heavy_pixels(%x: tensor<1x16x32x32xi8>) -> tensor<1x16x32x32xi32> {
  %w = arith.constant dense<1> : tensor<16x16x3x3xi8>
  %c0 = arith.constant 0 : i8
  %z = arith.constant 0 : i32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0 : i8
  } : tensor<1x16x32x32xi8> to tensor<1x16x34x34xi8>
  %e = tensor.empty() : tensor<1x16x32x32xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x16x32x32xi32>) -> tensor<1x16x32x32xi32>
  %r = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x16x34x34xi8>, tensor<16x16x3x3xi8>) outs(%f : tensor<1x16x32x32xi32>) -> tensor<1x16x32x32xi32>
  return %r : tensor<1x16x32x32xi32>
}

// -----

// A stride-2 3x3 convolution, 16 channels in and 32 out (ResNet-8's first
// of a stage): its 144-element window is not a whole number per output
// channel, but each channel pulls 5 of the next window's elements, the tail
// under a condition, and a pixel needs 4,608 MACs: split.
// CHECK-LABEL: dfg.process @reduce3(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c144
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c32
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c5
// CHECK:             scf.if
// CHECK:                 dfg.pull %arg0
// CHECK-LABEL: dfg.graph @strided_uneven
// OFF-LABEL: dfg.graph @strided_uneven
// OFF-NOT:   dfg.instantiate @reduce
func.func @strided_uneven(%x: tensor<1x16x8x8xi8>) -> tensor<1x32x4x4xi32> {
  %w = arith.constant dense<1> : tensor<32x16x3x3xi8>
  %c0 = arith.constant 0 : i8
  %z = arith.constant 0 : i32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0 : i8
  } : tensor<1x16x8x8xi8> to tensor<1x16x9x9xi8>
  %e = tensor.empty() : tensor<1x32x4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>
  %r = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x16x9x9xi8>, tensor<32x16x3x3xi8>) outs(%f : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>
  return %r : tensor<1x32x4x4xi32>
}

// -----

// Its 1x1 stride-2 shortcut: a 16-element window over 32 channels would
// leave half the contraction's slots pulling nothing: kept whole.
// CHECK-LABEL: dfg.graph @shortcut
// CHECK-NOT:   dfg.instantiate @reduce
// CHECK:       dfg.instantiate @store
func.func @shortcut(%x: tensor<1x16x8x8xi8>) -> tensor<1x32x4x4xi32> {
  %w = arith.constant dense<1> : tensor<32x16x1x1xi8>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x32x4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>
  %r = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x8x8xi8>, tensor<32x16x1x1xi8>) outs(%f : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>
  return %r : tensor<1x32x4x4xi32>
}

// WHOLE-NOT: regular_reduction

// DW-NOT:    regular_reduction
// DW-LABEL:  dfg.process @window2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// DW-NOT:    regular_reduction
