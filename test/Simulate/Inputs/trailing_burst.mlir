// @w passes 48 elements on as they come (an element every 4 cycles from @src)
// and then pushes 16 more at once, as a window pushes its padded last row
// after its last pull. @sink takes 2 cycles an element: fast enough for the
// stream, not for the 16 at the end.
dfg.process @src(%m: memref<48xi8>, %o: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  scf.for %i = %c0 to %c48 step %c1 {
    %v = memref.load %m[%i] : memref<48xi8>
    dfg.push %v, %o : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 4>, ming.loop_estimate = #ming.loop_estimate<ii = 4, depth = 2>}
}
dfg.process @w(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c48 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    dfg.push %v, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
  scf.for %i = %c0 to %c16 step %c1 {
    dfg.push %zero, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.process @sink(%in: !dfg.in<i8>, %m: memref<64xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %m[%i] : memref<64xi8>
  } {ming.loop = #ming.loop<ii = 2>, ming.loop_estimate = #ming.loop_estimate<ii = 2, depth = 2>}
}
dfg.graph @trailing_burst(%x: memref<48xi8>, %y: memref<64xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 17>
  dfg.instantiate @src(%x, %w0) : memref<48xi8>, !dfg.out<i8>
  dfg.instantiate @w(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @sink(%r1, %y) : !dfg.in<i8>, memref<64xi8>
}
