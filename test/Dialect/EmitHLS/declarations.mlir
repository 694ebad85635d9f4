// RUN: ming-opt %s | ming-opt | FileCheck %s
// Local declarations: arrays (plain, initialised, ROM), streams, variables.

// CHECK-LABEL: emitHLS.func @arrays()
emitHLS.func @arrays() {
  // CHECK: emitHLS.array : !emitHLS.array<3x34xi8>
  %buf = emitHLS.array : !emitHLS.array<3x34xi8>
  // CHECK: emitHLS.array : !emitHLS.array<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %init = emitHLS.array : !emitHLS.array<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // CHECK: emitHLS.array rom : !emitHLS.array<2x2xi8> = dense<{{\[}}[1, -2], [3, 4]]> : tensor<2x2xi8>
  %w = emitHLS.array rom : !emitHLS.array<2x2xi8> = dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  // A splat initialiser is still a dense one.
  // CHECK: emitHLS.array rom : !emitHLS.array<8x3xi16> = dense<7> : tensor<8x3xi16>
  %splat = emitHLS.array rom : !emitHLS.array<8x3xi16> = dense<7> : tensor<8x3xi16>
  // Large weights live in a resource blob.
  // CHECK: emitHLS.array rom : !emitHLS.array<2x2xi8> = dense_resource<conv_w> : tensor<2x2xi8>
  %blob = emitHLS.array rom : !emitHLS.array<2x2xi8> = dense_resource<conv_w> : tensor<2x2xi8>
  // CHECK: emitHLS.array {note = "scratch"} : !emitHLS.array<2xi1>
  %tagged = emitHLS.array {note = "scratch"} : !emitHLS.array<2xi1>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @streams()
emitHLS.func @streams() {
  // CHECK: emitHLS.stream : !emitHLS.stream<i8>
  %s = emitHLS.stream : !emitHLS.stream<i8>
  // CHECK: emitHLS.stream : !emitHLS.stream<f32>
  %t = emitHLS.stream : !emitHLS.stream<f32>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @variables(
// CHECK-SAME:      %[[X:.*]]: i32)
emitHLS.func @variables(%x: i32) -> i32 {
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  %zero = arith.constant 0 : i32
  // CHECK: %[[ACC:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[ZERO]]
  %acc = emitHLS.var : !emitHLS.var<i32> = %zero
  // CHECK: emitHLS.var : !emitHLS.var<f32>{{$}}
  %tmp = emitHLS.var : !emitHLS.var<f32>
  // CHECK: %[[OLD:.*]] = emitHLS.get %[[ACC]] : !emitHLS.var<i32>
  %old = emitHLS.get %acc : !emitHLS.var<i32>
  // CHECK: %[[NEW:.*]] = arith.addi %[[OLD]], %[[X]] : i32
  %new = arith.addi %old, %x : i32
  // CHECK: emitHLS.assign %[[NEW]], %[[ACC]] : !emitHLS.var<i32>
  emitHLS.assign %new, %acc : !emitHLS.var<i32>
  // CHECK: %[[R:.*]] = emitHLS.get %[[ACC]] : !emitHLS.var<i32>
  // CHECK: emitHLS.return %[[R]] : i32
  %r = emitHLS.get %acc : !emitHLS.var<i32>
  emitHLS.return %r : i32
}

{-#
  dialect_resources: {
    builtin: {
      conv_w: "0x0100000001020304"
    }
  }
#-}
