// Choosing the top function: `top` names it and the other functions are
// dropped; a name that is not a C identifier is made one (it names the HLS
// top function, its files and its Tcl project), with a remark; a `top` the
// module does not define is an error listing the functions it does.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dfg{top=my-net.v2})' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: not ming-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dfg{top=nope})' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dfg{top=int})' 2>/dev/null | FileCheck %s --check-prefix=KEYWORD

// CHECK-NOT:   func.func
// CHECK-LABEL: dfg.graph @my_net_v2(
// CHECK-NOT:   func.func
// REMARK: remark: convert-linalg-to-dfg: 'my-net.v2' is not a C identifier; the design is named 'my_net_v2'
// MISSING: error: convert-linalg-to-dfg: no function 'nope' to compile; the module defines 'my-net.v2', 'int'
// A C++ keyword gets a '_' suffix.
// KEYWORD: dfg.graph @int_(

func.func @"my-net.v2"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.addf %i, %i : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @int(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %m = arith.mulf %i, %i : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
