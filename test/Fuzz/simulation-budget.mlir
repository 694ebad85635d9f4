// Found by scripts/fuzz.py (test/Dialect/Dfg/ops.mlir with a loop bound mutated
// to 2^32): --hls simulated the design for minutes (the model: 1.4e11 cycles)
// before it could write the project. Designs the model puts beyond the
// simulation budget (2^28 cycles) are not simulated: --hls warns and keeps the
// DSE's FIFO depths, --simulate stops with an error.
// RUN: rm -rf %t
// RUN: ming-opt %s --hls %t 2>&1 | FileCheck %s --check-prefix=HLS
// HLS: ming-opt: warning: no simulation: the model puts the design at {{[0-9]+}} cycles, more than the simulator's budget of 268435456; the FIFO depths stay the DSE's
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.json
// REPORT: "simulated_cycles": null
// RUN: not ming-opt %s --simulate 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: ming-opt: error: the model puts the design at {{[0-9]+}} cycles, more than the simulator's budget of 268435456
dfg.process @load(%mem: memref<1x2x4x4xi8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
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
