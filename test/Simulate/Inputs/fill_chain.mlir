// A slow source (an element every 8 cycles) and a slower consumer that
// buffers 16 elements before its first output: @win needs the 17th element
// before it computes at all, and that element leaves @src at cycle 130, not
// right after its first output.
dfg.process @src(%m: memref<64xi8>, %o: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %m[%i] : memref<64xi8>
    dfg.push %v, %o : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 8>, ming.loop_estimate = #ming.loop_estimate<ii = 8, depth = 2>}
}
dfg.process @win(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %buf = memref.alloca() : memref<16xi8>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %buf[%i] : memref<16xi8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
  scf.for %i = %c0 to %c48 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %r = arith.remui %i, %c16 : index
    %b = memref.load %buf[%r] : memref<16xi8>
    %s = arith.addi %v, %b : i8
    memref.store %v, %buf[%r] : memref<16xi8>
    dfg.push %s, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 16>, ming.loop_estimate = #ming.loop_estimate<ii = 16, depth = 3>}
  scf.for %i = %c0 to %c16 step %c1 {
    %b = memref.load %buf[%i] : memref<16xi8>
    dfg.push %b, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 16>, ming.loop_estimate = #ming.loop_estimate<ii = 16, depth = 2>}
}
dfg.process @store(%in: !dfg.in<i8>, %m: memref<64xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %m[%i] : memref<64xi8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.graph @fill_chain(%x: memref<64xi8>, %y: memref<64xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<64xi8>, !dfg.out<i8>
  dfg.instantiate @win(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<64xi8>
}
