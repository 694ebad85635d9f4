// Lanes chosen by the DSE: with --dse-max-lanes N the channels and both
// ports of each get `lanes = L` (process bodies unchanged: pulls and pushes
// without a lane index go round robin); the default offers one lane only.
// REQUIRES: ming-opt
// RUN: ming-opt %s --dse --dse-max-lanes 1 | FileCheck %s --check-prefix=ONE
// RUN: ming-opt %s --dse --dse-max-lanes 4 | FileCheck %s --check-prefix=FOUR
// RUN: ming-opt %s --dse --dse-max-lanes 4 | ming-opt --verify-each | FileCheck %s --check-prefix=FOUR

// ONE-NOT: lanes = {{[2-9]}}
// ONE: dfg.channel<i8, lanes = 1, depth = 2>

// Four lanes end to end; the loops unrolled so that each iteration moves a
// multiple of four elements: 4 per iteration at II 1, relu 16 iterations of
// depth 3, 18 cycles, its last pull at 15: tail 3. 16 per iteration at II 4
// takes as long: its copies pull a word a cycle (copy 12 at 3), 6 deep.
// FOUR-LABEL: dfg.process @load(%{{.*}}: memref<64xi8>, %{{.*}}: !dfg.out<i8, lanes = 4>)
// FOUR:       } {ming.loop = #ming.loop<ii = 1, unroll = 4>
// FOUR-LABEL: dfg.process @relu(%{{.*}}: !dfg.in<i8, lanes = 4>, %{{.*}}: !dfg.out<i8, lanes = 4>)
// FOUR-SAME:  ming.estimate = #ming.estimate<cycles = 18, first_output = 3, pre = 0, tail = 3, dsp = 0, bram18k = 0, ii = 1, unroll = {L0 = 4 : i64}>
// FOUR:       dfg.pull %{{.*}} : !dfg.in<i8, lanes = 4>
// FOUR:       } {ming.loop = #ming.loop<ii = 1, unroll = 4>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 3>}
// FOUR-LABEL: dfg.process @store(%{{.*}}: !dfg.in<i8, lanes = 4>, %{{.*}}: memref<64xi8>)
// FOUR-LABEL: dfg.graph @relu_graph
// FOUR:       dfg.channel<i8, lanes = 4, depth = 2>
// FOUR:       dfg.channel<i8, lanes = 4, depth = 2>
// FOUR:       dfg.instantiate @load(%{{.*}}, %{{.*}}) : memref<64xi8>, !dfg.out<i8, lanes = 4>
// FOUR:       dfg.instantiate @relu(%{{.*}}, %{{.*}}) : !dfg.in<i8, lanes = 4>, !dfg.out<i8, lanes = 4>

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
