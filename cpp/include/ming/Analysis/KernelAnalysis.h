// Kernel analysis of linalg.generic (MING paper, Sec. IV-A/B): the kernel class
// (Algorithm 1) and the P/R/O/W iterator sets (Algorithm 2) that decide which
// streaming structure a layer gets (line buffer, row buffer or none).
#ifndef MING_ANALYSIS_KERNELANALYSIS_H
#define MING_ANALYSIS_KERNELANALYSIS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SetVector.h"

namespace ming {

enum class KernelClass { PureParallel, RegularReduction, SlidingWindow };

llvm::StringRef stringifyKernelClass(KernelClass kind);

/// One input access `s * d_p + delta * d_r` (parallel d_p, reduction d_r).
struct WindowAccess {
  unsigned operand;   // input operand number
  unsigned result;    // result position in that operand's indexing map
  unsigned parallelDim;
  unsigned reductionDim;
  int64_t stride;     // s
  int64_t dilation;   // delta
};

struct KernelInfo {
  KernelClass kind = KernelClass::PureParallel;
  /// Stride and dilation of the first window access (Algorithm 1); 0 if none.
  int64_t stride = 0, dilation = 0;
  /// Every window access, in input-operand then result order: one per input
  /// axis that slides, so two windowed inputs give two entries per spatial
  /// axis (Algorithm 1 stops at the first; line buffers need all of them).
  llvm::SmallVector<WindowAccess> windows;
  /// Algorithm 2, as sets kept in order of first appearance. P, R, W hold loop
  /// dimensions; O holds the compound input expressions (the original input
  /// axes the line buffer keeps), each once even when several inputs share it.
  llvm::SetVector<unsigned> parallel, reduction, window;
  llvm::SetVector<mlir::AffineExpr> original;
  /// Static loop ranges, one per loop dimension.
  llvm::SmallVector<int64_t> tripCounts;
  /// Names of the payload operations, in order (without the terminator).
  llvm::SmallVector<llvm::StringRef> payloadOps;
};

/// Loop dims of an all-parallel generic that walk a window's taps (a dense
/// integer array attribute on the generic): such a generic gathers the
/// windows of a convolution (convert-linalg-to-dfg splits a convolution into
/// that gather and a contraction over its output), and is analysed as a
/// sliding window whose tap dims play the reduction dims' part. Only
/// convert-linalg-to-dfg sets it, on generics it creates and lowers itself.
inline constexpr llvm::StringLiteral kWindowTaps = "ming.window_taps";

/// Analyses `op`. Fails (without diagnostics) only when the loop ranges are
/// not static.
mlir::FailureOr<KernelInfo> analyzeKernel(mlir::linalg::GenericOp op);

} // namespace ming

#endif
