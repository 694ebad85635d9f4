// RUN: ming-opt %s | ming-opt | FileCheck %s
// A complete small streaming kernel, as the dfg -> emitHLS conversion would
// produce it: y = relu((W * x) >> shift) for an 8-input, 4-output dense
// layer with int8 weights in a ROM. Two processes (INLINE off) talk through
// one stream inside a DATAFLOW top function with AXI interfaces.

// Process 1: load x (m_axi) into a register file, multiply by the ROM
// weights and push one i32 sum per output into the stream.
// CHECK-LABEL: emitHLS.func @fc(
// CHECK-SAME:      %[[X:.*]]: !emitHLS.ptr<i8>, %[[Y:.*]]: !emitHLS.stream<i32>)
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[W:.*]] = emitHLS.array rom : !emitHLS.array<4x8xi8> = dense<{{.*}}> : tensor<4x8xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[W]] cyclic factor = 4 dim = 2 : !emitHLS.array<4x8xi8>
// CHECK-NEXT:    emitHLS.pragma.bind_storage %[[W]] type = rom_2p impl = bram : !emitHLS.array<4x8xi8>
// CHECK-NEXT:    %[[XS:.*]] = emitHLS.array : !emitHLS.array<8xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[XS]] complete dim = 1 : !emitHLS.array<8xi8>
// CHECK-NEXT:    emitHLS.for %[[I:.*]] = 0 to 8 step 1 label "fc_load" {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      %[[V:.*]] = emitHLS.load %[[X]][%[[I]]] : !emitHLS.ptr<i8>
// CHECK-NEXT:      emitHLS.store %[[V]], %[[XS]][%[[I]]] : !emitHLS.array<8xi8>
// CHECK-NEXT:    }
// CHECK-NEXT:    emitHLS.for %[[O:.*]] = 0 to 4 step 1 label "fc_out" {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[ACC:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[ZERO]]
// CHECK-NEXT:      emitHLS.for %[[K:.*]] = 0 to 8 step 1 label "fc_mac" {
// CHECK-NEXT:        emitHLS.pragma.unroll{{$}}
// CHECK-NEXT:        %[[A:.*]] = emitHLS.load %[[XS]][%[[K]]] : !emitHLS.array<8xi8>
// CHECK-NEXT:        %[[B:.*]] = emitHLS.load %[[W]][%[[O]], %[[K]]] : !emitHLS.array<4x8xi8>
// CHECK-NEXT:        %[[A32:.*]] = emitHLS.cast %[[A]] : i8 to i32
// CHECK-NEXT:        %[[B32:.*]] = emitHLS.cast %[[B]] : i8 to i32
// CHECK-NEXT:        %[[P:.*]] = arith.muli %[[A32]], %[[B32]] : i32
// CHECK-NEXT:        %[[OLD:.*]] = emitHLS.get %[[ACC]] : !emitHLS.var<i32>
// CHECK-NEXT:        %[[NEW:.*]] = arith.addi %[[OLD]], %[[P]] : i32
// CHECK-NEXT:        emitHLS.assign %[[NEW]], %[[ACC]] : !emitHLS.var<i32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[SUM:.*]] = emitHLS.get %[[ACC]] : !emitHLS.var<i32>
// CHECK-NEXT:      emitHLS.stream_write %[[Y]], %[[SUM]] : !emitHLS.stream<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    emitHLS.return
emitHLS.func @fc(%x: !emitHLS.ptr<i8>, %y: !emitHLS.stream<i32>) {
  emitHLS.pragma.inline off
  %w = emitHLS.array rom : !emitHLS.array<4x8xi8> = dense<[
      [1, -2, 3, -4, 5, -6, 7, -8],
      [2, 2, 2, 2, -2, -2, -2, -2],
      [0, 1, 0, 1, 0, 1, 0, 1],
      [-1, -1, -1, -1, -1, -1, -1, 127]]> : tensor<4x8xi8>
  // Cyclic by 4 over the 8 inputs: 4 dual-port banks give the 8 reads the
  // unrolled MAC needs per cycle.
  emitHLS.pragma.array_partition %w cyclic factor = 4 dim = 2 : !emitHLS.array<4x8xi8>
  emitHLS.pragma.bind_storage %w type = rom_2p impl = bram : !emitHLS.array<4x8xi8>
  %xs = emitHLS.array : !emitHLS.array<8xi8>
  emitHLS.pragma.array_partition %xs complete dim = 1 : !emitHLS.array<8xi8>
  emitHLS.for %i = 0 to 8 step 1 label "fc_load" {
    emitHLS.pragma.pipeline II = 1
    %v = emitHLS.load %x[%i] : !emitHLS.ptr<i8>
    emitHLS.store %v, %xs[%i] : !emitHLS.array<8xi8>
  }
  emitHLS.for %o = 0 to 4 step 1 label "fc_out" {
    emitHLS.pragma.pipeline II = 1
    %zero = arith.constant 0 : i32
    %acc = emitHLS.var : !emitHLS.var<i32> = %zero
    emitHLS.for %k = 0 to 8 step 1 label "fc_mac" {
      emitHLS.pragma.unroll
      %a = emitHLS.load %xs[%k] : !emitHLS.array<8xi8>
      %b = emitHLS.load %w[%o, %k] : !emitHLS.array<4x8xi8>
      %a32 = emitHLS.cast %a : i8 to i32
      %b32 = emitHLS.cast %b : i8 to i32
      %p = arith.muli %a32, %b32 : i32
      %old = emitHLS.get %acc : !emitHLS.var<i32>
      %new = arith.addi %old, %p : i32
      emitHLS.assign %new, %acc : !emitHLS.var<i32>
    }
    %sum = emitHLS.get %acc : !emitHLS.var<i32>
    emitHLS.stream_write %y, %sum : !emitHLS.stream<i32>
  }
  emitHLS.return
}

// Process 2: pop each sum, requantise and clamp at zero, store it (m_axi).
// CHECK-LABEL: emitHLS.func @relu_store(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i32>, %[[OUT:.*]]: !emitHLS.ptr<i8>, %[[SHIFT:.*]]: i32)
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK:         emitHLS.for %[[J:.*]] = 0 to 4 step 1 label "relu" {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      %[[S:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i32>
// CHECK-NEXT:      %[[Q:.*]] = arith.shrsi %[[S]], %[[SHIFT]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.maxsi %[[Q]], %{{.*}} : i32
// CHECK-NEXT:      %[[R8:.*]] = emitHLS.cast %[[R]] : i32 to i8
// CHECK-NEXT:      emitHLS.store %[[R8]], %[[OUT]][%[[J]]] : !emitHLS.ptr<i8>
// CHECK-NEXT:    }
emitHLS.func @relu_store(%in: !emitHLS.stream<i32>, %out: !emitHLS.ptr<i8>, %shift: i32) {
  emitHLS.pragma.inline off
  %zero = arith.constant 0 : i32
  emitHLS.for %j = 0 to 4 step 1 label "relu" {
    emitHLS.pragma.pipeline II = 1
    %s = emitHLS.stream_read %in : !emitHLS.stream<i32>
    %q = arith.shrsi %s, %shift : i32
    %r = arith.maxsi %q, %zero : i32
    %r8 = emitHLS.cast %r : i32 to i8
    emitHLS.store %r8, %out[%j] : !emitHLS.ptr<i8>
  }
  emitHLS.return
}

// The top function: AXI interfaces, DATAFLOW, one FIFO of depth 4.
// CHECK-LABEL: emitHLS.func @dense_relu(
// CHECK-SAME:      %[[TX:.*]]: !emitHLS.ptr<i8>, %[[TY:.*]]: !emitHLS.ptr<i8>, %[[TS:.*]]: i32)
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[TX]] bundle = "gmem0" depth = 8 : !emitHLS.ptr<i8>
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[TY]] bundle = "gmem1" depth = 4 : !emitHLS.ptr<i8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[TS]] bundle = "control" : i32
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite return bundle = "control"
// CHECK-NEXT:    emitHLS.pragma.dataflow
// CHECK-NEXT:    %[[CH:.*]] = emitHLS.stream : !emitHLS.stream<i32>
// CHECK-NEXT:    emitHLS.pragma.stream %[[CH]] depth = 4 : !emitHLS.stream<i32>
// CHECK-NEXT:    emitHLS.call @fc(%[[TX]], %[[CH]]) : (!emitHLS.ptr<i8>, !emitHLS.stream<i32>) -> ()
// CHECK-NEXT:    emitHLS.call @relu_store(%[[CH]], %[[TY]], %[[TS]]) : (!emitHLS.stream<i32>, !emitHLS.ptr<i8>, i32) -> ()
// CHECK-NEXT:    emitHLS.return
emitHLS.func @dense_relu(%x: !emitHLS.ptr<i8>, %y: !emitHLS.ptr<i8>, %shift: i32) {
  emitHLS.pragma.interface m_axi %x bundle = "gmem0" depth = 8 : !emitHLS.ptr<i8>
  emitHLS.pragma.interface m_axi %y bundle = "gmem1" depth = 4 : !emitHLS.ptr<i8>
  emitHLS.pragma.interface s_axilite %shift bundle = "control" : i32
  emitHLS.pragma.interface s_axilite return bundle = "control"
  emitHLS.pragma.dataflow
  %ch = emitHLS.stream : !emitHLS.stream<i32>
  emitHLS.pragma.stream %ch depth = 4 : !emitHLS.stream<i32>
  emitHLS.call @fc(%x, %ch) : (!emitHLS.ptr<i8>, !emitHLS.stream<i32>) -> ()
  emitHLS.call @relu_store(%ch, %y, %shift) : (!emitHLS.stream<i32>, !emitHLS.ptr<i8>, i32) -> ()
  emitHLS.return
}
