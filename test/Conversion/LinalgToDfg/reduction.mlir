// Regular reductions: a matmul keeps rows of X in a double row buffer (row
// m+1 is pulled while row m is computed, so the pipeline never drains between
// rows) and reads the weights from a ROM; a row sum needs no buffer at all.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// CHECK-LABEL: dfg.process @reduce1
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: !dfg.in<i8>, %[[OUT:[a-z0-9_]+]]: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>, ming.input_elements = 32 : i64, ming.lookahead = 9 : i64}
// (lookahead: the 8-element row plus the one in flight)
// Two rows of 8; row 0 first.
// CHECK: %[[ROW:[a-z0-9_]+]] = memref.alloca() : memref<2x8xi8>
// CHECK: scf.for %[[K0:[a-z0-9_]+]] = %{{.*}} to %c8
// CHECK: %[[P:[a-z0-9_]+]] = dfg.pull %[[IN]]
// CHECK: memref.store %[[P]], %[[ROW]][%{{.*}}, %[[K0]]]
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
// Then per row m one pipeline of 3 slots, one output each, each pulling
// ceil(8 / 3) = 3 elements of row m+1 (the last slot only 2), with nothing
// else in the m loop (a perfect nest, flattened).
// CHECK: scf.for %[[M:[a-z0-9_]+]] = %{{.*}} to %c4
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.constant 3 : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %c3
// CHECK: %[[CUR:[a-z0-9_]+]] = arith.remui %[[M]], %c2
// CHECK: %[[M1:[a-z0-9_]+]] = arith.addi %[[M]], %c1
// CHECK: %[[NEXT:[a-z0-9_]+]] = arith.remui %[[M1]], %c2
// CHECK: %[[MORE:[a-z0-9_]+]] = arith.cmpi ult, %[[M]], %c3
// Row m+1 (if any) into the other half...
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %c3
// CHECK: %[[J3:[a-z0-9_]+]] = arith.muli %[[J]], %c3
// CHECK: %[[FLAT:[a-z0-9_]+]] = arith.addi %[[J3]], %[[I]]
// CHECK: %[[IN8:[a-z0-9_]+]] = arith.cmpi ult, %[[FLAT]], %c8
// CHECK: %[[FILL:[a-z0-9_]+]] = arith.andi %[[MORE]], %[[IN8]]
// CHECK: scf.if %[[FILL]] {
// CHECK: %[[Q:[a-z0-9_]+]] = dfg.pull %[[IN]]
// CHECK: memref.store %[[Q]], %[[ROW]][%[[NEXT]], %[[FLAT]]]
// ... while the slot computes output (m, j) from this half.
// CHECK: %[[R:[a-z0-9_]+]] = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %c8{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{.*}}) -> (i32)
// CHECK: memref.load %[[ROW]][%[[CUR]], %[[K]]]
// CHECK: %[[WG:[a-z0-9_]+]] = memref.get_global @weights
// CHECK: memref.load %[[WG]][%[[K]], %[[J]]]
// CHECK: dfg.push %[[R]], %[[OUT]]
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
func.func @mm(%x: tensor<4x8xi8>) -> tensor<4x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, -1], [2, -2, 0]]> : tensor<8x3xi8>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x3xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<4x3xi32>) -> tensor<4x3xi32>
  %r = linalg.matmul ins(%x, %w : tensor<4x8xi8>, tensor<8x3xi8>) outs(%f : tensor<4x3xi32>) -> tensor<4x3xi32>
  return %r : tensor<4x3xi32>
}

// -----

// With more parallel loops around the row (a batch here, an image's rows in
// a convolution), the rows are all of them in one loop: row 0 is pulled
// alone once, not once per batch, and the pipeline drains once. The batch
// and row indices come back from the flat row number (the weights depend on
// the batch).
// CHECK-LABEL: dfg.process @reduce1
// CHECK: %[[ROW:[a-z0-9_]+]] = memref.alloca() : memref<2x8xi8>
// CHECK: scf.for %{{.*}} to %c8
// CHECK: dfg.pull
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
// CHECK-NOT: scf.for %{{.*}} to %c2
// CHECK: scf.for %[[M:[a-z0-9_]+]] = %{{.*}} to %c8
// CHECK-DAG: %[[R:[a-z0-9_]+]] = arith.remui %[[M]], %c4
// CHECK-DAG: %[[B:[a-z0-9_]+]] = arith.divui %[[M]], %c4
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %c3
// CHECK: arith.cmpi ult, %[[M]], %c7
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %c8{{.*}} iter_args
// CHECK: memref.load %{{.*}}[%[[B]], %[[K]], %[[J]]]
// CHECK: dfg.push
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
func.func @bmm(%x: tensor<2x4x8xi8>) -> tensor<2x4x3xi32> {
  %w = arith.constant dense<[[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, -1], [2, -2, 0]],
                             [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, -1], [2, -2, 0]]]> : tensor<2x8x3xi8>
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4x3xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
  %r = linalg.batch_matmul ins(%x, %w : tensor<2x4x8xi8>, tensor<2x8x3xi8>) outs(%f : tensor<2x4x3xi32>) -> tensor<2x4x3xi32>
  return %r : tensor<2x4x3xi32>
}

// -----

// CHECK-LABEL: dfg.process @reduce1
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} to %c4
// CHECK: scf.for {{.*}} to %c16{{.*}} iter_args
// CHECK: dfg.pull
// CHECK: arith.addf
// CHECK: dfg.push
func.func @rowsum(%x: tensor<4x16xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A pool whose kernel covers the whole map is a reduction, not a window. Its
// NHWC input streams channels innermost (the elementwise layer before it
// fixes that order), so each element is added to its channel's accumulator
// as it passes: one buffer of the 16 outputs, no reorder of the input, and
// the first output only after the whole input (lookahead 768).
// CHECK-LABEL: dfg.process @map1
// CHECK-NOT: dfg.process @reorder
// CHECK-NOT: dfg.process @window
// CHECK-LABEL: dfg.process @reduce2
// CHECK-SAME: kind = #dfg.kind<regular_reduction>, ming.input_elements = 768 : i64, ming.lookahead = 768 : i64
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1x1x1x16xi32>
// CHECK: scf.for {{.*}} to %c16
// CHECK: memref.store %c7_i32, %[[ACC]]
// CHECK: scf.for %[[I:.*]] = {{.*}} to %c768
// CHECK: %[[C:.*]] = arith.remui %[[I]], %c16
// CHECK: %[[X:.*]] = dfg.pull
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]][%c0, %c0, %c0, %[[C]]]
// CHECK: %[[W:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK: %[[NEW:.*]] = arith.addi %[[OLD]], %[[W]]
// CHECK: memref.store %[[NEW]], %[[ACC]][%c0, %c0, %c0, %[[C]]]
// CHECK: } {ming.carried_distance = 16 : i64, ming.loop = #ming.loop<ii = 1>}
// CHECK: scf.for {{.*}} to %c16
// CHECK: memref.load %[[ACC]]
// CHECK: dfg.push
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @global_pool_nhwc(%x: tensor<1x8x6x16xi8>) -> tensor<1x1x1x16xi32> {
  %e0 = tensor.empty() : tensor<1x8x6x16xi8>
  %floor = arith.constant -100 : i8
  %clipped = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x6x16xi8>) outs(%e0 : tensor<1x8x6x16xi8>) {
  ^bb0(%a: i8, %out: i8):
    %m = arith.maxsi %a, %floor : i8
    linalg.yield %m : i8
  } -> tensor<1x8x6x16xi8>
  %e1 = tensor.empty() : tensor<1x1x1x16xi32>
  %seven = arith.constant 7 : i32
  %init = linalg.fill ins(%seven : i32) outs(%e1 : tensor<1x1x1x16xi32>) -> tensor<1x1x1x16xi32>
  %win = tensor.empty() : tensor<8x6xi32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[8, 6]> : tensor<2xi64>}
      ins(%clipped, %win : tensor<1x8x6x16xi8>, tensor<8x6xi32>) outs(%init : tensor<1x1x1x16xi32>) -> tensor<1x1x1x16xi32>
  return %pool : tensor<1x1x1x16xi32>
}

// -----

// The same pool on floats accumulates too: each channel's accumulator
// meets its terms row by row, the order of the pool's own kernel loops, so
// the sums are the op's bit for bit. An element comes back to its
// accumulator after the 16 channels: the read-modify-write's distance.
// CHECK-LABEL: dfg.process @map1
// CHECK-NOT: dfg.process @reorder
// CHECK-NOT: dfg.process @window
// CHECK-LABEL: dfg.process @reduce2
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1x1x1x16xf32>
// CHECK: scf.for %[[I:.*]] = {{.*}} to %c768
// CHECK: %[[C:.*]] = arith.remui %[[I]], %c16
// CHECK: %[[X:.*]] = dfg.pull
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]][%c0, %c0, %c0, %[[C]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[X]] : f32
// CHECK: memref.store %[[NEW]], %[[ACC]][%c0, %c0, %c0, %[[C]]]
// CHECK: } {ming.carried_distance = 16 : i64, ming.loop = #ming.loop<ii = 1>}
#id4f = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @global_pool_nhwc_f32(%x: tensor<1x8x6x16xf32>) -> tensor<1x1x1x16xf32> {
  %e0 = tensor.empty() : tensor<1x8x6x16xf32>
  %floor = arith.constant -1.0 : f32
  %clipped = linalg.generic {indexing_maps = [#id4f, #id4f], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x6x16xf32>) outs(%e0 : tensor<1x8x6x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %floor : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x16xf32>
  %e1 = tensor.empty() : tensor<1x1x1x16xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %win = tensor.empty() : tensor<8x6xf32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[8, 6]> : tensor<2xi64>}
      ins(%clipped, %win : tensor<1x8x6x16xf32>, tensor<8x6xf32>) outs(%init : tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  return %pool : tensor<1x1x1x16xf32>
}

// -----

// A float sum whose kernel loops run columns outside rows (d1 reads w, d2
// reads h) would meet its terms in another order in a row-major stream, so
// it does not accumulate as they come: the loop nest reorders its input.
// CHECK-LABEL: dfg.process @map1
// CHECK: dfg.process @reorder
// CHECK-NOT: ming.carried_distance
// CHECK-LABEL: dfg.graph @column_major_sum_f32
#id4c = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#in_wh = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#out_c = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @column_major_sum_f32(%x: tensor<1x8x6x16xf32>) -> tensor<1x16xf32> {
  %e0 = tensor.empty() : tensor<1x8x6x16xf32>
  %floor = arith.constant -1.0 : f32
  %clipped = linalg.generic {indexing_maps = [#id4c, #id4c], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x6x16xf32>) outs(%e0 : tensor<1x8x6x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %floor : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x16xf32>
  %e1 = tensor.empty() : tensor<1x16xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %sum = linalg.generic {indexing_maps = [#in_wh, #out_c], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%clipped : tensor<1x8x6x16xf32>) outs(%init : tensor<1x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x16xf32>
  return %sum : tensor<1x16xf32>
}

// -----

// A row reduced to one element (a softmax row's max): the one-iteration row
// loop would fold away with its pipeline directive, so the reduction loop is
// the one pipelined, for the DSE to unroll.
// CHECK-LABEL: dfg.process @reduce1
// CHECK-SAME: !dfg.out<i8>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1
// CHECK: %[[MAX:.*]] = scf.for %{{.*}} = %{{.*}} to %c12 {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i8) {
// CHECK:   dfg.pull
// CHECK:   arith.maxsi
// CHECK: } {ming.loop = #ming.loop<ii = 1>}
// CHECK: dfg.push %[[MAX]]
// CHECK: }
// CHECK-NOT: ming.loop
// CHECK: }
// CHECK-LABEL: dfg.process @store2
#rowin = affine_map<(d0, d1) -> (d0, d1)>
#rowout = affine_map<(d0, d1) -> (d0)>
func.func @row_max(%x: tensor<1x12xi8>) -> tensor<1xi8> {
  %lowest = arith.constant -128 : i8
  %e = tensor.empty() : tensor<1xi8>
  %init = linalg.fill ins(%lowest : i8) outs(%e : tensor<1xi8>) -> tensor<1xi8>
  %m = linalg.generic {indexing_maps = [#rowin, #rowout], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x12xi8>) outs(%init : tensor<1xi8>) {
  ^bb0(%a: i8, %acc: i8):
    %r = arith.maxsi %acc, %a : i8
    linalg.yield %r : i8
  } -> tensor<1xi8>
  return %m : tensor<1xi8>
}

// -----

// One output is not enough to be a reduction: this 2x2 pool of stride 2 has
// one output on a 2x3 map but never reads the map's last column, which a
// reduction of the whole stream would add. It stays a window.
// CHECK-LABEL: dfg.process @window1
// CHECK-NOT: ming.carried_distance
// CHECK-LABEL: dfg.graph @partial_cover
func.func @partial_cover(%x: tensor<1x2x3x4xi32>) -> tensor<1x1x1x4xi32> {
  %e = tensor.empty() : tensor<1x1x1x4xi32>
  %zero = arith.constant 0 : i32
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1x1x1x4xi32>) -> tensor<1x1x1x4xi32>
  %win = tensor.empty() : tensor<2x2xi32>
  %pool = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<1x2x3x4xi32>, tensor<2x2xi32>) outs(%init : tensor<1x1x1x4xi32>) -> tensor<1x1x1x4xi32>
  return %pool : tensor<1x1x1x4xi32>
}
