// Three sums of 10 f32 each in one pipeline iteration: the row loop of
// @rows unrolled by 3 at II 30 (30 pulls from one lane). The timing below is
// what the DSE's cost model finds for it (docs/cost-model.md, "Loops"): copy
// k starts at 10k, its chain of 10 additions ends 41 cycles later, the last
// at 62.
dfg.process @load(%m: memref<30xf32>, %o: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c30 = arith.constant 30 : index
  scf.for %i = %c0 to %c30 step %c1 {
    %v = memref.load %m[%i] : memref<30xf32>
    dfg.push %v, %o : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.process @rows(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f32
  scf.for %r = %c0 to %c3 step %c1 {
    %s = scf.for %k = %c0 to %c10 step %c1 iter_args(%a = %zero) -> (f32) {
      %v = dfg.pull %in : !dfg.in<f32>
      %t = arith.addf %a, %v : f32
      scf.yield %t : f32
    }
    dfg.push %s, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1, unroll = 3>, ming.loop_estimate = #ming.loop_estimate<ii = 30, depth = 62>}
}
dfg.process @store(%in: !dfg.in<f32>, %m: memref<3xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    memref.store %v, %m[%i] : memref<3xf32>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 2>}
}
dfg.graph @row_sums(%x: memref<30xf32>, %y: memref<3xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 11>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<30xf32>, !dfg.out<f32>
  dfg.instantiate @rows(%r0, %w1) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<f32>, memref<3xf32>
}
