// Input checks and normalisation for convert-linalg-to-dfg: the function to
// compile is chosen and checked, then rewritten (unread results dropped,
// scalar constants folded, constant pads evaluated, pads of pads merged,
// named ops generalised, whole-map windows made reductions, 1-D windows
// lifted) so that the graph builder meets
// only the ops it streams, in fewer shapes. Kept apart from the graph builder:
// nothing here creates a process, it only rewrites linalg or rejects it.
#include "Normalise.h"

#include "ming/Analysis/KernelAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/FoldUtils.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace ming::lowering {
namespace {

constexpr const char *kSupported =
    "supported are linalg structured ops (named or linalg.generic), linalg.fill, "
    "tensor.pad, tensor.empty, tensor.collapse_shape, tensor.expand_shape, "
    "tensor.concat, tensor.extract_slice (static, keeping the rank) and arith.constant";

bool isStatic(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return !shaped || shaped.hasStaticShape();
}

/// Element types the generated C++ and its testbench carry.
bool supportedElement(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (auto i = dyn_cast<IntegerType>(elem))
    return i.isSignless() && i.getWidth() <= 64;
  return elem.isF32() || elem.isF64() || elem.isIndex();
}

/// The out arguments (as result numbers) the payload reads to compute
/// result `k`.
static llvm::SmallDenseSet<unsigned> accumulatorsRead(linalg::GenericOp op, unsigned k) {
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();
  llvm::SmallDenseSet<unsigned> read;
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work{body.getTerminator()->getOperand(k)};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &body && arg.getArgNumber() >= numInputs)
        read.insert(arg.getArgNumber() - numInputs);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || !seen.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return read;
}

/// A copy of `op` computing only results `keep` (in that order): their
/// yields, the payload they need, the inputs it reads.
static linalg::GenericOp keepResults(RewriterBase &rewriter, linalg::GenericOp op, ArrayRef<unsigned> keep) {
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<Value> inits;
  SmallVector<Type> types;
  SmallVector<AffineMap> all = op.getIndexingMapsArray();
  SmallVector<AffineMap> maps(all.begin(), all.begin() + numInputs);
  for (unsigned k : keep) {
    inits.push_back(op.getDpsInits()[k]);
    types.push_back(op.getResult(k).getType());
    maps.push_back(all[numInputs + k]);
  }
  rewriter.setInsertionPoint(op);
  auto kept = linalg::GenericOp::create(rewriter, op.getLoc(), types, op.getDpsInputs(), inits, maps,
                                        op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op.getRegion(), kept.getRegion(), kept.getRegion().begin());
  Block &moved = kept.getRegion().front();
  auto newYield = cast<linalg::YieldOp>(moved.getTerminator());
  SmallVector<Value> yielded;
  for (unsigned k : keep)
    yielded.push_back(newYield.getOperand(k));
  rewriter.setInsertionPoint(newYield);
  linalg::YieldOp::create(rewriter, newYield.getLoc(), yielded);
  rewriter.eraseOp(newYield);
  // Users before producers; a vector, since a std::reverse_iterator over the
  // block would point past each erased op.
  SmallVector<Operation *> payload;
  for (Operation &inner : moved.without_terminator())
    payload.push_back(&inner);
  for (Operation *inner : llvm::reverse(payload))
    if (isOpTriviallyDead(inner))
      rewriter.eraseOp(inner);
  BitVector dead(moved.getNumArguments());
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    if (!llvm::is_contained(keep, k))
      dead.set(numInputs + k);
  moved.eraseArguments(dead);
  // Inputs the kept payload no longer reads would be streams without a use.
  SmallVector<unsigned> unread;
  for (unsigned i = 0; i < numInputs; ++i)
    if (moved.getArgument(i).use_empty())
      unread.push_back(i);
  // ... unless one carries a loop's range alone (a pooling window's shape).
  auto rangesKept = [&] {
    llvm::SmallBitVector seen(op.getNumLoops());
    for (auto [i, m] : llvm::enumerate(maps))
      if (i >= numInputs || !llvm::is_contained(unread, i))
        for (AffineExpr e : m.getResults())
          if (auto d = dyn_cast<AffineDimExpr>(e))
            seen.set(d.getPosition());
    return seen.all();
  };
  if (!unread.empty() && unread.size() < numInputs && rangesKept()) {
    SmallVector<Value> ins;
    SmallVector<AffineMap> inMaps;
    BitVector gone(moved.getNumArguments());
    for (unsigned i = 0; i < numInputs; ++i) {
      if (llvm::is_contained(unread, i)) {
        gone.set(i);
        continue;
      }
      ins.push_back(kept.getDpsInputs()[i]);
      inMaps.push_back(maps[i]);
    }
    inMaps.append(maps.begin() + numInputs, maps.end());
    rewriter.setInsertionPoint(kept);
    auto narrow = linalg::GenericOp::create(rewriter, op.getLoc(), types, ins, inits, inMaps,
                                            op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(kept.getRegion(), narrow.getRegion(), narrow.getRegion().begin());
    narrow.getRegion().front().eraseArguments(gone);
    rewriter.eraseOp(kept);
    kept = narrow;
  }
  return kept;
}

/// `op` with its results in groups computed apart: results nobody reads go
/// (their yields and the payload computing only them), and results that do
/// not read one another's accumulators become generics of their own (a
/// min and a max of the same rows: two processes, the input forked to
/// both). Results that do (a running arg-max and its max, both read) stay
/// together, and the converter reports them.
LogicalResult splitResults(RewriterBase &rewriter, linalg::GenericOp op) {
  unsigned n = op.getNumResults();
  // Each read result needs the accumulators its payload reads, and theirs.
  SmallVector<llvm::SmallDenseSet<unsigned>> needs(n);
  for (unsigned k = 0; k < n; ++k) {
    if (op.getResult(k).use_empty())
      continue;
    SmallVector<unsigned> work{k};
    while (!work.empty()) {
      unsigned j = work.pop_back_val();
      if (needs[k].insert(j).second)
        llvm::append_range(work, accumulatorsRead(op, j));
    }
  }
  // Read results needing a common accumulator stay together: each joins
  // the groups it shares one with.
  SmallVector<SmallVector<unsigned>> groups;
  for (unsigned k = 0; k < n; ++k) {
    if (needs[k].empty())
      continue;
    SmallVector<unsigned> merged(needs[k].begin(), needs[k].end());
    llvm::erase_if(groups, [&](ArrayRef<unsigned> g) {
      if (llvm::none_of(g, [&](unsigned j) { return needs[k].contains(j); }))
        return false;
      llvm::append_range(merged, g);
      return true;
    });
    llvm::sort(merged);
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    groups.push_back(std::move(merged));
  }
  if (groups.size() == 1 && groups.front().size() == n)
    return success();
  for (ArrayRef<unsigned> keep : groups) {
    linalg::GenericOp kept = keepResults(rewriter, op, keep);
    for (auto [i, k] : llvm::enumerate(keep))
      rewriter.replaceAllUsesWith(op.getResult(k), kept.getResult(i));
  }
  rewriter.eraseOp(op);
  return success();
}

/// A window whose output has one position along each sliding axis (a pool
/// or convolution whose kernel covers the whole map, as DS-CNN's 25x5
/// average pool) slides nowhere: every input element meets each output
/// once. Its unit output dims are read at 0 in the input maps, so the kernel
/// analysis sees a plain reduction, which streams through one accumulator
/// per output instead of a line buffer and a window register per tap. The
/// loop dims keep their order, so a float sum still adds its terms kernel
/// row by kernel row: a pixel-major stream meets them in that order
/// (`accumulates`).
void wholeMapWindowsToReductions(func::FuncOp func) {
  func.walk([](linalg::GenericOp op) {
    FailureOr<KernelInfo> info = analyzeKernel(op);
    if (failed(info) || info->kind != KernelClass::SlidingWindow)
      return;
    if (llvm::any_of(info->windows,
                     [&](const WindowAccess &w) { return info->tripCounts[w.parallelDim] != 1; }))
      return;
    MLIRContext *ctx = op.getContext();
    unsigned numLoops = op.getNumLoops();
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0; d < numLoops; ++d)
      dims.push_back(info->tripCounts[d] == 1 && op.getIteratorTypesArray()[d] == utils::IteratorType::parallel
                         ? getAffineConstantExpr(0, ctx)
                         : getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Attribute> rewritten;
    for (auto [k, map] : llvm::enumerate(maps)) {
      // The output keeps its dims: they give the loops their ranges.
      if (k >= op.getNumDpsInputs())
        rewritten.push_back(AffineMapAttr::get(map));
      else
        rewritten.push_back(AffineMapAttr::get(
            simplifyAffineMap(map.replaceDimsAndSymbols(dims, {}, numLoops, map.getNumSymbols()))));
    }
    ArrayAttr before = op.getIndexingMaps();
    op.setIndexingMapsAttr(ArrayAttr::get(ctx, rewritten));
    FailureOr<KernelInfo> after = analyzeKernel(op);
    // The kernel must also cover the map: a 2x2 pool of stride 2 over a 2x3
    // map has one output too, but never reads the last column, which the
    // reduction would stream and add.
    auto coversInputs = [&] {
      for (OpOperand *in : op.getDpsInputOperands()) {
        auto type = dyn_cast<RankedTensorType>(in->get().getType());
        if (!type)
          continue;
        for (auto [axis, e] : llvm::enumerate(op.getMatchingIndexingMap(in).getResults())) {
          auto d = dyn_cast<AffineDimExpr>(e);
          int64_t reads = d ? after->tripCounts[d.getPosition()] : isa<AffineConstantExpr>(e) ? 1 : -1;
          if (reads != type.getDimSize(axis))
            return false;
        }
      }
      return true;
    };
    if (failed(after) || after->kind != KernelClass::RegularReduction || !coversInputs() ||
        failed(op.verify()))
      op.setIndexingMapsAttr(before);
  });
}

} // namespace

FailureOr<func::FuncOp> theFunction(ModuleOp module, StringRef top) {
  SmallVector<func::FuncOp> defined;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      defined.push_back(f);
  auto names = [&] {
    std::string list;
    for (func::FuncOp f : defined)
      list += (list.empty() ? "'" : ", '") + f.getSymName().str() + "'";
    return list;
  };
  func::FuncOp found;
  if (!top.empty()) {
    for (func::FuncOp f : defined)
      if (f.getSymName() == top)
        found = f;
    if (!found) {
      InFlightDiagnostic diag = emitError(module.getLoc(), "convert-linalg-to-dfg: no function '")
                                << top << "' to compile";
      if (!defined.empty())
        diag << "; the module defines " << names();
      return failure();
    }
  } else if (defined.size() > 1) {
    defined[1].emitError("convert-linalg-to-dfg: several functions could be the top (")
        << names() << "); choose one with --top";
    return failure();
  } else if (!defined.empty()) {
    found = defined.front();
  }
  if (!found) {
    emitError(module.getLoc(), "convert-linalg-to-dfg: no function with a body to compile");
    return failure();
  }
  WalkResult calls = found.walk([&](func::CallOp call) {
    if (call.getCallee() != found.getSymName())
      return WalkResult::advance();
    call.emitError("convert-linalg-to-dfg: '")
        << found.getSymName() << "' calls itself; recursion cannot become hardware";
    return WalkResult::interrupt();
  });
  if (calls.wasInterrupted())
    return failure();
  for (func::FuncOp f : defined)
    if (f != found)
      f.erase();
  if (llvm::none_of(found.getArgumentTypes(), [](Type t) { return isa<TensorType>(t); })) {
    found.emitError("convert-linalg-to-dfg: '")
        << found.getSymName()
        << "' takes no tensor argument; a streaming design needs an input to stream";
    return failure();
  }
  if (!found.getBody().hasOneBlock()) {
    found.emitError("convert-linalg-to-dfg: the function must be a single block");
    return failure();
  }
  for (Type t : llvm::concat<const Type>(found.getArgumentTypes(), found.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape()) {
      found.emitError("convert-linalg-to-dfg: arguments and results must be tensors of "
                      "static shape, got ")
          << t;
      return failure();
    }
    if (!supportedElement(t)) {
      found.emitError("convert-linalg-to-dfg: '")
          << found.getSymName() << "' has a " << t
          << " argument or result; ming streams signless integers up to i64, f32 and f64";
      return failure();
    }
  }
  return found;
}

LogicalResult normalise(func::FuncOp func, bool gatherWindows) {
  // Results nobody reads (the arg-max index of a max reduction that lowers
  // Softmax) would be streams without a reader: drop them first; results
  // computed apart become processes apart.
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::GenericOp> several;
  func.walk([&](linalg::GenericOp op) {
    if (op.getNumResults() > 1)
      several.push_back(op);
  });
  for (linalg::GenericOp op : several)
    if (failed(splitResults(rewriter, op)))
      return failure();
  Block &top = func.getBody().front();
  // Scalar arithmetic on constants becomes a constant (IREE pads a pool with
  // an f64 constant truncated to f32).
  OperationFolder folder(func.getContext());
  for (Operation &op : llvm::make_early_inc_range(top)) {
    if (op.getNumRegions() || op.getNumResults() != 1 || isa<arith::ConstantOp>(op) ||
        isa<ShapedType>(op.getResult(0).getType()) || !isa<arith::ArithDialect>(op.getDialect()))
      continue;
    if (!llvm::all_of(op.getOperands(), [](Value v) { return matchPattern(v, m_Constant()); }))
      continue;
    // arith.truncf does not fold an inexact conversion (-DBL_MAX to f32);
    // the C++ cast would round it to nearest, and so does this.
    FloatAttr value;
    if (auto trunc = dyn_cast<arith::TruncFOp>(op);
        trunc && matchPattern(trunc.getIn(), m_Constant(&value))) {
      APFloat f = value.getValue();
      bool losesInfo = false;
      FloatType to = cast<FloatType>(trunc.getType());
      f.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
      rewriter.setInsertionPoint(trunc);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(trunc, FloatAttr::get(to, f));
      continue;
    }
    (void)folder.tryToFold(&op);
  }
  // A padded constant is a constant (IREE counts a ceil_mode average pool's
  // window by pooling a padded tensor of ones); a window over a constant is
  // then read by index.
  for (auto pad : llvm::make_early_inc_range(top.getOps<tensor::PadOp>())) {
    DenseElementsAttr source;
    TypedAttr value = padValue(pad);
    auto type = dyn_cast<RankedTensorType>(pad.getResultType());
    if (!value || !type || !type.hasStaticShape() || type.getNumElements() > (1 << 20) ||
        !pad.getLow().empty() || !pad.getHigh().empty() ||
        !matchPattern(pad.getSource(), m_Constant(&source)))
      continue;
    ArrayRef<int64_t> low = pad.getStaticLow();
    if (llvm::any_of(low, [](int64_t x) { return x < 0; }) ||
        llvm::any_of(pad.getStaticHigh(), [](int64_t x) { return x < 0; }))
      continue;
    DenseElementsAttr padded;
    if (source.isSplat() && source.getSplatValue<Attribute>() == value) {
      padded = DenseElementsAttr::get(type, value);
    } else {
      ArrayRef<int64_t> shape = type.getShape(), from = source.getType().getShape();
      SmallVector<Attribute> src(source.getValues<Attribute>());
      SmallVector<Attribute> out;
      out.reserve(type.getNumElements());
      SmallVector<int64_t> idx(shape.size(), 0);
      for (int64_t n = 0; n < type.getNumElements(); ++n) {
        int64_t flat = 0;
        bool inside = true;
        for (size_t d = 0; d < shape.size(); ++d) {
          int64_t s = idx[d] - low[d];
          inside &= s >= 0 && s < from[d];
          flat = flat * from[d] + s;
        }
        out.push_back(inside ? src[source.isSplat() ? 0 : flat] : Attribute(value));
        for (size_t d = shape.size(); d-- > 0;)
          if (++idx[d] < shape[d])
            break;
          else
            idx[d] = 0;
      }
      padded = DenseElementsAttr::get(type, out);
    }
    rewriter.setInsertionPoint(pad);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(pad, padded);
  }
  // A pad of a pad by the same value is one pad (IREE pads a ceil_mode
  // pool's input twice: the explicit pads, then the rows and columns the
  // last window overhangs).
  for (auto outer : llvm::make_early_inc_range(top.getOps<tensor::PadOp>())) {
    auto inner = outer.getSource().getDefiningOp<tensor::PadOp>();
    if (!inner || !inner->hasOneUse() || !padValue(outer) || padValue(outer) != padValue(inner) ||
        !outer.getLow().empty() || !outer.getHigh().empty() || !inner.getLow().empty() ||
        !inner.getHigh().empty())
      continue;
    SmallVector<int64_t> low(outer.getStaticLow()), high(outer.getStaticHigh());
    bool ok = true;
    for (size_t d = 0; d < low.size(); ++d) {
      ok &= inner.getStaticLow()[d] >= 0 && inner.getStaticHigh()[d] >= 0;
      low[d] += inner.getStaticLow()[d];
      high[d] += inner.getStaticHigh()[d];
    }
    if (!ok)
      continue;
    rewriter.modifyOpInPlace(outer, [&] {
      outer.getSourceMutable().assign(inner.getSource());
      outer.setStaticLow(low);
      outer.setStaticHigh(high);
    });
    rewriter.eraseOp(inner);
  }
  SmallVector<linalg::LinalgOp> named;
  for (Operation &op : func.getBody().front()) {
    for (Type t : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes())) {
      if (!isStatic(t))
        return op.emitError("convert-linalg-to-dfg: '")
               << op.getName() << "' has a dynamic shape (" << t
               << "); ming streams static shapes only";
      if (!supportedElement(t))
        return op.emitError("convert-linalg-to-dfg: '")
               << op.getName() << "' has elements of type " << getElementTypeOrSelf(t)
               << "; ming streams signless integers up to i64, f32 and f64";
    }
    if (isa<arith::ConstantOp, tensor::EmptyOp, tensor::PadOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::ConcatOp, func::ReturnOp, linalg::GenericOp>(op))
      continue;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (!slice.getOffsets().empty() || !slice.getSizes().empty() || !slice.getStrides().empty())
        return op.emitError("convert-linalg-to-dfg: a tensor.extract_slice with dynamic "
                            "offsets, sizes or strides cannot be streamed");
      if (slice.getSourceType().getRank() != slice.getResultType().getRank())
        return op.emitError("convert-linalg-to-dfg: a rank-reducing tensor.extract_slice is "
                            "not supported; slices keep the rank (a reshape may follow)");
      if (llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s < 1; }))
        return op.emitError("convert-linalg-to-dfg: tensor.extract_slice needs positive strides");
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      named.push_back(linalgOp);
      continue;
    }
    return op.emitError("convert-linalg-to-dfg: '")
           << op.getName() << "' is not supported; " << kSupported;
  }
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op.emitError("convert-linalg-to-dfg: cannot generalise '")
             << op->getName() << "'";
  }
  wholeMapWindowsToReductions(func);
  if (failed(liftOneDimWindows(func)))
    return failure();
  if (gatherWindows)
    gatherConvolutionWindows(func);
  // Dead layers would leave streams nobody reads.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
    if (isOpTriviallyDead(&op))
      op.erase();
  return success();
}

bool integerPayload(linalg::GenericOp op) {
  auto isInteger = [](Type t) { return isa<IntegerType, IndexType>(getElementTypeOrSelf(t)); };
  bool integer = true;
  op.getRegion().walk([&](Operation *inner) {
    for (Type t : llvm::concat<const Type>(inner->getOperandTypes(), inner->getResultTypes()))
      integer &= isInteger(t);
  });
  for (BlockArgument arg : op.getRegion().getArguments())
    integer &= arg.use_empty() || isInteger(arg.getType());
  return integer;
}

TypedAttr constantOf(Value v) {
  Attribute attr;
  if (v && matchPattern(v, m_Constant(&attr)))
    return dyn_cast<TypedAttr>(attr);
  return {};
}

TypedAttr fillValue(linalg::GenericOp op) {
  std::optional<Value> value = linalg::isaFillOpInterface(op);
  return value ? constantOf(*value) : TypedAttr();
}

std::optional<ConstantBroadcast> constantBroadcast(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  auto cst = op.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>();
  if (!cst || !isa<RankedTensorType>(cst.getType()))
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 || yield.getValues().size() != 1 ||
      yield.getValues()[0] != body.getArgument(0))
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isPermutation() || !in.isProjectedPermutation())
    return std::nullopt;
  return ConstantBroadcast{cst, in.compose(inversePermutation(out))};
}

TypedAttr padValue(tensor::PadOp pad) { return constantOf(pad.getConstantPaddingValue()); }

} // namespace ming::lowering
