// ming-test-kernel-analysis: reports the kernel analysis of each linalg.generic
// as a remark, so lit tests can pin Algorithms 1 and 2 down.
#include "ming/Analysis/KernelAnalysis.h"
#include "TestPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/raw_ostream.h"

namespace ming {
#define GEN_PASS_DEF_TESTKERNELANALYSIS
#include "ming/Test/TestPasses.h.inc"
} // namespace ming

using namespace mlir;

namespace {
struct TestKernelAnalysis : ming::impl::TestKernelAnalysisBase<TestKernelAnalysis> {
  void runOnOperation() override {
    getOperation()->walk([](linalg::GenericOp op) {
      FailureOr<ming::KernelInfo> info = ming::analyzeKernel(op);
      if (failed(info)) {
        op.emitRemark("kernel: dynamic loop ranges");
        return;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      auto dims = [&](const llvm::SetVector<unsigned> &set) {
        os << '{';
        llvm::interleaveComma(set, os, [&](unsigned d) { os << 'd' << d; });
        os << '}';
      };
      os << "kernel: " << ming::stringifyKernelClass(info->kind);
      if (info->kind == ming::KernelClass::SlidingWindow)
        os << " stride=" << info->stride << " dilation=" << info->dilation;
      os << " P=";
      dims(info->parallel);
      os << " R=";
      dims(info->reduction);
      os << " O={";
      llvm::interleaveComma(info->original, os);
      os << "} W=";
      dims(info->window);
      os << " windows=[";
      llvm::interleaveComma(info->windows, os, [&](const ming::WindowAccess &w) {
        os << 'd' << w.parallelDim << "*" << w.stride << "+d" << w.reductionDim << "*"
           << w.dilation;
      });
      os << "] trips=[";
      llvm::interleaveComma(info->tripCounts, os);
      os << "] ops=[";
      llvm::interleaveComma(info->payloadOps, os);
      os << ']';
      op.emitRemark(text);
    });
  }
};
} // namespace
