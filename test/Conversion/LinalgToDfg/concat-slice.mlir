// tensor.concat, tensor.extract_slice and tensor.pad stream (SqueezeNet's fire
// modules, ShuffleNet's split and channel shuffle, a Pad no window reads): a
// concat forwards its inputs' chunks in turn, a slice passes the whole source
// and pushes what lies inside, a pad pushes its value around the source,
// and a reshape that splits or merges dims keeps the stream's order, so a
// channel shuffle reorders one pixel's channels, not the whole tensor.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// Two inputs in row-major order, concatenated along dim 1: per row, 3 then 5
// elements.
// CHECK-LABEL: dfg.process @concat{{[0-9]+}}
// CHECK-SAME: kind = #dfg.kind<concat>
// CHECK-SAME: ming.join_burst = array<i64: 3, 5>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3 step
// CHECK: dfg.pull %arg0
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c5 step
// CHECK: dfg.pull %arg1
// CHECK: dfg.graph @cat
func.func @cat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// Split in two halves along dim 1, each half a slice of the forked source;
// the second keeps elements 2..3 of every row, every other column of the
// first half is kept with stride 2.
// CHECK-LABEL: dfg.process @slice{{[0-9]+}}
// CHECK-SAME: kind = #dfg.kind<slice>
// CHECK: arith.cmpi ult, %{{.*}}, %c3
// CHECK: arith.remui
// CHECK: scf.if
// CHECK: dfg.push
// CHECK-LABEL: dfg.process @slice{{[0-9]+}}
// CHECK: arith.cmpi uge, %{{.*}}, %c2
// CHECK: arith.cmpi ult, %{{.*}}, %c4
// CHECK: scf.if
// CHECK: dfg.graph @split
// CHECK: dfg.instantiate @fork
func.func @split(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %lo = tensor.extract_slice %x[0, 0] [2, 2] [1, 2] : tensor<2x4xf32> to tensor<2x2xf32>
  %hi = tensor.extract_slice %x[0, 2] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
  return %lo, %hi : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Channel shuffle of a pixel-major stream (a window's output): expand keeps
// the order, the transpose's output follows it, and the collapse needs the
// two channel dims swapped back: a reorder of one pixel (2x4 elements), in
// two halves (one fills while the other drains). reorder1 and reorder6 are
// the row reorders at the NCHW boundary.
// CHECK-LABEL: dfg.process @reorder5
// CHECK-SAME: ming.lookahead = 8 : i64
// CHECK: memref.alloca() : memref<2x4x2xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8{{(_[0-9]+)?}} step
// CHECK-NOT: memref.alloca
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8{{(_[0-9]+)?}} step
// CHECK: dfg.graph @shuffle
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#tr = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3, d4)>
func.func @shuffle(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %wc = arith.constant dense<0.5> : tensor<8x8x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %wc : tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %g = tensor.expand_shape %c [[0], [1, 2], [3], [4]] output_shape [1, 2, 4, 3, 3] : tensor<1x8x3x3xf32> into tensor<1x2x4x3x3xf32>
  %te = tensor.empty() : tensor<1x4x2x3x3xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
         ins(%g : tensor<1x2x4x3x3xf32>) outs(%te : tensor<1x4x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x2x3x3xf32>
  %r = tensor.collapse_shape %t [[0], [1, 2], [3], [4]] : tensor<1x4x2x3x3xf32> into tensor<1x8x3x3xf32>
  return %r : tensor<1x8x3x3xf32>
}

// -----

// A pad no window reads is a process: padding cells get the pad value, the
// others the source's elements in stream order.
// CHECK-LABEL: dfg.process @pad{{[0-9]+}}
// CHECK-SAME: kind = #dfg.kind<pad>
// CHECK-SAME: ming.port_elements = array<i64: 4, 7>
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1
// CHECK: arith.cmpi uge, %{{.*}}, %c1
// CHECK: arith.cmpi ult, %{{.*}}, %c5
// CHECK: scf.if %{{.*}} -> (f32)
// CHECK: dfg.pull %arg0
// CHECK: } else {
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: dfg.push
// CHECK: dfg.graph @pad_alone
func.func @pad_alone(%x: tensor<4xf32>) -> tensor<7xf32> {
  %h = arith.constant 0.5 : f32
  %p = tensor.pad %x low[1] high[2] {
  ^bb0(%i: index):
    tensor.yield %h : f32
  } : tensor<4xf32> to tensor<7xf32>
  return %p : tensor<7xf32>
}
