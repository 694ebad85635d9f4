// The first/last-event searches do not step through iterations: conditions
// monotone in an induction variable (bounds) are bisected to where they
// change, periodic ones (stride grids) are tried over one period. Before,
// these processes ran the search out of its budget (2e6 iterations) and got
// approximate figures, or took minutes where each try was itself a search.
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s
// CHECK-NOT: budget exhausted

module {
  // One pull per iteration, pipelined at II 1 (depth 2: pull 1, push 1);
  // a push only where n >= 999999993 and (n - 999999990) mod 7 == 5: first
  // at n = 999999995, so first = 999999995 * II + depth = 999999997. The
  // former search gave up after 2e6 iterations (first=2000002, "approximate").
  // CHECK: remark: process @far: cycles=1000000001 first=999999997 dsp=0 bram18k=0 pre=0 tail=2
  dfg.process @far(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %cN = arith.constant 1000000000 : index
    %cS = arith.constant 999999990 : index
    %cL = arith.constant 999999993 : index
    scf.for %i = %c0 to %cN step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      %ge = arith.cmpi sge, %i, %cL : index
      %d = arith.subi %i, %cS : index
      %r = arith.remsi %d, %c7 : index
      %on = arith.cmpi eq, %r, %c5 : index
      %both = arith.andi %ge, %on : i1
      scf.if %both {
        dfg.push %v, %out : !dfg.out<i32>
      }
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // A window-like nest: 100000 rows and columns (1e10 pixels, the nest
  // flattened at II 1), an output every 4th row and column from (99990,
  // 99990) on: the first push at pixel 99990 * 100000 + 99990, plus depth 2.
  // CHECK: remark: process @nest: cycles=10000000002 first=9999099992 dsp=0 bram18k=0 pre=0 tail=3
  dfg.process @nest(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cN = arith.constant 100000 : index
    %cK = arith.constant 99990 : index
    scf.for %r = %c0 to %cN step %c1 {
      scf.for %c = %c0 to %cN step %c1 {
        %v = dfg.pull %in : !dfg.in<i32>
        %r0 = arith.subi %r, %cK : index
        %c0k = arith.subi %c, %cK : index
        %rok = arith.cmpi sge, %r, %cK : index
        %cok = arith.cmpi sge, %c, %cK : index
        %rg = arith.remui %r0, %c4 : index
        %cg = arith.remui %c0k, %c4 : index
        %rz = arith.cmpi eq, %rg, %c0 : index
        %cz = arith.cmpi eq, %cg, %c0 : index
        %a = arith.andi %rok, %cok : i1
        %b = arith.andi %rz, %cz : i1
        %all = arith.andi %a, %b : i1
        scf.if %all {
          dfg.push %v, %out : !dfg.out<i32>
        }
      } {ming.loop = #ming.loop<ii = 1>}
    }
  }
}
