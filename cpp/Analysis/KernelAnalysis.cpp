// Kernel analysis: Algorithms 1 and 2 of the MING paper, extended to record
// every sliding axis (not only the first) and the loop trip counts.
#include "ming/Analysis/KernelAnalysis.h"

#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;

namespace ming {

StringRef stringifyKernelClass(KernelClass kind) {
  switch (kind) {
  case KernelClass::PureParallel:
    return "pure_parallel";
  case KernelClass::RegularReduction:
    return "regular_reduction";
  case KernelClass::SlidingWindow:
    return "sliding_window";
  }
  return "unknown";
}

namespace {
/// A term `coeff * d_dim` of an affine sum.
struct Term {
  unsigned dim;
  int64_t coeff;
};
} // namespace

/// Splits `expr` into terms c * d_i (c default 1). Fails on anything else:
/// constants, mods, floordivs, symbols.
static bool collectTerms(AffineExpr expr, SmallVectorImpl<Term> &terms) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    terms.push_back({dim.getPosition(), 1});
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return false;
  if (bin.getKind() == AffineExprKind::Add)
    return collectTerms(bin.getLHS(), terms) && collectTerms(bin.getRHS(), terms);
  if (bin.getKind() == AffineExprKind::Mul) {
    AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
    if (isa<AffineConstantExpr>(lhs))
      std::swap(lhs, rhs);
    auto dim = dyn_cast<AffineDimExpr>(lhs);
    auto cst = dyn_cast<AffineConstantExpr>(rhs);
    if (!dim || !cst || cst.getValue() <= 0)
      return false;
    terms.push_back({dim.getPosition(), cst.getValue()});
    return true;
  }
  return false;
}

FailureOr<KernelInfo> analyzeKernel(linalg::GenericOp op) {
  KernelInfo info;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  llvm::SmallDenseSet<unsigned> taps;
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(kWindowTaps))
    for (int64_t d : attr.asArrayRef())
      taps.insert(static_cast<unsigned>(d));
  // A gather's tap dims slide like reductions; they are parallel otherwise.
  auto isParallel = [&](unsigned d) {
    return iters[d] == utils::IteratorType::parallel && !taps.contains(d);
  };

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (int64_t r : ranges)
    if (ShapedType::isDynamic(r))
      return failure();
  info.tripCounts.assign(ranges.begin(), ranges.end());

  for (Operation &inner : op.getRegion().front().without_terminator())
    info.payloadOps.push_back(inner.getName().getStringRef());

  bool anyReduction = llvm::any_of(iters, [](auto t) { return t == utils::IteratorType::reduction; });
  bool slides = anyReduction || !taps.empty();

  // Algorithms 1 and 2 walk the same input map results.
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        if (iters[dim.getPosition()] == utils::IteratorType::parallel)
          info.parallel.insert(dim.getPosition());
        else
          info.reduction.insert(dim.getPosition());
        continue;
      }
      // A constant index (e.g. a size-1 axis read at 0) names no loop
      // dimension and never slides. Algorithm 2 read literally would put it
      // in O, but O is what the line buffer keeps per sliding input axis, and
      // a fixed index needs no buffering, so it is left out of every set.
      if (isa<AffineConstantExpr>(expr))
        continue;
      // O is a set (Algorithm 2 line 9 is a union): an expression that several
      // inputs share, e.g. two images read through the same window, counts once.
      info.original.insert(expr);
      SmallVector<Term> terms;
      if (!slides || !collectTerms(expr, terms) || terms.size() != 2)
        continue;
      Term a = terms[0], b = terms[1];
      if (isParallel(a.dim) == isParallel(b.dim))
        continue;
      if (!isParallel(a.dim))
        std::swap(a, b);
      info.windows.push_back({input->getOperandNumber(), static_cast<unsigned>(pos), a.dim,
                              b.dim, a.coeff, b.coeff});
    }
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (isParallel(dim.getPosition()) && !info.parallel.contains(dim.getPosition()))
          info.window.insert(dim.getPosition());
  }

  if (!info.windows.empty()) {
    info.kind = KernelClass::SlidingWindow;
    info.stride = info.windows.front().stride;
    info.dilation = info.windows.front().dilation;
  } else if (anyReduction)
    info.kind = KernelClass::RegularReduction;
  else
    info.kind = KernelClass::PureParallel;
  return info;
}

} // namespace ming
