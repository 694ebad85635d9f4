// --simulate on a two-process chain whose figures are worked out by hand.
// --no-dse keeps the timing written below (the DSE's attributes by hand).
// REQUIRES: ming-opt
// RUN: ming-opt %s --simulate --no-dse | FileCheck %s
// RUN: ming-opt %s --simulate --no-dse --no-fifo-minimize | FileCheck %s --check-prefix=KEEP
//
// src issues slot k (one element) at cycle k, II 1, depth 3: it writes word k
// at k + 2, readable from k + 3; its last write is at 9, it finishes at 10.
// dst's slot j (II 2, depth 2) pulls words 2j and 2j+1: nominal issues 0, 2,
// 4, 6; slot 0 waits for word 1 (readable at 4), so it issues at 4 (4 cycles
// input-starved) and the others follow on time at 6, 8, 10; dst completes
// at 10 + 2 = 12.
// Occupancy when word i is written (cycle i + 2) = words written so far minus
// words read before that cycle (reads at 3, 4, 6, 6, 8, 8, 10, 10):
// 1, 2, 2, 2, 3, 2, 3, 2: peak 3.
// Minimisation: unbounded run = the same 12 cycles, bound 12 + 12/100 = 12;
// depth 2 makes src wait at cycle 6 (2 words held) and dst end later, so the
// least depth is 3: 4 -> 3 words of 8 bits.
// CHECK: simulation of 'chain': ok
// CHECK: cycles: 12 simulated
// CHECK: FIFO minimisation: unbounded 12 cycles, bound 12 (+1%), {{[0-9]+}} simulations; FIFO bits 32 -> 24, BRAM18K 0 -> 0
// CHECK: src: finish 10 busy 10 starved 0 blocked 0
// CHECK: dst: finish 12 busy 8 starved 4 blocked 0
// CHECK: src_to_dst: depth 3 (DSE 4) peak 3, unbounded peak 3
// KEEP: cycles: 12 simulated
// KEEP-NOT: FIFO minimisation
// KEEP: src_to_dst: depth 4 peak 3

dfg.process @src(%m: memref<8xi8>, %o: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %m[%i] : memref<8xi8>
    dfg.push %v, %o : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 3>}
}
dfg.process @dst(%in: !dfg.in<i8>, %m: memref<4xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %a = dfg.pull %in : !dfg.in<i8>
    %b = dfg.pull %in : !dfg.in<i8>
    %s = arith.addi %a, %b : i8
    memref.store %s, %m[%j] : memref<4xi8>
  } {ming.loop = #ming.loop<ii = 2>, ming.loop_estimate = #ming.loop_estimate<ii = 2, depth = 2>}
}
dfg.graph @chain(%x: memref<8xi8>, %y: memref<4xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w, %r = dfg.channel<i8, lanes = 1, depth = 4>
  dfg.instantiate @src(%x, %w) : memref<8xi8>, !dfg.out<i8>
  dfg.instantiate @dst(%r, %y) : !dfg.in<i8>, memref<4xi8>
}
