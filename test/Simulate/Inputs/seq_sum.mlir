// A sum of 12 f32 in a loop that is not pipelined (nothing asks for it): each
// iteration pulls and adds to the sum of the one before, 5 cycles.
dfg.process @src(%m: memref<12xf32>, %o: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    %v = memref.load %m[%i] : memref<12xf32>
    dfg.push %v, %o : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.process @sum(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c12 step %c1 iter_args(%a = %zero) -> (f32) {
    %v = dfg.pull %in : !dfg.in<f32>
    %t = arith.addf %v, %a : f32
    scf.yield %t : f32
  }
  dfg.push %s, %out : !dfg.out<f32>
}
dfg.process @store(%in: !dfg.in<f32>, %m: memref<1xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %v = dfg.pull %in : !dfg.in<f32>
  memref.store %v, %m[%c0] : memref<1xf32>
}
dfg.graph @seq_sum(%x: memref<12xf32>, %y: memref<1xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<12xf32>, !dfg.out<f32>
  dfg.instantiate @sum(%r0, %w1) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<f32>, memref<1xf32>
}
