// A linalg op with several results: results nobody reads go, and results
// that do not read one another's accumulators become processes of their
// own, the input forked to them (test/e2e/two_results.mlir runs it).
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// The min and the max of each row, both read: two reductions.
// CHECK-LABEL: dfg.process @fork1(
// CHECK-SAME: !dfg.out<f32>, %{{.*}}: !dfg.out<f32>)
// CHECK: dfg.process @reduce2(
// CHECK: arith.minimumf
// CHECK: dfg.process @reduce3(
// CHECK: arith.maximumf
// CHECK: dfg.graph @minmax(
// CHECK: dfg.instantiate @fork1(
// CHECK-DAG: dfg.instantiate @reduce2(
// CHECK-DAG: dfg.instantiate @reduce3(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @minmax(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %lo = arith.constant 0x7F800000 : f32
  %hi = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%lo : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.fill ins(%hi : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %mn: f32, %mx: f32):
    %0 = arith.minimumf %in, %mn : f32
    %1 = arith.maximumf %in, %mx : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An elementwise op of two inputs with three results: the sum (read), the
// difference (unread: it goes) and the negated first input (read, from one
// input only: its process reads no second stream).
// CHECK-LABEL: dfg.process @map{{[0-9]+}}(%{{.*}}: !dfg.in<f32>, %{{.*}}: !dfg.out<f32>)
// CHECK: arith.negf
// CHECK-NOT: arith.subf
// CHECK: dfg.graph @three(
#e1 = affine_map<(d0) -> (d0)>
func.func @three(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r:3 = linalg.generic {indexing_maps = [#e1, #e1, #e1, #e1, #e1], iterator_types = ["parallel"]} ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e, %e, %e : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32, %o2: f32):
    %0 = arith.addf %a, %b : f32
    %1 = arith.subf %a, %b : f32
    %2 = arith.negf %a : f32
    linalg.yield %0, %1, %2 : f32, f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A sum pool and a max pool over one window, both read: two windows. The
// window operand's values are never read, but it alone gives the kernel
// loop its range, so both keep it.
// CHECK-LABEL: dfg.process @window{{[0-9]+}}(
// CHECK: arith.addf
// CHECK: dfg.process @window{{[0-9]+}}(
// CHECK: arith.maximumf
// CHECK: dfg.graph @pools(
#in = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#win = affine_map<(d0, d1) -> (d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @pools(%x: tensor<12xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %z = arith.constant 0.000000e+00 : f32
  %lo = arith.constant 0xFF800000 : f32
  %w = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<5xf32>
  %s0 = linalg.fill ins(%z : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %m0 = linalg.fill ins(%lo : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #win, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<12xf32>, tensor<4xf32>) outs(%s0, %m0 : tensor<5xf32>, tensor<5xf32>) {
  ^bb0(%a: f32, %k: f32, %s: f32, %m: f32):
    %0 = arith.addf %s, %a : f32
    %1 = arith.maximumf %m, %a : f32
    linalg.yield %0, %1 : f32, f32
  } -> (tensor<5xf32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}
