// The DSE as a pass. ming-opt's --dse flag and the ming-dse pass are one
// stage: the same session of candidates, the same solver, the same output.
// Inside mlir-opt-22 the plugin loads the same ILP from libming.so and gives
// the same output; a given choice of candidate indices is applied as is.
// REQUIRES: ming-opt
// RUN: ming-opt %s --dse --dse-max-lanes 4 > %t.flag.mlir
// RUN: ming-opt %s --ming-dse="dsp=1248 bram=288 max-lanes=4" > %t.pass.mlir
// RUN: diff %t.flag.mlir %t.pass.mlir
// RUN: %mlir_opt --load-dialect-plugin=%ming_plugin --load-pass-plugin=%ming_plugin %s \
// RUN:   --pass-pipeline='builtin.module(ming-dse{dsp=1248 bram=288 max-lanes=4})' > %t.plugin.mlir
// RUN: diff %t.flag.mlir %t.plugin.mlir
// RUN: FileCheck %s --check-prefix=FOUR --input-file=%t.pass.mlir
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-dse{dsp=1248 bram=288 max-lanes=1 objective=sum})' | FileCheck %s --check-prefix=ONE
// RUN: %mlir_opt --load-dialect-plugin=%ming_plugin --load-pass-plugin=%ming_plugin %s \
// RUN:   --pass-pipeline='builtin.module(ming-dse{dsp=1248 bram=288 choice=0,0,0})' | FileCheck %s --check-prefix=GIVEN

// A choice whose lanes disagree on a channel is refused before the IR changes.
// RUN: not ming-opt %s --ming-dse="dsp=1248 bram=288 max-lanes=4 choice=1,0,0" 2>&1 | FileCheck %s --check-prefix=LANES
// LANES: error: ming-dse: the choice gives the channel from 'load' to 'relu' 2 lanes at its writer and 1 at its reader

// FOUR-LABEL: dfg.process @relu(%{{.*}}: !dfg.in<i8, lanes = 4>, %{{.*}}: !dfg.out<i8, lanes = 4>)
// FOUR-LABEL: dfg.graph @relu_graph
// FOUR-SAME:  ming.design = #ming.design<cycles = 22, dsp = 0, bram18k = 0, objective = "dataflow", status = "optimal">

// ONE-NOT:    lanes = {{[2-9]}}
// ONE-LABEL:  dfg.graph @relu_graph
// ONE-SAME:   objective = "sum", status = "optimal">

// Candidate 0 of each: the cost model's first configuration (one lane,
// nothing unrolled), written as directives with its figures.
// GIVEN-LABEL: dfg.process @relu(%{{.*}}: !dfg.in<i8>, %{{.*}}: !dfg.out<i8>)
// GIVEN-SAME:  ming.estimate = #ming.estimate<cycles = 66,
// GIVEN-LABEL: dfg.graph @relu_graph
// GIVEN-SAME:  status = "given">

dfg.process @load(%mem: memref<64xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %mem[%i] : memref<64xi8>
    dfg.push %v, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @relu(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c64 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %r = arith.maxsi %v, %zero : i8
    dfg.push %r, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i8>, %mem: memref<64xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %mem[%i] : memref<64xi8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @relu_graph(%x: memref<64xi8>, %y: memref<64xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<64xi8>, !dfg.out<i8>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<64xi8>
}
