// Every pass of ming, registered in ming-opt and in the mlir-opt plugin.
#ifndef MING_TRANSFORMS_PASSES_TD
#define MING_TRANSFORMS_PASSES_TD

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

#endif
