// convert-linalg-to-dfg splits a convolution (its window read by every
// output channel) whose window is a whole number of elements per output
// channel into a window process that pushes each complete window, taps in
// the conv's reduction order (channels, rows, columns for NCHW), and a
// regular reduction over those windows. cascade_conv's first convolution
// (27 taps, 8 channels) and depthwise convolutions (no output-channel loop)
// stay one window process; gather-windows=0 keeps every convolution whole.
// The split's numbers are checked by C simulation in test/e2e
// (cascade_conv_i8, residual_block_i8/f32, conv_dilation2) and test/models.
// RUN: ming-opt %S/../../e2e/cascade_conv_i8.mlir --convert-linalg-to-dfg | FileCheck %s
// RUN: ming-opt %S/../../e2e/cascade_conv_i8.mlir --convert-linalg-to-dfg=gather-windows=0 | FileCheck %s --check-prefix=OFF
// RUN: ming-opt %S/../../e2e/depthwise_conv.mlir --convert-linalg-to-dfg | FileCheck %s --check-prefix=DW

// CHECK-LABEL: dfg.process @window2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// CHECK-LABEL: dfg.process @window4(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i8>)
// CHECK-SAME:    ming.port_elements = array<i64: 8192, 73728>
// The pixel loop over the 34 x 34 padded input, the window complete, then
// its 8 x 3 x 3 taps pushed without arithmetic.
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c34
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               scf.for %{{.*}} = %{{.*}} to %c8
// CHECK:                 scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:                   scf.for %{{.*}} = %{{.*}} to %c3
// CHECK-NOT:                   arith.muli {{.*}} : i32
// CHECK:                       %[[TAP:.*]] = memref.load %{{.*}} : memref<3x3x8xi8>
// CHECK-NEXT:                  dfg.push %[[TAP]], %arg1 : !dfg.out<i8>
// CHECK-LABEL: dfg.process @reduce5(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// CHECK-SAME:    kind = #dfg.kind<regular_reduction>
// CHECK:         arith.muli
// CHECK-LABEL: dfg.process @window7(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i8>)
// CHECK-LABEL: dfg.process @reduce8
// CHECK-LABEL: dfg.graph @cascade_conv
// CHECK:         dfg.instantiate @window4
// CHECK-NEXT:    dfg.channel
// CHECK-NEXT:    dfg.instantiate @reduce5

// OFF-NOT:   dfg.process @reduce

// DW-NOT:    regular_reduction
// DW-LABEL:  dfg.process @window2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// DW-NOT:    regular_reduction
