// A word of L lanes leaves when its L-th element is pushed (the simulator
// moves whole words, and Vitis writes a lane struct once): the first output
// of a process is the push that completes its first word, and the fill of a
// consumer is counted in its producer's words. With the first push instead,
// a map pulling 44 elements an iteration in 4-lane words and pushing 11-lane
// words was dated at its first copy, 10 cycles early, and the graph after
// it 12% (pad_wrap_edge: 231 modelled against 263 simulated, now 243 / 255).
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s

module {
  // Four copies at II 4 (16 pulls through one lane): copy k issues at k and
  // pushes 2 cycles later. The first 4-lane word is whole with copy 3's
  // push, at 3 + 2 = 5.
  // CHECK-DAG: remark: process @widen: cycles=17 first=5 dsp=0 bram18k=0 pre=0 tail=2
  // The same on one lane: copy 0's push, at 2.
  // CHECK-DAG: remark: process @one: cycles=17 first=2 dsp=0 bram18k=0 pre=0 tail=2
  // Two outputs of 4 and 2 lanes: the consumer of the 4-lane one waits for
  // copy 3, at 5 (the 2-lane word, at 3, is not the first output of both).
  // CHECK-DAG: remark: process @split: cycles=17 first=5 dsp=0 bram18k=0 pre=0 tail=2
  // sum4 pulls four elements, one 4-lane word, before its first sum (first
  // 4): it waits for widen's first word only, FO = 6 + 4 = 10. Counted in
  // elements, the fourth of 16 would come at 3/15 of widen's span (6 to 18),
  // 8.4, and the sum at 13.
  // CHECK-DAG: remark: node @src: arrival=0 first=1 cycles=16 finish=16
  // CHECK-DAG: remark: node @widen: arrival=1 first=6 cycles=17 finish=18
  // CHECK-DAG: remark: node @sum4: arrival=6 first=10 cycles=7 finish=22
  // CHECK-DAG: remark: node @sink: arrival=10 first=12 cycles=5 finish=24
  dfg.process @src(%out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i32
      dfg.push %v, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @widen(%in: !dfg.in<i32>, %out: !dfg.out<i32, lanes = 4>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      dfg.push %v, %out : !dfg.out<i32, lanes = 4>
    } {ming.loop = #ming.loop<ii = 4, unroll = 4>}
  }
  dfg.process @one(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      dfg.push %v, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 4, unroll = 4>}
  }
  dfg.process @split(%in: !dfg.in<i32>, %a: !dfg.out<i32, lanes = 4>, %b: !dfg.out<i32, lanes = 2>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      dfg.push %v, %a : !dfg.out<i32, lanes = 4>
      dfg.push %v, %b : !dfg.out<i32, lanes = 2>
    } {ming.loop = #ming.loop<ii = 4, unroll = 4>}
  }
  dfg.process @sum4(%in: !dfg.in<i32, lanes = 4>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %a = dfg.pull %in : !dfg.in<i32, lanes = 4>
      %b = dfg.pull %in : !dfg.in<i32, lanes = 4>
      %c = dfg.pull %in : !dfg.in<i32, lanes = 4>
      %d = dfg.pull %in : !dfg.in<i32, lanes = 4>
      %ab = arith.addi %a, %b : i32
      %cd = arith.addi %c, %d : i32
      %s = arith.addi %ab, %cd : i32
      dfg.push %s, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @sink(%in: !dfg.in<i32>, %mem: memref<4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      memref.store %v, %mem[%i] : memref<4xi32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.graph @words(%mem: memref<4xi32>) {
    %w0, %r0 = dfg.channel<i32, lanes = 1, depth = 16>
    %w1, %r1 = dfg.channel<i32, lanes = 4, depth = 4>
    %w2, %r2 = dfg.channel<i32, lanes = 1, depth = 4>
    dfg.instantiate @src(%w0) : !dfg.out<i32>
    dfg.instantiate @widen(%r0, %w1) : !dfg.in<i32>, !dfg.out<i32, lanes = 4>
    dfg.instantiate @sum4(%r1, %w2) : !dfg.in<i32, lanes = 4>, !dfg.out<i32>
    dfg.instantiate @sink(%r2, %mem) : !dfg.in<i32>, memref<4xi32>
  }
}
