// A multi-lane channel whose element count neither end fixes statically
// (both transfer under conditions, as between two sliding windows) is
// converted, with a warning that the lane count was not checked.
// RUN: ming-opt %s --verify-diagnostics --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s
// CHECK: emitHLS.stream {ming.name = "src_to_dst"} : !emitHLS.stream<vector<2xi8>>

dfg.process @src(%out: !dfg.out<i8, lanes = 2>, %n: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %go = memref.load %n[%c0] : memref<1xi1>
  %v = arith.constant 1 : i8
  scf.if %go {
    dfg.push %v, %out : !dfg.out<i8, lanes = 2>
    dfg.push %v, %out : !dfg.out<i8, lanes = 2>
  }
}
dfg.process @dst(%in: !dfg.in<i8, lanes = 2>, %n: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %go = memref.load %n[%c0] : memref<1xi1>
  scf.if %go {
    %v = dfg.pull %in : !dfg.in<i8, lanes = 2>
    %u = dfg.pull %in : !dfg.in<i8, lanes = 2>
  }
}
dfg.graph @top(%x: memref<1xi1>, %y: memref<1xi1>) {
  // expected-warning@+1 {{has 2 lanes, but the number of elements on it cannot be counted statically (@src pushes and @dst pulls conditionally); unchecked: the lane count must divide it}}
  %w, %r = dfg.channel<i8, lanes = 2, depth = 2>
  dfg.instantiate @src(%w, %x) : !dfg.out<i8, lanes = 2>, memref<1xi1>
  dfg.instantiate @dst(%r, %y) : !dfg.in<i8, lanes = 2>, memref<1xi1>
}
