// 1-D sliding windows (Conv1d, MaxPool1d, ...) become 2-D ones over a unit
// axis, so one line-buffer builder serves both. The windowed input gets a
// unit axis in front of its sliding axis, read at (p' + r') where p' and r'
// are new loops of one iteration, the output a unit axis in front of the
// sliding output axis, read at p'. r' takes its range from an extra unread
// input of shape [1], as a pooling op's window tensor gives the kernel size.
// The result is collapsed back, so the rest of the function is unchanged;
// the reshapes only add unit axes and cost no buffer.
#include "Normalise.h"

#include "ming/Analysis/KernelAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace ming::lowering {
namespace {

/// `type` with a unit axis inserted at `pos`.
RankedTensorType withUnitAxis(RankedTensorType type, unsigned pos) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + pos, 1);
  return RankedTensorType::get(shape, type.getElementType());
}

/// The reassociation that inserts a unit axis at `pos` into a rank-`rank`
/// tensor (or, read the other way, removes it).
SmallVector<ReassociationIndices> unitAxisReassociation(unsigned rank, unsigned pos) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d < rank; ++d) {
    ReassociationIndices group;
    unsigned base = d < pos ? d : d + 1;
    if (d == pos)
      group.push_back(pos); // the unit axis joins the dim that follows it
    group.push_back(d == pos ? pos + 1 : base);
    groups.push_back(group);
  }
  if (pos == rank) // a unit axis at the end joins the last dim
    groups.back().push_back(rank);
  return groups;
}

/// `v` with a unit axis at `pos`, keeping what convert-linalg-to-dfg reads
/// from its definition: an empty stays empty, a fill stays a fill, a
/// constant a constant, a pad a pad (of the expanded source).
Value expandUnit(RewriterBase &rewriter, Location loc, Value v, unsigned pos) {
  auto type = cast<RankedTensorType>(v.getType());
  RankedTensorType to = withUnitAxis(type, pos);
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(rewriter, loc, to.getShape(), to.getElementType());
  if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def))
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      return arith::ConstantOp::create(rewriter, loc, to, dense.reshape(to));
  if (auto fill = dyn_cast_or_null<linalg::GenericOp>(def))
    if (std::optional<Value> value = linalg::isaFillOpInterface(fill)) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, to.getShape(), to.getElementType());
      auto filled = linalg::FillOp::create(rewriter, loc, *value, empty);
      // The converter reads generics: the fill as generalised before.
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(filled.getOperation()));
      return succeeded(generic) ? generic->getResult(0) : filled.getResult(0);
    }
  if (auto pad = dyn_cast_or_null<tensor::PadOp>(def);
      pad && pad.getConstantPaddingValue() && !pad.getStaticLow().empty()) {
    Value src = expandUnit(rewriter, loc, pad.getSource(), pos);
    SmallVector<int64_t> low(pad.getStaticLow()), high(pad.getStaticHigh());
    low.insert(low.begin() + pos, 0);
    high.insert(high.begin() + pos, 0);
    SmallVector<OpFoldResult> lowOfr, highOfr;
    for (auto [l, h] : llvm::zip(low, high)) {
      lowOfr.push_back(rewriter.getIndexAttr(l));
      highOfr.push_back(rewriter.getIndexAttr(h));
    }
    return tensor::PadOp::create(rewriter, loc, withUnitAxis(pad.getResultType(), pos), src,
                                 lowOfr, highOfr, pad.getConstantPaddingValue());
  }
  return tensor::ExpandShapeOp::create(rewriter, loc, to, v,
                                       unitAxisReassociation(type.getRank(), pos));
}

/// The position in `map`'s results of the plain dimension `dim`.
std::optional<unsigned> resultOf(AffineMap map, unsigned dim) {
  for (auto [pos, e] : llvm::enumerate(map.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == dim)
      return pos;
  return std::nullopt;
}

LogicalResult lift(RewriterBase &rewriter, linalg::GenericOp op, const WindowAccess &w) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  if (op.getNumDpsInits() != 1)
    return success(); // reported by the converter
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  std::optional<unsigned> outPos = resultOf(outMap, w.parallelDim);
  if (!outPos)
    return success(); // the window builder reports it
  unsigned n = op.getNumLoops();
  AffineExpr p = getAffineDimExpr(n, ctx), r = getAffineDimExpr(n + 1, ctx);
  auto extend = [&](AffineMap m, std::optional<std::pair<unsigned, AffineExpr>> insert) {
    SmallVector<AffineExpr> results(m.getResults());
    if (insert)
      results.insert(results.begin() + insert->first, insert->second);
    return AffineMap::get(n + 2, 0, results, ctx);
  };

  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap m = op.getMatchingIndexingMap(in);
    if (in->getOperandNumber() == w.operand) {
      inputs.push_back(expandUnit(rewriter, loc, in->get(), w.result));
      maps.push_back(extend(m, std::make_pair(w.result, p + r)));
    } else {
      inputs.push_back(in->get());
      maps.push_back(extend(m, std::nullopt));
    }
  }
  // The new reduction loop's range.
  Type unitElem = rewriter.getI8Type();
  inputs.push_back(tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{1}, unitElem));
  maps.push_back(AffineMap::get(n + 2, 0, {r}, ctx));
  Value init = expandUnit(rewriter, loc, op.getDpsInitOperand(0)->get(), *outPos);
  maps.push_back(extend(outMap, std::make_pair(*outPos, p)));

  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  iters.push_back(utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  auto lifted = linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()}, inputs,
                                          ValueRange{init}, maps, iters);
  rewriter.inlineRegionBefore(op.getRegion(), lifted.getRegion(), lifted.getRegion().begin());
  Block &body = lifted.getRegion().front();
  body.insertArgument(op.getNumDpsInputs(), unitElem, loc);
  // linalg.index of the old loops is unchanged: the new loops come last.
  auto collapse = tensor::CollapseShapeOp::create(
      rewriter, loc, op.getResult(0).getType(), lifted.getResult(0),
      unitAxisReassociation(cast<RankedTensorType>(op.getResult(0).getType()).getRank(), *outPos));
  rewriter.replaceOp(op, collapse.getResult());
  return success();
}

} // namespace

LogicalResult liftOneDimWindows(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  SmallVector<std::pair<linalg::GenericOp, WindowAccess>> todo;
  func.walk([&](linalg::GenericOp op) {
    FailureOr<KernelInfo> info = analyzeKernel(op);
    if (succeeded(info) && info->kind == KernelClass::SlidingWindow && info->windows.size() == 1)
      todo.emplace_back(op, info->windows.front());
  });
  for (auto [op, w] : todo)
    if (failed(lift(rewriter, op, w)))
      return failure();
  return success();
}

} // namespace ming::lowering
