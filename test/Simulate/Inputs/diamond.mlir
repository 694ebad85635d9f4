// A diamond: fork feeds join directly and through slow, which holds back 8
// elements before its first output (like a window's line buffer). The direct
// FIFO must hold what fork runs ahead meanwhile, else fork blocks on it while
// join waits for slow and slow for fork.
dfg.process @fork(%m: memref<64xi8>, %a: !dfg.out<i8>, %b: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %m[%i] : memref<64xi8>
    dfg.push %v, %a : !dfg.out<i8>
    dfg.push %v, %b : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.process @slow(%in: !dfg.in<i8>, %o: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c72 = arith.constant 72 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c72 step %c1 {
    %lt = arith.cmpi ult, %i, %c64 : index
    %v = scf.if %lt -> (i8) {
      %p = dfg.pull %in : !dfg.in<i8>
      scf.yield %p : i8
    } else {
      scf.yield %zero : i8
    }
    %ge = arith.cmpi uge, %i, %c8 : index
    scf.if %ge {
      dfg.push %v, %o : !dfg.out<i8>
    }
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.process @join(%a: !dfg.in<i8>, %b: !dfg.in<i8>, %m: memref<64xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %x = dfg.pull %a : !dfg.in<i8>
    %y = dfg.pull %b : !dfg.in<i8>
    %s = arith.addi %x, %y : i8
    memref.store %s, %m[%i] : memref<64xi8>
  } {ming.loop = #ming.loop<ii = 1>, ming.loop_estimate = #ming.loop_estimate<ii = 1, depth = 1>}
}
dfg.graph @diamond(%x: memref<64xi8>, %y: memref<64xi8>) attributes {ming.num_inputs = 1 : i64} {
  %wa, %ra = dfg.channel<i8, lanes = 1, depth = 16>
  %wb, %rb = dfg.channel<i8, lanes = 1, depth = 2>
  %wc, %rc = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @fork(%x, %wa, %wb) : memref<64xi8>, !dfg.out<i8>, !dfg.out<i8>
  dfg.instantiate @slow(%rb, %wc) : !dfg.in<i8>, !dfg.out<i8>
  dfg.instantiate @join(%ra, %rc, %y) : !dfg.in<i8>, !dfg.in<i8>, memref<64xi8>
}
