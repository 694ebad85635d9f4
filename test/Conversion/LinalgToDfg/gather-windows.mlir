// convert-linalg-to-dfg{gather-windows}: a convolution (its window read by
// every output channel) becomes a window process that pushes each complete
// window, taps in the conv's reduction order (channels, rows, columns for
// NCHW), and a regular reduction over those windows; a depthwise
// convolution (no output-channel loop to reuse the window) stays one
// window process. Off by default.
// RUN: ming-opt %S/../../e2e/conv_stride2.mlir --convert-linalg-to-dfg=gather-windows=1 | FileCheck %s
// RUN: ming-opt %S/../../e2e/conv_stride2.mlir --convert-linalg-to-dfg | FileCheck %s --check-prefix=OFF
// RUN: ming-opt %S/../../e2e/depthwise_conv.mlir --convert-linalg-to-dfg=gather-windows=1 | FileCheck %s --check-prefix=DW
// RUN: ming-opt %S/../../e2e/conv_nhwc.mlir --convert-linalg-to-dfg=gather-windows=1 | FileCheck %s --check-prefix=NHWC

// CHECK-LABEL: dfg.process @window1(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i8>)
// CHECK-SAME:    ming.port_elements = array<i64: 3072, 6912>
// The pixel loop over the 34 x 34 padded input, the window complete and on
// the stride-2 grid, then its 3 x 3 x 3 taps pushed without arithmetic.
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c34
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:                 scf.for %{{.*}} = %{{.*}} to %c3
// CHECK:                   scf.for %{{.*}} = %{{.*}} to %c3
// CHECK-NOT:                   arith.muli {{.*}} : i32
// CHECK:                       %[[TAP:.*]] = memref.load %{{.*}} : memref<3x3x3xi8>
// CHECK-NEXT:                  dfg.push %[[TAP]], %arg1 : !dfg.out<i8>
// CHECK-LABEL: dfg.process @reduce2(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// CHECK-SAME:    kind = #dfg.kind<regular_reduction>
// CHECK:         arith.muli
// CHECK-LABEL: dfg.graph @conv_stride2
// CHECK:         dfg.instantiate @window1
// CHECK:         dfg.instantiate @reduce2
// CHECK-NOT:     dfg.instantiate @reorder

// OFF-LABEL: dfg.process @window1(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// OFF-NOT:   dfg.process @reduce

// DW-NOT:    regular_reduction
// DW-LABEL:  dfg.process @window1(%arg0: !dfg.in<i8>, %arg1: !dfg.out<i32>)
// DW-NOT:    regular_reduction

// NHWC windows stream rows, columns, channels: no reorder either.
// NHWC-LABEL: dfg.process @window1
// NHWC-SAME:    ming.port_elements = array<i64: 3072, 27648>
// NHWC-LABEL: dfg.process @reduce2
// NHWC-NOT:   @reorder
