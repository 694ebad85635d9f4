// A dot-product layer as dfg: y[j] = sum_k x[k] * w[j][k] for 4 outputs of
// 32 int8 inputs. The output loop over j (L1 of @dot) is pipelined with the
// reduction over k (L2) fully unrolled inside: 32 multiply-accumulates per
// iteration, i.e. 32 DSPs at II 1, 16 at II 2, ... (Vitis shares them).
memref.global "private" constant @w : memref<4x32xi8> = dense<[[-1, -4, 3, 7, -6, -8, 7, 0, -1, -2, 7, 7, 4, -4, -1, -4, 8, 4, -8, -6, -3, -7, 1, -8, 0, 7, 4, 5, 4, 6, -4, 3], [-5, -7, -4, 7, -2, 0, 5, 1, 5, 8, 4, 3, 5, -1, 2, -8, 0, -3, 2, -5, -2, 0, 1, -5, -6, 7, 7, -6, 3, -6, 5, -4], [-8, 1, 5, 5, -5, -7, -7, 4, 2, 0, 8, -1, -7, 1, -8, -6, -5, -7, -2, 5, 1, 0, -4, -7, 2, 2, 3, -4, 4, 4, 6, 8], [4, -5, 8, 0, 5, -1, 1, 5, 0, 8, 1, 2, -8, 5, 2, -8, 4, -4, -7, 2, 6, 3, 3, 0, 7, -8, -7, -8, 3, 0, 6, 1]]>

dfg.process @load(%mem: memref<32xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %v = memref.load %mem[%i] : memref<32xi8>
    dfg.push %v, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @dot(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %buf = memref.alloca() : memref<32xi8>
  scf.for %k = %c0 to %c32 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %buf[%k] : memref<32xi8>
  } {ming.loop = #ming.loop<ii = 1>}
  scf.for %j = %c0 to %c4 step %c1 {
    %acc = scf.for %k = %c0 to %c32 step %c1 iter_args(%a = %zero) -> (i32) {
      %x = memref.load %buf[%k] : memref<32xi8>
      %wm = memref.get_global @w : memref<4x32xi8>
      %w = memref.load %wm[%j, %k] : memref<4x32xi8>
      %xe = arith.extsi %x : i8 to i32
      %we = arith.extsi %w : i8 to i32
      %m = arith.muli %xe, %we : i32
      %s = arith.addi %a, %m : i32
      scf.yield %s : i32
    }
    dfg.push %acc, %out : !dfg.out<i32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i32>, %mem: memref<4xi32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    memref.store %v, %mem[%i] : memref<4xi32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @dot_layer(%x: memref<32xi8>, %y: memref<4xi32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<32xi8>, !dfg.out<i8>
  dfg.instantiate @dot(%r0, %w1) : !dfg.in<i8>, !dfg.out<i32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i32>, memref<4xi32>
}
