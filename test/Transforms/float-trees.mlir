// Float sums as trees (--reassociate-float): ming-mark-float-sums marks the
// loops of every float sum, the cost model times a marked sum unrolled in a
// pipeline as a balanced tree, ming-float-trees writes it as that tree.
//
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-mark-float-sums)' | FileCheck %s --check-prefix=MARK
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-mark-float-sums,ming-test-cost-model)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TREE
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-mark-float-sums,ming-float-trees)' | FileCheck %s --check-prefix=EXPAND

// ===== 1. A dense layer: 8 outputs, each a sum of 6 products ===============
// The output loop is pipelined (at II 3: the one-bank ROM reads 6 weights
// an iteration); the sum over the inputs runs unrolled in it. In source
// order its 6 adds (4 cycles each) follow each other and the last product;
// as a tree of the 6 terms and the start value it is ceil(log2 7) = 3 adds
// after the last product: 9 cycles less deep.
// ORDER: remark: L1: trip=8 unroll=1 pipelined ii=3 (memory @w) depth=30 cycles=51 dsp=10 ops=[addf f32 x6, mulf f32 x6]
// TREE: remark: L1: trip=8 unroll=1 pipelined ii=3 (memory @w) depth=21 cycles=42 dsp=10 ops=[addf f32 x6, mulf f32 x6]
// MARK-LABEL: dfg.process @dense
// MARK: scf.for
// MARK: } {ming.reassociate}
// EXPAND-LABEL: dfg.process @dense
// EXPAND: scf.for %[[O:.*]] =
// EXPAND: %[[LEAVES:.*]] = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<7xf32>
// EXPAND: memref.store %{{.*}}, %[[LEAVES]][%c6
// EXPAND: scf.for %[[K:.*]] = %c0{{.*}} to %c6{{.*}} step %c1
// EXPAND:   arith.mulf
// EXPAND:   memref.store %{{.*}}, %[[LEAVES]][%[[K]]]
// The levels: strides 1, 2, 4 over 7 elements.
// EXPAND: scf.for %[[I:.*]] = %c0{{.*}} to %c6{{.*}} step %c2
// EXPAND:   arith.addf
// EXPAND: scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c4
// EXPAND: scf.for %{{.*}} = %c0{{.*}} to %c3{{.*}} step %c8
// EXPAND: %[[SUM:.*]] = memref.load %[[LEAVES]][%c0
// EXPAND: dfg.push %[[SUM]]
// EXPAND-NOT: ming.reassociate
// EXPAND-LABEL: dfg.process @pipelined_sum
module {
  memref.global "private" constant @w : memref<8x6xf32> = dense<0.5>
  dfg.process @dense(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %x = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<6xf32>
    scf.for %k = %c0 to %c6 step %c1 {
      %v = dfg.pull %in : !dfg.in<f32>
      memref.store %v, %x[%k] : memref<6xf32>
    }
    scf.for %o = %c0 to %c8 step %c1 {
      %sum = scf.for %k = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f32) {
        %a = memref.load %x[%k] : memref<6xf32>
        %wg = memref.get_global @w : memref<8x6xf32>
        %b = memref.load %wg[%o, %k] : memref<8x6xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      dfg.push %sum, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

// ===== 2. A sum that is the pipelined loop itself ==========================
// Marked, but not unrolled inside a pipeline: it keeps its order (a carried
// add, II 4), and ming-float-trees leaves it.
// TREE: remark: L0: trip=16 unroll=1 pipelined ii=4 (recurrence) depth=5
// EXPAND: scf.for {{.*}} iter_args
// EXPAND: } {ming.loop = #ming.loop<ii = 1>, ming.reassociate}
  dfg.process @pipelined_sum(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = dfg.pull %in : !dfg.in<f32>
      %s = arith.addf %acc, %v : f32
      scf.yield %s : f32
    } {ming.loop = #ming.loop<ii = 1>}
    dfg.push %sum, %out : !dfg.out<f32>
  }

// ===== 3. Not a sum: the accumulator is also read otherwise ================
// MARK-LABEL: dfg.process @not_a_sum
// MARK-NOT: ming.reassociate
  dfg.process @not_a_sum(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = dfg.pull %in : !dfg.in<f32>
      %m = arith.mulf %acc, %v : f32
      %s = arith.addf %acc, %m : f32
      scf.yield %s : f32
    } {ming.loop = #ming.loop<ii = 1>}
    dfg.push %sum, %out : !dfg.out<f32>
  }
}
