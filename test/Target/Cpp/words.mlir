// Packed words (the lanes of a channel): vector<LxT> in streams and
// variables prints as hls::vector<T, L>, an element access as `w[i]`, and
// <hls_vector.h> is included only when a word is used. The result compiles
// against the project's headers, as synthesised and as C simulation.
// RUN: ming-opt %s --emit-hls-cpp -o %t.cpp
// RUN: FileCheck %s < %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -I%root/rust/project/include %t.cpp
// RUN: ming-opt %S/constructs.mlir --emit-hls-cpp | FileCheck %s --check-prefix=NOWORD
// NOWORD-NOT: hls_vector.h

// CHECK:      #include <hls_stream.h>
// CHECK-NEXT: #include <hls_vector.h>
// CHECK-NEXT: #include <ap_int.h>
// CHECK:      void widen(hls::stream<hls::vector<float, 2>> &arg0, hls::stream<hls::vector<int16_t, 4>> &arg1);
// CHECK:      void widen(hls::stream<hls::vector<float, 2>> &arg0, hls::stream<hls::vector<int16_t, 4>> &arg1) {
// CHECK-NEXT:   hls::vector<float, 2> v0;
// CHECK-NEXT:   hls::vector<int16_t, 4> v1;
// CHECK-NEXT:   for (int i0 = 0; i0 < 2; i0 += 1) {
// CHECK-NEXT:     const hls::vector<float, 2> v2 = arg0.read();
// CHECK-NEXT:     v0 = v2;
// CHECK-NEXT:     for (int i1 = 0; i1 < 2; i1 += 1) {
// CHECK-NEXT:       const float v3 = v0[i1];
// CHECK-NEXT:       const int16_t v4 = static_cast<int16_t>(v3);
// CHECK-NEXT:       v1[i1] = v4;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   const hls::vector<int16_t, 4> v5 = v1;
// CHECK-NEXT:   arg1.write(v5);
// CHECK-NEXT: }
emitHLS.func @widen(%in: !emitHLS.stream<vector<2xf32>>, %out: !emitHLS.stream<vector<4xi16>>) {
  %a = emitHLS.var : !emitHLS.var<vector<2xf32>>
  %b = emitHLS.var : !emitHLS.var<vector<4xi16>>
  emitHLS.for %k = 0 to 2 step 1 {
    %w = emitHLS.stream_read %in : !emitHLS.stream<vector<2xf32>>
    emitHLS.assign %w, %a : !emitHLS.var<vector<2xf32>>
    emitHLS.for %i = 0 to 2 step 1 {
      %e = emitHLS.load %a[%i] : !emitHLS.var<vector<2xf32>>
      %c = arith.fptosi %e : f32 to i16
      emitHLS.store %c, %b[%i] : !emitHLS.var<vector<4xi16>>
    }
  }
  %g = emitHLS.get %b : !emitHLS.var<vector<4xi16>>
  emitHLS.stream_write %out, %g : !emitHLS.stream<vector<4xi16>>
  emitHLS.return
}

// A local stream of words with its depth.
// CHECK-LABEL: void top() {
// CHECK:         hls::stream<hls::vector<float, 2>, 8> v0("w");
// CHECK-NEXT:    #pragma HLS STREAM variable=v0 depth=8
emitHLS.func @top() {
  emitHLS.pragma.dataflow
  %s = emitHLS.stream {ming.name = "w"} : !emitHLS.stream<vector<2xf32>>
  emitHLS.pragma.stream %s depth = 8 : !emitHLS.stream<vector<2xf32>>
  %t = emitHLS.stream {ming.name = "u"} : !emitHLS.stream<vector<4xi16>>
  emitHLS.call @widen(%s, %t) : (!emitHLS.stream<vector<2xf32>>, !emitHLS.stream<vector<4xi16>>) -> ()
  emitHLS.return
}
