// How values reach the processes of the graph builder (Graph.h): the role
// of each operand of a linalg op, the channel that carries a tensor and the
// fork that shares it among its readers, the reorder process for a reader
// that needs another element order, and the helpers that create processes
// and channels. Kept apart from the lowering of each op, which only asks for
// streams and hands out results.
#include "Graph.h"
#include "Normalise.h"
#include "Orders.h"

#include "ming/Directives/Directives.h"

using namespace mlir;

namespace ming::lowering {

namespace {
/// Where a tensor operand's values come from: read without a stream (no
/// values, a splat constant or fill, a constant's ROM, a constant broadcast
/// read from its constant in place) or streamed, with what was found. The
/// one rule both classify and streamUses follow; `windowed` (whether the
/// operand is the window a sliding window slides over) is asked only for a
/// constant broadcast, which streams there.
struct Origin {
  enum Kind { Empty, Splat, Constant, Broadcast, Stream } kind = Stream;
  TypedAttr splat;                           // Splat
  arith::ConstantOp constant;                // Constant
  std::optional<ConstantBroadcast> broadcast; // Broadcast
};

Origin originOf(Value v, llvm::function_ref<bool()> windowed) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(def))
    return {Origin::Empty};
  if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()); dense && dense.isSplat())
      return {Origin::Splat, cast<TypedAttr>(dense.getSplatValue<Attribute>())};
    return {Origin::Constant, {}, cst};
  }
  if (auto producer = dyn_cast_or_null<linalg::GenericOp>(def)) {
    if (TypedAttr fill = fillValue(producer))
      return {Origin::Splat, fill};
    if (std::optional<ConstantBroadcast> bcast = constantBroadcast(producer); bcast && !windowed())
      return {Origin::Broadcast, {}, {}, bcast};
  }
  return {Origin::Stream};
}
} // namespace

FailureOr<Operand> GraphBuilder::classify(linalg::GenericOp op, OpOperand &use, bool windowed) {
  Operand operand;
  Value v = use.get();
  Block &body = op.getRegion().front();
  bool read = !body.getArgument(use.getOperandNumber()).use_empty();
  Operation *def = v.getDefiningOp();

  if (!isa<ShapedType>(v.getType())) {
    operand.splat = constantOf(v);
    if (!operand.splat)
      return op.emitError("convert-linalg-to-dfg: scalar operand #")
             << use.getOperandNumber() << " must be a constant";
    operand.role = Role::Splat;
    return operand;
  }
  Origin origin = originOf(v, [&] { return windowed; });
  switch (origin.kind) {
  case Origin::Empty:
    if (read)
      return op.emitError("convert-linalg-to-dfg: operand #")
             << use.getOperandNumber() << " is a tensor.empty whose values the payload reads";
    return operand;
  case Origin::Splat:
    operand.role = Role::Splat;
    operand.splat = origin.splat;
    return operand;
  case Origin::Constant:
    operand.role = Role::Rom;
    operand.global = globalFor(origin.constant);
    return operand;
  case Origin::Broadcast:
    // A constant broadcast to the operand's shape (a bias to every pixel)
    // is read from the constant's ROM in place: no process streams it.
    operand.role = Role::Rom;
    operand.global = globalFor(origin.broadcast->constant);
    operand.through = origin.broadcast->through;
    return operand;
  case Origin::Stream:
    break;
  }
  operand.role = Role::Stream;
  operand.source = v;
  if (auto pad = dyn_cast_or_null<tensor::PadOp>(def); pad && !padProcesses.count(pad)) {
    if (!windowed)
      return pad.emitError("convert-linalg-to-dfg: this tensor.pad feeds operand #")
             << use.getOperandNumber()
             << ", which is not a sliding window; padding is folded into sliding windows only";
    operand.padValue = padValue(pad);
    if (!operand.padValue)
      return pad.emitError("convert-linalg-to-dfg: tensor.pad must pad with a constant");
    operand.source = pad.getSource();
    operand.padLow.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    operand.padHigh.assign(pad.getStaticHigh().begin(), pad.getStaticHigh().end());
    if (llvm::any_of(llvm::concat<int64_t>(operand.padLow, operand.padHigh),
                     [](int64_t p) { return p < 0 || ShapedType::isDynamic(p); }))
      return pad.emitError("convert-linalg-to-dfg: tensor.pad needs static, non-negative "
                           "padding");
  }
  return operand;
}

/// How many streams a value feeds: each streamed operand use, each return
/// and each alias (collapse/expand) that is itself streamed.
unsigned GraphBuilder::streamUses(Value v) {
  unsigned n = 0;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user))
      ++n;
    else if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ConcatOp,
                 tensor::ExtractSliceOp>(user))
      n += streamUses(user->getResult(0)) > 0;
    else if (auto pad = dyn_cast<tensor::PadOp>(user))
      n += padProcesses.count(pad) ? streamUses(pad.getResult()) > 0 : streamUses(pad.getResult());
    else if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
      if (fillValue(generic))
        continue;
      auto windowed = [&] {
        FailureOr<KernelInfo> info = ming::analyzeKernel(generic);
        return succeeded(info) && info->kind == KernelClass::SlidingWindow &&
               info->windows.front().operand == use.getOperandNumber();
      };
      n += originOf(v, windowed).kind == Origin::Stream;
    }
  }
  return n;
}

memref::GlobalOp GraphBuilder::globalFor(arith::ConstantOp cst, StringRef name) {
  auto it = globals.find(cst);
  if (it != globals.end())
    return it->second;
  auto type = cast<RankedTensorType>(cst.getType());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      b, cst.getLoc(), name, b.getStringAttr("private"),
      MemRefType::get(type.getShape(), type.getElementType()), cst.getValue(),
      /*constant=*/true, /*alignment=*/nullptr);
  symbols->insert(global); // uniquifies the name
  globals[cst] = global;
  return global;
}

dfg::ChannelOp GraphBuilder::channel(Type elem, Location loc, int64_t depth) {
  return dfg::ChannelOp::create(gb, loc, elem, 1, depth);
}

dfg::ProcessOp GraphBuilder::newProcess(StringRef base, dfg::KernelKind kind, TypeRange ports,
                                        Location loc) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(graph);
  auto type = FunctionType::get(b.getContext(), ports, {});
  auto proc = dfg::ProcessOp::create(b, loc, (base + Twine(counter++)).str(), type,
                                     /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
                                     dfg::KernelKindAttr::get(b.getContext(), kind));
  Block *block = new Block();
  proc.getBody().push_back(block);
  for (Type t : ports)
    block->addArgument(t, loc);
  symbols->insert(proc);
  return proc;
}

void GraphBuilder::instantiate(dfg::ProcessOp proc, ValueRange ports, Location loc) {
  dfg::InstantiateOp::create(gb, loc, proc.getSymName(), ports);
}

Value GraphBuilder::makeSource(Value v, Order order, Location loc) {
  dfg::ChannelOp ch = channel(getElementTypeOrSelf(v.getType()), loc);
  distribute(v, ch.getRead(), std::move(order), loc);
  return ch.getWrite();
}

void GraphBuilder::distribute(Value v, Value read, Order order, Location loc) {
  Source &s = sources[v];
  s.order = std::move(order);
  unsigned n = streamUses(v);
  if (n <= 1) {
    s.reads = {read};
    return;
  }
  Type elem = getElementTypeOrSelf(v.getType());
  SmallVector<Type> ports = {dfg::InputType::get(elem)};
  int64_t numel = cast<RankedTensorType>(v.getType()).getNumElements();
  SmallVector<Value> operands = {read}, outs;
  for (unsigned i = 0; i < n; ++i) {
    ports.push_back(dfg::OutputType::get(elem));
    dfg::ChannelOp ch = channel(elem, loc);
    operands.push_back(ch.getWrite());
    s.reads.push_back(ch.getRead());
  }
  dfg::ProcessOp proc = newProcess("fork", dfg::KernelKind::Fork, ports, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&proc.getBody().front());
  buildFork(b, loc, proc.getArgument(0), proc.getArguments().drop_front(), numel);
  instantiate(proc, operands, loc);
  setLookahead(proc, 0, numel);
}

FailureOr<std::pair<Value, Order>> GraphBuilder::take(Value v, std::optional<Order> want,
                                                     Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(v.getType());
  if (!sources.count(v)) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner()->getParentOp() != func)
      return emitError(loc, "convert-linalg-to-dfg: this value is not produced by a "
                            "streaming layer (a constant or fill cannot be streamed)");
    // Graph inputs: a load process reads memory in the first consumer's
    // order, or in runs of the memory's rows that a row reorder turns into
    // it before any fork, so every reader shares the one reorder.
    Order order = want ? *want : identityOrder(tensorType.getRank());
    std::optional<Order> staged = boundaryOrder(v, order);
    Type elem = tensorType.getElementType();
    Value mem = graph.getBody().front().getArgument(arg.getArgNumber());
    dfg::ProcessOp proc = newProcess("load", dfg::KernelKind::Load,
                                     {mem.getType(), dfg::OutputType::get(elem)}, loc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&proc.getBody().front());
      buildLoad(b, loc, proc.getArgument(0), proc.getArgument(1), staged ? *staged : order);
    }
    if (!staged) {
      instantiate(proc, {mem, makeSource(v, order, loc)}, loc);
    } else {
      dfg::ChannelOp ch = channel(elem, loc);
      instantiate(proc, {mem, ch.getWrite()}, loc);
      addReorder(ch.getRead(), tensorType, *staged, order, loc, makeSource(v, order, loc));
    }
  }
  Source &s = sources[v];
  if (s.next >= s.reads.size())
    return emitError(loc, "convert-linalg-to-dfg: internal error: more readers than counted");
  Value read = s.reads[s.next++];
  if (!want || *want == s.order)
    return std::make_pair(read, s.order);
  if (sameSequence(tensorType.getShape(), *want, s.order))
    return std::make_pair(read, *want);
  // The consumer needs another element order: buffer what differs, the
  // whole tensor when the orders share no outer dims.
  dfg::ChannelOp ch = channel(tensorType.getElementType(), loc);
  addReorder(read, tensorType, s.order, *want, loc, ch.getWrite());
  return std::make_pair(Value(ch.getRead()), *want);
}

void GraphBuilder::addReorder(Value read, RankedTensorType type, const Order &from,
                              const Order &to, Location loc, Value write) {
  Type elem = type.getElementType();
  int64_t block = 1;
  for (unsigned d : ArrayRef<unsigned>(from).drop_front(reorderPrefix(from, to)))
    block *= type.getDimSize(d);
  if (block == type.getNumElements())
    emitRemark(loc, "convert-linalg-to-dfg: reordering a ")
        << type << " stream through a full buffer (producer and consumer stream it in "
        << "different element orders)";
  dfg::ProcessOp proc = newProcess("reorder", dfg::KernelKind::PureParallel,
                                   {dfg::InputType::get(elem), dfg::OutputType::get(elem)}, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    buildReorder(b, loc, proc.getArgument(0), proc.getArgument(1), type, from, to);
  }
  instantiate(proc, {read, write}, loc);
  setLookahead(proc, block, type.getNumElements());
}

/// A port word carries several elements only where consecutive accesses are
/// consecutive addresses; a walk across memory rows moves one element per
/// beat. A block of one memory row per outer step (an image row of every
/// channel, at most this many bits) is reordered on chip instead.
constexpr int64_t kMaxBoundaryBlockBits = 128 * 1024;

std::optional<Order> GraphBuilder::boundaryOrder(Value tensor, const Order &stream) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat())
    return std::nullopt;
  return stagedOrder(type.getShape(), stream, elem.getIntOrFloatBitWidth(),
                     kMaxBoundaryBlockBits);
}

/// Fork FIFOs. When the paths leaving a fork meet again (a residual add),
/// the fork may only run ahead on one branch as far as that branch's FIFO
/// holds, while the other branch's processes fill their line and row
/// buffers before they produce. So branch i holds, on top of 2, what any
/// other branch j can lag: the buffers of every process reachable from j
/// (an upper bound of the path up to the join), in the forked tensor's
/// elements, and never more than the whole tensor. Straight channels keep
/// depth 2: without reconvergence a full FIFO only stalls, never deadlocks.
void GraphBuilder::setLookahead(dfg::ProcessOp proc, int64_t lookahead, int64_t inputElements) {
  proc->setAttr(directives::kLookahead, b.getI64IntegerAttr(lookahead));
  proc->setAttr(directives::kInputElements, b.getI64IntegerAttr(inputElements));
}

} // namespace ming::lowering
