// ming's passes load into mlir-opt-22 with --load-pass-plugin and run in its
// pipelines. Plugin passes register after mlir-opt parsed its flags, so they
// are named in --pass-pipeline (as for any MLIR pass plugin).
// RUN: %mlir_opt --load-pass-plugin=%ming_plugin %s -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(linalg-generalize-named-ops, ming-test-kernel-analysis)'

func.func @relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{kernel: pure_parallel P={d0, d1} R={} O={} W={} windows=[] trips=[4, 8] ops=[arith.maximumf]}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @matmul(%a: tensor<4x16xi8>, %b: tensor<16x8xi8>, %c: tensor<4x8xi32>) -> tensor<4x8xi32> {
  // expected-remark @below {{kernel: regular_reduction}}
  %r = linalg.matmul ins(%a, %b : tensor<4x16xi8>, tensor<16x8xi8>) outs(%c : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
