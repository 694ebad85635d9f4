// RUN: ming-opt %s -split-input-file -verify-diagnostics
// One case per verifier error of the emitHLS dialect, in the order of the
// dialect's sources: types, functions, declarations, control flow, memory,
// pragmas.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error@+1 {{stream element type must be an integer or float, got 'index'}}
emitHLS.func @f(%s: !emitHLS.stream<index>) {
  emitHLS.return
}

// -----

// expected-error@+1 {{pointer element type must be an integer or float, got 'vector<4xi8>'}}
emitHLS.func @f(%p: !emitHLS.ptr<vector<4xi8>>) {
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{variable element type must be an integer or float, got 'tensor<2xi8>'}}
  %v = emitHLS.var : !emitHLS.var<tensor<2xi8>>
  emitHLS.return
}

// -----

// expected-error@+1 {{stream word type must be a one-dimensional, fixed-size vector<LxT>, got 'vector<2x4xi8>'}}
emitHLS.func @f(%s: !emitHLS.stream<vector<2x4xi8>>) {
  emitHLS.return
}

// -----

// expected-error@+1 {{stream word type must be a one-dimensional, fixed-size vector<LxT>, got 'vector<[4]xi8>'}}
emitHLS.func @f(%s: !emitHLS.stream<vector<[4]xi8>>) {
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{variable word element type must be an integer or float, got 'index'}}
  %v = emitHLS.var : !emitHLS.var<vector<4xindex>>
  emitHLS.return
}

// -----

// expected-error@+1 {{array element type must be an integer or float, got 'index'}}
emitHLS.func @f(%a: !emitHLS.array<4xindex>) {
  emitHLS.return
}

// -----

// expected-error@+1 {{an array needs at least one dimension}}
emitHLS.func @f(%a: !emitHLS.array<i8>) {
  emitHLS.return
}

// -----

// expected-error@+1 {{array dimensions must be positive, got 0}}
emitHLS.func @f(%a: !emitHLS.array<4x0xi8>) {
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// func / return
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{name 'conv.1' is not a valid C identifier}}
emitHLS.func @conv.1() {
  emitHLS.return
}

// -----

// expected-error@+1 {{argument #1 must be a scalar, !emitHLS.array, !emitHLS.ptr or !emitHLS.stream, got 'memref<4xi8>'}}
emitHLS.func @f(%a: i8, %m: memref<4xi8>) {
  emitHLS.return
}

// -----

// expected-error@+1 {{a C++ function returns at most one value, got 2}}
emitHLS.func @f() -> (i32, i32) {
  %c = arith.constant 0 : i32
  emitHLS.return %c : i32
}

// -----

// expected-error@+1 {{the result must be a scalar, got '!emitHLS.stream<i8>'}}
emitHLS.func @f(%s: !emitHLS.stream<i8>) -> !emitHLS.stream<i8> {
  emitHLS.return %s : !emitHLS.stream<i8>
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{returns a value from a function declared void}}
  emitHLS.return %x : i32
}

// -----

emitHLS.func @f(%x: i8) -> i32 {
  // expected-error@+1 {{must return a value of type 'i32'}}
  emitHLS.return %x : i8
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 label "row" {
  }
  emitHLS.for %j = 0 to 4 step 1 {
    // expected-error@+1 {{label 'row' is already used by another loop of 'f'}}
    emitHLS.for %i = 0 to 4 step 1 label "row" {
    }
  }
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// call
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f() {
  // expected-error@+1 {{'@missing' does not reference a symbol}}
  emitHLS.call @missing() : () -> ()
  emitHLS.return
}

// -----

func.func @plain() {
  return
}
emitHLS.func @f() {
  // expected-error@+1 {{'@plain' is a 'func.func', not an emitHLS.func}}
  emitHLS.call @plain() : () -> ()
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{'@f' calls itself: HLS cannot synthesise recursion}}
  emitHLS.call @f() : () -> ()
  emitHLS.return
}

// -----

emitHLS.func @g(%a: i32, %b: i32) {
  emitHLS.return
}
emitHLS.func @f(%a: i32) {
  // expected-error@+1 {{'@g' takes 2 arguments, but 1 operands were given}}
  emitHLS.call @g(%a) : (i32) -> ()
  emitHLS.return
}

// -----

emitHLS.func @g(%a: i32, %b: i32) {
  emitHLS.return
}
emitHLS.func @f(%a: i32, %b: i8) {
  // expected-error@+1 {{operand #1 has type 'i8', but argument #1 of '@g' has type 'i32'}}
  emitHLS.call @g(%a, %b) : (i32, i8) -> ()
  emitHLS.return
}

// -----

emitHLS.func @g() -> i32 {
  %c = arith.constant 0 : i32
  emitHLS.return %c : i32
}
emitHLS.func @f() {
  // expected-error@+1 {{'@g' returns 1 values, but the call has 0 results}}
  emitHLS.call @g() : () -> ()
  emitHLS.return
}

// -----

emitHLS.func @g() -> i32 {
  %c = arith.constant 0 : i32
  emitHLS.return %c : i32
}
emitHLS.func @f() {
  // expected-error@+1 {{result has type 'i8', but '@g' returns 'i32'}}
  %r = emitHLS.call @g() : () -> i8
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// array / var
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f() {
  // expected-error@+1 {{a rom array is const and needs an initialiser}}
  %w = emitHLS.array rom : !emitHLS.array<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{initialiser must be a dense<...> or dense_resource<...> attribute}}
  %w = emitHLS.array : !emitHLS.array<4xi8> = sparse<[[1]], [5]> : tensor<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{initialiser shape 4 does not match the array shape 2x2}}
  %w = emitHLS.array rom : !emitHLS.array<2x2xi8> = dense<[1, 2, 3, 4]> : tensor<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{initialiser element type 'i32' does not match the array element type 'i8'}}
  %w = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[1, 2]> : tensor<2xi32>
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i8) {
  // expected-error@+1 {{failed to verify that initial value type is the variable's type}}
  %v = "emitHLS.var"(%x) : (i8) -> !emitHLS.var<i32>
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i8) {
  %v = emitHLS.var : !emitHLS.var<i32>
  // expected-error@+1 {{failed to verify that value type is the variable's type}}
  "emitHLS.assign"(%x, %v) : (i8, !emitHLS.var<i32>) -> ()
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %v = emitHLS.var : !emitHLS.var<i32>
  // expected-error@+1 {{failed to verify that result type is the variable's type}}
  %x = "emitHLS.get"(%v) : (!emitHLS.var<i32>) -> i8
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// for / if / yield
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f() {
  // expected-error@+1 {{body must take exactly one index argument (the induction variable)}}
  "emitHLS.for"() <{lowerBound = 0 : i64, upperBound = 4 : i64, step = 1 : i64}> ({
  ^bb0(%i: i32):
    "emitHLS.yield"() : () -> ()
  }) : () -> ()
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{step must be positive, got 0}}
  emitHLS.for %i = 0 to 4 step 0 {
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{lower bound 8 exceeds upper bound 4}}
  emitHLS.for %i = 8 to 4 step 1 {
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{label '2nd row' is not a valid C identifier}}
  emitHLS.for %i = 0 to 4 step 1 label "2nd row" {
  }
  emitHLS.return
}

// -----

emitHLS.func @f(%c: i32) {
  // expected-error@+1 {{operand #0 must be 1-bit signless integer, but got 'i32'}}
  "emitHLS.if"(%c) ({
    "emitHLS.yield"() : () -> ()
  }, {
  }) : (i32) -> ()
  emitHLS.return
}

// -----

emitHLS.func @f(%c: i1) {
  // expected-error@+1 {{region #0 should have no arguments}}
  "emitHLS.if"(%c) ({
  ^bb0(%x: i32):
    "emitHLS.yield"() : () -> ()
  }, {
  }) : (i1) -> ()
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{expects parent op to be one of 'emitHLS.for, emitHLS.if'}}
  emitHLS.yield
}

//===----------------------------------------------------------------------===//
// stream_read / stream_write / load / store / cast
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f(%s: !emitHLS.stream<i8>) {
  // expected-error@+1 {{failed to verify that result type is the stream's element type}}
  %v = "emitHLS.stream_read"(%s) : (!emitHLS.stream<i8>) -> i32
  emitHLS.return
}

// -----

emitHLS.func @f(%s: !emitHLS.stream<i8>, %v: i32) {
  // expected-error@+1 {{failed to verify that value type is the stream's element type}}
  "emitHLS.stream_write"(%s, %v) : (!emitHLS.stream<i8>, i32) -> ()
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{needs 2 indices, one per dimension of '!emitHLS.array<4x4xi8>', got 1}}
    %v = emitHLS.load %a[%i] : !emitHLS.array<4x4xi8>
  }
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>, %v: i8) {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{needs exactly one index into a pointer, got 2}}
    emitHLS.store %v, %p[%i, %i] : !emitHLS.ptr<i8>
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %w = emitHLS.var : !emitHLS.var<vector<4xi8>>
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{needs exactly one index into a word variable, got 2}}
    %v = emitHLS.load %w[%i, %i] : !emitHLS.var<vector<4xi8>>
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %s = emitHLS.var : !emitHLS.var<i8>
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{'memref' must be !emitHLS.array, !emitHLS.ptr or !emitHLS.var<vector<...>>, but got '!emitHLS.var<i8>'}}
    %v = emitHLS.load %s[%i] : !emitHLS.var<i8>
  }
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{'memref' must be !emitHLS.array, !emitHLS.ptr or !emitHLS.var<vector<...>>, but got 'i32'}}
  %v = emitHLS.load %x[] : i32
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{failed to verify that result type is the element type}}
  %v = "emitHLS.load"(%a, %c0) : (!emitHLS.array<4xi8>, index) -> i32
  emitHLS.return
}

// -----

emitHLS.func @f(%v: i8) {
  %w = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[1, 2]> : tensor<2xi8>
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{cannot store into a rom array: it is const}}
  emitHLS.store %v, %w[%c0] : !emitHLS.array<2xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{casts between integer and float scalars only, got 'i32' to 'index'}}
  %y = emitHLS.cast %x : i32 to index
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{casts 'i32' to itself; a cast must change the type}}
  %y = emitHLS.cast %x : i32 to i32
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// Function and loop pragmas
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{expects parent op 'emitHLS.func'}}
    emitHLS.pragma.dataflow
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.pragma.dataflow
  // expected-error@+1 {{repeats an earlier emitHLS.pragma.dataflow in the same body}}
  emitHLS.pragma.dataflow
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{expects parent op 'emitHLS.func'}}
    emitHLS.pragma.inline off
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.pragma.inline off
  // expected-error@+1 {{repeats an earlier emitHLS.pragma.inline in the same body}}
  emitHLS.pragma.inline
  emitHLS.return
}

// -----

emitHLS.func @f(%c: i1) {
  emitHLS.if %c {
    // expected-error@+1 {{expects parent op to be one of 'emitHLS.for, emitHLS.func'}}
    emitHLS.pragma.pipeline
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{pipeline off takes no II}}
    emitHLS.pragma.pipeline off II = 2
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{II must be at least 1, got 0}}
    emitHLS.pragma.pipeline II = 0
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    emitHLS.pragma.pipeline II = 1
    // expected-error@+1 {{repeats an earlier emitHLS.pragma.pipeline in the same body}}
    emitHLS.pragma.pipeline II = 2
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.pragma.dataflow
  // expected-error@+1 {{cannot pipeline a dataflow function}}
  emitHLS.pragma.pipeline
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{expects parent op 'emitHLS.for'}}
  emitHLS.pragma.unroll
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{unroll factor must be at least 1, got 0}}
    emitHLS.pragma.unroll factor = 0
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // Trip count ceil(10 / 3) = 4.
  emitHLS.for %i = 0 to 10 step 3 {
    // expected-error@+1 {{unroll factor 5 exceeds the trip count 4 of the enclosing loop}}
    emitHLS.pragma.unroll factor = 5
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    emitHLS.pragma.unroll factor = 2
    // expected-error@+1 {{repeats an earlier emitHLS.pragma.unroll in the same body}}
    emitHLS.pragma.unroll
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %acc = emitHLS.array : !emitHLS.array<4xf32>
  // expected-error@+1 {{expects parent op 'emitHLS.for'}}
  emitHLS.pragma.dependence %acc distance = 4 : !emitHLS.array<4xf32>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %acc = emitHLS.array : !emitHLS.array<4xf32>
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{distance must be at least 1, got 0}}
    emitHLS.pragma.dependence %acc distance = 0 : !emitHLS.array<4xf32>
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %acc = emitHLS.array : !emitHLS.array<4xf32>
  emitHLS.for %i = 0 to 4 step 1 {
    emitHLS.pragma.dependence %acc distance = 4 : !emitHLS.array<4xf32>
    // expected-error@+1 {{repeats an earlier emitHLS.pragma.dependence of the same array}}
    emitHLS.pragma.dependence %acc distance = 2 : !emitHLS.array<4xf32>
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{expects parent op 'emitHLS.for'}}
  emitHLS.pragma.loop_tripcount min = 1 max = 2 avg = 1
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{min must be non-negative, got -1}}
    emitHLS.pragma.loop_tripcount min = -1 max = 4 avg = 2
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{needs min <= avg <= max, got min = 1, avg = 8, max = 4}}
    emitHLS.pragma.loop_tripcount min = 1 max = 4 avg = 8
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.for %i = 0 to 4 step 1 {
    emitHLS.pragma.loop_tripcount min = 1 max = 4 avg = 2
    // expected-error@+1 {{repeats an earlier emitHLS.pragma.loop_tripcount in the same body}}
    emitHLS.pragma.loop_tripcount min = 1 max = 4 avg = 3
  }
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// array_partition
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  // expected-error@+1 {{dim 3 is out of range for a rank-2 array (1..2, or 0 for every dimension)}}
  emitHLS.pragma.array_partition %a complete dim = 3 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  // expected-error@+1 {{complete partitioning takes no factor}}
  emitHLS.pragma.array_partition %a complete factor = 2 dim = 1 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  // expected-error@+1 {{cyclic partitioning needs a factor}}
  emitHLS.pragma.array_partition %a cyclic dim = 1 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  // expected-error@+1 {{block partitioning needs a factor of at least 2, got 1}}
  emitHLS.pragma.array_partition %a block factor = 1 dim = 1 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x16xi8>) {
  // expected-error@+1 {{factor 8 exceeds the size 4 of dimension 1}}
  emitHLS.pragma.array_partition %a cyclic factor = 8 dim = 0 : !emitHLS.array<4x16xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  emitHLS.pragma.array_partition %a complete dim = 0 : !emitHLS.array<4x4xi8>
  // expected-error@+1 {{overlaps an earlier emitHLS.pragma.array_partition of the same array and dimension}}
  emitHLS.pragma.array_partition %a cyclic factor = 2 dim = 2 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4x4xi8>) {
  // expected-error@+2 {{expected ::ming::emithls::PartitionKind to be one of: cyclic, block, complete}}
  // expected-error@+1 {{failed to parse EmitHLS_PartitionKindAttr parameter 'value'}}
  emitHLS.pragma.array_partition %a diagonal dim = 1 : !emitHLS.array<4x4xi8>
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// bind_storage / stream
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f(%a: !emitHLS.array<4xi8>) {
  // expected-error@+1 {{fifo storage is only for streams, got '!emitHLS.array<4xi8>'}}
  emitHLS.pragma.bind_storage %a type = fifo impl = bram : !emitHLS.array<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%s: !emitHLS.stream<i8>) {
  // expected-error@+1 {{ram_2p storage is only for arrays, got '!emitHLS.stream<i8>'}}
  emitHLS.pragma.bind_storage %s type = ram_2p impl = bram : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %a = emitHLS.array : !emitHLS.array<4xi8> = dense<1> : tensor<4xi8>
  // expected-error@+1 {{rom_1p storage needs a rom array or an array argument that is only read (never stored to nor passed to a call)}}
  emitHLS.pragma.bind_storage %a type = rom_1p impl = bram : !emitHLS.array<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f(%a: !emitHLS.array<4xi8>, %v: i8) {
  // expected-error@+1 {{rom_np storage needs a rom array or an array argument that is only read (never stored to nor passed to a call)}}
  emitHLS.pragma.bind_storage %a type = rom_np impl = lutram : !emitHLS.array<4xi8>
  %c0 = arith.constant 0 : index
  emitHLS.store %v, %a[%c0] : !emitHLS.array<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @g(%a: !emitHLS.array<4xi8>) {
  emitHLS.return
}
emitHLS.func @f(%a: !emitHLS.array<4xi8>) {
  // expected-error@+1 {{rom_2p storage needs a rom array or an array argument that is only read (never stored to nor passed to a call)}}
  emitHLS.pragma.bind_storage %a type = rom_2p impl = bram : !emitHLS.array<4xi8>
  emitHLS.call @g(%a) : (!emitHLS.array<4xi8>) -> ()
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %a = emitHLS.array : !emitHLS.array<4xi8>
  // expected-error@+1 {{impl srl is only for fifo storage}}
  emitHLS.pragma.bind_storage %a type = ram_1p impl = srl : !emitHLS.array<4xi8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %s = emitHLS.stream : !emitHLS.stream<i8>
  emitHLS.pragma.bind_storage %s type = fifo impl = srl : !emitHLS.stream<i8>
  // expected-error@+1 {{repeats an earlier emitHLS.pragma.bind_storage of the same variable}}
  emitHLS.pragma.bind_storage %s type = fifo impl = bram : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>) {
  // expected-error@+1 {{operand #0 must be !emitHLS.array or !emitHLS.stream, but got '!emitHLS.ptr<i8>'}}
  emitHLS.pragma.bind_storage %p type = ram_1p impl = bram : !emitHLS.ptr<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %s = emitHLS.stream : !emitHLS.stream<i8>
  // expected-error@+1 {{depth must be at least 1, got 0}}
  emitHLS.pragma.stream %s depth = 0 : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %s = emitHLS.stream : !emitHLS.stream<i8>
  emitHLS.pragma.stream %s depth = 2 : !emitHLS.stream<i8>
  // expected-error@+1 {{repeats an earlier emitHLS.pragma.stream of the same stream}}
  emitHLS.pragma.stream %s depth = 4 : !emitHLS.stream<i8>
  emitHLS.return
}

//===----------------------------------------------------------------------===//
// interface
//===----------------------------------------------------------------------===//

// -----

emitHLS.func @f(%x: i32) {
  emitHLS.for %i = 0 to 4 step 1 {
    // expected-error@+1 {{expects parent op 'emitHLS.func'}}
    emitHLS.pragma.interface s_axilite %x : i32
  }
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %s = emitHLS.stream : !emitHLS.stream<i8>
  // expected-error@+1 {{port must be an argument of the enclosing emitHLS.func}}
  emitHLS.pragma.interface axis %s : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{m_axi port must be an !emitHLS.ptr or !emitHLS.array, got 'i32'}}
  emitHLS.pragma.interface m_axi %x : i32
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>) {
  // expected-error@+1 {{axis port must be an !emitHLS.stream, got '!emitHLS.ptr<i8>'}}
  emitHLS.pragma.interface axis %p : !emitHLS.ptr<i8>
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.stream<i8>) {
  // expected-error@+1 {{s_axilite port must be a scalar, !emitHLS.ptr or !emitHLS.array, got '!emitHLS.stream<i8>'}}
  emitHLS.pragma.interface s_axilite %p : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  // expected-error@+1 {{port=return (no port) is only for s_axilite, not m_axi}}
  emitHLS.pragma.interface m_axi return
  emitHLS.return
}

// -----

emitHLS.func @f(%s: !emitHLS.stream<i8>) {
  // expected-error@+1 {{axis ports take no bundle}}
  emitHLS.pragma.interface axis %s bundle = "in" : !emitHLS.stream<i8>
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>) {
  // expected-error@+1 {{bundle 'gmem-0' is not a valid C identifier}}
  emitHLS.pragma.interface m_axi %p bundle = "gmem-0" : !emitHLS.ptr<i8>
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{depth is only for m_axi ports}}
  emitHLS.pragma.interface s_axilite %x depth = 4 : i32
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>) {
  // expected-error@+1 {{depth must be at least 1, got 0}}
  emitHLS.pragma.interface m_axi %p depth = 0 : !emitHLS.ptr<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  emitHLS.pragma.interface s_axilite return
  // expected-error@+1 {{repeats an earlier emitHLS.pragma.interface of the same port}}
  emitHLS.pragma.interface s_axilite return bundle = "control"
  emitHLS.return
}

// -----

emitHLS.func @f(%x: i32) {
  // expected-error@+1 {{max_widen_bitwidth is only for m_axi ports}}
  emitHLS.pragma.interface s_axilite %x max_widen_bitwidth = 128 : i32
  emitHLS.return
}

// -----

emitHLS.func @f(%p: !emitHLS.ptr<i8>) {
  // expected-error@+1 {{max_widen_bitwidth must be a power of two from 8 to 1024, got 96}}
  emitHLS.pragma.interface m_axi %p bundle = "gmem0" max_widen_bitwidth = 96 : !emitHLS.ptr<i8>
  emitHLS.return
}

// -----

emitHLS.func @f() {
  %w = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[1, 2]> : tensor<2xi8>
  // expected-error@+1 {{rom_1p storage cannot be uram: an UltraRAM has no initial contents}}
  emitHLS.pragma.bind_storage %w type = rom_1p impl = uram : !emitHLS.array<2xi8>
  emitHLS.return
}
