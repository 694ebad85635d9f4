// An internal fault is a diagnostic: a crash inside a pass (here the test
// pass ming-test-crash, as a bug would) prints the pass and the operation it
// was working on and exits with status 70; rejected input exits with 1.
// RUN: sh -c 'ming-opt %s --ming-test-crash; echo "exit status $?"' 2>&1 | FileCheck %s
// RUN: sh -c 'ming-opt %s --ming-test-crash=kind=abort; echo "exit status $?"' 2>&1 | FileCheck %s
// RUN: sh -c 'ming-opt %s --pass-pipeline="builtin.module(func.func(ming-test-crash))"; echo "exit status $?"' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: sh -c 'ming-opt %S/Inputs/does-not-exist.mlir --ming-test-crash; echo "exit status $?"' 2>&1 | FileCheck %s --check-prefix=REJECTED

// CHECK: ming-opt: internal error: ming-opt crashed in pass 'ming-test-crash' on 'builtin.module'
// CHECK-NEXT: while crashing on purpose at 'arith.addi' at loc("{{.*}}internal-error.mlir":[[@LINE+8]]:
// CHECK-NEXT: this is a bug in ming, not in the input
// CHECK: exit status 70
// NESTED: crashed in pass 'ming-test-crash' on 'func.func' at loc("{{.*}}internal-error.mlir":[[@LINE+4]]:
// NESTED: exit status 70
// REJECTED-NOT: internal error
// REJECTED: exit status 1
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a {ming.test_crash} : i32
  return %0 : i32
}
