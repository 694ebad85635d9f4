// An accumulation in stream order (a global pool): the loop loads and stores
// back elements of its accumulator, which an element revisits only after
// `ming.carried_distance` iterations. The pragma gives Vitis that distance
// in iterations of the unrolled loop (64 / 4 = 16), which its own analysis
// cannot see through the modulo; a loop unrolled past the distance, whose
// copies update one element in turn, gets none. An outer product's register
// pair, which the loop only stores pulled values into, carries nothing from
// its loads to its stores: only the accumulator gets the pragma.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s

// CHECK-LABEL: emitHLS.func @pool(
// CHECK:         %[[ACC:.*]] = emitHLS.array : !emitHLS.array<64xf32>
// CHECK:         emitHLS.for %{{.*}} = 0 to 1024 step 1 {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      emitHLS.pragma.unroll factor = 4
// CHECK-NEXT:      emitHLS.pragma.dependence %[[ACC]] distance = 16 : !emitHLS.array<64xf32>
// CHECK:         emitHLS.for %{{.*}} = 0 to 64 step 1 {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      emitHLS.load
// CHECK-LABEL: emitHLS.func @past(
// CHECK:         emitHLS.for %{{.*}} = 0 to 64 step 1 {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      emitHLS.pragma.unroll factor = 4
// CHECK-NOT:       emitHLS.pragma.dependence
// CHECK:         emitHLS.return
// CHECK-LABEL: emitHLS.func @outer(
// CHECK:         %[[ACC:.*]] = emitHLS.array : !emitHLS.array<8xf32>
// CHECK:         %[[PAIR:.*]] = emitHLS.array : !emitHLS.array<2xf32>
// CHECK:         emitHLS.for %{{.*}} = 0 to 8 step 1 {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      emitHLS.pragma.unroll factor = 2
// CHECK-NEXT:      emitHLS.pragma.dependence %[[ACC]] distance = 4 : !emitHLS.array<8xf32>
// CHECK-NOT:       emitHLS.pragma.dependence
// CHECK:         emitHLS.return
dfg.process @pool(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %acc = memref.alloca() {ming.partition = #ming.partition<cyclic = [1, 4]>} : memref<64xf32>
  scf.for %i = %c0 to %c1024 step %c1 {
    %s = arith.remui %i, %c64 : index
    %x = dfg.pull %in : !dfg.in<f32>
    %old = memref.load %acc[%s] : memref<64xf32>
    %new = arith.addf %old, %x : f32
    memref.store %new, %acc[%s] : memref<64xf32>
  } {ming.carried_distance = 64 : i64, ming.loop = #ming.loop<ii = 1, unroll = 4>}
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %acc[%i] : memref<64xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @past(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %acc = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<2xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %s = arith.remui %i, %c2 : index
    %x = dfg.pull %in : !dfg.in<f32>
    %old = memref.load %acc[%s] : memref<2xf32>
    %new = arith.addf %old, %x : f32
    memref.store %new, %acc[%s] : memref<2xf32>
  } {ming.carried_distance = 2 : i64, ming.loop = #ming.loop<ii = 1, unroll = 4>}
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %acc[%i] : memref<2xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @load(%mem: memref<1024xf32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = memref.load %mem[%i] : memref<1024xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<f32>, %mem: memref<2xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    memref.store %v, %mem[%i] : memref<2xf32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @top(%x: memref<1024xf32>, %y: memref<2xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<1024xf32>, !dfg.out<f32>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @pool(%r0, %w1) : !dfg.in<f32>, !dfg.out<f32>
  %w2, %r2 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @past(%r1, %w2) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r2, %y) : !dfg.in<f32>, memref<2xf32>
}

dfg.process @outer(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %w = memref.get_global @w : memref<4x8xf32>
  %acc = memref.alloca() {ming.partition = #ming.partition<cyclic = [1, 2]>} : memref<8xf32>
  %pair = memref.alloca() : memref<2xf32>
  %x0 = dfg.pull %in : !dfg.in<f32>
  memref.store %x0, %pair[%c0] : memref<2xf32>
  scf.for %m = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %slot = arith.remui %m, %c2 : index
      %m1 = arith.addi %m, %c1 : index
      %next = arith.remui %m1, %c2 : index
      %first = arith.cmpi eq, %j, %c0 : index
      %more = arith.cmpi ult, %m, %c3 : index
      %pull = arith.andi %first, %more : i1
      scf.if %pull {
        %x = dfg.pull %in : !dfg.in<f32>
        memref.store %x, %pair[%next] : memref<2xf32>
      }
      %xv = memref.load %pair[%slot] : memref<2xf32>
      %wv = memref.load %w[%m, %j] : memref<4x8xf32>
      %old = memref.load %acc[%j] : memref<8xf32>
      %t = arith.mulf %xv, %wv : f32
      %new = arith.addf %old, %t : f32
      memref.store %new, %acc[%j] : memref<8xf32>
    } {ming.carried_distance = 8 : i64, ming.loop = #ming.loop<ii = 1, unroll = 2>}
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %acc[%i] : memref<8xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

memref.global "private" constant @w : memref<4x8xf32> = dense<0.5>
