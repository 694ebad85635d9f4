// Sliding-window geometry (MING Sec. IV-B): which input slides over which
// axes, the stream orders around a window, whether its columns pair up, and
// its lookahead for the FIFO sizing. The process body that keeps the line
// buffers and the window is WindowBody.cpp.
#include "Bodies.h"
#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;

namespace ming::lowering {

//===----------------------------------------------------------------------===//
// Sliding window: line buffer + window register
//===----------------------------------------------------------------------===//

std::optional<Window> slidingWindow(linalg::GenericOp op, const KernelInfo &info) {
  if (info.windows.size() != 2 || info.windows[0].operand != info.windows[1].operand ||
      info.windows[0].result == info.windows[1].result)
    return std::nullopt;
  Window w;
  w.operand = info.windows[0].operand;
  w.access[0] = info.windows[0];
  w.access[1] = info.windows[1];
  if (w.access[0].result > w.access[1].result)
    std::swap(w.access[0], w.access[1]);
  w.axis[0] = w.access[0].result;
  w.axis[1] = w.access[1].result;
  AffineMap map = op.getIndexingMapsArray()[w.operand];
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < map.getNumResults(); ++d) {
    if (d == w.axis[0] || d == w.axis[1])
      continue;
    AffineExpr e = map.getResult(d);
    if (!isa<AffineDimExpr, AffineConstantExpr>(e))
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (d == 0 && dim && iters[dim.getPosition()] == utils::IteratorType::parallel)
      w.batch = d;
    else
      w.channels.push_back(d);
  }
  return w;
}

/// The window, or an error saying why the op has none.
FailureOr<Window> windowOf(linalg::GenericOp op, const KernelInfo &info) {
  if (std::optional<Window> w = slidingWindow(op, info))
    return *w;
  if (info.windows.size() != 2 || info.windows[0].operand != info.windows[1].operand ||
      info.windows[0].result == info.windows[1].result)
    return op.emitError("convert-linalg-to-dfg: a sliding window must slide one input over "
                        "exactly two axes (2-D convolution or pooling); this one has ")
           << info.windows.size() << " sliding axes";
  AffineMap map = op.getIndexingMapsArray()[info.windows[0].operand];
  return op.emitError("convert-linalg-to-dfg: the windowed input is read at ")
         << AffineMapAttr::get(map) << "; only its two sliding axes may be compound expressions";
}

int64_t effective(const WindowAccess &a, ArrayRef<int64_t> trips) {
  return a.dilation * (trips[a.reductionDim] - 1) + 1;
}

FailureOr<Order> windowInputOrder(linalg::GenericOp op, const KernelInfo &info) {
  FailureOr<Window> w = windowOf(op, info);
  if (failed(w))
    return failure();
  Order order;
  if (w->batch)
    order.push_back(*w->batch);
  order.push_back(w->axis[0]);
  order.push_back(w->axis[1]);
  order.append(w->channels.begin(), w->channels.end());
  return order;
}

FailureOr<Order> windowOutputOrder(linalg::GenericOp op, const KernelInfo &info) {
  FailureOr<Window> w = windowOf(op, info);
  if (failed(w))
    return failure();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap inMap = op.getIndexingMapsArray()[w->operand];
  std::optional<unsigned> batchLoop;
  if (w->batch)
    batchLoop = cast<AffineDimExpr>(inMap.getResult(*w->batch)).getPosition();
  auto outDimOf = [&](unsigned loop) -> std::optional<unsigned> {
    for (auto [pos, e] : llvm::enumerate(outMap.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == loop)
        return pos;
    return std::nullopt;
  };
  Order order;
  if (batchLoop)
    if (auto d = outDimOf(*batchLoop))
      order.push_back(*d);
  for (const WindowAccess &a : w->access) {
    auto d = outDimOf(a.parallelDim);
    if (!d)
      return op.emitError("convert-linalg-to-dfg: the output is not indexed by the window's "
                          "parallel dimension d")
             << a.parallelDim;
    order.push_back(*d);
  }
  for (unsigned d = 0; d < outMap.getNumResults(); ++d) {
    if (!isa<AffineDimExpr, AffineConstantExpr>(outMap.getResult(d)))
      return op.emitError("convert-linalg-to-dfg: the output must be indexed by plain loop "
                          "dimensions");
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  }
  return order;
}

FailureOr<Order> windowSideInputOrder(linalg::GenericOp op, const KernelInfo &info,
                                      AffineMap map) {
  FailureOr<Window> w = windowOf(op, info);
  FailureOr<Order> outOrder = windowOutputOrder(op, info);
  FailureOr<SmallVector<unsigned>> dims = plainDims(map);
  if (failed(w) || failed(outOrder) || failed(dims))
    return failure();
  AffineMap inMap = op.getIndexingMapsArray()[w->operand];
  SmallVector<unsigned> pixelLoops = {w->access[0].parallelDim, w->access[1].parallelDim};
  if (w->batch)
    pixelLoops.push_back(cast<AffineDimExpr>(inMap.getResult(*w->batch)).getPosition());
  // Read in full before the first pixel: needs no pixel dimension.
  if (llvm::none_of(*dims, [&](unsigned d) { return llvm::is_contained(pixelLoops, d); }))
    return identityOrder(map.getNumResults());
  // Pulled once per output element: indexed exactly like the output.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (map.getNumResults() != outMap.getNumResults())
    return failure();
  Order order;
  for (unsigned od : *outOrder) {
    auto want = outMap.getResult(od);
    auto it = llvm::find(map.getResults(), want);
    if (it == map.getResults().end())
      return failure();
    order.push_back(it - map.getResults().begin());
  }
  return order;
}

/// Whether a window computes two adjacent output columns per iteration
/// (WindowBuilder's column pairs): an int8 depthwise multiply-accumulate of
/// column stride 1, whose outputs per pixel are all channels of the window
/// and whose other inputs do not depend on the pixel, with an even number of
/// columns to walk or a skipped padding column to start one earlier.
bool pairsColumns(linalg::GenericOp op, const KernelInfo &info, const Window &w,
                         ArrayRef<Operand> inputs) {
  const WindowAccess &col = w.access[1];
  auto type = cast<RankedTensorType>(inputs[w.operand].source.getType());
  auto elem = dyn_cast<IntegerType>(type.getElementType());
  const SmallVector<int64_t> &trips = info.tripCounts;
  if (!elem || elem.getWidth() != 8 || col.stride != 1 || trips[col.parallelDim] < 2 ||
      !op.getBody()->walk([](arith::MulIOp) { return WalkResult::interrupt(); }).wasInterrupted())
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap inMap = maps[w.operand];
  SmallVector<unsigned> pixelLoops = {w.access[0].parallelDim, col.parallelDim};
  if (w.batch)
    pixelLoops.push_back(cast<AffineDimExpr>(inMap.getResult(*w.batch)).getPosition());
  // Depthwise: every other output loop is a channel of the window.
  for (AffineExpr r : op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults()) {
    auto d = dyn_cast<AffineDimExpr>(r);
    if (!d || llvm::is_contained(pixelLoops, d.getPosition()))
      continue;
    if (llvm::none_of(w.channels, [&](unsigned dim) { return inMap.getResult(dim) == r; }))
      return false;
  }
  for (auto [k, map] : llvm::enumerate(maps)) {
    if (k == w.operand || k + 1 == maps.size())
      continue;
    for (AffineExpr r : map.getResults())
      if (llvm::any_of(pixelLoops, [&](unsigned d) { return r.isFunctionOfDim(d); }))
        return false;
  }
  // The columns walked.
  const Operand &x = inputs[w.operand];
  int64_t low = x.padLow.empty() ? 0 : x.padLow[w.axis[1]];
  int64_t high = x.padHigh.empty() ? 0 : x.padHigh[w.axis[1]];
  int64_t padded = type.getDimSize(w.axis[1]) + low + high;
  int64_t first = skippedColumns(low, high, effective(col, trips), padded, col.stride);
  return (padded - first) % 2 == 0 || first > 0;
}

int64_t skippedColumns(int64_t low, int64_t high, int64_t keff, int64_t padded, int64_t stride) {
  int64_t s = std::min({low, keff - 1, high});
  while (s > 0 && (padded - s) % stride)
    --s;
  return s;
}

int64_t windowLookahead(linalg::GenericOp op, const KernelInfo &info, ArrayRef<Operand> inputs) {
  FailureOr<Window> w = windowOf(op, info);
  if (failed(w))
    return 0;
  const Operand &x = inputs[w->operand];
  auto type = cast<RankedTensorType>(x.source.getType());
  int64_t channels = 1;
  for (unsigned d : w->channels)
    channels *= type.getDimSize(d);
  auto pad = [&](ArrayRef<int64_t> p, unsigned axis) { return p.empty() ? 0 : p[axis]; };
  int64_t height = type.getDimSize(w->axis[0]), width = type.getDimSize(w->axis[1]);
  int64_t top = pad(x.padLow, w->axis[0]), left = pad(x.padLow, w->axis[1]);
  int64_t kr = effective(w->access[0], info.tripCounts);
  int64_t kc = effective(w->access[1], info.tripCounts);
  // The first output sits at padded position (kr-1, kc-1): every real pixel
  // up to it in raster order is pulled first.
  int64_t rows = std::clamp<int64_t>(kr - 1 - top, 0, height);
  bool lastRowReal = kr - 1 >= top && kr - 1 < top + height;
  int64_t cols = lastRowReal ? std::clamp<int64_t>(kc - left, 0, width) : 0;
  // Later the process runs further ahead: at each row start (kc-1 pixels
  // before the row's first output) and over the rows a vertical stride skips.
  int64_t ahead = (kc - 1) + (w->access[1].stride - 1) + (w->access[0].stride - 1) * width;
  // Column pairs pull the next column before the first's outputs.
  if (pairsColumns(op, info, *w, inputs))
    ahead += 1;
  return (rows * width + cols + ahead) * channels;
}

} // namespace ming::lowering
