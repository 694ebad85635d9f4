// The first push of an unrolled pipeline: copy k of a slot of u issues
// floor(k * II / u) cycles into it, and its pushes wait for that start. A
// window pipelining rows in copies (three rows per slot at II 72) whose
// first output is in its second row pushes it a third of the II after the
// first row would; dated at the first copy's push, a graph of such a window
// was modelled 30 cycles early (gap_classifier_qdq_pc: 302 against 333
// simulated, now 305 against 312).
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s

module {
  // Two copies at II 8: copy 1 issues at 4. Every copy pushes what it
  // pulled (pull 1 cycle, push 1): copy 0 at 0 + 2 = 2, the first output.
  // CHECK: remark: process @all: cycles=14 first=2 dsp=0 bram18k=0 pre=0 tail=2
  dfg.process @all(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      dfg.push %v, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 8, unroll = 2>}
  }

  // The same, pushing from the second iteration on: the first push is copy
  // 1's, at 4 + 2 = 6 (it was 2, copy 0's time).
  // CHECK: remark: process @later: cycles=14 first=6 dsp=0 bram18k=0 pre=0 tail=2
  dfg.process @later(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      %on = arith.cmpi sge, %i, %c1 : index
      scf.if %on {
        dfg.push %v, %out : !dfg.out<i32>
      }
    } {ming.loop = #ming.loop<ii = 8, unroll = 2>}
  }

  // From the third iteration on: slot 1, copy 0, at 8 + 2 = 10.
  // CHECK: remark: process @third: cycles=14 first=10 dsp=0 bram18k=0 pre=0 tail=2
  dfg.process @third(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      %on = arith.cmpi sge, %i, %c2 : index
      scf.if %on {
        dfg.push %v, %out : !dfg.out<i32>
      }
    } {ming.loop = #ming.loop<ii = 8, unroll = 2>}
  }
}
