// Round trip of every dfg op and type: parse, print, parse again.
// RUN: ming-opt %s | ming-opt | FileCheck %s

// CHECK-LABEL: dfg.process @load
// CHECK-SAME: (%{{.*}}: memref<1x2x4x4xi8>, %{{.*}}: !dfg.out<i8, lanes = 2>)
// CHECK-SAME: attributes {kind = #dfg.kind<load>}
dfg.process @load(%mem: memref<1x2x4x4xi8>, %out: !dfg.out<i8, lanes = 2>)
    attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = memref.load %mem[%c0, %c, %h, %w] : memref<1x2x4x4xi8>
        // CHECK: dfg.push %{{.*}}, %{{.*}}[%{{.*}}] : !dfg.out<i8, lanes = 2>
        dfg.push %v, %out[%c] : !dfg.out<i8, lanes = 2>
      }
    }
  }
}

// CHECK-LABEL: dfg.process @relu
// CHECK-SAME: (%{{.*}}: !dfg.in<i8, lanes = 2>, %{{.*}}: !dfg.out<i8, lanes = 2>)
// CHECK-SAME: attributes {ii = 1 : i64, kind = #dfg.kind<pure_parallel>}
dfg.process @relu(%in: !dfg.in<i8, lanes = 2>, %out: !dfg.out<i8, lanes = 2>)
    attributes {kind = #dfg.kind<pure_parallel>, ii = 1} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %lane = %c0 to %c2 step %c1 {
      // CHECK: %[[V:.*]] = dfg.pull %{{.*}}[%{{.*}}] : !dfg.in<i8, lanes = 2>
      %v = dfg.pull %in[%lane] : !dfg.in<i8, lanes = 2>
      %r = arith.maxsi %v, %zero : i8
      dfg.push %r, %out[%lane] : !dfg.out<i8, lanes = 2>
    }
  }
}

// CHECK-LABEL: dfg.process @store
// CHECK-SAME: attributes {kind = #dfg.kind<store>}
dfg.process @store(%in: !dfg.in<i8, lanes = 2>, %mem: memref<1x2x4x4xi8>)
    attributes {kind = #dfg.kind<store>} {
}

// Single-lane ports print without the lane count.
// CHECK-LABEL: dfg.process @fork
// CHECK-SAME: (%{{.*}}: !dfg.in<f32>, %{{.*}}: !dfg.out<f32>, %{{.*}}: !dfg.out<f32>)
dfg.process @fork(%in: !dfg.in<f32, lanes = 1>, %a: !dfg.out<f32>, %b: !dfg.out<f32>)
    attributes {kind = #dfg.kind<fork>} {
  // CHECK: dfg.pull %{{.*}} : !dfg.in<f32>
  %v = dfg.pull %in : !dfg.in<f32>
  // CHECK: dfg.push %{{.*}}, %{{.*}} : !dfg.out<f32>
  dfg.push %v, %a : !dfg.out<f32>
  dfg.push %v, %b : !dfg.out<f32>
}

// The graph is a graph region: uses may precede definitions.
// CHECK-LABEL: dfg.graph @top
// CHECK-SAME: (%[[X:.*]]: memref<1x2x4x4xi8>, %[[Y:.*]]: memref<1x2x4x4xi8>)
dfg.graph @top(%x: memref<1x2x4x4xi8>, %y: memref<1x2x4x4xi8>) {
  // CHECK: dfg.instantiate @store(%[[R1:.*]], %[[Y]]) : !dfg.in<i8, lanes = 2>, memref<1x2x4x4xi8>
  dfg.instantiate @store(%r1, %y) : !dfg.in<i8, lanes = 2>, memref<1x2x4x4xi8>
  // CHECK: %[[W0:.*]], %[[R0:.*]] = dfg.channel<i8, lanes = 2, depth = 2>
  %w0, %r0 = dfg.channel<i8, lanes = 2, depth = 2>
  // CHECK: %[[W1:.*]], %[[R1]] = dfg.channel<i8, lanes = 2, depth = 16>
  %w1, %r1 = dfg.channel<i8, lanes = 2, depth = 16>
  // CHECK: dfg.instantiate @load(%[[X]], %[[W0]]) : memref<1x2x4x4xi8>, !dfg.out<i8, lanes = 2>
  dfg.instantiate @load(%x, %w0) : memref<1x2x4x4xi8>, !dfg.out<i8, lanes = 2>
  // CHECK: dfg.instantiate @relu(%[[R0]], %[[W1]]) : !dfg.in<i8, lanes = 2>, !dfg.out<i8, lanes = 2>
  dfg.instantiate @relu(%r0, %w1) : !dfg.in<i8, lanes = 2>, !dfg.out<i8, lanes = 2>
}

// A multi-lane port without lane indices is read and written round robin.
// CHECK-LABEL: dfg.process @round_robin
// CHECK: dfg.pull %{{.*}} : !dfg.in<i8, lanes = 4>
// CHECK: dfg.push %{{.*}}, %{{.*}} : !dfg.out<i8, lanes = 2>
dfg.process @round_robin(%in: !dfg.in<i8, lanes = 4>, %out: !dfg.out<i8, lanes = 2>) {
  %v = dfg.pull %in : !dfg.in<i8, lanes = 4>
  dfg.push %v, %out : !dfg.out<i8, lanes = 2>
}
