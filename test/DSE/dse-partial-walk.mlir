// A pipeline too large for the cost model to walk (kWalkBudget operations):
// the IR pipelines the pixel loop of a reduction whose 1,024 x 1,024 MACs a
// pixel the walk would count in part, its DSPs and cycles too few. No such
// estimate is offered (ProcessCost::partial): the enumeration starts from
// the pipeline moved down to the output loop, which the walk counts whole,
// and enumerates its unroll and lanes there. Offered, the partial estimate
// was chosen: 4 DSPs for the 8 pixels at II 249,878, in a design of
// 1,048,580 cycles that the real body (8 M multiplies) would not meet. Now
// the load bounds the design, 16 elements a cycle over the 128-bit port
// (524,288 cycles), and the reduction keeps pace on 32 lanes with 16 DSPs:
// two outputs an iteration (2,048 multiplies) at II 128. The simulator
// agrees (ming-opt --simulate: 524,306 cycles).
// REQUIRES: ming-opt
// RUN: ming-opt %s --dse --board kv260 -v -o %t.mlir 2>&1 | FileCheck %s --check-prefix=LOG
// LOG-NOT: counted in part
// LOG:     optimal (dataflow): 524307 cycles, 16 DSP, 0 BRAM18K
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: dfg.process @squares
// CHECK-SAME:  ming.estimate = #ming.estimate<cycles = 524239, {{.*}}dsp = 16, bram18k = 0, ii = 128, unroll = {L1 = 2 : i64}>
// CHECK:       } {ming.loop = #ming.loop<ii = 128, unroll = 2>, ming.loop_estimate = #ming.loop_estimate<ii = 128,
// CHECK-NEXT:  } {ming.flattened}
// CHECK-LABEL: dfg.process @store

dfg.process @load(%mem: memref<8388608xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8388608 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %mem[%i] : memref<8388608xi8>
    dfg.push %v, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @squares(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  %z = arith.constant 0 : i32
  scf.for %p = %c0 to %c8 step %c1 {
    scf.for %o = %c0 to %c1024 step %c1 {
      %acc = scf.for %c = %c0 to %c1024 step %c1 iter_args(%a = %z) -> (i32) {
        %v = dfg.pull %in : !dfg.in<i8>
        %w = arith.extsi %v : i8 to i32
        %m = arith.muli %w, %w : i32
        %s = arith.addi %a, %m : i32
        scf.yield %s : i32
      }
      dfg.push %acc, %out : !dfg.out<i32>
    }
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i32>, %mem: memref<8192xi32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 8192 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    memref.store %v, %mem[%i] : memref<8192xi32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @squares_graph(%x: memref<8388608xi8>, %y: memref<8192xi32>) {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<8388608xi8>, !dfg.out<i8>
  dfg.instantiate @squares(%r0, %w1) : !dfg.in<i8>, !dfg.out<i32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i32>, memref<8192xi32>
}
