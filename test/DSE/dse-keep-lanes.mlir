// Lanes the input already has are kept by the DSE even where
// --dse-max-lanes (default 1) would offer fewer: here a hand-widened relu
// chain (2 lanes) and a port pulled with an explicit lane index.
// REQUIRES: ming-opt
// RUN: ming-opt %s --dse | FileCheck %s
// CHECK-LABEL: dfg.process @load(%{{.*}}: memref<16xi8>, %{{.*}}: !dfg.out<i8, lanes = 2>)
// CHECK-LABEL: dfg.process @relu(%{{.*}}: !dfg.in<i8, lanes = 2>, %{{.*}}: !dfg.out<i8, lanes = 2>)
// CHECK:       dfg.pull %{{.*}}[%{{.*}}] : !dfg.in<i8, lanes = 2>
// CHECK-LABEL: dfg.graph @keep
// CHECK:       dfg.channel<i8, lanes = 2, depth = 2>
// CHECK:       dfg.channel<i8, lanes = 2, depth = 2>

dfg.process @load(%mem: memref<16xi8>, %out: !dfg.out<i8, lanes = 2>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %mem[%i] : memref<16xi8>
    dfg.push %v, %out : !dfg.out<i8, lanes = 2>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @relu(%in: !dfg.in<i8, lanes = 2>, %out: !dfg.out<i8, lanes = 2>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    %a = dfg.pull %in[%c0] : !dfg.in<i8, lanes = 2>
    %b = dfg.pull %in[%c1] : !dfg.in<i8, lanes = 2>
    %ra = arith.maxsi %a, %zero : i8
    %rb = arith.maxsi %b, %zero : i8
    dfg.push %ra, %out : !dfg.out<i8, lanes = 2>
    dfg.push %rb, %out : !dfg.out<i8, lanes = 2>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i8, lanes = 2>, %mem: memref<16xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8, lanes = 2>
    memref.store %v, %mem[%i] : memref<16xi8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @keep(%x: memref<16xi8>, %y: memref<16xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 2, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 2, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<16xi8>, !dfg.out<i8, lanes = 2>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8, lanes = 2>, !dfg.out<i8, lanes = 2>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8, lanes = 2>, memref<16xi8>
}
