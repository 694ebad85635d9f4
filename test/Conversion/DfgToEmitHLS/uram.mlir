// A buffer the DSE put in UltraRAM (`ming.uram`) is bound to it: two ports of
// any kind, as the cost model counts them.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s

// CHECK-LABEL: emitHLS.func @delay(
// CHECK:         %[[LINE:.*]] = emitHLS.array : !emitHLS.array<8192xi8>
// CHECK-NEXT:    emitHLS.pragma.bind_storage %[[LINE]] type = ram_t2p impl = uram : !emitHLS.array<8192xi8>
// CHECK:         %[[OTHER:.*]] = emitHLS.array : !emitHLS.array<8192xi8>
// CHECK-NOT:     bind_storage
// CHECK:         emitHLS.return
dfg.process @delay(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  %line = memref.alloca() {ming.uram} : memref<8192xi8>
  %other = memref.alloca() : memref<8192xi8>
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %old = memref.load %line[%i] : memref<8192xi8>
    memref.store %v, %line[%i] : memref<8192xi8>
    %x = memref.load %other[%i] : memref<8192xi8>
    memref.store %old, %other[%i] : memref<8192xi8>
    dfg.push %x, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @load(%mem: memref<8192xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = memref.load %mem[%i] : memref<8192xi8>
    dfg.push %v, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i8>, %mem: memref<8192xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8192 = arith.constant 8192 : index
  scf.for %i = %c0 to %c8192 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %mem[%i] : memref<8192xi8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @top(%x: memref<8192xi8>, %y: memref<8192xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<8192xi8>, !dfg.out<i8>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @delay(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<8192xi8>
}
