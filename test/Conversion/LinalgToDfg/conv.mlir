// A padded 3x3 convolution followed by a bias + ReLU: a load that walks NCHW
// memory in rows, a row reorder to pixel-major order, a sliding window with a
// (K-1)-row line buffer over the padded width and a KxK window per channel, an
// elementwise process that keeps the order, a row reorder back to the memory's
// order and a store that writes the NCHW result back in rows.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// CHECK: memref.global "private" constant @weights : memref<4x2x3x3xf32> = dense<

// The load walks N, H, C, W: each image row of each channel is a run of
// consecutive addresses (a port word per beat), in one flat pipelined loop
// over the 72 elements, indices recovered by division.
// CHECK-LABEL: dfg.process @load0
// CHECK-SAME: (%[[MEM:[a-z0-9_]+]]: memref<1x2x6x6xf32>, %[[OUT:[a-z0-9_]+]]: !dfg.out<f32>) attributes {kind = #dfg.kind<load>}
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %c72
// CHECK-DAG: %[[W:.*]] = arith.remui %[[I]], %c6
// CHECK-DAG: %[[Q1:.*]] = arith.divui %[[I]], %c6
// CHECK-DAG: %[[C:.*]] = arith.remui %[[Q1]], %c2
// CHECK-DAG: %[[Q2:.*]] = arith.divui %[[I]], %c12
// CHECK-DAG: %[[H:.*]] = arith.remui %[[Q2]], %c6
// CHECK-DAG: %[[N:.*]] = arith.divui %[[I]], %c72
// CHECK: %[[V:.*]] = memref.load %[[MEM]][%[[N]], %[[C]], %[[H]], %[[W]]]
// CHECK: dfg.push %[[V]], %[[OUT]]
// CHECK: } {ming.loop = #ming.loop<ii = 1>}

// One image row (2 channels x 6 columns) at a time turns from C, W to W, C,
// in two halves: row 0 fills half 0, then one pipeline fills row r + 1 into
// half (r + 1) mod 2 while it drains row r from half r mod 2, then the last
// row drains from half 1 (6 rows).
// CHECK-LABEL: dfg.process @reorder1
// CHECK-SAME: ming.lookahead = 12 : i64
// CHECK: %[[ROW:.*]] = memref.alloca() : memref<2x2x6xf32>
// CHECK: scf.for %[[F:[a-z0-9_]+]] = %{{.*}} to %c12
// CHECK-DAG: %[[FW:.*]] = arith.remui %[[F]], %c6
// CHECK-DAG: %[[FC:.*]] = arith.divui %[[F]], %c6
// CHECK: memref.store %{{.*}}, %[[ROW]][%c0{{.*}}, %[[FC]], %[[FW]]]
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
// CHECK: scf.for %[[R:[a-z0-9_]+]] = %{{.*}} to %c5
// CHECK: %[[OLD:.*]] = arith.remui %[[R]], %c2
// CHECK: %[[R1:.*]] = arith.addi %[[R]], %c1
// CHECK: %[[NEW:.*]] = arith.remui %[[R1]], %c2
// CHECK: scf.for %{{.*}} to %c12
// CHECK: dfg.pull
// CHECK: memref.store %{{.*}}, %[[ROW]][%[[NEW]],
// CHECK: memref.load %[[ROW]][%[[OLD]],
// CHECK: dfg.push
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
// CHECK: scf.for %[[D:[a-z0-9_]+]] = %{{.*}} to %c12
// CHECK-DAG: %[[DC:.*]] = arith.remui %[[D]], %c2
// CHECK-DAG: %[[DW:.*]] = arith.divui %[[D]], %c2
// CHECK: memref.load %[[ROW]][%c1{{.*}}, %[[DC]], %[[DW]]]
// CHECK: dfg.push
// CHECK: } {ming.loop = #ming.loop<ii = 1>}

// CHECK-LABEL: dfg.process @window2
// First output after padded row 0, real row 0 (6 pixels) and 2 pixels of row
// 1, 2 more pixels ahead at row starts, 2 channels: (6 + 2 + 2) x 2 = 20.
// The ports move 72 and 144 elements in all (the padding is never pulled).
// CHECK-SAME: attributes {kind = #dfg.kind<sliding_window>, ming.input_elements = 72 : i64, ming.lookahead = 20 : i64, ming.port_elements = array<i64: 72, 144>}
// Line buffer: K-1 = 2 rows of the padded width 8, 2 channels; window 3x3x2.
// CHECK-DAG: memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<2x8x2xf32>
// CHECK-DAG: memref.alloca() {ming.partition = #ming.partition<complete = [1, 2]>} : memref<3x3x2xf32>
// Rows and columns of the padded image but the top row and left column,
// which complete no window and shift in the pad value the buffers already
// hold: 7 x 7 iterations from padded (1, 1); the pad value enters where no
// pixel is pulled.
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c8
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c8
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NEXT: dfg.pull
// CHECK: } else {
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK: } {ming.loop = #ming.loop<unroll = 0>}
// Per complete window: 4 filters, accumulating over c, kh, kw from the fill value.
// CHECK: scf.for %{{.*}} to %c4
// CHECK: %[[INIT:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f32)
// CHECK: memref.get_global @weights
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: dfg.push
// CHECK: } {ming.loop = #ming.loop<ii = 1>}

// The elementwise layer pulls one value per element in the same pixel-major
// order, in one flat loop as well.
// CHECK-LABEL: dfg.process @map3
// CHECK-SAME: attributes {kind = #dfg.kind<pure_parallel>,
// CHECK: dfg.pull
// CHECK: arith.maximumf
// CHECK: dfg.push

// The result leaves pixel-major; a row reorder turns each row of 4 channels x
// 6 columns back into C, W, and the store writes N, H, C, W.
// CHECK-LABEL: dfg.process @reorder4
// CHECK: memref.alloca() : memref<2x4x6xf32>
// CHECK-LABEL: dfg.process @store5
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %c144
// CHECK-DAG: %[[W:.*]] = arith.remui %[[I]], %c6
// CHECK-DAG: %[[N:.*]] = arith.divui %[[I]], %c144
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[N]], %{{.*}}, %{{.*}}, %[[W]]]

// CHECK-LABEL: dfg.graph @conv_relu
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: memref<1x2x6x6xf32>, %[[Y:[a-z0-9_]+]]: memref<1x4x6x6xf32>) attributes {ming.num_inputs = 1 : i64}
// CHECK: %[[W0:[a-z0-9_]+]], %[[R0:[a-z0-9_]+]] = dfg.channel<f32, lanes = 1, depth = 2>
// CHECK: dfg.instantiate @load0(%[[X]], %[[W0]])
// CHECK: %[[W1:[a-z0-9_]+]], %[[R1:[a-z0-9_]+]] = dfg.channel<f32, lanes = 1, depth = 2>
// CHECK: dfg.instantiate @reorder1(%[[R0]], %[[W1]])
// CHECK: dfg.instantiate @window2(%[[R1]], %{{.*}})
// CHECK: dfg.instantiate @map3(
// CHECK: dfg.instantiate @reorder4(
// CHECK: dfg.instantiate @store5(%{{.*}}, %[[Y]])
func.func @conv_relu(%x: tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = arith.constant dense<[[[[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -1.0]], [[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -1.0]]], [[[1.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.75, 1.0, -1.0]], [[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -1.0]]], [[[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -1.0]], [[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -3.0]]], [[[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -1.0]], [[0.5, -1.0, 0.25], [1.0, 0.0, -0.5], [0.75, 1.0, -2.0]]]]> : tensor<4x2x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%padded, %w : tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>)
      outs(%fill : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                           affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x6x6xf32>
  return %relu : tensor<1x4x6x6xf32>
}
