// The load -> relu -> store design at the dfg level (graph region written
// out of order on purpose): ming-opt --hls runs convert-dfg-to-emithls.
dfg.process @load(%mem: memref<2x8xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %mem[%i, %j] : memref<2x8xi8>
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

dfg.process @relu(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %r = arith.maxsi %v, %zero : i8
    dfg.push %r, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i8>, %mem: memref<2x8xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = dfg.pull %in : !dfg.in<i8>
      memref.store %v, %mem[%i, %j] : memref<2x8xi8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

dfg.graph @relu_dfg(%x: memref<2x8xi8>, %y: memref<2x8xi8>) attributes {ming.num_inputs = 1 : i64} {
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<2x8xi8>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 4>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<2x8xi8>, !dfg.out<i8>
}
