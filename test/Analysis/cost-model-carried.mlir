// Cost model: loops that carry values through memory (ming.carried_distance),
// the accumulations of a global pool in stream order. A load of the buffer
// starts the path, the store of its update ends it (its cycle included);
// the path spans distance / unroll iterations, so II >= ceil(path / that).
// Latencies (docs table): LUTRAM read 1, registers 0, addf f32 4, store 1.
//
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 \
// RUN:   | FileCheck %s
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{overrides=far.L0.unroll=16})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WIDE

// ===== 1. Distance 4, not unrolled =========================================
// Path: read 1 + addf 4 + store 1 = 6 over 4 iterations: II = ceil(6/4) = 2,
// where the same loop with no distance (an iter_arg-free body) would get 1.
// CHECK: remark: L0: trip=64 unroll=1 pipelined ii=2 (recurrence) depth=6 cycles=132 dsp=2 ops=[addf f32 x1]
// CHECK: remark: process @near:

// ===== 2. Distance 16, unrolled by 4 =======================================
// Four copies an iteration, 16 / 4 = 4 iterations apart: II = ceil(6/4) = 2.
// Unrolled by 16 (WIDE), one iteration apart: II = 6.
// CHECK: remark: L0: trip=256 unroll=4 pipelined ii=2 (recurrence)
// CHECK: remark: process @far:
// WIDE: remark: L0: trip=256 unroll=16 pipelined ii=6 (recurrence)
// WIDE: remark: process @far:

// ===== 3. Unrolled past the distance =======================================
// Two elements, four copies: each element is updated twice in turn within
// an iteration, and the next iteration waits for the second update. In
// registers the path is addf 4 + store 1 = 5: II = 2 * 5 = 10.
// CHECK: remark: L0: trip=64 unroll=4 pipelined ii=10 (recurrence)
// CHECK: remark: process @past:

// ===== 4. No distance: the same loop as 1, nothing carried ================
// Without the directive nothing says an element comes back: II 1.
// CHECK: remark: L0: trip=64 unroll=1 pipelined ii=1 (request)
// CHECK: remark: process @unmarked:
// ===== 5. An outer product ================================================
// Its register pair takes only pulled values: nothing carried from its
// loads, so the path is the accumulator's, read 1 + addf 4 + store 1 = 6
// over 4 iterations (II 2), not the pair's read, mulf and addf (9: II 3).
// The nest is perfect: one pipeline of 32 slots.
// CHECK: remark: L0: trip=8 unroll=1 flattened iters=32 ii=2
// CHECK: remark: L1: trip=4 unroll=1 pipelined ii=2 (recurrence)
// CHECK: remark: process @outer:
module {
  dfg.process @near(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %acc = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %s = arith.remui %i, %c4 : index
      %x = dfg.pull %in : !dfg.in<f32>
      %old = memref.load %acc[%s] : memref<4xf32>
      %new = arith.addf %old, %x : f32
      memref.store %new, %acc[%s] : memref<4xf32>
    } {ming.carried_distance = 4 : i64, ming.loop = #ming.loop<ii = 1>}
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %acc[%i] : memref<4xf32>
      dfg.push %v, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @far(%in: !dfg.in<f32, lanes = 16>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %acc = memref.alloca() {ming.partition = #ming.partition<cyclic = [1, 4]>} : memref<16xf32>
    scf.for %i = %c0 to %c256 step %c1 {
      %s = arith.remui %i, %c16 : index
      %x = dfg.pull %in : !dfg.in<f32, lanes = 16>
      %old = memref.load %acc[%s] : memref<16xf32>
      %new = arith.addf %old, %x : f32
      memref.store %new, %acc[%s] : memref<16xf32>
    } {ming.carried_distance = 16 : i64, ming.loop = #ming.loop<ii = 1, unroll = 4>}
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %acc[%i] : memref<16xf32>
      dfg.push %v, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @past(%in: !dfg.in<f32, lanes = 4>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %acc = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<2xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %s = arith.remui %i, %c2 : index
      %x = dfg.pull %in : !dfg.in<f32, lanes = 4>
      %old = memref.load %acc[%s] : memref<2xf32>
      %new = arith.addf %old, %x : f32
      memref.store %new, %acc[%s] : memref<2xf32>
    } {ming.carried_distance = 2 : i64, ming.loop = #ming.loop<ii = 1, unroll = 4>}
    scf.for %i = %c0 to %c2 step %c1 {
      %v = memref.load %acc[%i] : memref<2xf32>
      dfg.push %v, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @unmarked(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %acc = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %c64 step %c1 {
      %s = arith.remui %i, %c4 : index
      %x = dfg.pull %in : !dfg.in<f32>
      %old = memref.load %acc[%s] : memref<4xf32>
      %new = arith.addf %old, %x : f32
      memref.store %new, %acc[%s] : memref<4xf32>
    } {ming.loop = #ming.loop<ii = 1>}
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %acc[%i] : memref<4xf32>
      dfg.push %v, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @outer(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : index
    %acc = memref.alloca() : memref<4xf32>
    %pair = memref.alloca() : memref<2xf32>
    %x0 = dfg.pull %in : !dfg.in<f32>
    memref.store %x0, %pair[%c0] : memref<2xf32>
    scf.for %m = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %slot = arith.remui %m, %c2 : index
        %m1 = arith.addi %m, %c1 : index
        %next = arith.remui %m1, %c2 : index
        %first = arith.cmpi eq, %j, %c0 : index
        %more = arith.cmpi ult, %m, %c7 : index
        %pull = arith.andi %first, %more : i1
        scf.if %pull {
          %x = dfg.pull %in : !dfg.in<f32>
          memref.store %x, %pair[%next] : memref<2xf32>
        }
        %xv = memref.load %pair[%slot] : memref<2xf32>
        %old = memref.load %acc[%j] : memref<4xf32>
        %t = arith.mulf %xv, %xv : f32
        %new = arith.addf %old, %t : f32
        memref.store %new, %acc[%j] : memref<4xf32>
      } {ming.carried_distance = 4 : i64, ming.loop = #ming.loop<ii = 1>}
    }
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %acc[%i] : memref<4xf32>
      dfg.push %v, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}
