// A load process moves as many consecutive elements per cycle as the board's
// memory port carries (docs/cost-model.md, "Loops", the ports' II): 16 int8 elements
// unrolled 16 times take II 1 on a 128-bit port and II 2 on a 64-bit one
// (the second half of the copies issues a cycle later: depth 3).
// Walking a transposed layout, consecutive copies are 1,024 elements apart:
// each is a beat of its own, II 16 whatever the width, the last copy issuing
// 15 cycles after the first.
//
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=W128
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{axi-bits=64})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=W64

module {
  // In memory order: address = flat index.
  // W128: remark: L0: trip=8192 unroll=16 pipelined ii=1 (request)
  // W128: remark: process @in_order: cycles=513
  // W64: remark: L0: trip=8192 unroll=16 pipelined ii=2 (port arg0) depth=3 cycles=1025
  // W64: remark: process @in_order: cycles=1025
  dfg.process @in_order(%mem: memref<1x8x32x32xi8>, %out: !dfg.out<i8, lanes = 16>)
      attributes {kind = #dfg.kind<load>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %c8192 = arith.constant 8192 : index
    scf.for %i = %c0 to %c8192 step %c1 {
      %w = arith.remui %i, %c32 : index
      %hq = arith.divui %i, %c32 : index
      %h = arith.remui %hq, %c32 : index
      %c = arith.divui %i, %c1024 : index
      %v = memref.load %mem[%c0, %c, %h, %w] : memref<1x8x32x32xi8>
      dfg.push %v, %out : !dfg.out<i8, lanes = 16>
    } {ming.loop = #ming.loop<ii = 1, unroll = 16>}
  }

  // Channels innermost (NCHW memory streamed as NHWC): a jump of 1,024
  // elements from one copy to the next.
  // W128: remark: L0: trip=8192 unroll=16 pipelined ii=16 (port arg0) depth=17 cycles=8193
  // W128: remark: process @transposed: cycles=8193
  // W64: remark: L0: trip=8192 unroll=16 pipelined ii=16 (port arg0)
  dfg.process @transposed(%mem: memref<1x8x32x32xi8>, %out: !dfg.out<i8, lanes = 16>)
      attributes {kind = #dfg.kind<load>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %c8192 = arith.constant 8192 : index
    scf.for %i = %c0 to %c8192 step %c1 {
      %c = arith.remui %i, %c8 : index
      %wq = arith.divui %i, %c8 : index
      %w = arith.remui %wq, %c32 : index
      %hq = arith.divui %i, %c256 : index
      %h = arith.remui %hq, %c32 : index
      %v = memref.load %mem[%c0, %c, %h, %w] : memref<1x8x32x32xi8>
      dfg.push %v, %out : !dfg.out<i8, lanes = 16>
    } {ming.loop = #ming.loop<ii = 1, unroll = 16>}
  }
}
