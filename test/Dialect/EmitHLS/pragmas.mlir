// RUN: ming-opt %s | ming-opt | FileCheck %s
// The generic form (enum attributes as #emitHLS<...>) round-trips too.
// RUN: ming-opt %s --mlir-print-op-generic | ming-opt | FileCheck %s
// Every pragma op; each is one `#pragma HLS` line in the C++.

// CHECK-LABEL: emitHLS.func @function_pragmas()
// CHECK-NEXT:    emitHLS.pragma.dataflow
// CHECK-NEXT:    emitHLS.pragma.inline off
emitHLS.func @function_pragmas() {
  emitHLS.pragma.dataflow
  emitHLS.pragma.inline off
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @inlined_and_pipelined()
// CHECK-NEXT:    emitHLS.pragma.inline{{$}}
// CHECK-NEXT:    emitHLS.pragma.pipeline II = 4
emitHLS.func @inlined_and_pipelined() {
  emitHLS.pragma.inline
  emitHLS.pragma.pipeline II = 4
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @loop_pragmas()
emitHLS.func @loop_pragmas() {
  // CHECK:      emitHLS.for %{{.*}} = 0 to 64 step 1 label "outer" {
  // CHECK-NEXT:   emitHLS.pragma.pipeline{{$}}
  // CHECK-NEXT:   emitHLS.pragma.loop_tripcount min = 1 max = 64 avg = 32
  emitHLS.for %i = 0 to 64 step 1 label "outer" {
    emitHLS.pragma.pipeline
    emitHLS.pragma.loop_tripcount min = 1 max = 64 avg = 32
    // CHECK:      emitHLS.for %{{.*}} = 0 to 9 step 1 {
    // CHECK-NEXT:   emitHLS.pragma.unroll{{$}}
    emitHLS.for %k = 0 to 9 step 1 {
      emitHLS.pragma.unroll
    }
  }
  // Trip count ceil(10 / 3) = 4, so factor 4 is the largest allowed.
  // CHECK:      emitHLS.for %{{.*}} = 0 to 10 step 3 {
  // CHECK-NEXT:   emitHLS.pragma.unroll factor = 4
  // CHECK-NEXT:   emitHLS.pragma.pipeline II = 2
  emitHLS.for %j = 0 to 10 step 3 {
    emitHLS.pragma.unroll factor = 4
    emitHLS.pragma.pipeline II = 2
  }
  // CHECK:      emitHLS.for
  // CHECK-NEXT:   emitHLS.pragma.pipeline off
  // CHECK-NEXT:   emitHLS.pragma.loop_tripcount min = 2 max = 2 avg = 2
  emitHLS.for %j = 0 to 2 step 1 {
    emitHLS.pragma.pipeline off
    emitHLS.pragma.loop_tripcount min = 2 max = 2 avg = 2
  }
  // An accumulator updated modulo its size: every 16th iteration meets the
  // same element again.
  // CHECK:      %[[ACC:.*]] = emitHLS.array : !emitHLS.array<16xf32>
  // CHECK:      emitHLS.for
  // CHECK-NEXT:   emitHLS.pragma.pipeline{{$}}
  // CHECK-NEXT:   emitHLS.pragma.dependence %[[ACC]] distance = 16 : !emitHLS.array<16xf32>
  %acc = emitHLS.array : !emitHLS.array<16xf32>
  emitHLS.for %j = 0 to 256 step 1 {
    emitHLS.pragma.pipeline
    emitHLS.pragma.dependence %acc distance = 16 : !emitHLS.array<16xf32>
  }
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @array_pragmas(
// CHECK-SAME:      %[[ARG:.*]]: !emitHLS.array<16x8xi8>
emitHLS.func @array_pragmas(%in: !emitHLS.array<16x8xi8>, %out: !emitHLS.array<4xi8>) {
  // CHECK: %[[BUF:.*]] = emitHLS.array : !emitHLS.array<3x34xi8>
  // CHECK: emitHLS.pragma.array_partition %[[BUF]] complete dim = 1 : !emitHLS.array<3x34xi8>
  // CHECK: emitHLS.pragma.array_partition %[[BUF]] cyclic factor = 2 dim = 2 : !emitHLS.array<3x34xi8>
  // CHECK: emitHLS.pragma.bind_storage %[[BUF]] type = ram_2p impl = bram : !emitHLS.array<3x34xi8>
  %buf = emitHLS.array : !emitHLS.array<3x34xi8>
  emitHLS.pragma.array_partition %buf complete dim = 1 : !emitHLS.array<3x34xi8>
  emitHLS.pragma.array_partition %buf cyclic factor = 2 dim = 2 : !emitHLS.array<3x34xi8>
  emitHLS.pragma.bind_storage %buf type = ram_2p impl = bram : !emitHLS.array<3x34xi8>
  // CHECK: %[[WIN:.*]] = emitHLS.array : !emitHLS.array<3x3xi8>
  // CHECK: emitHLS.pragma.array_partition %[[WIN]] complete dim = 0 : !emitHLS.array<3x3xi8>
  %win = emitHLS.array : !emitHLS.array<3x3xi8>
  emitHLS.pragma.array_partition %win complete dim = 0 : !emitHLS.array<3x3xi8>
  // A factor equal to the dimension size is allowed; dim 0 checks every dimension.
  // CHECK: emitHLS.pragma.array_partition %[[ROW:.*]] block factor = 34 dim = 1 : !emitHLS.array<34xi8>
  // CHECK: emitHLS.pragma.bind_storage %[[ROW]] type = ram_t2p impl = uram : !emitHLS.array<34xi8>
  %row = emitHLS.array : !emitHLS.array<34xi8>
  emitHLS.pragma.array_partition %row block factor = 34 dim = 1 : !emitHLS.array<34xi8>
  emitHLS.pragma.bind_storage %row type = ram_t2p impl = uram : !emitHLS.array<34xi8>
  // CHECK: emitHLS.pragma.array_partition %[[SQ:.*]] cyclic factor = 4 dim = 0 : !emitHLS.array<4x8xi8>
  // CHECK: emitHLS.pragma.bind_storage %[[SQ]] type = ram_1p impl = lutram : !emitHLS.array<4x8xi8>
  %sq = emitHLS.array : !emitHLS.array<4x8xi8>
  emitHLS.pragma.array_partition %sq cyclic factor = 4 dim = 0 : !emitHLS.array<4x8xi8>
  emitHLS.pragma.bind_storage %sq type = ram_1p impl = lutram : !emitHLS.array<4x8xi8>
  // CHECK: %[[ACC:.*]] = emitHLS.array : !emitHLS.array<2xi32>
  // CHECK: emitHLS.pragma.bind_storage %[[ACC]] type = ram_s2p impl = auto : !emitHLS.array<2xi32>
  %acc = emitHLS.array : !emitHLS.array<2xi32>
  emitHLS.pragma.bind_storage %acc type = ram_s2p impl = auto : !emitHLS.array<2xi32>
  // ROM types: on a rom array, or on an argument the function only reads.
  // CHECK: %[[W:.*]] = emitHLS.array rom
  // CHECK: emitHLS.pragma.bind_storage %[[W]] type = rom_np impl = lutram : !emitHLS.array<2xi8>
  // CHECK: emitHLS.pragma.bind_storage %[[ARG]] type = rom_2p impl = bram : !emitHLS.array<16x8xi8>
  %w = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[1, 2]> : tensor<2xi8>
  emitHLS.pragma.bind_storage %w type = rom_np impl = lutram : !emitHLS.array<2xi8>
  emitHLS.pragma.bind_storage %in type = rom_2p impl = bram : !emitHLS.array<16x8xi8>
  // CHECK: emitHLS.pragma.bind_storage %{{.*}} type = rom_1p impl = auto : !emitHLS.array<2xi8>
  %w1 = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[3, 4]> : tensor<2xi8>
  emitHLS.pragma.bind_storage %w1 type = rom_1p impl = auto : !emitHLS.array<2xi8>
  %c0 = arith.constant 0 : index
  %v = emitHLS.load %in[%c0, %c0] : !emitHLS.array<16x8xi8>
  emitHLS.store %v, %out[%c0] : !emitHLS.array<4xi8>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @stream_pragmas()
emitHLS.func @stream_pragmas() {
  // CHECK: %[[S:.*]] = emitHLS.stream : !emitHLS.stream<i8>
  // CHECK: emitHLS.pragma.stream %[[S]] depth = 16 : !emitHLS.stream<i8>
  // CHECK: emitHLS.pragma.bind_storage %[[S]] type = fifo impl = srl : !emitHLS.stream<i8>
  %s = emitHLS.stream : !emitHLS.stream<i8>
  emitHLS.pragma.stream %s depth = 16 : !emitHLS.stream<i8>
  emitHLS.pragma.bind_storage %s type = fifo impl = srl : !emitHLS.stream<i8>
  // CHECK: %[[T:.*]] = emitHLS.stream : !emitHLS.stream<f32>
  // CHECK: emitHLS.pragma.stream %[[T]] depth = 1 : !emitHLS.stream<f32>
  // CHECK: emitHLS.pragma.bind_storage %[[T]] type = fifo impl = uram : !emitHLS.stream<f32>
  %t = emitHLS.stream : !emitHLS.stream<f32>
  emitHLS.pragma.stream %t depth = 1 : !emitHLS.stream<f32>
  emitHLS.pragma.bind_storage %t type = fifo impl = uram : !emitHLS.stream<f32>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @interfaces(
// CHECK-SAME:      %[[X:.*]]: !emitHLS.ptr<i8>, %[[Y:.*]]: !emitHLS.array<64xi32>, %[[N:.*]]: i32, %[[G:.*]]: f32, %[[S:.*]]: !emitHLS.stream<i8>)
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[X]] bundle = "gmem0" depth = 3072 : !emitHLS.ptr<i8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[X]] bundle = "control" : !emitHLS.ptr<i8>
// CHECK-NEXT:    emitHLS.pragma.interface m_axi %[[Y]] : !emitHLS.array<64xi32>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[N]] bundle = "control" : i32
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite %[[G]] : f32
// CHECK-NEXT:    emitHLS.pragma.interface axis %[[S]] : !emitHLS.stream<i8>
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite return bundle = "control"
// CHECK-NEXT:    emitHLS.return
emitHLS.func @interfaces(%x: !emitHLS.ptr<i8>, %y: !emitHLS.array<64xi32>, %n: i32, %g: f32,
                         %s: !emitHLS.stream<i8>) {
  emitHLS.pragma.interface m_axi %x bundle = "gmem0" depth = 3072 : !emitHLS.ptr<i8>
  emitHLS.pragma.interface s_axilite %x bundle = "control" : !emitHLS.ptr<i8>
  emitHLS.pragma.interface m_axi %y : !emitHLS.array<64xi32>
  emitHLS.pragma.interface s_axilite %n bundle = "control" : i32
  emitHLS.pragma.interface s_axilite %g : f32
  emitHLS.pragma.interface axis %s : !emitHLS.stream<i8>
  emitHLS.pragma.interface s_axilite return bundle = "control"
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @return_only()
// CHECK-NEXT:    emitHLS.pragma.interface s_axilite return{{$}}
emitHLS.func @return_only() {
  emitHLS.pragma.interface s_axilite return
  emitHLS.return
}
