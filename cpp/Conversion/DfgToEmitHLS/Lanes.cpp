// The streams of a process body in convert-dfg-to-emithls: dfg.pull and
// dfg.push become stream reads and writes, and a port of L > 1 lanes keeps a
// packed word and the lane the next transfer takes (a counter, or the
// innermost loop's iteration number mod L). Kept apart because the lane
// bookkeeping is the subtle part of the lowering.
#include "Lowering.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace ming::tohls {

// A single-lane port is read and written element by element. A port of L
// lanes moves packed words, and its k-th pull or push takes element k mod L
// of the current word (the round robin of dfg.pull/push without a lane
// index), so the element order on the channel is the one-lane order:
//
//   pull: if (lane == 0) word = s.read();   push: word[lane] = v;
//         v = word[lane];                         if (lane == L-1) s.write(word);
//         lane = lane == L-1 ? 0 : lane + 1;      lane = lane == L-1 ? 0 : lane + 1;
//
// `lane` is a counter in general; where the lane follows from the innermost
// loop (see LanePort) it is `i % L` and there is no counter to advance.
// An explicit lane index would need one FIFO per lane; nothing generates it.

static InFlightDiagnostic laneIndexError(Operation *op, unsigned lanes) {
  return op->emitOpError("names a lane explicitly; on a port of ")
         << lanes << " lanes only round-robin " << op->getName()
         << " (without a lane index) is supported, since the lanes travel together as one "
            "word of an hls::stream<hls::vector<T, L>>";
}

std::optional<int64_t> constantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub > *lb ? llvm::divideCeil(*ub - *lb, *step) : 0;
}

/// The loop whose iteration number mod `lanes` is the lane of every transfer
/// on `port`: its only pull or push is directly in that loop, every op around
/// it up to the process is a loop with constant bounds, and `lanes` divides
/// the loop's trip count. The k-th transfer is then iteration k mod T of the
/// loop (T its trip count), and k mod L = (k mod T) mod L. Null otherwise.
static scf::ForOp laneLoop(BlockArgument port, int64_t lanes) {
  Operation *only = nullptr;
  for (Operation *user : port.getUsers()) {
    if (only)
      return {};
    only = user;
  }
  if (!only || !isa<dfg::PullOp, dfg::PushOp>(only))
    return {};
  auto loop = dyn_cast<scf::ForOp>(only->getParentOp());
  for (Operation *parent = only->getParentOp(); parent && !isa<dfg::ProcessOp>(parent);
       parent = parent->getParentOp()) {
    auto around = dyn_cast<scf::ForOp>(parent);
    if (!around || !constantTripCount(around))
      return {};
  }
  if (!loop || *constantTripCount(loop) % lanes != 0)
    return {};
  return loop;
}

Value ProcessLowering::laneConstant(int64_t value, Type type) {
  Value &constant = laneConstants[{value, type}];
  if (!constant) {
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPointAfter(laneInsertPoint);
    constant = arith::ConstantOp::create(*builder, laneInsertPoint->getLoc(),
                                         builder->getIntegerAttr(type, value));
    laneInsertPoint = constant.getDefiningOp();
  }
  return constant;
}

void ProcessLowering::createLaneState(Block &source, Block &entry) {
  for (auto [arg, target] : llvm::zip_equal(source.getArguments(), entry.getArguments())) {
    auto stream = dyn_cast<hls::StreamType>(target.getType());
    auto word = stream ? dyn_cast<VectorType>(stream.getElementType()) : VectorType();
    if (!word)
      continue;
    int64_t lanes = word.getNumElements();
    scf::ForOp loop = laneLoop(arg, lanes);
    Value zero = loop ? Value() : laneConstant(0, builder->getI32Type());
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPointAfter(laneInsertPoint);
    Value wordVar = hls::VarOp::create(*builder, arg.getLoc(),
                                       hls::VarType::get(builder->getContext(), word), Value());
    Value laneVar;
    if (!loop)
      laneVar = hls::VarOp::create(
          *builder, arg.getLoc(),
          hls::VarType::get(builder->getContext(), builder->getI32Type()), zero);
    laneInsertPoint = (laneVar ? laneVar : wordVar).getDefiningOp();
    lanePorts[arg] = LanePort{wordVar, laneVar, loop, lanes};
  }
}

ProcessLowering::Lane ProcessLowering::currentLane(Location loc, const LanePort &port) {
  if (!port.loop) {
    Value counter = hls::GetOp::create(*builder, loc, builder->getI32Type(), port.lane);
    Value index = arith::IndexCastOp::create(*builder, loc, builder->getIndexType(), counter);
    return {index, counter};
  }
  // (i - lb) / step is the iteration number; mod L unless it stays below L.
  scf::ForOp loop = port.loop; // ForOp's accessors are not const
  Type indexType = builder->getIndexType();
  Value lane = mapping.lookup(loop.getInductionVar());
  int64_t lb = *getConstantIntValue(loop.getLowerBound());
  int64_t step = *getConstantIntValue(loop.getStep());
  if (lb != 0)
    lane = arith::SubIOp::create(*builder, loc, lane, laneConstant(lb, indexType));
  if (step != 1)
    lane = arith::DivUIOp::create(*builder, loc, lane, laneConstant(step, indexType));
  if (*constantTripCount(loop) != port.lanes)
    lane = arith::RemUIOp::create(*builder, loc, lane, laneConstant(port.lanes, indexType));
  return {lane, lane};
}

Value ProcessLowering::laneIs(Location loc, Lane lane, int64_t k) {
  return arith::CmpIOp::create(*builder, loc, arith::CmpIPredicate::eq, lane.value,
                               laneConstant(k, lane.value.getType()));
}

void ProcessLowering::advanceLane(Location loc, const LanePort &port, Lane lane, Value last) {
  if (port.loop)
    return;
  Type i32 = builder->getI32Type();
  Value next = arith::AddIOp::create(*builder, loc, lane.value, laneConstant(1, i32));
  Value wrapped = arith::SelectOp::create(*builder, loc, last, laneConstant(0, i32), next);
  hls::AssignOp::create(*builder, loc, wrapped, port.lane);
}

LogicalResult ProcessLowering::lowerPull(dfg::PullOp op) {
  Location loc = op.getLoc();
  Value stream = mapping.lookup(op.getPort());
  auto it = lanePorts.find(op.getPort());
  if (it == lanePorts.end()) {
    Value value = hls::StreamReadOp::create(*builder, loc, op.getType(), stream);
    mapping.map(op.getResult(), value);
    return success();
  }
  LanePort port = it->second;
  if (op.getLane())
    return laneIndexError(op, port.lanes);
  Lane lane = currentLane(loc, port);
  auto ifFirst = hls::IfOp::create(*builder, loc, laneIs(loc, lane, 0));
  {
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPoint(ifFirst.getThenBlock()->getTerminator());
    Type wordType = cast<hls::VarType>(port.word.getType()).getElementType();
    Value word = hls::StreamReadOp::create(*builder, loc, wordType, stream);
    hls::AssignOp::create(*builder, loc, word, port.word);
  }
  Value value = hls::LoadOp::create(*builder, loc, op.getType(), port.word, ValueRange{lane.index});
  if (!port.loop)
    advanceLane(loc, port, lane, laneIs(loc, lane, port.lanes - 1));
  mapping.map(op.getResult(), value);
  return success();
}

LogicalResult ProcessLowering::lowerPush(dfg::PushOp op) {
  Location loc = op.getLoc();
  Value stream = mapping.lookup(op.getPort());
  Value value = mapping.lookup(op.getValue());
  auto it = lanePorts.find(op.getPort());
  if (it == lanePorts.end()) {
    hls::StreamWriteOp::create(*builder, loc, stream, value);
    return success();
  }
  LanePort port = it->second;
  if (op.getLane())
    return laneIndexError(op, port.lanes);
  Lane lane = currentLane(loc, port);
  hls::StoreOp::create(*builder, loc, value, port.word, ValueRange{lane.index});
  Value last = laneIs(loc, lane, port.lanes - 1);
  auto ifLast = hls::IfOp::create(*builder, loc, last);
  {
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPoint(ifLast.getThenBlock()->getTerminator());
    Type wordType = cast<hls::VarType>(port.word.getType()).getElementType();
    Value word = hls::GetOp::create(*builder, loc, wordType, port.word);
    hls::StreamWriteOp::create(*builder, loc, stream, word);
  }
  advanceLane(loc, port, lane, last);
  return success();
}

} // namespace ming::tohls
