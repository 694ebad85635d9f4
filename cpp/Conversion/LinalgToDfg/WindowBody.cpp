// The body of a sliding-window process (MING Sec. IV-B): line buffers and a
// window register fed one padded pixel at a time, the outputs computed from
// the window at each strided position; an int8 depthwise window two columns
// at a time (column pairs). The window's geometry and stream orders are
// Window.cpp.
#include "Bodies.h"
#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;

namespace ming::lowering {

namespace {

/// The body of a sliding-window process (buildWindow), one builder per step:
/// the window's geometry, the side inputs, the line and window buffers, and
/// per padded pixel the shift of the new column in, the test whether a
/// window is complete, and the output elements computed from it.
struct WindowBuilder : ComputeBody {
  using ComputeBody::ComputeBody;


  Window w;
  SmallVector<int64_t> trips;
  SmallVector<AffineMap> maps;
  AffineMap inMap, outMap;
  const Operand *x = nullptr;
  RankedTensorType xType;
  Type elem;
  /// Per window axis (rows, columns): the input's size, its low and high
  /// padding, the padded size, the effective kernel, stride, dilation,
  /// output size.
  int64_t size[2], low[2], high[2], padded[2], keff[2], stride[2], dil[2], outSize[2];
  int64_t channels = 1;
  TypedAttr padValue;

  /// Every operand, the init last; side inputs read in full up front
  /// (fullBuffers) or pulled per output element (perElement).
  SmallVector<Operand, 4> all;
  SmallVector<Value> fullBuffers;
  SmallVector<unsigned> perElement;
  Value lines, window;
  /// Two adjacent output columns per iteration (pairsColumns): the window
  /// one column wider, and the second column's outputs held in `pending`
  /// until the first's are pushed.
  bool paired = false;
  Value pending;
  SmallVector<Value> ivs;
  std::optional<unsigned> batchLoop;
  /// Output dims that are neither batch nor pixel (the per-pixel loops), and
  /// the reductions inside them.
  SmallVector<unsigned> restLoops, reductions;

  void geometry() {
    trips = info.tripCounts;
    maps = op.getIndexingMapsArray();
    inMap = maps[w.operand];
    outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    x = &inputs[w.operand];
    xType = cast<RankedTensorType>(x->source.getType());
    elem = xType.getElementType();
    for (int a = 0; a < 2; ++a) {
      unsigned d = w.axis[a];
      size[a] = xType.getDimSize(d);
      low[a] = x->padLow.empty() ? 0 : x->padLow[d];
      high[a] = x->padHigh.empty() ? 0 : x->padHigh[d];
      padded[a] = size[a] + low[a] + high[a];
      keff[a] = effective(w.access[a], trips);
      stride[a] = w.access[a].stride;
      dil[a] = w.access[a].dilation;
      outSize[a] = trips[w.access[a].parallelDim];
    }
    for (unsigned d : w.channels)
      channels *= xType.getDimSize(d);
    padValue = x->padValue ? x->padValue : zeroOf(elem);
    if (w.batch)
      batchLoop = cast<AffineDimExpr>(inMap.getResult(*w.batch)).getPosition();
    ivs.resize(trips.size());
  }

  /// Side inputs: read in full up front, or pulled per output element.
  LogicalResult sideInputs(const Operand &init) {
    all.assign(inputs.begin(), inputs.end());
    all.push_back(init);
    fullBuffers.resize(all.size());
    SmallVector<unsigned> pixelLoops = {w.access[0].parallelDim, w.access[1].parallelDim};
    if (batchLoop)
      pixelLoops.push_back(*batchLoop);
    for (auto [k, operand] : llvm::enumerate(all)) {
      if (k == w.operand || operand.role != Role::Stream)
        continue;
      if (failed(windowSideInputOrder(op, info, maps[k])))
        return op.emitError("convert-linalg-to-dfg: streamed operand #")
               << k << " of a sliding window must either not depend on the pixel or be "
               << "indexed like the output";
      bool perPixel = llvm::any_of(maps[k].getResults(), [&](AffineExpr ex) {
        auto d = dyn_cast<AffineDimExpr>(ex);
        return d && llvm::is_contained(pixelLoops, d.getPosition());
      });
      if (perPixel) {
        perElement.push_back(k);
        continue;
      }
      fullBuffers[k] = e.pullBuffer(
          cast<RankedTensorType>(operand.source.getType()).getShape(), operand.port);
    }
    return success();
  }

  /// keff[0] - 1 line buffers and the window, completely partitioned where
  /// every tap reads them at once.
  void buffers() {
    if (keff[0] > 1) {
      lines = e.buffer({keff[0] - 1, padded[1], channels}, elem);
      directives::setPartition(lines.getDefiningOp(),
                               directives::PartitionAttr::get(b.getContext(), {1}, {}));
    }
    window = e.buffer({keff[0], width(), channels}, elem);
    directives::setPartition(window.getDefiningOp(),
                             directives::PartitionAttr::get(b.getContext(), {1, 2}, {}));
    // Start from the pad value: the shifts then never copy an indeterminate
    // value (undefined behaviour in C++). The channels are written at once,
    // as shiftIn writes them (so the partitioning serves both): one cycle
    // per pixel slot, not per element, which for 64 channels would cost
    // more than the whole image.
    for (Value buffer : {lines, window}) {
      if (!buffer)
        continue;
      ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
      e.nest(shape.drop_back(), [&](ArrayRef<Value> slot) {
        scf::ForOp chLoop = e.loop(shape.back(), [&](Value ch) {
          SmallVector<Value> at(slot);
          at.push_back(ch);
          memref::StoreOp::create(b, loc, e.constant(padValue), buffer, at);
        });
        e.unrollFull(chLoop);
      });
    }
  }

  void loopsAroundPixel(const Order &outOrder) {
    for (unsigned od : outOrder) {
      auto d = dyn_cast<AffineDimExpr>(outMap.getResult(od));
      if (!d)
        continue;
      unsigned loop = d.getPosition();
      if (loop == w.access[0].parallelDim || loop == w.access[1].parallelDim ||
          (batchLoop && loop == *batchLoop))
        continue;
      restLoops.push_back(loop);
    }
    reductions.assign(info.reduction.begin(), info.reduction.end());
    for (unsigned d = 0; d < trips.size(); ++d)
      if (op.getIteratorTypesArray()[d] == utils::IteratorType::reduction &&
          !llvm::is_contained(reductions, d))
        reductions.push_back(d);
    llvm::sort(reductions);
  }

  /// Index of the windowed input's channel dims, flattened row-major.
  Value channelIndex() {
    Value flat = e.idx(0);
    for (unsigned d : w.channels) {
      flat = e.mul(flat, xType.getDimSize(d));
      flat = e.add(flat, e.affine(inMap.getResult(d), ivs));
    }
    return flat;
  }

  /// Shifts the pixel at padded (r, c) into the window and the line
  /// buffers, channel by channel in the stream's order: pulled when it is
  /// inside the input, the pad value when not.
  void shiftIn(Value r, Value c) {
    using P = arith::CmpIPredicate;
    Value inRow = e.both(e.cmp(P::sge, r, low[0]), e.cmp(P::slt, r, low[0] + size[0]));
    Value inCol = e.both(e.cmp(P::sge, c, low[1]), e.cmp(P::slt, c, low[1] + size[1]));
    Value inside = e.both(inRow, inCol);
    scf::ForOp chLoop = e.loop(channels, [&](Value ch) {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{elem}, inside, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, e.pull(x->port));
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, e.constant(padValue));
      }
      Value v = ifOp.getResult(0);
      for (int64_t kh = 0; kh < keff[0]; ++kh)
        for (int64_t kw = 0; kw + 1 < width(); ++kw) {
          Value t = memref::LoadOp::create(b, loc, window, ValueRange{e.idx(kh), e.idx(kw + 1), ch});
          memref::StoreOp::create(b, loc, t, window, ValueRange{e.idx(kh), e.idx(kw), ch});
        }
      for (int64_t kh = 0; kh + 1 < keff[0]; ++kh) {
        Value t = memref::LoadOp::create(b, loc, lines, ValueRange{e.idx(kh), c, ch});
        memref::StoreOp::create(b, loc, t, window, ValueRange{e.idx(kh), e.idx(width() - 1), ch});
      }
      memref::StoreOp::create(b, loc, v, window,
                              ValueRange{e.idx(keff[0] - 1), e.idx(width() - 1), ch});
      for (int64_t kh = 0; kh + 2 < keff[0]; ++kh) {
        Value t = memref::LoadOp::create(b, loc, lines, ValueRange{e.idx(kh + 1), c, ch});
        memref::StoreOp::create(b, loc, t, lines, ValueRange{e.idx(kh), c, ch});
      }
      if (keff[0] > 1)
        memref::StoreOp::create(b, loc, v, lines, ValueRange{e.idx(keff[0] - 2), c, ch});
    });
    e.unrollFull(chLoop);
  }

  /// Emits the output elements of the window ending at padded (r, c) when
  /// it is complete: at the bottom-right tap of a strided position.
  void whenComplete(Value r, Value c) {
    using P = arith::CmpIPredicate;
    Value rr = arith::SubIOp::create(b, loc, r, e.idx(keff[0] - 1));
    Value cc = arith::SubIOp::create(b, loc, c, e.idx(keff[1] - 1));
    Value ready = e.both(e.cmp(P::sge, r, keff[0] - 1), e.cmp(P::sge, c, keff[1] - 1));
    auto ifReady = scf::IfOp::create(b, loc, TypeRange{}, ready, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifReady.thenBlock()->getTerminator());
    Value oh = arith::DivUIOp::create(b, loc, rr, e.idx(stride[0]));
    Value ow = arith::DivUIOp::create(b, loc, cc, e.idx(stride[1]));
    Value onGrid = e.both(e.cmp(P::eq, arith::RemUIOp::create(b, loc, rr, e.idx(stride[0])), 0),
                          e.cmp(P::eq, arith::RemUIOp::create(b, loc, cc, e.idx(stride[1])), 0));
    Value inOut = e.both(e.cmp(P::slt, oh, outSize[0]), e.cmp(P::slt, ow, outSize[1]));
    auto ifOut = scf::IfOp::create(b, loc, TypeRange{}, e.both(onGrid, inOut), false);
    b.setInsertionPoint(ifOut.thenBlock()->getTerminator());
    ivs[w.access[0].parallelDim] = oh;
    ivs[w.access[1].parallelDim] = ow;
    forEachElement([&] { output(); });
  }

  /// The per-pixel loops from `level` on (their ivs set), `leaf` inside.
  void forEachElement(llvm::function_ref<void()> leaf, unsigned level = 0) {
    if (level == restLoops.size()) {
      leaf();
      return;
    }
    e.loop(trips[restLoops[level]], [&](Value iv) {
      ivs[restLoops[level]] = iv;
      forEachElement(leaf, level + 1);
    });
  }

  /// One output element at the current ivs.
  void output() {
    SmallVector<Value> pulled(all.size());
    for (unsigned k : perElement)
      pulled[k] = e.pull(all[k].port);
    Value start = valueOf(all.size() - 1, pulled);
    if (!start)
      start = e.constant(zeroOf(cast<dfg::OutputType>(out.getType()).getElementType()));
    e.push(reduce(0, start, pulled), out);
  }

  /// Operand k at the current ivs: a window tap, a pulled element, or a read.
  Value valueOf(unsigned k, ArrayRef<Value> pulled) {
    if (k == w.operand)
      return windowTap(0);
    if (pulled[k])
      return pulled[k];
    return readOperand(e, all[k], maps[k], ivs, fullBuffers[k]);
  }

  /// The window's tap at the current reduction ivs, `shift` columns to the
  /// right (1: the second column of a pair).
  Value windowTap(int64_t shift) {
    Value rIdx = e.mul(ivs[w.access[0].reductionDim], dil[0]);
    Value cIdx = e.mul(ivs[w.access[1].reductionDim], dil[1]);
    if (shift)
      cIdx = e.add(cIdx, e.idx(shift));
    return memref::LoadOp::create(b, loc, window, ValueRange{rIdx, cIdx, channelIndex()});
  }

  /// The reduction loops from `level` on around the payload.
  Value reduce(unsigned level, Value acc, ArrayRef<Value> pulled) {
    if (level == reductions.size()) {
      SmallVector<Value> args;
      for (unsigned k = 0; k < inputs.size(); ++k)
        args.push_back(valueOf(k, pulled));
      args.push_back(acc);
      return clonePayload(e, op, args, ivs);
    }
    unsigned d = reductions[level];
    scf::ForOp l = e.loopCarry(trips[d], acc, [&](Value iv, Value carried) {
      ivs[d] = iv;
      return reduce(level + 1, carried, pulled);
    });
    return l.getResult(0);
  }

  /// Leading padded rows and columns the image loop skips. Each iteration
  /// costs the pipeline's II, and these complete no window and only shift
  /// the pad value in: over the top rows the buffers already hold it (they
  /// start from it, and once per image), and at a row's left the window
  /// still holds it from the previous row's right padding, which must be at
  /// least as wide. An 8x8 map with 3x3 'same' padding then runs 81
  /// iterations instead of 100. The columns left stay a multiple of the
  /// stride, so that the column loop unrolled by it still completes one
  /// window per iteration.
  int64_t skipped(unsigned a, bool oneImage) const {
    if (a == 0)
      return oneImage ? std::min(low[0], keff[0] - 1) : 0;
    return skippedColumns(low[1], high[1], keff[1], padded[1], stride[1]);
  }

  /// Every padded pixel in raster order but the skipped ones, the column
  /// loop pipelined.
  void image(bool oneImage) {
    e.loop(skipped(0, oneImage), padded[0], [&](Value r) {
      if (paired) {
        pairedColumns(r, pairedStart(oneImage));
        return;
      }
      scf::ForOp cols = e.loop(skipped(1, oneImage), padded[1], [&](Value c) {
        shiftIn(r, c);
        whenComplete(r, c);
      });
      e.pipeline(cols);
    });
  }

  //===--------------------------------------------------------------------===//
  // Column pairs: an int8 depthwise window computes the outputs of two
  // adjacent columns per iteration, every weight multiplying a tap of each
  // window. Those two products share an operand, so ming-pack-int8 computes
  // them in one DSP (WP486); a depthwise window reuses nothing across output
  // channels and has no other pair to pack.
  //===--------------------------------------------------------------------===//

  int64_t width() const { return keff[1] + (paired ? 1 : 0); }

  /// The first column of the pairs: one column earlier than the unpaired
  /// loop when the columns left are odd (a padding column shifted in once
  /// more, as the skipped ones were).
  int64_t pairedStart(bool oneImage) const {
    int64_t first = skipped(1, oneImage);
    return (padded[1] - first) % 2 ? first - 1 : first;
  }

  /// The second column's outputs, one per element of the per-pixel loops.
  void pendingBuffer() {
    int64_t n = 1;
    for (unsigned d : restLoops)
      n *= trips[d];
    pending = e.buffer({n}, cast<dfg::OutputType>(out.getType()).getElementType());
    directives::setPartition(pending.getDefiningOp(),
                             directives::PartitionAttr::get(b.getContext(), {1}, {}));
  }

  /// Index of the per-pixel loops' element in `pending`.
  Value pendingIndex() {
    Value flat = e.idx(0);
    for (unsigned d : restLoops)
      flat = e.add(e.mul(flat, trips[d]), ivs[d]);
    return flat;
  }

  /// A row of padded columns two at a time, pipelined: both shifted in, then
  /// the outputs of the windows ending at each.
  void pairedColumns(Value r, int64_t first) {
    auto cols = scf::ForOp::create(b, loc, e.idx(first), e.idx(padded[1]), e.idx(2));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(cols.getBody()->getTerminator());
      Value c = cols.getInductionVar();
      Value c1 = e.add(c, e.idx(1));
      shiftIn(r, c);
      shiftIn(r, c1);
      whenPairComplete(r, c, c1);
    }
    e.pipeline(cols);
  }

  /// The outputs of the windows ending at padded (r, c) and (r, c + 1): the
  /// first column's pushed, the second's held and pushed after them.
  void whenPairComplete(Value r, Value c, Value c1) {
    using P = arith::CmpIPredicate;
    Value rowReady = e.cmp(P::sge, r, keff[0] - 1);
    auto ifRow = scf::IfOp::create(b, loc, TypeRange{}, rowReady, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    Value rr = arith::SubIOp::create(b, loc, r, e.idx(keff[0] - 1));
    Value oh = arith::DivUIOp::create(b, loc, rr, e.idx(stride[0]));
    Value rowOk = e.both(e.cmp(P::eq, arith::RemUIOp::create(b, loc, rr, e.idx(stride[0])), 0),
                         e.cmp(P::slt, oh, outSize[0]));
    auto column = [&](Value col) {
      Value ow = arith::SubIOp::create(b, loc, col, e.idx(keff[1] - 1));
      Value ok = e.both(rowOk, e.both(e.cmp(P::sge, col, keff[1] - 1), e.cmp(P::slt, ow, outSize[1])));
      return std::pair<Value, Value>{ow, ok};
    };
    auto [ow0, ok0] = column(c);
    auto [ow1, ok1] = column(c1);
    auto ifAny = scf::IfOp::create(b, loc, TypeRange{}, arith::OrIOp::create(b, loc, ok0, ok1), false);
    b.setInsertionPoint(ifAny.thenBlock()->getTerminator());
    ivs[w.access[0].parallelDim] = oh;
    // A column that completes no window reads the init at the other's pixel.
    ow0 = arith::SelectOp::create(b, loc, ok0, ow0, ow1);
    ow1 = arith::SelectOp::create(b, loc, ok1, ow1, ow0);
    forEachElement([&] { pairOutput(ow0, ow1, ok0); });
    auto ifSecond = scf::IfOp::create(b, loc, TypeRange{}, ok1, false);
    b.setInsertionPoint(ifSecond.thenBlock()->getTerminator());
    forEachElement([&] { e.push(memref::LoadOp::create(b, loc, pending, ValueRange{pendingIndex()}), out); });
  }

  /// Both columns' output elements at the current ivs: the first's pushed
  /// where it completes a window (`ok0`), the second's held.
  void pairOutput(Value ow0, Value ow1, Value ok0) {
    Type outElem = cast<dfg::OutputType>(out.getType()).getElementType();
    auto start = [&](Value ow) {
      ivs[w.access[1].parallelDim] = ow;
      SmallVector<Value> none(all.size());
      Value v = valueOf(all.size() - 1, none);
      return v ? v : e.constant(zeroOf(outElem));
    };
    Value s0 = start(ow0), s1 = start(ow1);
    auto [v0, v1] = reducePair(0, s0, s1);
    auto ifFirst = scf::IfOp::create(b, loc, TypeRange{}, ok0, false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
      e.push(v0, out);
    }
    memref::StoreOp::create(b, loc, v1, pending, ValueRange{pendingIndex()});
  }

  /// The reduction loops from `level` on, carrying both columns' values: a
  /// weight read once for both taps.
  std::pair<Value, Value> reducePair(unsigned level, Value acc0, Value acc1) {
    if (level == reductions.size()) {
      SmallVector<Value> args0, args1;
      for (unsigned k = 0; k < inputs.size(); ++k) {
        if (k == w.operand) {
          args0.push_back(windowTap(0));
          args1.push_back(windowTap(1));
          continue;
        }
        SmallVector<Value> none(all.size());
        Value v = valueOf(k, none);
        args0.push_back(v);
        args1.push_back(v);
      }
      args0.push_back(acc0);
      args1.push_back(acc1);
      return {clonePayload(e, op, args0, ivs), clonePayload(e, op, args1, ivs)};
    }
    unsigned d = reductions[level];
    auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(trips[d]), e.idx(1), ValueRange{acc0, acc1});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ivs[d] = loop.getInductionVar();
      auto [n0, n1] = reducePair(level + 1, loop.getRegionIterArgs()[0], loop.getRegionIterArgs()[1]);
      scf::YieldOp::create(b, loc, ValueRange{n0, n1});
    }
    return {loop.getResult(0), loop.getResult(1)};
  }
};

} // namespace

LogicalResult buildWindow(OpBuilder &b, Location loc, linalg::GenericOp op,
                          const KernelInfo &info, ArrayRef<Operand> inputs,
                          const Operand &init, Value out, const Tables &tables) {
  FailureOr<Window> w = windowOf(op, info);
  FailureOr<Order> outOrder = windowOutputOrder(op, info);
  if (failed(w) || failed(outOrder))
    return failure();
  WindowBuilder wb(b, loc, op, info, inputs, out, tables);
  wb.w = *w;
  wb.geometry();
  if (failed(wb.sideInputs(init)))
    return failure();
  wb.loopsAroundPixel(*outOrder);
  // Several images share the buffers: the next one's top rows must shift
  // the pad value over the last one's bottom rows.
  bool oneImage = !wb.batchLoop || wb.trips[*wb.batchLoop] == 1;
  // Column pairs read every operand but the window once for both columns:
  // none may be pulled per output element (an init streamed from another
  // process, which pairsColumns cannot see; its lookahead then counts one
  // pixel more than needed).
  wb.paired = wb.perElement.empty() && pairsColumns(op, info, wb.w, inputs);
  wb.buffers();
  if (wb.paired)
    wb.pendingBuffer();
  if (wb.batchLoop)
    wb.e.loop(wb.trips[*wb.batchLoop], [&](Value n) {
      wb.ivs[*wb.batchLoop] = n;
      wb.image(oneImage);
    });
  else
    wb.image(oneImage);
  return success();
}


} // namespace ming::lowering
