// What the simulator cannot run is a clear error naming the process.
// REQUIRES: ming-opt
// RUN: not ming-opt %s --simulate --no-dse 2>&1 | FileCheck %s
// CHECK: ming-opt: error: simulator: process 'filter' has data-dependent control (an scf.if condition depends on pulled data)

dfg.process @filter(%in: !dfg.in<i8>, %o: !dfg.out<i8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c4 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %pos = arith.cmpi sgt, %v, %zero : i8
    scf.if %pos {
      dfg.push %v, %o : !dfg.out<i8>
    }
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.process @src(%m: memref<4xi8>, %o: !dfg.out<i8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %m[%i] : memref<4xi8>
    dfg.push %v, %o : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.process @dst(%in: !dfg.in<i8>) {
}
dfg.graph @g(%x: memref<4xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<4xi8>, !dfg.out<i8>
  dfg.instantiate @filter(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @dst(%r1) : !dfg.in<i8>
}
