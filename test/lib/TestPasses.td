// The test-only passes (their sources beside this file): they print what an
// analysis computes, or crash on purpose, so lit can check it. Registered in
// ming-opt and the mlir-opt plugin like every other pass.
#ifndef MING_TEST_PASSES_TD
#define MING_TEST_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestKernelAnalysis : Pass<"ming-test-kernel-analysis"> {
  let summary = "Print the kernel class and P/R/O/W sets of every linalg.generic";
  let description = [{
    Runs the kernel analysis (MING paper, Algorithms 1 and 2) on each
    `linalg.generic` and reports the result as a remark at the op: kernel
    class, stride and dilation of the sliding window, the parallel (P),
    reduction (R), original-input (O) and window (W) sets, the loop trip
    counts and the payload operations. For tests; changes nothing.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def TestCostModel : Pass<"ming-test-cost-model", "mlir::ModuleOp"> {
  let summary = "Report the cost model of every dfg.process and dfg.graph";
  let description = [{
    Runs the cost model (docs/cost-model.md) and reports, as remarks: per
    process its cycles, first-output latency, DSP and BRAM18K; per loop its
    trip count, unroll, II (and what limits it), pipeline depth, cycles and
    operators; per buffer and ROM its banks, storage and BRAM18K; per channel
    its FIFO BRAM18K; per graph the dataflow latency, the paper's sum, the
    critical path and the totals. `overrides` asks about hypothetical
    directives without changing the IR. For tests; changes nothing.
  }];
  let options = [
    Option<"autoPartition", "auto-partition", "bool", /*default=*/"false",
           "Assume buffers partitioned so that memory ports never limit II">,
    Option<"target", "target", "std::string", /*default=*/"",
           "A JSON target description (default: the built-in one)">,
    Option<"axiBits", "axi-bits", "int64_t", /*default=*/"0",
           "The m_axi port width in bits (0: the target's axi_bits)">,
    ListOption<"overrides", "overrides", "std::string",
               "Hypothetical directives: <process>.L<id>.unroll=N (0 = full), "
               "<process>.L<id>.pipeline=0|1, <process>.L<id>.ii=N, "
               "<process>.arg<N>.lanes=N">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def TestCrash : Pass<"ming-test-crash"> {
  let summary = "Crash on purpose at an op marked `ming.test_crash` (tests only)";
  let description = [{
    Exercises ming-opt's crash report: at the first operation carrying a
    `ming.test_crash` attribute it dies the way a bug would, with `kind` =
    `segv` (a write through a null pointer) or `abort` (what a failed
    assertion or an LLVM fatal error does). ming-opt must then name this pass
    and that operation and exit with status 70. Does nothing on other input.
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"segv\"",
           "how to crash: segv or abort">,
  ];
}

#endif
