// A window-like process that walks 8 rows of 8 pixels, pulling every pixel,
// but pushes in the first 4 rows only: the last 4 rows (a strided window's
// padded rows after its last output) run after its last output.
dfg.process @src(%m: memref<64xi32>, %o: !dfg.out<i32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %m[%i] : memref<64xi32>
    dfg.push %v, %o : !dfg.out<i32>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.process @rows(%in: !dfg.in<i32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %early = arith.cmpi slt, %r, %c4 : index
    scf.for %c = %c0 to %c8 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      scf.if %early {
        dfg.push %v, %out : !dfg.out<i32>
      }
    } {ming.loop = #ming.loop<ii = 4>}
  }
}
dfg.process @store(%in: !dfg.in<i32>, %m: memref<32xi32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    memref.store %v, %m[%i] : memref<32xi32>
  } {ming.loop = #ming.loop<ii = 1>}
}
dfg.graph @row_trail(%x: memref<64xi32>, %y: memref<32xi32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<64xi32>, !dfg.out<i32>
  dfg.instantiate @rows(%r0, %w1) : !dfg.in<i32>, !dfg.out<i32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i32>, memref<32xi32>
}
