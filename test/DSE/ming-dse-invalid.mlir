// ming-dse refuses what it cannot explore, with the reason at the graph (or
// the module's first op): no limits, an unknown objective, no graph, a
// choice of the wrong length or out of range or with lanes that disagree,
// limits no design fits, and no solver in mlir-opt (a copy of the plugin
// away from the libming.so it loads the ILP from).
// REQUIRES: ming-opt
// RUN: ming-opt %s -split-input-file -verify-diagnostics --ming-dse="dsp=0 bram=0" -o /dev/null
// RUN: rm -rf %t.dir && mkdir -p %t.dir/a/b && cp %ming_plugin %t.dir/a/b/
// RUN: not %mlir_opt --load-dialect-plugin=%t.dir/a/b/libMingPasses.so --load-pass-plugin=%t.dir/a/b/libMingPasses.so \
// RUN:   %S/Inputs/dse-dot.mlir --pass-pipeline='builtin.module(ming-dse{dsp=64 bram=64})' 2>&1 | FileCheck %s --check-prefix=NOSOLVER
// RUN: not ming-opt %S/Inputs/dse-dot.mlir --ming-dse="bram=64" 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: not ming-opt %S/Inputs/dse-dot.mlir --ming-dse="dsp=64 bram=64 objective=fast" 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: not ming-opt %S/Inputs/dse-dot.mlir --ming-dse="dsp=64 bram=64 choice=0" 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ming-opt %S/Inputs/dse-dot.mlir --ming-dse="dsp=64 bram=64 choice=0,999,0" 2>&1 | FileCheck %s --check-prefix=RANGE

// NOSOLVER: error: ming-dse: this process has no ILP solver and the one in {{.*}}/a/b/../../libming.so could not be loaded ({{.*}}); build ming with cargo, or give the choice with choice=<index of every instance>
// LIMITS: error: ming-dse needs the board's limits: dsp=<DSP48E2 slices> bram=<BRAM18K blocks>
// OBJ: error: ming-dse: unknown objective 'fast' (dataflow or sum)
// COUNT: error: ming-dse: the DSE chose 1 configurations for 3 instances
// RANGE: error: ming-dse: the DSE chose configuration 999 of instance 1 ('dot'), which has

// expected-error @+1 {{ming-dse: the module holds no dfg.graph}}
func.func @not_a_graph() {
  return
}

// -----

dfg.process @load(%mem: memref<16xi32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %mem[%i] : memref<16xi32>
    dfg.push %v, %out : !dfg.out<i32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @square(%in: !dfg.in<i32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    %r = arith.muli %v, %v : i32
    dfg.push %r, %out : !dfg.out<i32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i32>, %mem: memref<16xi32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    memref.store %v, %mem[%i] : memref<16xi32>
  } {ming.loop = #ming.loop<ii = 1>}
}

// A 32-bit product needs DSPs; there are none.
// expected-error @+1 {{no design of 'squares' fits 0 DSP and 0 BRAM18K; the smallest limits that work are}}
dfg.graph @squares(%x: memref<16xi32>, %y: memref<16xi32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<16xi32>, !dfg.out<i32>
  dfg.instantiate @square(%r0, %w1) : !dfg.in<i32>, !dfg.out<i32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i32>, memref<16xi32>
}
