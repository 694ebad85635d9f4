// Every verifier error of the dfg dialect.
// RUN: ming-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{channel element type must be an integer or float, got 'tensor<4xi8>'}}
dfg.process @p(%in: !dfg.in<tensor<4xi8>>) {}

// -----

// expected-error @below {{a channel needs at least one lane}}
dfg.process @p(%out: !dfg.out<i8, lanes = 0>) {}

// -----

// expected-error @below {{'dfg.graph' op argument #0 must be a memref (external memory), got 'i32'}}
dfg.graph @g(%a: i32) {}

// -----

// expected-error @below {{'dfg.graph' op returns nothing; results are written through memref arguments or output ports}}
dfg.graph @g(%m: memref<2xi8>) -> i32 {}

// -----

// expected-error @below {{'dfg.process' op returns nothing}}
dfg.process @p(%in: !dfg.in<i8>) -> i32 {}

// -----

// expected-error @below {{'dfg.process' op port #1 must be a channel end (!dfg.in, !dfg.out) or a memref of external memory, got 'f32'}}
dfg.process @p(%a: !dfg.in<f32>, %b: f32) {}

// -----

dfg.graph @g() {
  // expected-error @below {{'arith.constant' op is not allowed in a dfg.graph, which holds only dfg.channel and dfg.instantiate}}
  %c = arith.constant 0 : i32
}

// -----

dfg.process @sink(%in: !dfg.in<i8>) {}
dfg.graph @g() {
  // expected-error @below {{'dfg.channel' op must have exactly one producer (an instance taking its !dfg.out end), found 0}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @sink(%r) : !dfg.in<i8>
}

// -----

dfg.process @src(%out: !dfg.out<i8>) {}
dfg.process @sink(%in: !dfg.in<i8>) {}
dfg.graph @g() {
  // expected-error @below {{'dfg.channel' op must have exactly one producer (an instance taking its !dfg.out end), found 2}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @src(%w) : !dfg.out<i8>
  dfg.instantiate @src(%w) : !dfg.out<i8>
  dfg.instantiate @sink(%r) : !dfg.in<i8>
}

// -----

dfg.process @src(%out: !dfg.out<i8>) {}
dfg.graph @g() {
  // expected-error @below {{'dfg.channel' op must have exactly one consumer (an instance taking its !dfg.in end), found 0}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @src(%w) : !dfg.out<i8>
}

// -----

dfg.graph @g() {
  // expected-error @below {{a channel needs at least one lane, got 0}}
  %w, %r = dfg.channel<i8, lanes = 0, depth = 2>
}

// -----

dfg.graph @g() {
  // expected-error @below {{'dfg.channel' op attribute 'depth' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 0>
}

// -----

dfg.graph @g() {
  // expected-error @below {{channel element type must be an integer or float, got 'memref<2xi8>'}}
  %w, %r = dfg.channel<memref<2xi8>, lanes = 1, depth = 2>
}

// -----

func.func @f() {
  // expected-error @below {{'dfg.channel' op expects parent op 'dfg.graph'}}
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  return
}

// -----

dfg.graph @g() {
  // expected-error @below {{'dfg.instantiate' op @nowhere does not reference a symbol}}
  dfg.instantiate @nowhere()
}

// -----

func.func @f() {
  return
}
dfg.graph @g() {
  // expected-error @below {{'dfg.instantiate' op @f is a 'func.func', not a dfg.process}}
  dfg.instantiate @f()
}

// -----

dfg.process @src(%out: !dfg.out<i8>, %m: memref<4xi8>) {}
dfg.graph @g(%m: memref<4xi8>) {
  // expected-error @below {{'dfg.instantiate' op process @src has 2 ports, but 1 operands were given}}
  dfg.instantiate @src(%m) : memref<4xi8>
}

// -----

dfg.process @src(%out: !dfg.out<i8, lanes = 2>) {}
dfg.process @sink(%in: !dfg.in<i8>) {}
dfg.graph @g() {
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  // expected-error @below {{'dfg.instantiate' op operand #0 has type '!dfg.out<i8>', but port #0 of @src has type '!dfg.out<i8, lanes = 2>'}}
  dfg.instantiate @src(%w) : !dfg.out<i8>
  dfg.instantiate @sink(%r) : !dfg.in<i8>
}

// -----

dfg.process @sink(%in: !dfg.in<i8>) {}
dfg.graph @g() {
  %w, %r = dfg.channel<i8, lanes = 1, depth = 2>
  // A producer handed the read end: the direction is part of the type.
  // expected-error @below {{'dfg.instantiate' op operand #0 has type '!dfg.out<i8>', but port #0 of @sink has type '!dfg.in<i8>'}}
  dfg.instantiate @sink(%w) : !dfg.out<i8>
  dfg.instantiate @sink(%r) : !dfg.in<i8>
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {}
func.func @f() {
  // expected-error @below {{'dfg.instantiate' op expects parent op 'dfg.graph'}}
  "dfg.instantiate"() {callee = @p} : () -> ()
  return
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'dfg.pull' op has a lane index, but the port has a single lane}}
  %v = dfg.pull %in[%c0] : !dfg.in<i8>
}

// -----

dfg.process @p(%out: !dfg.out<i8>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i8
  // expected-error @below {{'dfg.push' op has a lane index, but the port has a single lane}}
  dfg.push %v, %out[%c0] : !dfg.out<i8>
}

// -----

dfg.process @p(%out: !dfg.out<i8>) {
  // expected-note @below {{prior use here}}
  %v = arith.constant 1 : i32
  // expected-error @below {{use of value '%v' expects different type than prior uses: 'i8' vs 'i32'}}
  dfg.push %v, %out : !dfg.out<i8>
}

// -----

dfg.process @p(%in: !dfg.out<i8>) {
  // expected-error @below {{'port' must be read end of a channel, but got '!dfg.out<i8>'}}
  %v = dfg.pull %in : !dfg.out<i8>
}

// -----

// expected-error @below {{expected non-empty function body}}
dfg.process @p() {}

// -----

// expected-error @below {{'dfg.process' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
"dfg.process"() ({}) {function_type = (!dfg.in<i8>) -> (), sym_name = "p"} : () -> ()

// -----

// expected-error @below {{'dfg.graph' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
"dfg.graph"() ({}) {function_type = () -> (), sym_name = "g"} : () -> ()
