// A process that reads a table at the address its input computes (a
// quantised activation's lookup, convert-linalg-to-dfg's form): the global
// becomes a `rom` array of the function, the load a subscript by the
// computed index, and the C++ runs: every one of the 256 i8 inputs x gives
// table[x + 128] = ~x.
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: ming-opt %t.mlir --emit-hls-cpp -o %t.cpp
// RUN: FileCheck %s --check-prefix=CPP < %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -pthread -I%root/rust/project/include %t.cpp %S/Inputs/table_main.cpp -o %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=EXE

// CHECK-LABEL: emitHLS.func @lookup(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i8>, %[[OUT:.*]]: !emitHLS.stream<i8>)
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[T:.*]] = emitHLS.array rom : !emitHLS.array<256xi8> = dense<"0x7F7E7D
// CHECK:         %[[X:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i8>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[X]] : i8 to index
// CHECK-NEXT:    %[[J:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK-NEXT:    %[[V:.*]] = emitHLS.load %[[T]][%[[J]]] : !emitHLS.array<256xi8>
// CHECK-NEXT:    emitHLS.stream_write %[[OUT]], %[[V]] : !emitHLS.stream<i8>
// CPP-LABEL: void lookup(
// CPP:         const int8_t [[X:v[0-9]+]] = arg0.read();
// CPP-NEXT:    const int [[I:v[0-9]+]] = static_cast<int>([[X]]);
// CPP-NEXT:    const int [[J:v[0-9]+]] = [[I]] + v{{[0-9]+}};
// CPP-NEXT:    const int8_t [[V:v[0-9]+]] = [[T:[a-z0-9_]+]][[[J]]];
// CPP-NEXT:    arg1.write([[V]]);
// EXE: 256 of 256 correct

module {
  memref.global "private" constant @table : memref<256xi8> = dense<[127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30, -31, -32, -33, -34, -35, -36, -37, -38, -39, -40, -41, -42, -43, -44, -45, -46, -47, -48, -49, -50, -51, -52, -53, -54, -55, -56, -57, -58, -59, -60, -61, -62, -63, -64, -65, -66, -67, -68, -69, -70, -71, -72, -73, -74, -75, -76, -77, -78, -79, -80, -81, -82, -83, -84, -85, -86, -87, -88, -89, -90, -91, -92, -93, -94, -95, -96, -97, -98, -99, -100, -101, -102, -103, -104, -105, -106, -107, -108, -109, -110, -111, -112, -113, -114, -115, -116, -117, -118, -119, -120, -121, -122, -123, -124, -125, -126, -127, -128]>

  dfg.process @load(%mem: memref<256xi8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<load>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c1 {
      %v = memref.load %mem[%i] : memref<256xi8>
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  dfg.process @lookup(%in: !dfg.in<i8>, %out: !dfg.out<i8>) attributes {kind = #dfg.kind<pure_parallel>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c1 {
      %x = dfg.pull %in : !dfg.in<i8>
      %ix = arith.index_cast %x : i8 to index
      %j = arith.addi %ix, %c128 : index
      %t = memref.get_global @table : memref<256xi8>
      %v = memref.load %t[%j] : memref<256xi8>
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  dfg.process @store(%in: !dfg.in<i8>, %mem: memref<256xi8>) attributes {kind = #dfg.kind<store>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    scf.for %i = %c0 to %c256 step %c1 {
      %v = dfg.pull %in : !dfg.in<i8>
      memref.store %v, %mem[%i] : memref<256xi8>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  dfg.graph @lookups(%x: memref<256xi8>, %y: memref<256xi8>) attributes {ming.num_inputs = 1 : i64} {
    %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
    %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
    dfg.instantiate @store(%r1, %y) : !dfg.in<i8>, memref<256xi8>
    dfg.instantiate @lookup(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
    dfg.instantiate @load(%x, %w0) : memref<256xi8>, !dfg.out<i8>
  }
}
