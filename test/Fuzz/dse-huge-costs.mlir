// Found by scripts/fuzz.py (test/Fuzz/simulation-budget.mlir with a loop bound
// mutated to 0x7FC00000): 4 x 2^32 x 2^31 iterations give cost figures HiGHS
// takes as infinite; it refused the problem and the highs crate panicked
// ("invalid problem", exit 101). Figures the ILP cannot represent are now a DSE
// error naming the process, in --dse and --hls alike.
// RUN: not ming-opt %s --dse 2>&1 | FileCheck %s
// RUN: not ming-opt %s --hls %t 2>&1 | FileCheck %s
// CHECK: error: {{.*}}process 'load' has a configuration of {{.*}} cycles, {{.*}} beyond what the ILP can represent
// CHECK-NOT: panicked
dfg.process @load(%mem: memref<1x2x4x4xi8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2143289344 : index
  %big = arith.constant 4294967296 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %big step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = memref.load %mem[%c0, %c, %h, %c0] : memref<1x2x4x4xi8>
        dfg.push %v, %out : !dfg.out<i8>
      }
    }
  }
}
dfg.process @store(%in: !dfg.in<i8>, %mem: memref<1x2x4x4xi8>)
    attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 4294967296 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %big step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = dfg.pull %in : !dfg.in<i8>
        memref.store %v, %mem[%c0, %c, %h, %c0] : memref<1x2x4x4xi8>
      }
    }
  }
}
dfg.graph @top(%x: memref<1x2x4x4xi8>, %y: memref<1x2x4x4xi8>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<1x2x4x4xi8>, !dfg.out<i8>
  dfg.instantiate @store(%r0, %y) : !dfg.in<i8>, memref<1x2x4x4xi8>
}
