// RUN: ming-opt %s | ming-opt | FileCheck %s
// Stream reads and writes, array and pointer accesses, scalar casts, words.

// CHECK-LABEL: emitHLS.func @streams(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i8>, %[[OUT:.*]]: !emitHLS.stream<i8>)
// CHECK:         %[[V:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i8>
// CHECK:         emitHLS.stream_write %[[OUT]], %[[V]] : !emitHLS.stream<i8>
emitHLS.func @streams(%in: !emitHLS.stream<i8>, %out: !emitHLS.stream<i8>) {
  %v = emitHLS.stream_read %in : !emitHLS.stream<i8>
  emitHLS.stream_write %out, %v : !emitHLS.stream<i8>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @accesses(
// CHECK-SAME:      %[[P:.*]]: !emitHLS.ptr<f32>, %[[A:.*]]: !emitHLS.array<3x4xf32>)
emitHLS.func @accesses(%p: !emitHLS.ptr<f32>, %a: !emitHLS.array<3x4xf32>) {
  // CHECK: emitHLS.for %[[I:.*]] = 0 to 3
  // CHECK: emitHLS.for %[[J:.*]] = 0 to 4
  emitHLS.for %i = 0 to 3 step 1 {
    emitHLS.for %j = 0 to 4 step 1 {
      // CHECK: %[[X:.*]] = emitHLS.load %[[P]][%[[I]]] : !emitHLS.ptr<f32>
      %x = emitHLS.load %p[%i] : !emitHLS.ptr<f32>
      // CHECK: emitHLS.store %[[X]], %[[A]][%[[I]], %[[J]]] : !emitHLS.array<3x4xf32>
      emitHLS.store %x, %a[%i, %j] : !emitHLS.array<3x4xf32>
      // CHECK: %[[Y:.*]] = emitHLS.load %[[A]][%[[I]], %[[J]]] : !emitHLS.array<3x4xf32>
      %y = emitHLS.load %a[%i, %j] : !emitHLS.array<3x4xf32>
      // CHECK: emitHLS.store %[[Y]], %[[P]][%[[J]]] : !emitHLS.ptr<f32>
      emitHLS.store %y, %p[%j] : !emitHLS.ptr<f32>
    }
  }
  // A ROM is read like any array; a constant index is an arith.constant.
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: %[[W:.*]] = emitHLS.array rom
  // CHECK: emitHLS.load %[[W]][%[[C1]]] : !emitHLS.array<2xi8>
  %c1 = arith.constant 1 : index
  %w = emitHLS.array rom : !emitHLS.array<2xi8> = dense<[5, 6]> : tensor<2xi8>
  %z = emitHLS.load %w[%c1] : !emitHLS.array<2xi8>
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @casts(
emitHLS.func @casts(%a: i32, %f: f32) {
  // CHECK: emitHLS.cast %{{.*}} : i32 to i8
  %0 = emitHLS.cast %a : i32 to i8
  // CHECK: emitHLS.cast %{{.*}} : i8 to i64
  %1 = emitHLS.cast %0 : i8 to i64
  // CHECK: emitHLS.cast %{{.*}} : i32 to f32
  %2 = emitHLS.cast %a : i32 to f32
  // CHECK: emitHLS.cast %{{.*}} : f32 to i16
  %3 = emitHLS.cast %f : f32 to i16
  // CHECK: emitHLS.cast %{{.*}} : f32 to f16
  %4 = emitHLS.cast %f : f32 to f16
  // Arbitrary widths become ap_int<N> in the C++.
  // CHECK: emitHLS.cast %{{.*}} : i32 to i3
  %5 = emitHLS.cast %a : i32 to i3
  emitHLS.return
}

// A packed word of lanes: a stream of vector<LxT>, a word variable and its
// elements (`w[i]` in C++).
// CHECK-LABEL: emitHLS.func @words(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<vector<4xi8>>, %[[OUT:.*]]: !emitHLS.stream<vector<4xi8>>)
// CHECK:         %[[W:.*]] = emitHLS.var : !emitHLS.var<vector<4xi8>>
// CHECK:         %[[R:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<vector<4xi8>>
// CHECK:         emitHLS.assign %[[R]], %[[W]] : !emitHLS.var<vector<4xi8>>
// CHECK:         %[[E:.*]] = emitHLS.load %[[W]][%[[I:.*]]] : !emitHLS.var<vector<4xi8>>
// CHECK:         emitHLS.store %[[E]], %[[W]][%[[I]]] : !emitHLS.var<vector<4xi8>>
// CHECK:         %[[G:.*]] = emitHLS.get %[[W]] : !emitHLS.var<vector<4xi8>>
// CHECK:         emitHLS.stream_write %[[OUT]], %[[G]] : !emitHLS.stream<vector<4xi8>>
emitHLS.func @words(%in: !emitHLS.stream<vector<4xi8>>, %out: !emitHLS.stream<vector<4xi8>>) {
  %w = emitHLS.var : !emitHLS.var<vector<4xi8>>
  %r = emitHLS.stream_read %in : !emitHLS.stream<vector<4xi8>>
  emitHLS.assign %r, %w : !emitHLS.var<vector<4xi8>>
  emitHLS.for %i = 0 to 4 step 1 {
    %e = emitHLS.load %w[%i] : !emitHLS.var<vector<4xi8>>
    emitHLS.store %e, %w[%i] : !emitHLS.var<vector<4xi8>>
  }
  %g = emitHLS.get %w : !emitHLS.var<vector<4xi8>>
  emitHLS.stream_write %out, %g : !emitHLS.stream<vector<4xi8>>
  emitHLS.return
}
