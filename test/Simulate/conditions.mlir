// --simulate evaluates scf.if conditions on induction variables and packs
// elements into words of `lanes` elements.
// REQUIRES: ming-opt
// RUN: ming-opt %s --simulate --no-dse | FileCheck %s
//
// src (II 1, depth 1) pushes on even i only: 8 elements on 2 lanes = 4
// words, each written when its second element is pushed: i = 2, 6, 10, 14
// (push at issue + depth - 1 = i), readable one cycle later; src's last slot
// (i = 15) completes at 16.
// dst (II 1, depth 1, unroll 2) pulls one element per iteration: a slot of
// two iterations is one word. Slot s is due at cycle s but its word is
// readable only at 4s + 3: it issues then, 3 cycles late each time, and
// dst ends at 15 + 1 = 16 with 12 cycles input-starved. Each word is read
// before the next is written: peak 1, but no FIFO goes below 2 words
// (minimize::MIN_DEPTH), so it keeps its 2.
// CHECK: simulation of 'cond': ok
// CHECK: cycles: 16 simulated
// CHECK: FIFO bits 32 -> 32
// CHECK: src: finish 16 busy 16 starved 0 blocked 0
// CHECK: dst: finish 16 busy 4 starved 12 blocked 0
// CHECK: src_to_dst: depth 2 peak 1

dfg.process @src(%o: !dfg.out<i8, lanes = 2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %v = arith.constant 7 : i8
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    scf.if %even {
      dfg.push %v, %o : !dfg.out<i8, lanes = 2>
    }
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.process @dst(%in: !dfg.in<i8, lanes = 2>, %m: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %a = dfg.pull %in : !dfg.in<i8, lanes = 2>
    memref.store %a, %m[%j] : memref<8xi8>
  } {ming.loop = #ming.loop<ii = 1, unroll = 2>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.graph @cond(%y: memref<8xi8>) attributes {ming.num_inputs = 0 : i64} {
  %w, %r = dfg.channel<i8, lanes = 2, depth = 2>
  dfg.instantiate @src(%w) : !dfg.out<i8, lanes = 2>
  dfg.instantiate @dst(%r, %y) : !dfg.in<i8, lanes = 2>, memref<8xi8>
}
