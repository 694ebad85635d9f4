// The same shared library loads into Debian's mlir-opt-22 as a dialect plugin.
// RUN: %mlir_opt --load-dialect-plugin=%ming_plugin %s | %mlir_opt --load-dialect-plugin=%ming_plugin | FileCheck %s

// CHECK-LABEL: dfg.process @inc
// CHECK: dfg.pull %{{.*}} : !dfg.in<i32>
// CHECK: dfg.push %{{.*}}, %{{.*}} : !dfg.out<i32>
dfg.process @inc(%in: !dfg.in<i32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<pure_parallel>} {
  %one = arith.constant 1 : i32
  %v = dfg.pull %in : !dfg.in<i32>
  %r = arith.addi %v, %one : i32
  dfg.push %r, %out : !dfg.out<i32>
}
dfg.process @src(%m: memref<8xi32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<load>} {}
dfg.process @dst(%in: !dfg.in<i32>, %m: memref<8xi32>) attributes {kind = #dfg.kind<store>} {}

// CHECK-LABEL: dfg.graph @top
// CHECK: dfg.channel<i32, lanes = 1, depth = 2>
// CHECK: dfg.instantiate @inc
dfg.graph @top(%x: memref<8xi32>, %y: memref<8xi32>) {
  %w0, %r0 = dfg.channel<i32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  dfg.instantiate @src(%x, %w0) : memref<8xi32>, !dfg.out<i32>
  dfg.instantiate @inc(%r0, %w1) : !dfg.in<i32>, !dfg.out<i32>
  dfg.instantiate @dst(%r1, %y) : !dfg.in<i32>, memref<8xi32>
}
