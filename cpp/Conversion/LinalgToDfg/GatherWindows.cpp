// Convolutions become a window gather and a contraction. A sliding-window
// process that computes every output channel at each pixel holds its MACs
// for the whole pixel pipeline: its initiation interval is set by the
// outputs of one position, and is paid at every padded pixel, also those
// that complete no window (the padding border, and three of four pixels at
// stride 2). Split, a gather process walks the pixels at one cycle each and
// pushes each complete window (its taps by rows, columns, channels), and
// the contraction over those windows is a plain matmul-like nest whose
// pipeline runs over output positions and channels only. The split applies
// where the window is reused across output channels (a convolution, not a
// depthwise convolution or a pool, whose MACs per pixel are few) and is more
// than one tap or strided, and where enough pixels complete no window for
// the split to pay (option gather-windows, on by default).
#include "Bodies.h"
#include "Normalise.h"

#include "ming/Analysis/KernelAnalysis.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace ming::lowering {

namespace {

/// Gathered windows larger than this stay in the window process: the
/// contraction double-buffers one window, completely partitioned when its
/// reduction is unrolled.
constexpr int64_t kMaxGatheredWindow = 4096;

/// Whole windows compute at every padded pixel; the gather streams every
/// tap of every window instead, a stream several times the image. Whole
/// windows stay where they can keep one pixel a cycle and little is padded:
/// the split applies where at most this share of the padded pixels
/// completes a window (the 8x8 maps of ResNet-8: 64 of 100; strided: a
/// quarter), or where one pixel's MACs exceed what a board's DSPs do in a
/// cycle (more than a KV260 has), so that the whole window's II is paid at
/// every padded pixel.
constexpr double kMaxOutputShare = 0.75;
constexpr int64_t kHeavyPixelMacs = 2048;

/// The window of a convolution worth splitting: every input dim besides the
/// two sliding ones read at a plain loop dim.
std::optional<Window> gatherable(linalg::GenericOp op, const KernelInfo &info) {
  if (info.kind != KernelClass::SlidingWindow || op.getNumDpsInits() != 1 ||
      op->hasAttr(kWindowTaps))
    return std::nullopt;
  std::optional<Window> g = slidingWindow(op, info);
  if (!g)
    return std::nullopt;
  AffineMap map = op.getIndexingMapsArray()[g->operand];
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  llvm::SmallDenseSet<unsigned> read;
  for (unsigned d = 0; d < map.getNumResults(); ++d) {
    if (d == g->axis[0] || d == g->axis[1])
      continue;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
    if (!dim)
      return std::nullopt;
    read.insert(dim.getPosition());
  }
  // Reuse: an output loop the window does not depend on (output channels).
  const SmallVector<int64_t> &trips = info.tripCounts;
  int64_t reuse = 0;
  for (auto [d, it] : llvm::enumerate(iters))
    if (it == utils::IteratorType::parallel && trips[d] > 1 && !read.contains(d) &&
        d != g->access[0].parallelDim && d != g->access[1].parallelDim)
      reuse = reuse ? -1 : trips[d];
  int64_t taps = trips[g->access[0].reductionDim] * trips[g->access[1].reductionDim];
  bool strided = g->access[0].stride > 1 || g->access[1].stride > 1;
  auto type = cast<RankedTensorType>(op.getDpsInputOperand(g->operand)->get().getType());
  int64_t windowSize = taps;
  for (unsigned d : g->channels)
    windowSize *= type.getDimSize(d);
  // The contraction pulls the next window while it computes this one,
  // ceil(window / channels) elements at each output channel. A whole number
  // keeps those pulls unconditional; otherwise the last channels pull fewer,
  // under a condition, and the stream's lanes must divide the window too.
  // That pays only for heavy pixels, whose whole window cannot keep a pixel
  // a cycle anyway (ResNet-8's strided 3x3 convolutions, 144 over 32 and 288
  // over 64: int8 12,711 -> 12,084 cycles, f32 204,772 -> 136,883). Where a
  // window is smaller than its channels (a 1x1 shortcut, DS-CNN's 40 taps
  // over 64) most slots pull one element or none (DS-CNN int8: 3,264 split
  // against 3,168), and light pixels run faster whole at a full board's DSPs
  // (test/e2e/conv_stride2, 27 over 8: 669 whole against 812 split).
  if (reuse <= 0 || (taps == 1 && !strided) || windowSize > kMaxGatheredWindow)
    return std::nullopt;
  if (windowSize % reuse && (windowSize < reuse || windowSize * reuse < kHeavyPixelMacs))
    return std::nullopt;
  int64_t outputs = 1, pixels = 1;
  for (const WindowAccess &a : g->access) {
    outputs *= trips[a.parallelDim];
    pixels *= type.getDimSize(a.result);
  }
  if (double(outputs) > kMaxOutputShare * double(pixels) &&
      windowSize * reuse < kHeavyPixelMacs)
    return std::nullopt;
  return g;
}

/// Splits `op` into the gather of its windows and the contraction over them.
void gather(linalg::GenericOp op, const KernelInfo &info, const Window &g) {
  MLIRContext *ctx = op.getContext();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value x = op.getDpsInputOperand(g.operand)->get();
  auto xType = cast<RankedTensorType>(x.getType());
  AffineMap map = op.getIndexingMapsArray()[g.operand];
  const SmallVector<int64_t> &trips = info.tripCounts;

  // The gathered tensor: [batch,] rows, columns, then the taps and channels
  // in the order of the conv's loops over them, which is the order its
  // reduction walks them (so a float sum keeps its order, and the stream
  // needs no reordering). The conv reads it through those loops.
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> convReads;
  auto dimOf = [&](unsigned loop) { return getAffineDimExpr(loop, ctx); };
  if (g.batch) {
    shape.push_back(xType.getDimSize(*g.batch));
    convReads.push_back(map.getResult(*g.batch));
  }
  unsigned pixel = shape.size();
  for (const WindowAccess &a : g.access) {
    shape.push_back(trips[a.parallelDim]);
    convReads.push_back(dimOf(a.parallelDim));
  }
  // (conv loop, tap axis 0/1 or -1 for a channel, input dim of a channel)
  struct Inner {
    unsigned loop;
    int tap;
    unsigned inputDim;
  };
  SmallVector<Inner> inner;
  for (int a = 0; a < 2; ++a)
    inner.push_back({g.access[a].reductionDim, a, 0});
  for (unsigned d : g.channels)
    inner.push_back({cast<AffineDimExpr>(map.getResult(d)).getPosition(), -1, d});
  llvm::stable_sort(inner, [](const Inner &l, const Inner &r) { return l.loop < r.loop; });

  // The gather reads the input at s * p + dilation * t along the sliding
  // axes, and at its own dims elsewhere.
  SmallVector<AffineExpr> gatherReads(xType.getRank());
  if (g.batch)
    gatherReads[*g.batch] = dimOf(0);
  SmallVector<int64_t> tapDims(2);
  for (const Inner &in : inner) {
    unsigned gd = shape.size();
    if (in.tap >= 0) {
      shape.push_back(trips[in.loop]);
      tapDims[in.tap] = gd;
    } else {
      shape.push_back(xType.getDimSize(in.inputDim));
      gatherReads[in.inputDim] = dimOf(gd);
    }
    convReads.push_back(dimOf(in.loop));
  }
  for (int a = 0; a < 2; ++a)
    gatherReads[g.access[a].result] = dimOf(pixel + a) * g.access[a].stride +
                                      dimOf(tapDims[a]) * g.access[a].dilation;
  unsigned rank = shape.size();
  auto gType = RankedTensorType::get(shape, xType.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, shape, xType.getElementType());
  SmallVector<AffineMap> gatherMaps = {AffineMap::get(rank, 0, gatherReads, ctx),
                                       b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto gatherOp = linalg::GenericOp::create(
      b, loc, TypeRange{gType}, ValueRange{x}, ValueRange{empty}, gatherMaps, iters,
      [](OpBuilder &nb, Location l, ValueRange args) { linalg::YieldOp::create(nb, l, args[0]); });
  gatherOp->setAttr(kWindowTaps, b.getDenseI64ArrayAttr(tapDims));

  SmallVector<Attribute> maps(op.getIndexingMaps().begin(), op.getIndexingMaps().end());
  ArrayAttr before = op.getIndexingMaps();
  maps[g.operand] = AffineMapAttr::get(AffineMap::get(op.getNumLoops(), 0, convReads, ctx));
  op.setIndexingMapsAttr(ArrayAttr::get(ctx, maps));
  op->setOperand(g.operand, gatherOp.getResult(0));
  FailureOr<KernelInfo> after = analyzeKernel(op);
  if (failed(op.verify()) || failed(after) || after->kind != KernelClass::RegularReduction) {
    // Not expected; the window process computes it as before.
    op.setIndexingMapsAttr(before);
    op->setOperand(g.operand, x);
    gatherOp.erase();
    empty.getDefiningOp()->erase();
  }
}

} // namespace

SmallVector<unsigned> gatheredPixelDims(linalg::GenericOp gather) {
  // The gather reads its input at s * pixel + dilation * tap along the
  // sliding axes: the pixel is the term that is not a tap.
  SmallVector<unsigned> pixels;
  auto taps = gather->getAttrOfType<DenseI64ArrayAttr>(kWindowTaps);
  if (!taps)
    return pixels;
  for (AffineExpr e : gather.getIndexingMapsArray().front().getResults()) {
    if (isa<AffineDimExpr, AffineConstantExpr>(e))
      continue;
    e.walk([&](AffineExpr sub) {
      if (auto d = dyn_cast<AffineDimExpr>(sub))
        if (!llvm::is_contained(taps.asArrayRef(), d.getPosition()))
          pixels.push_back(d.getPosition());
    });
  }
  return pixels;
}

void gatherConvolutionWindows(func::FuncOp func) {
  std::vector<std::pair<linalg::GenericOp, std::pair<KernelInfo, Window>>> found;
  func.walk([&](linalg::GenericOp op) {
    FailureOr<KernelInfo> info = analyzeKernel(op);
    if (failed(info))
      return;
    if (std::optional<Window> g = gatherable(op, *info))
      found.push_back({op, {*info, *g}});
  });
  for (auto &[op, what] : found)
    gather(op, what.first, what.second);
}

} // namespace ming::lowering
