// A 16-lane word read whole: @src computes its 16 elements one a cycle and
// sends them as one word; @store pulls them one a cycle, but the first pull
// reads the word, so it can start only once the word is complete and ends 16
// cycles later. Timed from its last element's pull, the store's tail after
// its input was 2 cycles.
dfg.process @src(%m: memref<16xf32>, %o: !dfg.out<f32, lanes = 16>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %m[%i] : memref<16xf32>
    dfg.push %v, %o : !dfg.out<f32, lanes = 16>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.process @store(%in: !dfg.in<f32, lanes = 16>, %m: memref<16xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32, lanes = 16>
    memref.store %v, %m[%i] : memref<16xf32>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.graph @word_tail(%x: memref<16xf32>, %y: memref<16xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 16, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<16xf32>, !dfg.out<f32, lanes = 16>
  dfg.instantiate @store(%r0, %y) : !dfg.in<f32, lanes = 16>, memref<16xf32>
}
