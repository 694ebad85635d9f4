// The kernel analysis test pass run by Debian's mlir-opt with our library
// loaded as a pass plugin: one case per kernel class (kernel-analysis.mlir has
// the full set and explains the remark).
//
// A pass loaded with --load-pass-plugin is not a flag of mlir-opt (its flags
// are fixed before the plugin loads, llvm/llvm-project#78020), hence
// --pass-pipeline.
//
// RUN: %mlir_opt --load-pass-plugin=%ming_plugin %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(linalg-generalize-named-ops,ming-test-kernel-analysis)'

// 3x3 conv with stride 2, i8 x i8 -> i32.
func.func @conv(%x: tensor<1x3x9x9xi8>, %w: tensor<8x3x3x3xi8>,
                %o: tensor<1x8x4x4xi32>) -> tensor<1x8x4x4xi32> {
  // expected-remark @below {{kernel: sliding_window stride=2 dilation=1 P={d0, d1} R={d4, d5, d6} O={d2 * 2 + d5, d3 * 2 + d6} W={d2, d3} windows=[d2*2+d5*1, d3*2+d6*1] trips=[1, 8, 4, 4, 3, 3, 3] ops=[arith.extsi, arith.extsi, arith.muli, arith.addi]}}
  %r = linalg.conv_2d_nchw_fchw
         {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x9x9xi8>, tensor<8x3x3x3xi8>)
         outs(%o : tensor<1x8x4x4xi32>) -> tensor<1x8x4x4xi32>
  return %r : tensor<1x8x4x4xi32>
}

// -----

func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>,
                  %o: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-remark @below {{kernel: regular_reduction P={d0, d1} R={d2} O={} W={} windows=[] trips=[16, 8, 32] ops=[arith.mulf, arith.addf]}}
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                     outs(%o : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

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
