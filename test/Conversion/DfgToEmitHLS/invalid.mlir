// Every input the conversion rejects: one located error each, never a crash.
// (Ill-formed directives are the ming dialect's to refuse: test/Dialect/Ming.)
// RUN: ming-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-dfg-to-emithls)'

// expected-error@+1 {{holds no dfg.graph; exactly one is needed for the top function}}
module {
  dfg.process @p(%in: !dfg.in<i8>) {
  }
}

// -----

dfg.graph @a(%x: memref<4xi8>) {
}
// expected-error@+1 {{is a second dfg.graph; exactly one is supported (the top function), the first is @a}}
dfg.graph @b(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'func.func' op is not supported at module level}}
func.func @helper() {
  return
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.while' op is not supported in a dfg.process (supported: arith and math ops on scalars, scf.for with constant bounds, scf.if, scf.yield, memref.alloca/load/store/get_global, dfg.pull and dfg.push)}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %t = arith.constant true
    scf.condition(%t) %i : index
  } do {
  ^bb0(%j: index):
    scf.yield %j : index
  }
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  // expected-error@+1 {{'memref.alloc' op is not supported in a dfg.process}}
  %buf = memref.alloc() : memref<4xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  // expected-error@+1 {{'tensor.empty' op is not supported in a dfg.process}}
  %t = tensor.empty() : tensor<4xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = dfg.pull %in : !dfg.in<i8>
  %n = arith.index_cast %v : i8 to index
  // expected-error@+1 {{'scf.for' op has a non-constant upper bound; HLS loops need constant bounds and step (arith.constant)}}
  scf.for %i = %c0 to %n step %c1 {
  }
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  // expected-error@+1 {{'scf.for' op has an induction variable of type 'i32'; only index loops are supported}}
  scf.for %i = %c0 to %c4 step %c1 : i32 {
  }
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.process' op port #0: stream element type must be an integer or float, got 'index'}}
dfg.process @p(%in: !dfg.in<index>) {
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.process' op port #0 has a dynamic shape ('memref<?x4xi8>'); only static shapes become C++ arrays}}
dfg.process @p(%m: memref<?x4xi8>, %out: !dfg.out<i8>) {
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.process' op port #0 is a rank-0 memref; a C++ array needs a dimension}}
dfg.process @p(%m: memref<i8>, %out: !dfg.out<i8>) {
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.process' op port #0 has a non-identity layout ('memref<4xi8, strided<[2]>>'); only row-major memrefs become C++ arrays}}
dfg.process @p(%m: memref<4xi8, strided<[2]>>) {
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.process' op name 'conv.1' is not a valid C identifier, so it cannot name an HLS function}}
dfg.process @"conv.1"(%in: !dfg.in<i8>) {
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// expected-error@+1 {{'dfg.graph' op port #0 has a dynamic shape ('memref<?xi8>'); only static shapes become C++ arrays}}
dfg.graph @top(%x: memref<?xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c4 = arith.constant 4 : index
  %v = dfg.pull %in : !dfg.in<i8>
  %n = arith.index_cast %v : i8 to index
  // expected-error@+1 {{'memref.alloca' op the buffer has a dynamic shape ('memref<?xi8>'); only static shapes become C++ arrays}}
  %buf = memref.alloca(%n) : memref<?xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  // expected-error@+1 {{'memref.alloca' op the buffer: array element type must be an integer or float, got 'index'}}
  %buf = memref.alloca() : memref<4xindex>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

memref.global "private" @state : memref<4xi8> = dense<0>
dfg.process @p(%out: !dfg.out<i8>) {
  // expected-error@+1 {{'memref.get_global' op reads @state, but only constant globals with a dense or dense_resource initial value (weights) are supported}}
  %g = memref.get_global @state : memref<4xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

memref.global "private" constant @w : memref<4xi8> = dense<[1, 2, 3, 4]>
dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  %v = dfg.pull %in : !dfg.in<i8>
  %g = memref.get_global @w : memref<4xi8>
  // expected-error@+1 {{'memref.store' op stores into a constant global; weights are read-only}}
  memref.store %v, %g[%c0] : memref<4xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloca() : memref<4xi8>
  // expected-error@+1 {{'scf.for' op carries a value of type 'memref<4xi8>'; only integer, float and index scalars fit in a C++ variable}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %buf) -> (memref<4xi8>) {
    scf.yield %b : memref<4xi8>
  }
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %v = dfg.pull %in : !dfg.in<i8>
  // expected-error@+1 {{'arith.constant' op operates on 'vector<4xi8>'; only integer, float and index scalars become C++ expressions}}
  %s = arith.constant dense<1> : vector<4xi8>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @p(%in: !dfg.in<i8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{'scf.for' op unroll factor 8 of #ming.loop<unroll = 8> exceeds the trip count 4}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {ming.loop = #ming.loop<unroll = 8>}
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

dfg.process @a(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
}
dfg.process @b(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
}
dfg.graph @top(%x: memref<4xi8>) {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  // expected-error@+1 {{'dfg.instantiate' op is on a cycle of channels; DATAFLOW needs an acyclic graph (feedback is not supported)}}
  dfg.instantiate @a(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @b(%r1, %w0) : !dfg.in<i8>, !dfg.out<i8>
}

// -----

// Lanes travel together as one word: an explicit lane index has no stream.
dfg.process @p(%in: !dfg.in<i8, lanes = 4>) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'dfg.pull' op names a lane explicitly; on a port of 4 lanes only round-robin dfg.pull (without a lane index) is supported, since the lanes travel together as one word of an hls::stream<hls::vector<T, L>>}}
  %v = dfg.pull %in[%c1] : !dfg.in<i8, lanes = 4>
}
dfg.graph @top(%x: memref<4xi8>) {
}

// -----

// The last word is written only once full: L must divide the element count.
dfg.process @load(%mem: memref<6xi8>, %out: !dfg.out<i8, lanes = 4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c6 step %c1 {
    %v = memref.load %mem[%i] : memref<6xi8>
    dfg.push %v, %out : !dfg.out<i8, lanes = 4>
  }
}
dfg.process @sink(%in: !dfg.in<i8, lanes = 4>) {
}
dfg.graph @top(%x: memref<6xi8>) {
  // expected-error@+1 {{'dfg.channel' op has 4 lanes, which do not divide the 6 elements @load pushes through it; its lanes travel as words of 4 elements, so the lane count must divide the number of elements}}
  %w, %r = dfg.channel<i8, lanes = 4, depth = 2>
  dfg.instantiate @load(%x, %w) : memref<6xi8>, !dfg.out<i8, lanes = 4>
  dfg.instantiate @sink(%r) : !dfg.in<i8, lanes = 4>
}

// -----

// Counted at the consumer when the producer pushes conditionally.
dfg.process @src(%out: !dfg.out<i8, lanes = 2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %v = arith.constant 1 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    %odd = arith.remui %i, %c1 : index
    %keep = arith.cmpi eq, %odd, %c0 : index
    scf.if %keep {
      dfg.push %v, %out : !dfg.out<i8, lanes = 2>
    }
  }
}
dfg.process @dst(%in: !dfg.in<i8, lanes = 2>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8, lanes = 2>
  }
}
dfg.graph @top(%x: memref<4xi8>) {
  // expected-error@+1 {{'dfg.channel' op has 2 lanes, which do not divide the 3 elements @dst pulls through it}}
  %w, %r = dfg.channel<i8, lanes = 2, depth = 2>
  dfg.instantiate @src(%w) : !dfg.out<i8, lanes = 2>
  dfg.instantiate @dst(%r) : !dfg.in<i8, lanes = 2>
}
