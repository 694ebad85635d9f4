// The lowering of each op of the normalised function (Graph.h): a linalg op
// becomes a loop-nest or sliding-window process, a reshape passes its stream
// on, concat, slice and a pad no window folds get processes of their own and
// each returned tensor a store. One function per kind of op, apart from the
// stream plumbing they share (Streams.cpp) and from the process bodies
// (Bodies.cpp, Window.cpp).
#include "Emit.h"
#include "Graph.h"
#include "Normalise.h"
#include "Orders.h"

#include "ming/Directives/Directives.h"
#include "ming/Support/CrashReport.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>

using namespace mlir;

namespace ming::lowering {
namespace {

/// The order a loop nest's output takes from an already streamed input, so
/// that elementwise layers between convolutions keep the pixel-major order.
Order inheritedOrder(linalg::GenericOp op, AffineMap inMap, const Order &inOrder) {
  return followOrder(inMap, inOrder, op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
}

/// Whether `op` accumulates its one streamed input `in` in the order it
/// arrives: a reduction whose input streams with reduced axes outside kept
/// ones (an NHWC global pool, channels innermost) updates one accumulator
/// per output element as each element passes, where a loop nest would need
/// the whole input reordered. For inputs read once each, and for outputs
/// small enough to keep. An integer sum does not depend on the order; any
/// other payload (a float sum) only where each accumulator still meets its
/// terms in the op's own iteration order: the reduced axes arrive nested as
/// their loop dims are (h before w for a pool), so the result is the one
/// the op defines, bit for bit.
bool accumulates(linalg::GenericOp op, const KernelInfo &info, ArrayRef<Operand> inputs,
                 const Operand &init, const Order &arriving, const Order &outOrder) {
  constexpr int64_t kMaxAccumulators = 4096;
  if (info.kind != KernelClass::RegularReduction || init.role == Role::Stream)
    return false;
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  if (resultType.getNumElements() > kMaxAccumulators)
    return false;
  std::optional<unsigned> streamed;
  for (auto [k, operand] : llvm::enumerate(inputs))
    if (operand.role == Role::Stream) {
      if (streamed || !operand.padLow.empty())
        return false;
      streamed = k;
    }
  if (!streamed)
    return false;
  AffineMap map = op.getIndexingMapsArray()[*streamed];
  FailureOr<SmallVector<unsigned>> dims = plainDims(map);
  if (failed(dims))
    return false;
  for (auto [d, trip] : llvm::enumerate(info.tripCounts))
    if (trip > 1 && !llvm::is_contained(*dims, d))
      return false;
  auto shape = cast<RankedTensorType>(inputs[*streamed].source.getType()).getShape();
  if (!integerPayload(op)) {
    SmallVector<unsigned> dimsArriving;
    for (unsigned axis : reducedAxes(map, op.getIndexingMapsArray().back(), shape, arriving))
      dimsArriving.push_back(cast<AffineDimExpr>(map.getResult(axis)).getPosition());
    if (!llvm::is_sorted(dimsArriving))
      return false;
  }
  FailureOr<Order> nest = loopNestInputOrder(op, map, outOrder);
  return succeeded(nest) && !sameSequence(shape, *nest, arriving);
}

} // namespace

/// The payload's ops, checked: arith and math, linalg.index, constants
/// captured from outside, and reads of captured constant tensors at a
/// computed address (a lookup table), each given its ROM.
FailureOr<Tables> GraphBuilder::tablesOf(linalg::GenericOp op) {
  Tables tables;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      auto cst = extract.getTensor().getDefiningOp<arith::ConstantOp>();
      auto type = dyn_cast<RankedTensorType>(extract.getTensor().getType());
      if (!cst || !type || !type.hasStaticShape() || !isa<DenseElementsAttr>(cst.getValue()))
        return inner.emitError("convert-linalg-to-dfg: 'tensor.extract' of a tensor that is not "
                               "a constant; a payload reads by index only constant tables of "
                               "static shape, held in ROMs");
      if (!tables.count(cst))
        tables[cst] = globalFor(cst, "table");
      continue;
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) &&
        !isa<linalg::IndexOp>(inner))
      return inner.emitError("convert-linalg-to-dfg: '")
             << inner.getName()
             << "' in a linalg payload is not supported; arith, math and tensor.extract of a "
                "constant table are";
    for (Value v : inner.getOperands())
      if (v.getParentRegion() != &op.getRegion() && !matchPattern(v, m_Constant()))
        return inner.emitError("convert-linalg-to-dfg: the payload uses a value defined "
                               "outside the op that is not a constant");
  }
  return tables;
}

LogicalResult GraphBuilder::lowerGeneric(linalg::GenericOp op) {
  ming::crash::Scope scope(op, "lowering");
  Location loc = op.getLoc();
  if (fillValue(op)) {
    if (streamUses(op.getResult(0)))
      return op.emitError("convert-linalg-to-dfg: a constant-filled tensor that is not only an "
                          "accumulator or operand cannot be streamed");
    return success();
  }
  // A constant broadcast its readers read in place needs no process.
  if (constantBroadcast(op) && !streamUses(op.getResult(0)))
    return success();
  if (op.getNumDpsInits() != 1)
    return op.emitError("convert-linalg-to-dfg: a linalg op whose ")
           << op.getNumDpsInits()
           << " results read one another's accumulators (a running arg-max and its max, both read) is not "
              "supported; results computed apart become processes apart";
  // The payload runs inside an isolated process: only scalar arithmetic,
  // constants captured from outside and reads of captured constant tables.
  FailureOr<Tables> tables = tablesOf(op);
  if (failed(tables))
    return failure();
  FailureOr<KernelInfo> infoOr = ming::analyzeKernel(op);
  if (failed(infoOr))
    return op.emitError("convert-linalg-to-dfg: dynamic loop ranges");
  KernelInfo info = *infoOr;
  bool window = info.kind == KernelClass::SlidingWindow;
  std::optional<unsigned> windowed;
  if (window)
    windowed = info.windows.front().operand;

  SmallVector<Operand, 4> inputs;
  for (OpOperand *use : op.getDpsInputOperands()) {
    FailureOr<Operand> operand =
        classify(op, *use, windowed && *windowed == use->getOperandNumber());
    if (failed(operand))
      return failure();
    inputs.push_back(*operand);
  }
  // A window over a constant (IREE divides an average pool by a pool of a
  // tensor of ones when the padding is not counted) has nothing to stream
  // through a line buffer: the constant is read by index like any other, so
  // the op is a plain reduction nest.
  if (window && inputs[*windowed].role != Role::Stream) {
    window = false;
    windowed.reset();
    info.kind = KernelClass::RegularReduction;
  }
  FailureOr<Operand> initOr = classify(op, *op.getDpsInitOperand(0), false);
  if (failed(initOr))
    return failure();
  Operand init = *initOr;
  if (init.role == Role::Stream && !init.padLow.empty())
    return op.emitError("convert-linalg-to-dfg: a padded accumulator is not supported");

  // The output's element order.
  Order outOrder;
  Value result = op.getResult(0);
  auto resultType = cast<RankedTensorType>(result.getType());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (window) {
    FailureOr<Order> o = windowOutputOrder(op, info);
    if (failed(o))
      return failure();
    outOrder = *o;
  } else if (auto it = required.find(result); it != required.end()) {
    outOrder = it->second;
  } else {
    outOrder = identityOrder(resultType.getRank());
    for (auto [k, operand] : llvm::enumerate(inputs))
      if (operand.role == Role::Stream && sources.count(operand.source)) {
        outOrder = inheritedOrder(op, maps[k], sources[operand.source].order);
        break;
      }
  }

  // An input that arrives with reduced axes outermost is accumulated as it
  // comes (accumulates), not reordered.
  bool accumulating = false;
  if (!window)
    for (const Operand &operand : inputs)
      if (operand.role == Role::Stream && sources.count(operand.source))
        accumulating = accumulates(op, info, inputs, init, sources[operand.source].order, outOrder);
  // A single-row float dense layer behind a producer that spreads its outputs
  // over its run takes each input element as it comes (OuterProduct.cpp),
  // so the two overlap; behind one whose outputs come at once it stays a
  // loop nest, which spreads its own outputs for the layer after it.
  bool outer = false;
  if (!window && !accumulating)
    for (const Operand &operand : inputs)
      if (operand.role == Role::Stream && sources.count(operand.source) &&
          progressive.contains(operand.source))
        outer = outerProduct(op, info, inputs, init, sources[operand.source].order);

  // Ports: every streamed operand (inputs, then the init), then the output.
  SmallVector<Type> ports;
  SmallVector<Value> operands;
  auto addStream = [&](Operand &operand, AffineMap map, bool isWindowed) -> LogicalResult {
    FailureOr<Order> want = isWindowed   ? windowInputOrder(op, info)
                            : window     ? windowSideInputOrder(op, info, map)
                            : accumulating || outer ? FailureOr<Order>(sources[operand.source].order)
                                         : loopNestInputOrder(op, map, outOrder);
    if (failed(want))
      return op.emitError("convert-linalg-to-dfg: cannot stream an operand read at ")
             << AffineMapAttr::get(map);
    FailureOr<std::pair<Value, Order>> taken = take(operand.source, *want, loc);
    if (failed(taken))
      return failure();
    operand.order = taken->second;
    operands.push_back(taken->first);
    ports.push_back(dfg::InputType::get(getElementTypeOrSelf(operand.source.getType())));
    return success();
  };
  for (auto [k, operand] : llvm::enumerate(inputs))
    if (operand.role == Role::Stream &&
        failed(addStream(operand, maps[k], windowed && *windowed == k)))
      return failure();
  if (init.role == Role::Stream && failed(addStream(init, maps.back(), false)))
    return failure();
  Type outElem = resultType.getElementType();
  ports.push_back(dfg::OutputType::get(outElem));
  operands.push_back(makeSource(result, outOrder, loc));

  StringRef base = window ? "window" : info.kind == KernelClass::RegularReduction ? "reduce" : "map";
  dfg::KernelKind kind = window ? dfg::KernelKind::SlidingWindow
                         : info.kind == KernelClass::RegularReduction
                             ? dfg::KernelKind::RegularReduction
                             : dfg::KernelKind::PureParallel;
  dfg::ProcessOp proc = newProcess(base, kind, ports, loc);
  Block &body = proc.getBody().front();
  unsigned port = 0;
  for (Operand &operand : inputs)
    if (operand.role == Role::Stream)
      operand.port = body.getArgument(port++);
  if (init.role == Role::Stream)
    init.port = body.getArgument(port++);
  Value out = body.getArgument(port);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    LogicalResult built =
        window         ? buildWindow(b, loc, op, info, inputs, init, out, *tables)
        : accumulating ? buildAccumulation(b, loc, op, inputs, init, out, outOrder, *tables)
        : outer        ? buildOuterProduct(b, loc, op, info, inputs, init, out, outOrder, *tables)
                       : buildLoopNest(b, loc, op, info, inputs, init, out, outOrder, *tables);
    if (failed(built))
      return failure();
  }
  instantiate(proc, operands, loc);

  int64_t inputNumel = 1;
  for (const Operand &operand : inputs)
    if (operand.role == Role::Stream)
      inputNumel = std::max(inputNumel,
                            cast<RankedTensorType>(operand.source.getType()).getNumElements());
  // An accumulation says nothing before its whole input has passed.
  setLookahead(proc,
               accumulating || outer ? inputNumel : lookaheadElements(op, info, inputs, outOrder),
               inputNumel);
  // Which results come out over the producer's run rather than at its end.
  if (window || (info.kind == KernelClass::RegularReduction && !accumulating && !outer &&
                 resultType.getNumElements() > 1) ||
      (info.kind == KernelClass::PureParallel &&
       llvm::any_of(inputs, [&](const Operand &operand) {
         return operand.role == Role::Stream && progressive.contains(operand.source);
       })))
    progressive.insert(result);
  if (window) {
    // A window over folded padding pulls under conditions: per loop iteration
    // its accesses vary, and only the totals bound its ports' lanes.
    SmallVector<int64_t> totals;
    for (const Operand &operand : inputs)
      if (operand.role == Role::Stream)
        totals.push_back(cast<RankedTensorType>(operand.source.getType()).getNumElements());
    if (init.role == Role::Stream)
      totals.push_back(cast<RankedTensorType>(init.source.getType()).getNumElements());
    totals.push_back(resultType.getNumElements());
    proc->setAttr(directives::kPortElements, b.getDenseI64ArrayAttr(totals));
  }
  return success();
}

LogicalResult GraphBuilder::lowerAlias(Operation *op, Value src, Value result) {
  if (!streamUses(result))
    return success();
  auto type = cast<RankedTensorType>(src.getType());
  auto resultType = cast<RankedTensorType>(result.getType());
  // Inserting or removing unit dimensions (squeeze, unsqueeze, a 1-D layer
  // seen as 2-D) keeps any element order: carry the source's over, or the
  // one the result's consumer needs.
  if (auto map = unitReshapeMap(type.getShape(), resultType.getShape())) {
    std::optional<Order> want;
    if (auto it = required.find(result); it != required.end()) {
      // The source order whose sequence is the wanted one.
      auto back = unitReshapeMap(resultType.getShape(), type.getShape());
      want = reshapeOrder(resultType.getShape(), type.getShape(), it->second, *back);
    }
    FailureOr<std::pair<Value, Order>> taken = take(src, want, op->getLoc());
    if (failed(taken))
      return failure();
    Order carried = reshapeOrder(type.getShape(), resultType.getShape(), taken->second, *map);
    distribute(result, taken->first, carried, op->getLoc());
    if (progressive.contains(src))
      progressive.insert(result);
    return success();
  }
  // Any other reshape splits dims (expand) or merges them (collapse): the
  // stream passes unchanged when its element sequence is an order of the
  // result too. Prefer the order the result's consumer needs, else the one
  // the source already streams in, with merged dims made adjacent.
  bool expand = isa<tensor::ExpandShapeOp>(op);
  SmallVector<ReassociationIndices> groups =
      expand ? cast<tensor::ExpandShapeOp>(op).getReassociationIndices()
             : cast<tensor::CollapseShapeOp>(op).getReassociationIndices();
  ArrayRef<int64_t> fineShape = expand ? resultType.getShape() : type.getShape();
  std::optional<Order> want;
  if (auto it = required.find(result); it != required.end())
    want = expand ? coarsenOrder(it->second, fineShape, groups)
                  : std::optional<Order>(refineOrder(it->second, groups));
  if (!want) {
    if (auto it = sources.find(src); it != sources.end())
      want = expand ? it->second.order : groupedOrder(it->second.order, groups);
    else
      want = identityOrder(type.getRank());
  }
  FailureOr<std::pair<Value, Order>> taken = take(src, want, op->getLoc());
  if (failed(taken))
    return failure();
  std::optional<Order> carried = expand ? std::optional<Order>(refineOrder(taken->second, groups))
                                        : coarsenOrder(taken->second, fineShape, groups);
  if (!carried)
    return op->emitError("convert-linalg-to-dfg: internal error: no stream order for this "
                         "reshape");
  distribute(result, taken->first, *carried, op->getLoc());
  if (progressive.contains(src))
    progressive.insert(result);
  return success();
}

/// The order `v` is wanted in, if a consumer fixed one.
static std::optional<Order> requiredOrder(const DenseMap<Value, Order> &required, Value v) {
  if (auto it = required.find(v); it != required.end())
    return it->second;
  return std::nullopt;
}

/// Concat: every input streams in the output's order (same rank), so the
/// process forwards chunk after chunk and buffers nothing; while one input's
/// chunk passes, the others wait in their FIFOs (`ming.join_burst`).
LogicalResult GraphBuilder::lowerConcat(tensor::ConcatOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(result.getType());
  unsigned dim = op.getDim();
  std::optional<Order> want = requiredOrder(required, result);
  if (!want) {
    // Follow the first input already streamed (a window's pixel-major order),
    // so no input needs a reorder buffer.
    for (Value in : op.getInputs())
      if (auto it = sources.find(in); it != sources.end()) {
        want = it->second.order;
        break;
      }
  }
  Order order = want ? *want : identityOrder(resultType.getRank());
  SmallVector<Type> ports;
  SmallVector<Value> operands;
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> bursts;
  for (Value in : op.getInputs()) {
    auto type = cast<RankedTensorType>(in.getType());
    FailureOr<std::pair<Value, Order>> taken = take(in, order, loc);
    if (failed(taken))
      return failure();
    operands.push_back(taken->first);
    ports.push_back(dfg::InputType::get(type.getElementType()));
    types.push_back(type);
    bursts.push_back(concatChunk(type, dim, order));
  }
  Type elem = resultType.getElementType();
  ports.push_back(dfg::OutputType::get(elem));
  operands.push_back(makeSource(result, order, loc));
  dfg::ProcessOp proc = newProcess("concat", dfg::KernelKind::Concat, ports, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    Block &body = proc.getBody().front();
    buildConcat(b, loc, body.getArguments().drop_back(), body.getArguments().back(), types, dim,
                order);
  }
  instantiate(proc, operands, loc);
  // Bursts count elements of one input; the largest input scales them to the
  // forked tensor's elements (a fork feeding the concat directly: one to one).
  int64_t largest = 1;
  for (RankedTensorType t : types)
    largest = std::max(largest, t.getNumElements());
  setLookahead(proc, 0, largest);
  proc->setAttr(directives::kJoinBurst, b.getDenseI64ArrayAttr(bursts));
  SmallVector<int64_t> totals;
  for (RankedTensorType t : types)
    totals.push_back(t.getNumElements());
  totals.push_back(resultType.getNumElements());
  proc->setAttr(directives::kPortElements, b.getDenseI64ArrayAttr(totals));
  return success();
}

/// A process that passes `source` through in the order its readers need and
/// changes which elements go on: `build` writes its body (input port, output
/// port, order), `lookahead` gives the elements it pulls before its first
/// output (for the fork FIFOs).
LogicalResult GraphBuilder::lowerFilter(
    Operation *op, StringRef name, dfg::KernelKind kind, Value source, Value result,
    function_ref<void(Value, Value, const Order &)> build,
    function_ref<int64_t(const Order &)> lookahead) {
  Location loc = op->getLoc();
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto resultType = cast<RankedTensorType>(result.getType());
  FailureOr<std::pair<Value, Order>> taken = take(source, requiredOrder(required, result), loc);
  if (failed(taken))
    return failure();
  Order order = taken->second;
  Type elem = sourceType.getElementType();
  dfg::ProcessOp proc = newProcess(name, kind,
                                   {dfg::InputType::get(elem), dfg::OutputType::get(elem)}, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    build(proc.getArgument(0), proc.getArgument(1), order);
  }
  instantiate(proc, {taken->first, makeSource(result, order, loc)}, loc);
  setLookahead(proc, lookahead(order), sourceType.getNumElements());
  proc->setAttr(directives::kPortElements,
                b.getDenseI64ArrayAttr({sourceType.getNumElements(), resultType.getNumElements()}));
  return success();
}

/// Slice: the whole source passes in its order; the elements inside the
/// slice go on, the rest is dropped (Split and Slice along any axis).
LogicalResult GraphBuilder::lowerSlice(tensor::ExtractSliceOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  RankedTensorType source = op.getSourceType();
  return lowerFilter(
      op, "slice", dfg::KernelKind::Slice, op.getSource(), result,
      [&](Value in, Value out, const Order &order) {
        buildSlice(b, op.getLoc(), in, out, source, op.getStaticOffsets(), op.getStaticSizes(),
                   op.getStaticStrides(), order);
      },
      [&](const Order &order) {
        // Elements dropped before the first one kept.
        int64_t skipped = 0;
        for (unsigned d : order)
          skipped = skipped * source.getDimSize(d) + op.getStaticOffsets()[d];
        return skipped + 1;
      });
}

/// Pad as a process: where a reader does not slide a window over the padded
/// tensor (a Pad before a Gemm, an elementwise op or the output), the padding
/// is inserted into the stream; the source streams in the same order.
LogicalResult GraphBuilder::lowerPad(tensor::PadOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  TypedAttr value = padValue(op);
  if (!value)
    return op.emitError("convert-linalg-to-dfg: tensor.pad must pad with a constant");
  return lowerFilter(
      op, "pad", dfg::KernelKind::Pad, op.getSource(), result,
      [&](Value in, Value out, const Order &order) {
        buildPad(b, op.getLoc(), in, out, op.getSourceType(), op.getResultType(),
                 op.getStaticLow(), value, order);
      },
      [](const Order &) { return int64_t(1); });
}

LogicalResult GraphBuilder::lowerReturn(func::ReturnOp ret) {
  unsigned numInputs = func.getNumArguments();
  for (auto [j, v] : llvm::enumerate(ret.getOperands())) {
    // The store walks memory in the producer's order, or in runs of the
    // memory's rows after a row reorder.
    std::optional<Order> want;
    if (auto it = sources.find(v); it != sources.end())
      want = boundaryOrder(v, it->second.order);
    FailureOr<std::pair<Value, Order>> taken = take(v, want, ret.getLoc());
    if (failed(taken))
      return failure();
    Value mem = graph.getBody().front().getArgument(numInputs + j);
    Type elem = getElementTypeOrSelf(v.getType());
    dfg::ProcessOp proc = newProcess("store", dfg::KernelKind::Store,
                                     {dfg::InputType::get(elem), mem.getType()}, ret.getLoc());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&proc.getBody().front());
      buildStore(b, ret.getLoc(), proc.getArgument(0), proc.getArgument(1), taken->second);
    }
    instantiate(proc, {taken->first, mem}, ret.getLoc());
  }
  return success();
}

} // namespace ming::lowering
