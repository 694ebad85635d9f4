// @sums adds 8 elements an iteration, pulled through one lane: II 8 for the
// port, 4 deep for the additions (a tree of 3 after the pulls). Its last
// iteration still reads a word a cycle for 8 cycles.
dfg.process @src(%m: memref<64xi16>, %o: !dfg.out<i16>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %m[%i] : memref<64xi16>
    dfg.push %v, %o : !dfg.out<i16>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.process @sums(%in: !dfg.in<i16>, %out: !dfg.out<i16>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i16
  scf.for %i = %c0 to %c8 step %c1 {
    %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (i16) {
      %v = dfg.pull %in : !dfg.in<i16>
      %t = arith.addi %a, %v : i16
      scf.yield %t : i16
    }
    dfg.push %s, %out : !dfg.out<i16>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.process @store(%in: !dfg.in<i16>, %m: memref<8xi16>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = dfg.pull %in : !dfg.in<i16>
    memref.store %v, %m[%i] : memref<8xi16>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.graph @words(%x: memref<64xi16>, %y: memref<8xi16>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i16, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i16, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<64xi16>, !dfg.out<i16>
  dfg.instantiate @sums(%r0, %w1) : !dfg.in<i16>, !dfg.out<i16>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i16>, memref<8xi16>
}
