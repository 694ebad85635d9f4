// The output of the conversion translates to C++ that compiles with the
// project's HLS headers, both as synthesised (-D__SYNTHESIS__) and as the
// threaded C simulation; this residual graph, y = relu(x) + x, also runs.
// (-Wno-unknown-pragmas: g++ warns on every `#pragma HLS` under -Wall.)
// REQUIRES: ming-opt
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' -o %t.mlir
// RUN: ming-opt %t.mlir --emit-hls-cpp -o %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -pthread -I%root/rust/project/include %t.cpp %S/Inputs/residual_main.cpp -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: residual: 8 of 8 correct

// The kernels with buffers, variables and weights compile too.
// RUN: ming-opt %S/buffers.mlir --pass-pipeline='builtin.module(convert-dfg-to-emithls)' -o %t.buffers.mlir
// RUN: ming-opt %t.buffers.mlir --emit-hls-cpp -o %t.buffers.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.buffers.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -I%root/rust/project/include %t.buffers.cpp

dfg.process @load(%mem: memref<8xf32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %mem[%i] : memref<8xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1, label = "load_x">}
}

dfg.process @fork(%in: !dfg.in<f32>, %a: !dfg.out<f32>, %b: !dfg.out<f32>) attributes {kind = #dfg.kind<fork>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    dfg.push %v, %a : !dfg.out<f32>
    dfg.push %v, %b : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @relu(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    %r = arith.maximumf %v, %zero : f32
    dfg.push %r, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @add(%a: !dfg.in<f32>, %b: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = dfg.pull %a : !dfg.in<f32>
    %y = dfg.pull %b : !dfg.in<f32>
    %s = arith.addf %x, %y : f32
    dfg.push %s, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<f32>, %mem: memref<8xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = dfg.pull %in : !dfg.in<f32>
    memref.store %v, %mem[%i] : memref<8xf32>
  } {ming.loop = #ming.loop<ii = 1, label = "store_y">}
}

dfg.graph @residual(%x: memref<8xf32>, %y: memref<8xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 2>
  %w2, %r2 = dfg.channel<f32, lanes = 1, depth = 2>
  %w3, %r3 = dfg.channel<f32, lanes = 1, depth = 2>
  %w4, %r4 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @store(%r4, %y) : !dfg.in<f32>, memref<8xf32>
  dfg.instantiate @add(%r2, %r3, %w4) : !dfg.in<f32>, !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @relu(%r1, %w2) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @fork(%r0, %w1, %w3) : !dfg.in<f32>, !dfg.out<f32>, !dfg.out<f32>
  dfg.instantiate @load(%x, %w0) : memref<8xf32>, !dfg.out<f32>
}
