// A channel must hold the largest burst of words either end moves in one
// pipeline iteration. @rows pushes 256 words per iteration of its pipeline:
// at one lane its channel is 257 deep, 257 x 32 bits, a BRAM18K; at 16 lanes
// a word carries 16 elements, the channel is 17 words deep, 17 x 32 bits a
// lane, LUTRAM. The ILP counts this with each candidate, so without BRAM the
// DSE takes 16 lanes (or more), and with one lane allowed it says no design
// fits and how much BRAM would.
// REQUIRES: ming-opt
// RUN: ming-opt %s --ming-dse="dsp=64 bram=0 max-lanes=16" | FileCheck %s --check-prefix=LANES
// RUN: not ming-opt %s --ming-dse="dsp=64 bram=0 max-lanes=1" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: ming-opt %s --ming-dse="dsp=64 bram=1 max-lanes=1" | FileCheck %s --check-prefix=FITS

// LANES-LABEL: dfg.graph @burst
// LANES-SAME:  bram18k = 0,
// LANES:       dfg.channel<i32, lanes = {{16|32|64}}, depth = {{[0-9]+}}>
// ONE: error: no design of 'burst' fits 64 DSP and 0 BRAM18K; the smallest limits that work are 0 DSP and 1 BRAM18K
// FITS-LABEL: dfg.graph @burst
// FITS-SAME:  bram18k = 1,
// FITS:       dfg.channel<i32, lanes = 1, depth = 257>

dfg.process @rows(%mem: memref<1024xi32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c256 step %c1 {
      %k = arith.muli %i, %c256 : index
      %a = arith.addi %k, %j : index
      %v = memref.load %mem[%a] : memref<1024xi32>
      dfg.push %v, %out : !dfg.out<i32>
    }
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<i32>, %mem: memref<1024xi32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c1024 step %c1 {
    %v = dfg.pull %in : !dfg.in<i32>
    memref.store %v, %mem[%i] : memref<1024xi32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.graph @burst(%x: memref<1024xi32>, %y: memref<1024xi32>) attributes {ming.num_inputs = 1 : i64} {
  %w, %r = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @rows(%x, %w) : memref<1024xi32>, !dfg.out<i32>
  dfg.instantiate @store(%r, %y) : !dfg.in<i32>, memref<1024xi32>
}
