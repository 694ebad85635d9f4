// A load -> pure parallel -> store graph becomes three INLINE-off functions
// and a DATAFLOW top function with AXI interfaces, one stream per channel and
// the calls in producer -> consumer order.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s
// With the board's memory port width, each m_axi interface may widen to it.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-dfg-to-emithls{axi-bits=128})' | FileCheck %s --check-prefix=WIDE
// WIDE: emitHLS.pragma.interface m_axi %{{.*}} bundle = "gmem0" depth = 32 max_widen_bitwidth = 128 : !emitHLS.array<1x2x4x4xi8>
// WIDE-NEXT: emitHLS.pragma.interface s_axilite %{{.*}} bundle = "control" : !emitHLS.array<1x2x4x4xi8>
// WIDE-NEXT: emitHLS.pragma.interface m_axi %{{.*}} bundle = "gmem1" depth = 32 max_widen_bitwidth = 128 : !emitHLS.array<1x2x4x4xi8>

// Processes first, in their order; no dfg op is left.
// CHECK-NOT:   dfg.
// CHECK-LABEL: emitHLS.func @load(
// CHECK-SAME:      %[[MEM:.*]]: !emitHLS.array<1x2x4x4xi8>, %[[OUT:.*]]: !emitHLS.stream<i8>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// The index constants used only as loop bounds are gone.
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    emitHLS.for %[[H:.*]] = 0 to 4 step 1 {
// CHECK-NEXT:      emitHLS.for %[[W:.*]] = 0 to 4 step 1 {
// CHECK-NEXT:        emitHLS.for %[[C:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:          emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:          %[[V:.*]] = emitHLS.load %[[MEM]][%[[C0]], %[[C]], %[[H]], %[[W]]] : !emitHLS.array<1x2x4x4xi8>
// CHECK-NEXT:          emitHLS.stream_write %[[OUT]], %[[V]] : !emitHLS.stream<i8>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    emitHLS.return
// CHECK-NEXT:  }
dfg.process @load(%mem: memref<1x2x4x4xi8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = memref.load %mem[%c0, %c, %h, %w] : memref<1x2x4x4xi8>
        dfg.push %v, %out : !dfg.out<i8>
      } {ming.loop = #ming.loop<ii = 1>}
    }
  }
}

// CHECK-LABEL: emitHLS.func @relu(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i8>, %[[OUT:.*]]: !emitHLS.stream<i8>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    emitHLS.for %{{.*}} = 0 to 32 step 1 label "relu" {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      %[[V:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i8>
// CHECK-NEXT:      %[[R:.*]] = arith.maxsi %[[V]], %[[ZERO]] : i8
// CHECK-NEXT:      emitHLS.stream_write %[[OUT]], %[[R]] : !emitHLS.stream<i8>
// CHECK-NEXT:    }
// CHECK-NEXT:    emitHLS.return
dfg.process @relu(%in: !dfg.in<i8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c32 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    %r = arith.maxsi %v, %zero : i8
    dfg.push %r, %out : !dfg.out<i8>
  } {ming.loop = #ming.loop<ii = 1, label = "relu">}
}

// CHECK-LABEL: emitHLS.func @store(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i8>, %[[MEM:.*]]: !emitHLS.array<1x2x4x4xi8>) {
// CHECK:           %[[V:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i8>
// CHECK-NEXT:      emitHLS.store %[[V]], %[[MEM]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !emitHLS.array<1x2x4x4xi8>
dfg.process @store(%in: !dfg.in<i8>, %mem: memref<1x2x4x4xi8>)
    attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = dfg.pull %in : !dfg.in<i8>
        memref.store %v, %mem[%c0, %c, %h, %w] : memref<1x2x4x4xi8>
      }
    }
  }
}

// The top function comes last. The graph lists the instances backwards: the
// calls are still in producer -> consumer order, and so are the streams.
// CHECK-LABEL: emitHLS.func @top(
// CHECK-SAME:      %[[X:.*]]: !emitHLS.array<1x2x4x4xi8>, %[[Y:.*]]: !emitHLS.array<1x2x4x4xi8>)
// CHECK-SAME:      attributes {ming.num_inputs = 1 : i64, ming.top} {
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[X]] bundle = "gmem0" depth = 32 : !emitHLS.array<1x2x4x4xi8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[X]] bundle = "control" : !emitHLS.array<1x2x4x4xi8>
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[Y]] bundle = "gmem1" depth = 32 : !emitHLS.array<1x2x4x4xi8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[Y]] bundle = "control" : !emitHLS.array<1x2x4x4xi8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite return bundle = "control"
// CHECK-NEXT:    emitHLS.pragma.dataflow
// CHECK-NEXT:    %[[S0:.*]] = emitHLS.stream {ming.name = "load_to_relu"} : !emitHLS.stream<i8>
// CHECK-NEXT:    emitHLS.pragma.stream %[[S0]] depth = 2 : !emitHLS.stream<i8>
// CHECK-NEXT:    %[[S1:.*]] = emitHLS.stream {ming.name = "relu_to_store"} : !emitHLS.stream<i8>
// CHECK-NEXT:    emitHLS.pragma.stream %[[S1]] depth = 16 : !emitHLS.stream<i8>
// CHECK-NEXT:    emitHLS.call @load(%[[X]], %[[S0]]) : (!emitHLS.array<1x2x4x4xi8>, !emitHLS.stream<i8>) -> ()
// CHECK-NEXT:    emitHLS.call @relu(%[[S0]], %[[S1]]) : (!emitHLS.stream<i8>, !emitHLS.stream<i8>) -> ()
// CHECK-NEXT:    emitHLS.call @store(%[[S1]], %[[Y]]) : (!emitHLS.stream<i8>, !emitHLS.array<1x2x4x4xi8>) -> ()
// CHECK-NEXT:    emitHLS.return
// CHECK-NEXT:  }
// CHECK-NOT:   dfg.
dfg.graph @top(%x: memref<1x2x4x4xi8>, %y: memref<1x2x4x4xi8>) attributes {ming.num_inputs = 1 : i64} {
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<1x2x4x4xi8>
  %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 16>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<1x2x4x4xi8>, !dfg.out<i8>
}

// -----

// A residual diamond: the fork feeds the add twice, so the second stream
// between them gets a suffix. Calls and streams follow the producers.
// CHECK-LABEL: emitHLS.func @res(
// CHECK:         emitHLS.pragma.dataflow
// CHECK-NEXT:    %[[A:.*]] = emitHLS.stream {ming.name = "load_to_fork"} : !emitHLS.stream<f32>
// CHECK-NEXT:    emitHLS.pragma.stream %[[A]] depth = 2
// CHECK-NEXT:    %[[B:.*]] = emitHLS.stream {ming.name = "fork_to_add"} : !emitHLS.stream<f32>
// CHECK-NEXT:    emitHLS.pragma.stream %[[B]] depth = 64
// CHECK-NEXT:    %[[C:.*]] = emitHLS.stream {ming.name = "fork_to_add_1"} : !emitHLS.stream<f32>
// CHECK-NEXT:    emitHLS.pragma.stream %[[C]] depth = 2
// CHECK-NEXT:    %[[D:.*]] = emitHLS.stream {ming.name = "add_to_store"} : !emitHLS.stream<f32>
// CHECK-NEXT:    emitHLS.pragma.stream %[[D]] depth = 3
// CHECK-NEXT:    emitHLS.call @load(%{{.*}}, %[[A]])
// CHECK-NEXT:    emitHLS.call @fork(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT:    emitHLS.call @add(%[[B]], %[[C]], %[[D]])
// CHECK-NEXT:    emitHLS.call @store(%[[D]], %{{.*}})
// CHECK-NEXT:    emitHLS.return
dfg.process @load(%mem: memref<8xf32>, %out: !dfg.out<f32>) {
}
dfg.process @fork(%in: !dfg.in<f32>, %a: !dfg.out<f32>, %b: !dfg.out<f32>) {
  %v = dfg.pull %in : !dfg.in<f32>
  dfg.push %v, %a : !dfg.out<f32>
  dfg.push %v, %b : !dfg.out<f32>
}
dfg.process @add(%a: !dfg.in<f32>, %b: !dfg.in<f32>, %out: !dfg.out<f32>) {
  %x = dfg.pull %a : !dfg.in<f32>
  %y = dfg.pull %b : !dfg.in<f32>
  %s = arith.addf %x, %y : f32
  dfg.push %s, %out : !dfg.out<f32>
}
dfg.process @store(%in: !dfg.in<f32>, %mem: memref<8xf32>) {
}
dfg.graph @res(%x: memref<8xf32>, %y: memref<8xf32>) {
  %w3, %r3 = dfg.channel<f32, lanes = 1, depth = 3>
  %w2, %r2 = dfg.channel<f32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 64>
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @add(%r1, %r2, %w3) : !dfg.in<f32>, !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r3, %y) : !dfg.in<f32>, memref<8xf32>
  dfg.instantiate @fork(%r0, %w1, %w2) : !dfg.in<f32>, !dfg.out<f32>, !dfg.out<f32>
  dfg.instantiate @load(%x, %w0) : memref<8xf32>, !dfg.out<f32>
}
