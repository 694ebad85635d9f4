// The float functions on erf, log1p, log, tanh and pow, and small constant
// powers, in the cost model: erf f32 48 DSP and 40 cycles, log1p and log
// f32 24 DSP and 30 cycles, tanh f32 11 DSP and 28 cycles
// (targets/vitis-ultrascale-200mhz.json); x^3 as two mulf in a chain (the
// C++ writes x * x * x): 6 DSP, 6 cycles; x^0 is the constant 1, free.
// Depth: pull 1, erf 41, log1p 71, x^3 77, x^0 at once, x^3 + x^0 (addf 4)
// 81, push 82; 15 + 82 = 97 cycles. DSP 48 + 24 + 6 + 2 (addf) = 80.
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s

module {
  // CHECK: remark: L0: trip=16 unroll=1 pipelined ii=1 (request) depth=82 cycles=97 dsp=80 ops=[addf f32 x1, erff f32 x1, fpowi 3 f32 x1, log1pf f32 x1]
  // CHECK-NOT: not in the table
  dfg.process @act(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %k3 = arith.constant 3 : i32
    %k0 = arith.constant 0 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      %x = dfg.pull %in : !dfg.in<f32>
      %e = math.erf %x : f32
      %l = math.log1p %e : f32
      %p = math.fpowi %l, %k3 : f32, i32
      %q = math.fpowi %p, %k0 : f32, i32
      %s = arith.addf %p, %q : f32
      dfg.push %s, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // Log, tanh, then a power by a run-time exponent (pow 34 DSP, 43 cycles):
  // pull 1, log 31, tanh 59, pow 102, push 103; 15 + 103 = 118 cycles,
  // 24 + 11 + 34 DSP.
  // CHECK: remark: L0: trip=16 unroll=1 pipelined ii=1 (request) depth=103 cycles=118 dsp=69 ops=[logf f32 x1, powf f32 x1, tanhf f32 x1]
  dfg.process @logtanh(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %x = dfg.pull %in : !dfg.in<f32>
      %l = math.log %x : f32
      %t = math.tanh %l : f32
      %p = math.powf %t, %x : f32
      dfg.push %p, %out : !dfg.out<f32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}
