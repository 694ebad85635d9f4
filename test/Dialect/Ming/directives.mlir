// Round trip of every directive of the ming dialect on the op it belongs to:
// parse, print, parse again; defaults are not printed. The same file loads
// into mlir-opt-22 through the plugin.
// RUN: ming-opt %s | ming-opt | FileCheck %s
// RUN: %mlir_opt --load-dialect-plugin=%ming_plugin %s | FileCheck %s

// CHECK-LABEL: dfg.process @p
// CHECK-SAME:  ming.estimate = #ming.estimate<cycles = 40, first_output = 3, pre = 0, tail = 2, dsp = 1, bram18k = 0, ii = 1, unroll = {L1 = 4 : i64}>
// CHECK-SAME:  ming.input_elements = 32 : i64, ming.lookahead = 8 : i64, ming.port_elements = array<i64: 32, 32>
dfg.process @p(%in: !dfg.in<i8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<pure_parallel>, ming.lookahead = 8, ming.input_elements = 32,
                ming.port_elements = array<i64: 32, 32>,
                ming.estimate = #ming.estimate<ii = 1, cycles = 40, first_output = 3, pre = 0,
                                               tail = 2, dsp = 1, bram18k = 0, unroll = {L1 = 4}>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // CHECK: memref.alloca() {ming.partition = #ming.partition<complete = [1], cyclic = [2, 4]>} : memref<3x8xi8>
  %buf = memref.alloca() {ming.partition = #ming.partition<cyclic = [2, 4], complete = [1]>} : memref<3x8xi8>
  // An empty partition and default loop directives print as written: the
  // accessors remove them, the parser keeps what it is given.
  // CHECK: memref.alloca() {ming.partition = #ming.partition<>} : memref<4xi8>
  %none = memref.alloca() {ming.partition = #ming.partition<>} : memref<4xi8>
  // CHECK: memref.alloca() {ming.uram} : memref<8192xi8>
  %big = memref.alloca() {ming.uram} : memref<8192xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = dfg.pull %in : !dfg.in<i8>
      memref.store %v, %buf[%c0, %j] : memref<3x8xi8>
      dfg.push %v, %out : !dfg.out<i8>
    // CHECK: } {ming.loop = #ming.loop<ii = 2, unroll = 4, label = "col">, ming.loop_estimate = #ming.loop_estimate<ii = 2, depth = 5>}
    } {ming.loop = #ming.loop<label = "col", unroll = 4, ii = 2>,
       ming.loop_estimate = #ming.loop_estimate<ii = 2, depth = 5>}
  // CHECK: } {ming.flattened, ming.loop = #ming.loop<unroll = 0>}
  } {ming.loop = #ming.loop<unroll = 0>, ming.flattened}
  // CHECK: } {ming.loop = #ming.loop<>}
  scf.for %i = %c0 to %c4 step %c1 {
  } {ming.loop = #ming.loop<>}
  // CHECK: } {ming.carried_distance = 8 : i64, ming.loop = #ming.loop<ii = 1>}
  scf.for %i = %c0 to %c4 step %c1 {
  } {ming.carried_distance = 8 : i64, ming.loop = #ming.loop<ii = 1>}
}

// CHECK-LABEL: dfg.graph @g
// CHECK-SAME:  ming.design = #ming.design<cycles = 50, dsp = 1, bram18k = 0, objective = "dataflow", status = "optimal">
// CHECK-SAME:  ming.num_inputs = 1 : i64, ming.top
dfg.graph @g(%x: memref<32xi8>, %y: memref<32xi8>)
    attributes {ming.top, ming.num_inputs = 1,
                ming.design = #ming.design<cycles = 50, dsp = 1, bram18k = 0,
                                           objective = "dataflow", status = "optimal">} {
  // CHECK: dfg.channel<i8, lanes = 1, depth = 2> {ming.name = "x_to_p"}
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2> {ming.name = "x_to_p"}
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<32xi8>, !dfg.out<i8>
  dfg.instantiate @p(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<32xi8>
}
dfg.process @load(%x: memref<32xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {}
dfg.process @store(%in: !dfg.in<i8>, %y: memref<32xi8>) attributes {kind = #dfg.kind<store>} {}
