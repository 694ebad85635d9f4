// A window whose row loop is pipelined around its pixel loop (the DSE moves a
// pipeline outward this way): each of its 4 iterations pulls a row of 16
// pixels at its issue and pushes them at its last stage. Its first output
// waits for the whole first row, not for the first pixel, which program
// order reaches before the first push.
dfg.process @load(%m: memref<64xf32>, %o: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %m[%i] : memref<64xf32>
    dfg.push %v, %o : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 4>, ming.loop_estimate = #ming.loop_estimate<ii = 4, depth = 2>}
}
dfg.process @rows(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %c = %c0 to %c16 step %c1 {
      %v = dfg.pull %in : !dfg.in<f32>
      %t = arith.mulf %v, %two : f32
      dfg.push %t, %out : !dfg.out<f32>
    }
  } {ming.loop = #ming.loop<ii = 16>}
}
dfg.process @store(%in: !dfg.in<f32>, %m: memref<64xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    memref.store %v, %m[%i] : memref<64xf32>
  } {ming.loop = #ming.loop<ii = 8>, ming.loop_estimate = #ming.loop_estimate<ii = 8, depth = 2>}
}
dfg.graph @row_fill(%x: memref<64xf32>, %y: memref<64xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 64>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 64>
  dfg.instantiate @load(%x, %w0) : memref<64xf32>, !dfg.out<f32>
  dfg.instantiate @rows(%r0, %w1) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<f32>, memref<64xf32>
}
