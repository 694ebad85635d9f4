// Graph structure: a value read twice goes through an explicit fork whose
// FIFOs hold what the longer path lags behind; a consumer that needs another
// element order than the producer's gets a reorder buffer (with a remark);
// an operand read at computed indices is buffered whole. (Convolutions stay
// whole windows: gather-windows=0.)
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg{gather-windows=0})' 2>/dev/null | FileCheck %s
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg{gather-windows=0})' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Residual: x feeds the convolution and the add.
// CHECK-LABEL: dfg.process @fork1
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: !dfg.in<f32>, %[[A:[a-z0-9_]+]]: !dfg.out<f32>, %[[B:[a-z0-9_]+]]: !dfg.out<f32>) attributes {kind = #dfg.kind<fork>, ming.input_elements = 64 : i64, ming.lookahead = 0 : i64}
// CHECK: scf.for %{{.*}} to %c64
// CHECK: %[[V:[a-z0-9_]+]] = dfg.pull %[[IN]]
// CHECK: dfg.push %[[V]], %[[A]]
// CHECK: dfg.push %[[V]], %[[B]]
// The convolution pulls 32 elements before its first output (padded row 0,
// then real row 0 (4 pixels) and 2 pixels of row 1) and runs 2 more pixels
// ahead at each row start: (4 + 2 + 2) x 4 channels = 32. The skip branch
// holds that plus 2; the branch into the convolution waits for nothing.
// CHECK-LABEL: dfg.process @window3
// CHECK-SAME: ming.input_elements = 64 : i64, ming.lookahead = 32 : i64
// CHECK-LABEL: dfg.graph @residual
// CHECK: dfg.channel<f32, lanes = 1, depth = 2>
// CHECK: dfg.channel<f32, lanes = 1, depth = 34>
// CHECK: dfg.instantiate @fork1
func.func @residual(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %c0 = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0 : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>)
      outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %sum = linalg.add ins(%conv, %x : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %sum : tensor<1x4x4x4xf32>
}

// -----

// A convolution's pixel-major output flattened row-major (NCHW) for a
// matmul: the flatten needs the row-major order, so a reorder buffer sits
// between them.
// REMARK: remark: convert-linalg-to-dfg: reordering a 'tensor<1x2x2x2xf32>' stream through a full buffer
// CHECK-LABEL: dfg.process @reorder
// CHECK: memref.alloca() : memref<1x2x2x2xf32>
func.func @flatten(%x: tensor<1x1x4x4xf32>) -> tensor<1x3xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x3x3xf32>
  %m = arith.constant dense<0.5> : tensor<8x3xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>)
      outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %flat = tensor.collapse_shape %conv [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<1x3xf32>
  %f2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%flat, %m : tensor<1x8xf32>, tensor<8x3xf32>) outs(%f2 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// -----

// Nearest-neighbour upsampling reads x[h floordiv 2]: no streaming order
// exists, so the process reads x whole before its loops.
// CHECK-LABEL: dfg.process @map1
// CHECK: %[[BUF:[a-z0-9_]+]] = memref.alloca() : memref<1x2x2xf32>
// CHECK: dfg.pull
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK: arith.divui
// CHECK: memref.load %[[BUF]]
func.func @upsample(%x: tensor<1x2x2xf32>) -> tensor<1x4x4xf32> {
  %e = tensor.empty() : tensor<1x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 floordiv 2, d2 floordiv 2)>,
                                        affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x2x2xf32>) outs(%e : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x4xf32>
  return %r : tensor<1x4x4xf32>
}

// -----

// IREE's bias: the accumulator starts from a broadcast of the bias. The
// window reads the bias's two-element ROM in place, at the output channel:
// no process streams the broadcast (the only remark of this file is the
// flatten's).
// REMARK-NOT: remark
// CHECK: memref.global "private" constant @weights : memref<2xf32> = dense<[5.000000e-01, -5.000000e-01]>
// CHECK-NOT: dfg.process @map
// CHECK-LABEL: dfg.process @window1
// CHECK: memref.get_global @weights : memref<2xf32>
// CHECK-NEXT: memref.load %{{.*}}[%[[CH:arg[0-9]+]]] : memref<2xf32>
// The one reorder turns the result's rows back into NCHW runs for the store.
// CHECK: dfg.process @reorder2
// CHECK-SAME: ming.lookahead = 4 : i64
// CHECK-LABEL: dfg.graph @bias_init
func.func @bias_init(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x3x3xf32>
  %b = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>)
      outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %conv : tensor<1x2x2x2xf32>
}
