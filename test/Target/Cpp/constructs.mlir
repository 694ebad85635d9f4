// RUN: ming-opt %s --emit-hls-cpp | FileCheck %s
// CHECK: #include <hls_stream.h>
// CHECK: #include <ming_dataflow.h>
// CHECK: void f(int8_t *arg0, hls::stream<int32_t> &arg1, float arg2[2][3], bool arg3);
// CHECK: void f(int8_t *arg0, hls::stream<int32_t> &arg1, float arg2[2][3], bool arg3) {
// CHECK-NEXT:   #pragma HLS INTERFACE m_axi port=arg0 bundle=gmem0 depth=8 max_widen_bitwidth=128
// CHECK-NEXT:   #pragma HLS INTERFACE s_axilite port=return
// CHECK-NEXT:   #pragma HLS INLINE off
// CHECK-NEXT:   static const int8_t v0[2][2] = {{[{][{]}}1, -2}, {3, 4}};
// CHECK-NEXT:   #pragma HLS ARRAY_PARTITION variable=v0 cyclic factor=2 dim=1
// CHECK-NEXT:   #pragma HLS BIND_STORAGE variable=v0 type=rom_1p impl=lutram
// CHECK-NEXT:   hls::stream<int8_t, 16> v1("v1");
// CHECK-NEXT:   #pragma HLS STREAM variable=v1 depth=16
// CHECK-NEXT:   const int32_t v2 = 0;
// CHECK-NEXT:   int32_t v3 = v2;
// CHECK-NEXT:   float v4[2] = {1.5f, -2.0f};
// CHECK-NEXT:   outer: for (int i0 = 0; i0 < 10; i0 += 3) {
// CHECK-NEXT:     #pragma HLS PIPELINE off
// CHECK-NEXT:     #pragma HLS LOOP_TRIPCOUNT min=1 max=4 avg=4
// CHECK-NEXT:     for (int i1 = 0; i1 < 2; i1 += 1) {
// CHECK-NEXT:       #pragma HLS UNROLL factor=2
// CHECK-NEXT:       const int8_t v5 = arg0[i0];
// CHECK-NEXT:       const int8_t v6 = v0[i1][i1];
// CHECK-NEXT:       const float v7 = arg2[i1][i0];
// CHECK-NEXT:       const int32_t v8 = static_cast<int32_t>(v5);
// CHECK-NEXT:       const bool v9 = v8 >= v2;
// CHECK-NEXT:       if (v9) {
// CHECK-NEXT:         arg1.write(v8);
// CHECK-NEXT:       } else {
// CHECK-NEXT:         v3 = v8;
// CHECK-NEXT:       }
// CHECK-NEXT:       v1.write(v6);
// CHECK-NEXT:       const int8_t v10 = v1.read();
// CHECK-NEXT:       v4[i1] = v7;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int i2 = 0; i2 < 2; i2 += 1) {
// CHECK-NEXT:     #pragma HLS PIPELINE II=1
// CHECK-NEXT:     #pragma HLS DEPENDENCE variable=v4 type=inter direction=RAW distance=2 dependent=true
// CHECK-NEXT:     const float v11 = v4[i2];
// CHECK-NEXT:     v4[i2] = v11;
// CHECK-NEXT:   }
// CHECK-NEXT: }
emitHLS.func @f(%x: !emitHLS.ptr<i8>, %y: !emitHLS.stream<i32>, %m: !emitHLS.array<2x3xf32>, %c: i1) {
  emitHLS.pragma.interface m_axi %x bundle = "gmem0" depth = 8 max_widen_bitwidth = 128 : !emitHLS.ptr<i8>
  emitHLS.pragma.interface s_axilite return
  emitHLS.pragma.inline off
  %w = emitHLS.array rom : !emitHLS.array<2x2xi8> = dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  emitHLS.pragma.array_partition %w cyclic factor = 2 dim = 1 : !emitHLS.array<2x2xi8>
  emitHLS.pragma.bind_storage %w type = rom_1p impl = lutram : !emitHLS.array<2x2xi8>
  %s = emitHLS.stream : !emitHLS.stream<i8>
  emitHLS.pragma.stream %s depth = 16 : !emitHLS.stream<i8>
  %zero = arith.constant 0 : i32
  %acc = emitHLS.var : !emitHLS.var<i32> = %zero
  %fa = emitHLS.array : !emitHLS.array<2xf32> = dense<[1.5, -2.0]> : tensor<2xf32>
  emitHLS.for %i = 0 to 10 step 3 label "outer" {
    emitHLS.pragma.pipeline off
    emitHLS.pragma.loop_tripcount min = 1 max = 4 avg = 4
    emitHLS.for %j = 0 to 2 step 1 {
      emitHLS.pragma.unroll factor = 2
      %v = emitHLS.load %x[%i] : !emitHLS.ptr<i8>
      %wv = emitHLS.load %w[%j, %j] : !emitHLS.array<2x2xi8>
      %mv = emitHLS.load %m[%j, %i] : !emitHLS.array<2x3xf32>
      %v32 = emitHLS.cast %v : i8 to i32
      %ge = arith.cmpi sge, %v32, %zero : i32
      emitHLS.if %ge {
        emitHLS.stream_write %y, %v32 : !emitHLS.stream<i32>
      } else {
        emitHLS.assign %v32, %acc : !emitHLS.var<i32>
      }
      emitHLS.stream_write %s, %wv : !emitHLS.stream<i8>
      %r = emitHLS.stream_read %s : !emitHLS.stream<i8>
      emitHLS.store %mv, %fa[%j] : !emitHLS.array<2xf32>
    }
  }
  emitHLS.for %k = 0 to 2 step 1 {
    emitHLS.pragma.pipeline II = 1
    emitHLS.pragma.dependence %fa distance = 2 : !emitHLS.array<2xf32>
    %old = emitHLS.load %fa[%k] : !emitHLS.array<2xf32>
    emitHLS.store %old, %fa[%k] : !emitHLS.array<2xf32>
  }
  emitHLS.return
}

// A DATAFLOW function: its calls run as concurrent processes in C
// simulation; streams are bounded by their depth and named for the deadlock
// report (`ming.name`, else the C name).
// CHECK-LABEL: void top() {
// CHECK-NEXT:   #pragma HLS DATAFLOW
// CHECK-NEXT:   hls::stream<int32_t, 8> v0("chan \"0\"");
// CHECK-NEXT:   #pragma HLS STREAM variable=v0 depth=8
// CHECK-NEXT:   hls::stream<int32_t> v1("v1");
// CHECK-NEXT:   MING_DATAFLOW_BEGIN;
// CHECK-NEXT:   MING_PROCESS("src", src(v0));
// CHECK-NEXT:   const int32_t v2 = 7;
// CHECK-NEXT:   MING_PROCESS("dst", dst(v0, v1, v2));
// CHECK-NEXT:   MING_DATAFLOW_END;
// CHECK-NEXT: }
// CHECK-LABEL: int32_t g(int32_t arg0) {
// CHECK-NEXT:   const int32_t v0 = arg0 > arg0 ? arg0 : arg0;
// CHECK-NEXT:   return v0;
// Without DATAFLOW a call is a plain call.
// CHECK-LABEL: void src(hls::stream<int32_t> &arg0) {
// CHECK-NEXT:   const int32_t v0 = 1;
// CHECK-NEXT:   const int32_t v1 = g(v0);
// CHECK-NEXT:   arg0.write(v1);
// CHECK-NEXT: }
emitHLS.func @top() {
  emitHLS.pragma.dataflow
  %s = emitHLS.stream {ming.name = "chan \"0\""} : !emitHLS.stream<i32>
  emitHLS.pragma.stream %s depth = 8 : !emitHLS.stream<i32>
  %t = emitHLS.stream : !emitHLS.stream<i32>
  emitHLS.call @src(%s) : (!emitHLS.stream<i32>) -> ()
  %c = arith.constant 7 : i32
  emitHLS.call @dst(%s, %t, %c) : (!emitHLS.stream<i32>, !emitHLS.stream<i32>, i32) -> ()
  emitHLS.return
}
emitHLS.func @g(%a: i32) -> i32 {
  %m = arith.maxsi %a, %a : i32
  emitHLS.return %m : i32
}
emitHLS.func @src(%s: !emitHLS.stream<i32>) {
  %c = arith.constant 1 : i32
  %r = emitHLS.call @g(%c) : (i32) -> i32
  emitHLS.stream_write %s, %r : !emitHLS.stream<i32>
  emitHLS.return
}
emitHLS.func @dst(%s: !emitHLS.stream<i32>, %t: !emitHLS.stream<i32>, %k: i32) {
  %v = emitHLS.stream_read %s : !emitHLS.stream<i32>
  emitHLS.return
}
