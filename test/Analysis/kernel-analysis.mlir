// Kernel analysis (MING paper, Sec. IV-A/B): class by Algorithm 1, P/R/O/W by
// Algorithm 2, one remark per linalg.generic after generalising named ops.
//
// mlir-opt cannot take a pass from --load-pass-plugin as a flag of its own
// (the flags are fixed before the plugin loads, llvm/llvm-project#78020), so
// the passes go through --pass-pipeline; that works for ming-opt and for
// mlir-opt-22 with the plugin alike.
//
// RUN: ming-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(linalg-generalize-named-ops,ming-test-kernel-analysis)'
//
// Reading the remarks:
//  - P: loop dims an input reads as a plain parallel index; R: the same for
//    reduction dims; O: input indices that are not a single dim; W: parallel
//    output dims that no input reads as a plain index (Algorithm 2). Sets are
//    printed in order of first appearance (inputs in operand order, then map
//    results left to right), not sorted.
//  - windows: every input index s*d_p + delta*d_r (d_p parallel, d_r
//    reduction), printed d_p*s+d_r*delta; stride/dilation are the first one's.
//  - W only means "window position" for sliding windows. For other kernels it
//    is literally Algorithm 2 line 14: output dims no input reads directly
//    (a fill writes every element from a scalar, so W = all its dims).

// ===== Sliding windows =====================================================

// 3x3 conv, NCHW/FCHW, i8 x i8 -> i32. Loops (n, f, oh, ow, c, kh, kw).
// The input reads (n, c, oh + kh, ow + kw): n is P, c is R, the two sums are O
// and slide (stride 1, dilation 1). The filter adds f to P and kh, kw to R.
// oh, ow are parallel output dims no input reads alone: the window W.
func.func @conv_nchw(%x: tensor<1x3x10x10xi8>, %w: tensor<8x3x3x3xi8>,
                     %o: tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32> {
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=1 P={d0, d1} R={d4, d5, d6} O={d2 + d5, d3 + d6} W={d2, d3} windows=[d2*1+d5*1, d3*1+d6*1] trips=[1, 8, 8, 8, 3, 3, 3] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x10x10xi8>, tensor<8x3x3x3xi8>)
         outs(%o : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  return %r : tensor<1x8x8x8xi32>
}

// -----

// Stride 2: the parallel coefficient. 4 = (9 - 3) / 2 + 1.
func.func @conv_nchw_stride2(%x: tensor<1x3x9x9xf32>, %w: tensor<8x3x3x3xf32>,
                             %o: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  // expected-remark @below {{kernel: sliding_window stride=2 dilation=1 P={d0, d1} R={d4, d5, d6} O={d2 * 2 + d5, d3 * 2 + d6} W={d2, d3} windows=[d2*2+d5*1, d3*2+d6*1] trips=[1, 8, 4, 4, 3, 3, 3] ops=[arith.mulf, arith.addf]}}
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>)
         outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Dilation 2: the reduction coefficient. 6 = 10 - 2 * (3 - 1).
func.func @conv_nchw_dilation2(%x: tensor<1x3x10x10xi8>, %w: tensor<8x3x3x3xi8>,
                               %o: tensor<1x8x6x6xi32>) -> tensor<1x8x6x6xi32> {
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=2 P={d0, d1} R={d4, d5, d6} O={d2 + d5 * 2, d3 + d6 * 2} W={d2, d3} windows=[d2*1+d5*2, d3*1+d6*2] trips=[1, 8, 6, 6, 3, 3, 3] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x10x10xi8>, tensor<8x3x3x3xi8>)
         outs(%o : tensor<1x8x6x6xi32>) -> tensor<1x8x6x6xi32>
  return %r : tensor<1x8x6x6xi32>
}

// -----

// Different stride and dilation per axis: stride=/dilation= report the first
// window (Algorithm 1 returns there), the windows list has both axes.
// Input rows (4 - 1) * 2 + (3 - 1) * 1 + 1 = 9, columns (6 - 1) * 1 + (3 - 1) * 2 + 1 = 10.
func.func @conv_nchw_mixed(%x: tensor<1x3x9x10xf32>, %w: tensor<8x3x3x3xf32>,
                           %o: tensor<1x8x4x6xf32>) -> tensor<1x8x4x6xf32> {
  // expected-remark @below {{kernel: sliding_window stride=2 dilation=1 P={d0, d1} R={d4, d5, d6} O={d2 * 2 + d5, d3 + d6 * 2} W={d2, d3} windows=[d2*2+d5*1, d3*1+d6*2] trips=[1, 8, 4, 6, 3, 3, 3] ops=[arith.mulf, arith.addf]}}
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x9x10xf32>, tensor<8x3x3x3xf32>)
         outs(%o : tensor<1x8x4x6xf32>) -> tensor<1x8x4x6xf32>
  return %r : tensor<1x8x4x6xf32>
}

// -----

// NHWC/HWCF: loops (n, oh, ow, f, kh, kw, c). The input gives n (P), the two
// windows (O) and c (R, first); the filter adds kh, kw (R) and f (P).
func.func @conv_nhwc(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x8xf32>,
                     %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=1 P={d0, d3} R={d6, d4, d5} O={d1 + d4, d2 + d5} W={d1, d2} windows=[d1*1+d4*1, d2*1+d5*1] trips=[1, 8, 8, 8, 3, 3, 3] ops=[arith.mulf, arith.addf]}}
  %r = linalg.conv_2d_nhwc_hwcf
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>)
         outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

// Depthwise: loops (n, oh, ow, c, kh, kw). The channel is read as a plain
// parallel index by input and filter alike, so it is in P, not R: there is no
// reduction across channels, only over the 3x3 window (kh, kw).
func.func @depthwise(%x: tensor<1x4x10x10xi8>, %w: tensor<4x3x3xi8>,
                     %o: tensor<1x4x8x8xi32>) -> tensor<1x4x8x8xi32> {
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=1 P={d0, d3} R={d4, d5} O={d1 + d4, d2 + d5} W={d1, d2} windows=[d1*1+d4*1, d2*1+d5*1] trips=[1, 8, 8, 4, 3, 3] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.depthwise_conv_2d_nchw_chw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x10x10xi8>, tensor<4x3x3xi8>)
         outs(%o : tensor<1x4x8x8xi32>) -> tensor<1x4x8x8xi32>
  return %r : tensor<1x4x8x8xi32>
}

// -----

// 2x2 max pooling, stride 2. Loops (n, c, oh, ow, kh, kw). n and c are P
// (pooling is per channel); kh, kw reach R only through the shape-only window
// operand, which is also what gives their trip counts.
func.func @maxpool(%x: tensor<1x4x8x8xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  // expected-remark @below {{kernel: sliding_window stride=2 dilation=1 P={d0, d1} R={d4, d5} O={d2 * 2 + d4, d3 * 2 + d5} W={d2, d3} windows=[d2*2+d4*1, d3*2+d5*1] trips=[1, 4, 4, 4, 2, 2] ops=[arith.maximumf]}}
  %r = linalg.pooling_nchw_max
         {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %win : tensor<1x4x8x8xf32>, tensor<2x2xf32>)
         outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// -----

// 3x3 sum pooling, stride 1, i8 summed in i32.
func.func @sumpool(%x: tensor<1x4x8x8xi8>, %o: tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xi32> {
  %win = tensor.empty() : tensor<3x3xi32>
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=1 P={d0, d1} R={d4, d5} O={d2 + d4, d3 + d5} W={d2, d3} windows=[d2*1+d4*1, d3*1+d5*1] trips=[1, 4, 6, 6, 3, 3] ops=[arith.extsi, arith.addi]}}
  %r = linalg.pooling_nchw_sum
         {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %win : tensor<1x4x8x8xi8>, tensor<3x3xi32>)
         outs(%o : tensor<1x4x6x6xi32>) -> tensor<1x4x6x6xi32>
  return %r : tensor<1x4x6x6xi32>
}

// -----

// Two inputs read through the same window (a local correlation: sum over 3x3
// of a * b). Each input slides, so windows has one entry per input and axis;
// O is a set and holds each shared expression once. No input reads h or w
// alone, so P is empty.
#win_in = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>
#win_k = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#win_out = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @two_windowed_inputs(%a: tensor<10x10xf32>, %b: tensor<10x10xf32>,
                               %o: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %win = tensor.empty() : tensor<3x3xf32>
  // expected-remark @below {{kernel: sliding_window stride=1 dilation=1 P={} R={d2, d3} O={d0 + d2, d1 + d3} W={d0, d1} windows=[d0*1+d2*1, d1*1+d3*1, d0*1+d2*1, d1*1+d3*1] trips=[8, 8, 3, 3] ops=[arith.mulf, arith.addf]}}
  %r = linalg.generic
         {indexing_maps = [#win_in, #win_in, #win_k, #win_out],
          iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%a, %b, %win : tensor<10x10xf32>, tensor<10x10xf32>, tensor<3x3xf32>)
         outs(%o : tensor<8x8xf32>) {
  ^bb0(%va: f32, %vb: f32, %unused: f32, %acc: f32):
    %p = arith.mulf %va, %vb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// ===== Regular reductions ==================================================

// Loops (m, n, k): m from A and n from B are P, k is R; the output reads only
// P dims, so W is empty. No index mixes a parallel and a reduction dim.
func.func @matmul(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>,
                  %o: tensor<16x8xi32>) -> tensor<16x8xi32> {
  // expected-remark @below {{kernel: regular_reduction P={d0, d1} R={d2} O={} W={} windows=[] trips=[16, 8, 32] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.matmul ins(%a, %b : tensor<16x32xi8>, tensor<32x8xi8>)
                     outs(%o : tensor<16x8xi32>) -> tensor<16x8xi32>
  return %r : tensor<16x8xi32>
}

// -----

// Loops (b, m, n, k).
func.func @batch_matmul(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>,
                        %o: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  // expected-remark @below {{kernel: regular_reduction P={d0, d1, d2} R={d3} O={} W={} windows=[] trips=[2, 16, 8, 32] ops=[arith.mulf, arith.addf]}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x16x32xf32>, tensor<2x32x8xf32>)
                           outs(%o : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %r : tensor<2x16x8xf32>
}

// -----

// Row sum, hand-written: a reduction that is not a window (a row buffer).
#rs_in = affine_map<(d0, d1) -> (d0, d1)>
#rs_out = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<8x32xi8>, %o: tensor<8xi32>) -> tensor<8xi32> {
  // expected-remark @below {{kernel: regular_reduction P={d0} R={d1} O={} W={} windows=[] trips=[8, 32] ops=[arith.extsi, arith.addi]}}
  %r = linalg.generic {indexing_maps = [#rs_in, #rs_out],
                       iterator_types = ["parallel", "reduction"]}
         ins(%x : tensor<8x32xi8>) outs(%o : tensor<8xi32>) {
  ^bb0(%v: i8, %acc: i32):
    %e = arith.extsi %v : i8 to i32
    %s = arith.addi %acc, %e : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

// ===== Pure parallel =======================================================

// ReLU: identity maps, all parallel. The zero is defined outside the body, as
// IREE and tosa-to-linalg emit it, so the payload is the maximumf alone.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu(%x: tensor<1x8x8x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{kernel: pure_parallel P={d0, d1, d2, d3} R={} O={} W={} windows=[] trips=[1, 8, 8, 8] ops=[arith.maximumf]}}
  %r = linalg.generic {indexing_maps = [#id4, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x : tensor<1x8x8x8xf32>) outs(%o : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %unused: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// -----

// Bias add over channels (i32 accumulator plus i32 bias): the bias map drops
// dims (a broadcast), which adds nothing new to P.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @bias_add(%x: tensor<1x8x8x8xi32>, %bias: tensor<8xi32>,
                    %o: tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32> {
  // expected-remark @below {{kernel: pure_parallel P={d0, d1, d2, d3} R={} O={} W={} windows=[] trips=[1, 8, 8, 8] ops=[arith.addi]}}
  %r = linalg.generic {indexing_maps = [#id4, #chan, #id4],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x, %bias : tensor<1x8x8x8xi32>, tensor<8xi32>) outs(%o : tensor<1x8x8x8xi32>) {
  ^bb0(%v: i32, %b: i32, %unused: i32):
    %s = arith.addi %v, %b : i32
    linalg.yield %s : i32
  } -> tensor<1x8x8x8xi32>
  return %r : tensor<1x8x8x8xi32>
}

// -----

// Fill: the scalar input has a map with no results, so P is empty and every
// output dim lands in W (Algorithm 2 line 14); the payload only yields.
func.func @fill(%o: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{kernel: pure_parallel P={} R={} O={} W={d0, d1} windows=[] trips=[4, 5] ops=[]}}
  %r = linalg.fill ins(%zero : f32) outs(%o : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// Transpose: the input map is the permutation (d1, d0), so P lists d1 first.
func.func @transpose(%x: tensor<4x5xf32>, %o: tensor<5x4xf32>) -> tensor<5x4xf32> {
  // expected-remark @below {{kernel: pure_parallel P={d1, d0} R={} O={} W={} windows=[] trips=[5, 4] ops=[]}}
  %r = linalg.transpose ins(%x : tensor<4x5xf32>) outs(%o : tensor<5x4xf32>) permutation = [1, 0]
  return %r : tensor<5x4xf32>
}

// -----

// Broadcast along a new leading axis: the input reads d1 only, d0 is in W.
func.func @broadcast(%x: tensor<5xf32>, %o: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-remark @below {{kernel: pure_parallel P={d1} R={} O={} W={d0} windows=[] trips=[4, 5] ops=[]}}
  %r = linalg.broadcast ins(%x : tensor<5xf32>) outs(%o : tensor<4x5xf32>) dimensions = [0]
  return %r : tensor<4x5xf32>
}

// -----

// ===== None of the usual shapes ============================================

// out[i][j] = x[i + j] with i, j both parallel (a Hankel expansion). The index
// is a sum, but the class only depends on iterator types: with no reduction
// iterator Algorithm 1 returns "not a window" at line 1 before reading any map,
// so this is pure parallel. Algorithm 2 still records d0 + d1 in O, and no input
// reads i or j alone, so W = {d0, d1}. O being non-empty is what tells a pure
// parallel node that it re-reads inputs (x[2] feeds (0,2), (1,1), (2,0)) and
// cannot be a plain consume-compute-produce element stream.
#hk_in = affine_map<(d0, d1) -> (d0 + d1)>
#hk_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @hankel(%x: tensor<12xf32>, %o: tensor<4x9xf32>) -> tensor<4x9xf32> {
  // expected-remark @below {{kernel: pure_parallel P={} R={} O={d0 + d1} W={d0, d1} windows=[] trips=[4, 9] ops=[]}}
  %r = linalg.generic {indexing_maps = [#hk_in, #hk_out],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<12xf32>) outs(%o : tensor<4x9xf32>) {
  ^bb0(%v: f32, %unused: f32):
    linalg.yield %v : f32
  } -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}

// -----

// out[i] = sum over j < 4, k < 3 of x[i][2j + 3k] * w[j][k]. The sum 2*d1 + 3*d2
// is A + B with two terms, but both iterators are reductions, so Algorithm 1
// line 6 does not match: regular reduction. That is also the right hardware:
// the compound index never moves with the output, each output reduces over
// its whole row, so a row buffer suffices and there is no window to slide.
// The compound expression still goes to O; R gets j, k from w; W is empty.
#mix_x = affine_map<(d0, d1, d2) -> (d0, d1 * 2 + d2 * 3)>
#mix_w = affine_map<(d0, d1, d2) -> (d1, d2)>
#mix_out = affine_map<(d0, d1, d2) -> (d0)>
func.func @two_reductions_in_one_index(%x: tensor<5x13xi8>, %w: tensor<4x3xi8>,
                                       %o: tensor<5xi32>) -> tensor<5xi32> {
  // expected-remark @below {{kernel: regular_reduction P={d0} R={d1, d2} O={d1 * 2 + d2 * 3} W={} windows=[] trips=[5, 4, 3] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.generic {indexing_maps = [#mix_x, #mix_w, #mix_out],
                       iterator_types = ["parallel", "reduction", "reduction"]}
         ins(%x, %w : tensor<5x13xi8>, tensor<4x3xi8>) outs(%o : tensor<5xi32>) {
  ^bb0(%vx: i8, %vw: i8, %acc: i32):
    %ex = arith.extsi %vx : i8 to i32
    %ew = arith.extsi %vw : i8 to i32
    %p = arith.muli %ex, %ew : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<5xi32>
  return %r : tensor<5xi32>
}

// -----

// A constant index (a size-1 axis read at 0, as unit-dim folding can leave it)
// names no loop dim: it joins none of P, R, O (see KernelAnalysis.cpp).
#c0_in = affine_map<(d0, d1) -> (0, d0, d1)>
#c0_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_index(%x: tensor<1x4x5xf32>, %o: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-remark @below {{kernel: pure_parallel P={d0, d1} R={} O={} W={} windows=[] trips=[4, 5] ops=[arith.negf]}}
  %r = linalg.generic {indexing_maps = [#c0_in, #c0_out],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<1x4x5xf32>) outs(%o : tensor<4x5xf32>) {
  ^bb0(%v: f32, %unused: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// Dynamic shapes: no static trip counts, the analysis declines.
func.func @dynamic(%x: tensor<?x8xf32>, %o: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{kernel: dynamic loop ranges}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<?x8xf32>) outs(%o : tensor<?x8xf32>) {
  ^bb0(%v: f32, %unused: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
