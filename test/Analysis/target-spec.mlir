// The cost model's target description. The built-in one, written out, is
// the file shipped in targets/; a file that names a few values replaces only
// those; a wrong file is refused with what is wrong in it.
// RUN: ming-opt --print-target-spec | diff - %root/targets/vitis-ultrascale-200mhz.json
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s --check-prefix=BUILTIN
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%root/targets/vitis-ultrascale-200mhz.json})' 2>&1 | FileCheck %s --check-prefix=BUILTIN
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%S/Inputs/slow-addf.json})' 2>&1 | FileCheck %s --check-prefix=SLOW
// RUN: not ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%S/Inputs/bad-value.json})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%S/Inputs/bad-key.json})' 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%S/Inputs/bad-op.json})' 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{target=%S/Inputs/missing.json})' 2>&1 | FileCheck %s --check-prefix=MISSING
// The DSE reads the same description (ming-dse's target option): the same
// candidate (the first: nothing unrolled) costs 133 cycles built in (132 and
// the push) and 199 with the slow addf (197, the push at 2).
// RUN: ming-opt %s --ming-dse="dsp=1248 bram=288 choice=0,0,0" | FileCheck %s --check-prefix=DSE-BUILTIN
// ming-opt's --target-spec checks the file before anything runs.
// RUN: not ming-opt %s --hls %t.out --no-dse --target-spec %S/Inputs/bad-key.json 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: test ! -e %t.out
// RUN: ming-opt %s --dse --target-spec %S/Inputs/slow-addf.json | FileCheck %s --check-prefix=FLAG-DSE
// RUN: ming-opt %s --ming-dse="dsp=1248 bram=288 choice=0,0,0 target=%S/Inputs/slow-addf.json" | FileCheck %s --check-prefix=DSE-SLOW

// Built in: addf f32 4 cycles and 2 DSP, so the recurrence gives II 4; the
// pull takes 1: depth 1 + 3 (mulf) + 4 = 8 cycles; 31 * 4 + 8 = 132.
// BUILTIN: remark: L0: trip=32 unroll=1 pipelined ii=4 (recurrence) depth=8 cycles=132 dsp=5 ops=[addf f32 x1, mulf f32 x1]
// With addf 6 cycles and 3 DSP, the pull 2: II 6, depth 2 + 3 + 6 = 11,
// 31 * 6 + 11 = 197; DSP 3 + 3.
// SLOW: remark: L0: trip=32 unroll=1 pipelined ii=6 (recurrence) depth=11 cycles=197 dsp=6 ops=[addf f32 x1, mulf f32 x1]
// VALUE: error: ming-test-cost-model: {{.*}}bad-value.json: float_ops.addf.f32.dsp must be an integer of at least 0
// KEY: error: ming-test-cost-model: {{.*}}bad-key.json: unknown key 'addf_latency'
// OP: error: ming-test-cost-model: {{.*}}bad-op.json: unknown operator 'fmaf' in float_ops
// MISSING: error: ming-test-cost-model: cannot read the target description '{{.*}}missing.json'
// FLAG: error: --target-spec: {{.*}}bad-key.json: unknown key 'addf_latency'
// FLAG-DSE: dfg.graph @sum_of_squares
// DSE-BUILTIN: dfg.process @facc
// DSE-BUILTIN-SAME: ming.estimate = #ming.estimate<cycles = 133,
// DSE-SLOW: dfg.process @facc
// DSE-SLOW-SAME: ming.estimate = #ming.estimate<cycles = 199,

dfg.process @facc(%in: !dfg.in<f32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %k = %c0 to %c32 step %c1 iter_args(%a = %zero) -> (f32) {
    %x = dfg.pull %in : !dfg.in<f32>
    %m = arith.mulf %x, %x : f32
    %s = arith.addf %a, %m : f32
    scf.yield %s : f32
  } {ming.loop = #ming.loop<ii = 1>}
  dfg.push %r, %out : !dfg.out<f32>
}

dfg.process @load(%mem: memref<32xf32>, %out: !dfg.out<f32>) attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %v = memref.load %mem[%i] : memref<32xf32>
    dfg.push %v, %out : !dfg.out<f32>
  } {ming.loop = #ming.loop<ii = 1>}
}

dfg.process @store(%in: !dfg.in<f32>, %mem: memref<1xf32>) attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %v = dfg.pull %in : !dfg.in<f32>
  memref.store %v, %mem[%c0] : memref<1xf32>
}

dfg.graph @sum_of_squares(%x: memref<32xf32>, %y: memref<1xf32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<f32, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<f32, lanes = 1, depth = 2>
  dfg.instantiate @load(%x, %w0) : memref<32xf32>, !dfg.out<f32>
  dfg.instantiate @facc(%r0, %w1) : !dfg.in<f32>, !dfg.out<f32>
  dfg.instantiate @store(%r1, %y) : !dfg.in<f32>, memref<1xf32>
}
