// Unrolled copies of a pipelined loop whose condition never holds
// (docs/cost-model.md, "Pipelined loops"): copy j of a loop unrolled u times
// runs the iterations j, j + u, ..., so `(i - 3) % 2 == 0` is false in every
// iteration of copy 0 when u is even. A stride-2 window unrolled by 2 along
// its columns computes in one copy only, and so does Vitis, whose unrolled
// copies see the same residues: the multiplier is counted once.
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s

#loop2 = #ming.loop<ii = 1, unroll = 2>
#loop4 = #ming.loop<ii = 1, unroll = 4>
module {
  // Unrolled by 2: only the odd copy multiplies.
  // CHECK: remark: process @odd_copy: {{.*}} dsp=1
  dfg.process @odd_copy(%in: !dfg.in<i16, lanes = 4>, %out: !dfg.out<i16, lanes = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c1 {
      %v = dfg.pull %in : !dfg.in<i16, lanes = 4>
      %s = arith.subi %i, %c3 : index
      %r = arith.remui %s, %c2 : index
      %on = arith.cmpi eq, %r, %c0 : index
      %late = arith.cmpi sge, %i, %c3 : index
      %both = arith.andi %late, %on : i1
      scf.if %both {
        %p = arith.muli %v, %v : i16
        dfg.push %p, %out : !dfg.out<i16, lanes = 4>
      }
    } {ming.loop = #loop2}
  }
  // Unrolled by 4: copies 1 and 3 multiply.
  // CHECK: remark: process @two_of_four: {{.*}} dsp=2
  dfg.process @two_of_four(%in: !dfg.in<i16, lanes = 4>, %out: !dfg.out<i16, lanes = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c1 {
      %v = dfg.pull %in : !dfg.in<i16, lanes = 4>
      %s = arith.subi %i, %c3 : index
      %r = arith.remui %s, %c2 : index
      %on = arith.cmpi eq, %r, %c0 : index
      scf.if %on {
        %p = arith.muli %v, %v : i16
        dfg.push %p, %out : !dfg.out<i16, lanes = 4>
      }
    } {ming.loop = #loop4}
  }
  // A stride of 3 does not divide the modulus 2: both copies may multiply.
  // (A remainder by a non-power of two is not decided either: the unsigned
  // wrap of a negative index changes its residue.)
  // CHECK: remark: process @stride3: {{.*}} dsp=2
  dfg.process @stride3(%in: !dfg.in<i16, lanes = 4>, %out: !dfg.out<i16, lanes = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c12 = arith.constant 12 : index
    scf.for %i = %c0 to %c12 step %c1 {
      %v = dfg.pull %in : !dfg.in<i16, lanes = 4>
      %r = arith.remui %i, %c3 : index
      %on = arith.cmpi eq, %r, %c0 : index
      scf.if %on {
        %p = arith.muli %v, %v : i16
        dfg.push %p, %out : !dfg.out<i16, lanes = 4>
      }
    } {ming.loop = #loop2}
  }
}
