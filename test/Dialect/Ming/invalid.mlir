// Every error of the ming dialect: the attributes' own checks (at parse
// time) and the rule of each `ming.*` name (which op, which value).
// RUN: ming-opt %s -split-input-file -verify-diagnostics

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+2 {{#ming.loop: ii must be >= 1 to pipeline (0 or absent: not pipelined), got -1}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.loop = #ming.loop<ii = -1>}
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+2 {{#ming.loop: unroll must be >= 0 (0 unrolls fully), got -2}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.loop = #ming.loop<unroll = -2>}
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+2 {{#ming.loop: label must be a C identifier, got "row-1"}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.loop = #ming.loop<label = "row-1">}
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{#ming.partition: complete dimensions are distinct and 1-based, got 0}}
  %b = memref.alloca() {ming.partition = #ming.partition<complete = [0]>} : memref<4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{#ming.partition: complete dimensions are distinct and 1-based, got 1}}
  %b = memref.alloca() {ming.partition = #ming.partition<complete = [1, 1]>} : memref<4x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{#ming.partition: cyclic holds (dimension, factor) pairs}}
  %b = memref.alloca() {ming.partition = #ming.partition<cyclic = [1, 2, 2]>} : memref<4x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{#ming.partition: cyclic factor 0 of dimension 1 is below 1}}
  %b = memref.alloca() {ming.partition = #ming.partition<cyclic = [1, 0]>} : memref<4x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{#ming.partition: cyclic dimension 1 is not 1-based or is split twice}}
  %b = memref.alloca() {ming.partition = #ming.partition<complete = [1], cyclic = [1, 2]>} : memref<4x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.partition' splits dimension 3 completely, but the buffer has dimensions 1..2}}
  %b = memref.alloca() {ming.partition = #ming.partition<complete = [1, 3]>} : memref<2x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.partition' splits dimension 2 cyclically by 8, which does not fit 'memref<2x4xi8>'}}
  %b = memref.alloca() {ming.partition = #ming.partition<cyclic = [2, 8]>} : memref<2x4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.partition' partitions a rank-0 buffer, which is a scalar}}
  %b = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<i32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op 'ming.partition' belongs on an op that makes a buffer (memref.alloca, memref.get_global)}}
  %c = arith.constant {ming.partition = #ming.partition<complete = [1]>} 0 : index
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.partition' must be a #ming.partition<...>, got array<i64: 1>}}
  %b = memref.alloca() {ming.partition = array<i64: 1>} : memref<4xi8>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.loop' belongs on an scf.for}}
  %b = memref.alloca() {ming.loop = #ming.loop<ii = 1>} : memref<4xi8>
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'ming.loop' must be a #ming.loop<...>, got 1 : i64}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.loop = 1 : i64}
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+2 {{#ming.loop_estimate: ii >= 1 and depth >= 0, got ii 0 and depth 3}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.loop_estimate = #ming.loop_estimate<ii = 0, depth = 3>}
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'ming.flattened' must be a unit attribute, got true}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.flattened = true}
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'ming.carried_distance' must be an integer of at least 1, got 0 : i64}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.carried_distance = 0 : i64}
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.carried_distance' belongs on an scf.for}}
  %buf = memref.alloca() {ming.carried_distance = 4 : i64} : memref<4xf32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.reassociate' belongs on an scf.for}}
  %buf = memref.alloca() {ming.reassociate} : memref<4xf32>
  return
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'ming.reassociate' must be a unit attribute, got true}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.reassociate = true}
  return
}

// -----

// The names of an earlier vocabulary are refused by name, not dropped.
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op 'ming.pipeline_ii' is not a ming directive (see ming/Directives/Directives.h)}}
  scf.for %i = %c0 to %n step %c1 {
  } {ming.pipeline_ii = 1 : i64}
  return
}

// -----

// expected-error@+1 {{#ming.estimate: figures are counts, got -5}}
dfg.process @p(%in: !dfg.in<i8>) attributes {ming.estimate = #ming.estimate<cycles = -5, first_output = 0, pre = 0, tail = 0, dsp = 0, bram18k = 0, ii = 1>} {}

// -----

// expected-error@+1 {{#ming.estimate: unroll of "L0" must be an integer >= 0}}
dfg.process @p(%in: !dfg.in<i8>) attributes {ming.estimate = #ming.estimate<cycles = 5, first_output = 0, pre = 0, tail = 0, dsp = 0, bram18k = 0, ii = 1, unroll = {L0 = "four"}>} {}

// -----

// expected-error@+1 {{'dfg.graph' op 'ming.estimate' belongs on a dfg.process}}
dfg.graph @g(%x: memref<4xi8>) attributes {ming.estimate = #ming.estimate<cycles = 5, first_output = 0, pre = 0, tail = 0, dsp = 0, bram18k = 0, ii = 1>} {}

// -----

// expected-error@+1 {{'dfg.process' op 'ming.design' belongs on a dfg.graph}}
dfg.process @p(%in: !dfg.in<i8>) attributes {ming.design = #ming.design<cycles = 1, dsp = 0, bram18k = 0, objective = "sum", status = "optimal">} {}

// -----

// expected-error@+1 {{#ming.design: objective and status are named}}
dfg.graph @g(%x: memref<4xi8>) attributes {ming.design = #ming.design<cycles = 1, dsp = 0, bram18k = 0, objective = "", status = "optimal">} {}

// -----

// expected-error@+1 {{'dfg.graph' op 'ming.num_inputs' must be an integer >= 0, got -1 : i64}}
dfg.graph @g(%x: memref<4xi8>) attributes {ming.num_inputs = -1 : i64} {}

// -----

// expected-error@+1 {{'dfg.graph' op 'ming.top' must be a unit attribute, got "yes"}}
dfg.graph @g(%x: memref<4xi8>) attributes {ming.top = "yes"} {}

// -----

// expected-error@+1 {{'dfg.process' op 'ming.port_elements' must be an array<i64> of counts, got array<i64: 4, -1>}}
dfg.process @p(%in: !dfg.in<i8>) attributes {ming.port_elements = array<i64: 4, -1>} {}

// -----

// expected-error@+1 {{'dfg.process' op 'ming.lookahead' must be an integer >= 0, got 2.000000e+00 : f32}}
dfg.process @p(%in: !dfg.in<i8>) attributes {ming.lookahead = 2.0 : f32} {}

// -----

// expected-error@+1 {{'emitHLS.func' op 'ming.name' must be a string, got 3 : i64}}
emitHLS.func @f() attributes {ming.name = 3} {
  emitHLS.return
}

// -----

func.func @f() {
  // expected-error@+1 {{'memref.alloca' op 'ming.uram' must be a unit attribute, got true}}
  %buf = memref.alloca() {ming.uram = true} : memref<8192xi8>
  return
}

// -----

memref.global "private" constant @w : memref<4xi8> = dense<[1, 2, 3, 4]>
func.func @f() {
  // expected-error@+1 {{'memref.get_global' op 'ming.uram' belongs on a memref.alloca (a ROM cannot be UltraRAM: it has no initial contents)}}
  %w = memref.get_global @w : memref<4xi8> {ming.uram}
  return
}
