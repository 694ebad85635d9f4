// RUN: ming-opt %s | ming-opt | FileCheck %s
// Functions, returns and calls: the C++ call graph.

// CHECK-LABEL: emitHLS.func @clamp(
// CHECK-SAME:      %[[X:.*]]: i32) -> i8
// CHECK:         %[[Y:.*]] = emitHLS.cast %[[X]] : i32 to i8
// CHECK:         emitHLS.return %[[Y]] : i8
emitHLS.func @clamp(%x: i32) -> i8 {
  %y = emitHLS.cast %x : i32 to i8
  emitHLS.return %y : i8
}

// CHECK-LABEL: emitHLS.func @sink(
// CHECK-SAME:      %{{.*}}: !emitHLS.stream<i8>, %{{.*}}: !emitHLS.array<4xi8>, %{{.*}}: !emitHLS.ptr<f32>, %{{.*}}: f32)
// CHECK-NEXT:    emitHLS.return
emitHLS.func @sink(%s: !emitHLS.stream<i8>, %a: !emitHLS.array<4xi8>, %p: !emitHLS.ptr<f32>, %f: f32) {
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @caller(
// CHECK-SAME:      %[[S:.*]]: !emitHLS.stream<i8>, %[[A:.*]]: !emitHLS.array<4xi8>, %[[P:.*]]: !emitHLS.ptr<f32>, %[[F:.*]]: f32, %[[N:.*]]: i32) -> i8
// CHECK:         emitHLS.call @sink(%[[S]], %[[A]], %[[P]], %[[F]]) : (!emitHLS.stream<i8>, !emitHLS.array<4xi8>, !emitHLS.ptr<f32>, f32) -> ()
// CHECK:         %[[R:.*]] = emitHLS.call @clamp(%[[N]]) : (i32) -> i8
// CHECK:         emitHLS.return %[[R]] : i8
emitHLS.func @caller(%s: !emitHLS.stream<i8>, %a: !emitHLS.array<4xi8>, %p: !emitHLS.ptr<f32>,
                     %f: f32, %n: i32) -> i8 {
  emitHLS.call @sink(%s, %a, %p, %f) : (!emitHLS.stream<i8>, !emitHLS.array<4xi8>, !emitHLS.ptr<f32>, f32) -> ()
  %r = emitHLS.call @clamp(%n) : (i32) -> i8
  emitHLS.return %r : i8
}

// A call may sit inside loops and branches.
// CHECK-LABEL: emitHLS.func @nested_call(
// CHECK:         emitHLS.for
// CHECK-NEXT:      emitHLS.call @clamp(%{{.*}}) : (i32) -> i8
emitHLS.func @nested_call(%n: i32) {
  emitHLS.for %i = 0 to 2 step 1 {
    %r = emitHLS.call @clamp(%n) : (i32) -> i8
  }
  emitHLS.return
}
