// RUN: ming-opt %s | ming-opt | FileCheck %s
// Counted loops and branches; the yield terminators stay implicit.

// CHECK-LABEL: emitHLS.func @loops(
emitHLS.func @loops(%out: !emitHLS.stream<i32>) {
  // CHECK: emitHLS.for %[[I:.*]] = 0 to 16 step 1 label "row" {
  // CHECK-NEXT: emitHLS.for %[[J:.*]] = -2 to 10 step 3 {
  // CHECK-NEXT: %[[K:.*]] = arith.addi %[[I]], %[[J]] : index
  // CHECK-NEXT: %[[V:.*]] = arith.index_cast %[[K]] : index to i32
  // CHECK-NEXT: emitHLS.stream_write %{{.*}}, %[[V]] : !emitHLS.stream<i32>
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  emitHLS.for %i = 0 to 16 step 1 label "row" {
    emitHLS.for %j = -2 to 10 step 3 {
      %k = arith.addi %i, %j : index
      %v = arith.index_cast %k : index to i32
      emitHLS.stream_write %out, %v : !emitHLS.stream<i32>
    }
  }
  // An empty range is a valid C loop that runs zero times.
  // CHECK: emitHLS.for %{{.*}} = 5 to 5 step 1 {
  emitHLS.for %i = 5 to 5 step 1 {
  }
  // Extra attributes go after the keyword, before the body.
  // CHECK: emitHLS.for %{{.*}} = 0 to 4 step 2 label "_tail2" attributes {test.stage = 1 : i64} {
  emitHLS.for %i = 0 to 4 step 2 label "_tail2" attributes {test.stage = 1 : i64} {
  }
  emitHLS.return
}

// The explicit terminator is accepted and elided on printing.
// CHECK-LABEL: emitHLS.func @explicit_yield(
// CHECK-NOT:     emitHLS.yield
// CHECK:         emitHLS.return
emitHLS.func @explicit_yield(%c: i1) {
  emitHLS.for %i = 0 to 1 step 1 {
    emitHLS.yield
  }
  emitHLS.if %c {
    emitHLS.yield
  }
  emitHLS.return
}

// CHECK-LABEL: emitHLS.func @branches(
// CHECK-SAME:      %[[C:.*]]: i1, %[[V:.*]]: i32, %[[S:.*]]: !emitHLS.stream<i32>)
emitHLS.func @branches(%c: i1, %v: i32, %s: !emitHLS.stream<i32>) {
  %acc = emitHLS.var : !emitHLS.var<i32>
  // CHECK: emitHLS.if %[[C]] {
  // CHECK-NEXT: emitHLS.stream_write %[[S]], %[[V]] : !emitHLS.stream<i32>
  // CHECK-NEXT: }{{$}}
  emitHLS.if %c {
    emitHLS.stream_write %s, %v : !emitHLS.stream<i32>
  }
  // CHECK: emitHLS.if %[[C]] {
  // CHECK-NEXT: emitHLS.stream_write %[[S]], %[[V]] : !emitHLS.stream<i32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: emitHLS.assign %[[V]], %{{.*}} : !emitHLS.var<i32>
  // CHECK-NEXT: }
  emitHLS.if %c {
    emitHLS.stream_write %s, %v : !emitHLS.stream<i32>
  } else {
    emitHLS.assign %v, %acc : !emitHLS.var<i32>
  }
  // CHECK: emitHLS.if %[[C]] attributes {likely} {
  emitHLS.if %c attributes {likely} {
  }
  emitHLS.return
}
