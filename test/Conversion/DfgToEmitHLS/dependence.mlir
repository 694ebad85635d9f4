// An accumulation in stream order (a global pool): the loop loads and stores
// back elements of its accumulator, which an element revisits only after
// `ming.carried_distance` iterations. The pragma gives Vitis that distance
// in iterations of the unrolled loop (64 / 4 = 16), which its own analysis
// cannot see through the modulo; a loop unrolled past the distance, whose
// copies update one element in turn, gets none.
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
