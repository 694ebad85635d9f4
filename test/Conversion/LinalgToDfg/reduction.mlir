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
