// Channels with several lanes, as the DSE widens them: only the channel and
// port types change, the bodies keep their round-robin pulls and pushes. A
// channel of L lanes becomes ONE stream of words hls::vector<T, L>; each
// multi-lane port keeps a word and a lane, so one FIFO access moves L
// elements and the element order is the one-lane order. The lane is the
// innermost iteration mod L where that loop holds the port's only transfer
// and L divides its trip count, else a counter.
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s

// The C++ and a C simulation against the reference relu (store index (i, j)
// gets max(x[i][j], 0), so any reordering of the lanes would show).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ming-opt %s --hls %t/out --no-fifo-minimize
// RUN: FileCheck %s --check-prefix=CPP < %t/out/lanes.cpp
// RUN: python3 -c "import sys; d = bytes((i * 53 + 7) & 255 for i in range(16)); open(sys.argv[1] + '/in0.bin', 'wb').write(d); open(sys.argv[1] + '/ref0.bin', 'wb').write(bytes(b if b < 128 else 0 for b in d))" %t/out/data
// RUN: make -C %t/out csim CXXFLAGS_EXTRA=-Werror 2>&1 | FileCheck %s --check-prefix=CSIM
// CSIM-NOT: WARNING
// CSIM: out0: 0 mismatches of 16
// CSIM-NEXT: PASS
// The synthesis view of the same C++ (no threads; the vendor-less headers).
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%t/out/include %t/out/lanes.cpp

// CPP:      #include <hls_stream.h>
// CPP-NEXT: #include <hls_vector.h>
// CPP:      void load(int8_t arg0[2][8], hls::stream<hls::vector<int8_t, 4>> &arg1);
// CPP-NEXT: void relu(hls::stream<hls::vector<int8_t, 4>> &arg0, hls::stream<hls::vector<int8_t, 2>> &arg1);
// CPP-NEXT: void store(hls::stream<hls::vector<int8_t, 2>> &arg0, int8_t arg1[2][8]);
// CPP:      void load(
// CPP:        hls::vector<int8_t, 4> [[W:v[0-9]+]];
// CPP:          const int [[I:v[0-9]+]] = static_cast<unsigned>(i1) % static_cast<unsigned>({{v[0-9]+}});
// CPP-NEXT:     [[W]][[[I]]] = {{v[0-9]+}};
// CPP:      void relu(
// CPP:        hls::vector<int8_t, 4> [[W0:v[0-9]+]];
// CPP-NEXT:   int32_t [[L0:v[0-9]+]] = [[ZERO:v[0-9]+]];
// CPP-NEXT:   hls::vector<int8_t, 2> [[W1:v[0-9]+]];
// CPP-NEXT:   int32_t [[L1:v[0-9]+]] = [[ZERO]];
// CPP:          if ({{v[0-9]+}}) {
// CPP-NEXT:       const hls::vector<int8_t, 4> [[R:v[0-9]+]] = arg0.read();
// CPP-NEXT:       [[W0]] = [[R]];
// CPP-NEXT:     }
// CPP:          [[W1]][{{v[0-9]+}}] = {{v[0-9]+}};
// CPP:          if ({{v[0-9]+}}) {
// CPP-NEXT:       const hls::vector<int8_t, 2> [[G:v[0-9]+]] = [[W1]];
// CPP-NEXT:       arg1.write([[G]]);
// CPP-NEXT:     }
// CPP:      hls::stream<hls::vector<int8_t, 4>, 2> {{v[0-9]+}}("load_to_relu");
// CPP:      hls::stream<hls::vector<int8_t, 2>, 3> {{v[0-9]+}}("relu_to_store");

// The only push is in the innermost loop (8 iterations, 4 lanes): the lane is
// i % 4, no counter.
// CHECK-LABEL: emitHLS.func @load(
// CHECK-SAME:      %{{.*}}: !emitHLS.array<2x8xi8>, %[[OUT:.*]]: !emitHLS.stream<vector<4xi8>>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[WORD:.*]] = emitHLS.var : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    emitHLS.for %{{.*}} = 0 to 2 step 1 {
// CHECK-NEXT:      emitHLS.for %[[J:.*]] = 0 to 8 step 1 {
// CHECK-NEXT:        emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:        %[[V:.*]] = emitHLS.load %{{.*}}[%{{.*}}, %[[J]]] : !emitHLS.array<2x8xi8>
// push: word[lane] = v; if (lane == 3) s.write(word)
// CHECK-NEXT:        %[[L:.*]] = arith.remui %[[J]], %[[C4]] : index
// CHECK-NEXT:        emitHLS.store %[[V]], %[[WORD]][%[[L]]] : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:        %[[LAST:.*]] = arith.cmpi eq, %[[L]], %[[C3]] : index
// CHECK-NEXT:        emitHLS.if %[[LAST]] {
// CHECK-NEXT:          %[[W:.*]] = emitHLS.get %[[WORD]] : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:          emitHLS.stream_write %[[OUT]], %[[W]] : !emitHLS.stream<vector<4xi8>>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
dfg.process @load(%mem: memref<2x8xi8>, %out: !dfg.out<i8, lanes = 4>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %mem[%i, %j] : memref<2x8xi8>
      dfg.push %v, %out : !dfg.out<i8, lanes = 4>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

// Two pulls and two pushes per iteration: each multi-lane port keeps a lane
// counter that all its transfers share.
// CHECK-LABEL: emitHLS.func @relu(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<vector<4xi8>>, %[[OUT:.*]]: !emitHLS.stream<vector<2xi8>>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[WIN:.*]] = emitHLS.var : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:    %[[LIN:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[C0]]
// CHECK-NEXT:    %[[WOUT:.*]] = emitHLS.var : !emitHLS.var<vector<2xi8>>
// CHECK-NEXT:    %[[LOUT:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[C0]]
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         emitHLS.for %{{.*}} = 0 to 8 step 1 {
// The unroll pragma stays: it does not change what the C++ computes.
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      emitHLS.pragma.unroll factor = 2
// pull: if (lane == 0) word = s.read(); v = word[lane]; lane = lane == 3 ? 0 : lane + 1
// CHECK-NEXT:      %[[L:.*]] = emitHLS.get %[[LIN]] : !emitHLS.var<i32>
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[L]], %[[C0]] : i32
// CHECK-NEXT:      emitHLS.if %[[FIRST]] {
// CHECK-NEXT:        %[[R:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<vector<4xi8>>
// CHECK-NEXT:        emitHLS.assign %[[R]], %[[WIN]] : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[V:.*]] = emitHLS.load %[[WIN]][%[[I]]] : !emitHLS.var<vector<4xi8>>
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[L]], %[[C3]] : i32
// CHECK-NEXT:      %[[N:.*]] = arith.addi %[[L]], %[[C1]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[LAST]], %[[C0]], %[[N]] : i32
// CHECK-NEXT:      emitHLS.assign %[[S]], %[[LIN]] : !emitHLS.var<i32>
// CHECK:           %[[M:.*]] = arith.maxsi %[[V]], %{{.*}} : i8
// push: word[lane] = v; if (lane == 1) s.write(word); lane = lane == 1 ? 0 : lane + 1
// CHECK:           %[[L2:.*]] = emitHLS.get %[[LOUT]] : !emitHLS.var<i32>
// CHECK-NEXT:      %[[I2:.*]] = arith.index_cast %[[L2]] : i32 to index
// CHECK-NEXT:      emitHLS.store %[[M]], %[[WOUT]][%[[I2]]] : !emitHLS.var<vector<2xi8>>
// CHECK-NEXT:      %[[LAST2:.*]] = arith.cmpi eq, %[[L2]], %[[C1]] : i32
// CHECK-NEXT:      emitHLS.if %[[LAST2]] {
// CHECK-NEXT:        %[[G:.*]] = emitHLS.get %[[WOUT]] : !emitHLS.var<vector<2xi8>>
// CHECK-NEXT:        emitHLS.stream_write %[[OUT]], %[[G]] : !emitHLS.stream<vector<2xi8>>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[N2:.*]] = arith.addi %[[L2]], %[[C1]] : i32
// CHECK-NEXT:      %[[S2:.*]] = arith.select %[[LAST2]], %[[C0]], %[[N2]] : i32
// CHECK-NEXT:      emitHLS.assign %[[S2]], %[[LOUT]] : !emitHLS.var<i32>
dfg.process @relu(%in: !dfg.in<i8, lanes = 4>, %out: !dfg.out<i8, lanes = 2>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8, lanes = 4>
    %u = dfg.pull %in : !dfg.in<i8, lanes = 4>
    %r = arith.maxsi %v, %zero : i8
    %s = arith.maxsi %u, %zero : i8
    dfg.push %r, %out : !dfg.out<i8, lanes = 2>
    dfg.push %s, %out : !dfg.out<i8, lanes = 2>
  } {ming.loop = #ming.loop<ii = 1, unroll = 2>}
}

// A loop from 1 step 2: the lane is ((j - 1) / 2) % 2.
// CHECK-LABEL: emitHLS.func @store(
// CHECK:         emitHLS.for %[[J:.*]] = 1 to 17 step 2 {
// CHECK-NEXT:      emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[J]], %{{.*}} : index
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[D]], %{{.*}} : index
// CHECK-NEXT:      %[[L:.*]] = arith.remui %[[Q]], %{{.*}} : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[L]], %{{.*}} : index
// CHECK-NEXT:      emitHLS.if %[[FIRST]] {
// CHECK-NEXT:        emitHLS.stream_read %{{.*}} : !emitHLS.stream<vector<2xi8>>
// CHECK-NEXT:        emitHLS.assign
// CHECK-NEXT:      }
// CHECK-NEXT:      %{{.*}} = emitHLS.load %{{.*}}[%[[L]]] : !emitHLS.var<vector<2xi8>>
dfg.process @store(%in: !dfg.in<i8, lanes = 2>, %mem: memref<2x8xi8>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c1 to %c17 step %c2 {
      %v = dfg.pull %in : !dfg.in<i8, lanes = 2>
      %jm = arith.subi %j, %c1 : index
      %jj = arith.divui %jm, %c2 : index
      memref.store %v, %mem[%i, %jj] : memref<2x8xi8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

// The top: one stream of words per channel, its depth the channel's (in words).
// CHECK-LABEL: emitHLS.func @lanes(
// CHECK:         %[[S0:.*]] = emitHLS.stream {ming.name = "load_to_relu"} : !emitHLS.stream<vector<4xi8>>
// CHECK-NEXT:    emitHLS.pragma.stream %[[S0]] depth = 2 : !emitHLS.stream<vector<4xi8>>
// CHECK-NEXT:    %[[S1:.*]] = emitHLS.stream {ming.name = "relu_to_store"} : !emitHLS.stream<vector<2xi8>>
// CHECK-NEXT:    emitHLS.pragma.stream %[[S1]] depth = 3 : !emitHLS.stream<vector<2xi8>>
// CHECK-NEXT:    emitHLS.call @load(%{{.*}}, %[[S0]]) : (!emitHLS.array<2x8xi8>, !emitHLS.stream<vector<4xi8>>) -> ()
// CHECK-NEXT:    emitHLS.call @relu(%[[S0]], %[[S1]]) : (!emitHLS.stream<vector<4xi8>>, !emitHLS.stream<vector<2xi8>>) -> ()
dfg.graph @lanes(%x: memref<2x8xi8>, %y: memref<2x8xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 4, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<2x8xi8>, !dfg.out<i8, lanes = 4>
  %w1, %r1 = dfg.channel<i8, lanes = 2, depth = 3>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8, lanes = 4>, !dfg.out<i8, lanes = 2>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8, lanes = 2>, memref<2x8xi8>
}
