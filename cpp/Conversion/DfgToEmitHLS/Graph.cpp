// The top function of convert-dfg-to-emithls: the dfg.graph becomes one
// emitHLS.func with AXI interfaces, DATAFLOW, one hls::stream per channel
// (whose lane count must divide the elements on it) and one call per
// instance in producer -> consumer order.
#include "Lowering.h"

#include "ming/Directives/Directives.h"

#include "llvm/ADT/STLExtras.h"

namespace ming::tohls {

/// The instances in an order where every producer precedes its consumers
/// (ties keep the graph's order), so a sequential reading of the top
/// function, as in C simulation without threads, sees data before it is read.
static FailureOr<SmallVector<dfg::InstantiateOp>> sortInstances(dfg::GraphOp graph) {
  SmallVector<dfg::InstantiateOp> instances(graph.getBody().front().getOps<dfg::InstantiateOp>());
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, inst] : llvm::enumerate(instances))
    position[inst] = i;
  std::vector<SmallVector<unsigned>> consumers(instances.size());
  SmallVector<unsigned> pending(instances.size(), 0);
  for (auto channel : graph.getBody().front().getOps<dfg::ChannelOp>()) {
    // The channel verifier guarantees one user per end; stay defensive.
    if (!channel.getWrite().hasOneUse() || !channel.getRead().hasOneUse())
      return channel.emitOpError("needs exactly one producer and one consumer instance");
    unsigned producer = position.lookup(*channel.getWrite().user_begin());
    unsigned consumer = position.lookup(*channel.getRead().user_begin());
    consumers[producer].push_back(consumer);
    ++pending[consumer];
  }
  SmallVector<dfg::InstantiateOp> order;
  SmallVector<bool> placed(instances.size(), false);
  while (order.size() < instances.size()) {
    // Graphs are small: a linear scan for the first ready instance is fine.
    unsigned ready = 0;
    while (ready < instances.size() && (placed[ready] || pending[ready] != 0))
      ++ready;
    if (ready == instances.size()) {
      unsigned stuck = llvm::find(placed, false) - placed.begin();
      return instances[stuck].emitOpError(
          "is on a cycle of channels; DATAFLOW needs an acyclic graph (feedback is not "
          "supported)");
    }
    placed[ready] = true;
    order.push_back(instances[ready]);
    for (unsigned consumer : consumers[ready])
      --pending[consumer];
  }
  return order;
}

/// How many elements a process moves through `port` in one run: the pulls or
/// pushes on it, each times the trip counts of the loops around it. None when
/// some of them are conditional (inside an scf.if) or in a loop without
/// constant bounds.
static std::optional<int64_t> countTransfers(Value port) {
  int64_t total = 0;
  for (Operation *user : port.getUsers()) {
    if (!isa<dfg::PullOp, dfg::PushOp>(user))
      continue;
    int64_t count = 1;
    for (Operation *parent = user->getParentOp(); parent && !isa<dfg::ProcessOp>(parent);
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      std::optional<int64_t> trips = loop ? constantTripCount(loop) : std::nullopt;
      if (!trips)
        return std::nullopt;
      count *= *trips;
    }
    total += count;
  }
  return total;
}

/// A channel of L lanes moves whole words of L elements: the last word is
/// written only once it is full, so L must divide the number of elements on
/// the channel. It is counted at whichever end moves them unconditionally
/// (a sliding window pushes under a condition, its consumer pulls in a plain
/// loop nest); both counts, when known, must be multiples of L, and a
/// channel counted at neither end only gets a warning.
static LogicalResult checkLanesDivide(dfg::ChannelOp channel,
                                      const llvm::StringMap<dfg::ProcessOp> &processes) {
  int64_t lanes = channel.getLanes();
  if (lanes <= 1)
    return success();
  struct End {
    Value channelEnd;
    StringRef verb;
  };
  bool counted = false;
  std::string ends;
  for (End end : {End{channel.getWrite(), "pushes"}, End{channel.getRead(), "pulls"}}) {
    OpOperand &use = *end.channelEnd.use_begin();
    auto inst = cast<dfg::InstantiateOp>(use.getOwner());
    dfg::ProcessOp process = processes.lookup(inst.getCallee());
    if (!process)
      continue;
    unsigned index = use.getOperandNumber() - inst.getPorts().getBeginOperandIndex();
    std::optional<int64_t> count = countTransfers(process.getBody().front().getArgument(index));
    if (!count) {
      ends += (ends.empty() ? "@" : " and @") + inst.getCallee().str() + " " + end.verb.str();
      continue;
    }
    counted = true;
    if (*count % lanes != 0)
      return channel.emitOpError("has ")
             << lanes << " lanes, which do not divide the " << *count << " elements @"
             << inst.getCallee() << " " << end.verb
             << " through it; its lanes travel as words of " << lanes
             << " elements, so the lane count must divide the number of elements";
  }
  // A sliding window feeding another one pushes and pulls under conditions
  // on both ends. The DSE picks lanes among the divisors of the tensor's
  // size, so trust it, but say that nothing checked it: a partial last word
  // would never be written, and the C simulation would report the deadlock.
  if (!counted)
    channel.emitWarning("has ")
        << lanes << " lanes, but the number of elements on it cannot be counted statically ("
        << ends << " conditionally); unchecked: the lane count must divide it";
  return success();
}

/// `dfg.graph` -> the top function: AXI interfaces, DATAFLOW, streams, calls.
LogicalResult lowerGraph(dfg::GraphOp graph, OpBuilder &b,
                         const llvm::StringMap<dfg::ProcessOp> &processes, int64_t axiBits) {
  if (failed(checkCName(graph, graph.getSymName())))
    return failure();
  FailureOr<FunctionType> type = convertSignature(graph);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<dfg::InstantiateOp>> order = sortInstances(graph);
  if (failed(order))
    return failure();

  Location loc = graph.getLoc();
  auto func = hls::FuncOp::create(b, loc, graph.getSymName(), *type, ArrayAttr(), ArrayAttr());
  func->setAttr(directives::kTop, b.getUnitAttr());
  if (Attribute numInputs = graph->getAttr(directives::kNumInputs))
    func->setAttr(directives::kNumInputs, numInputs);
  Block &source = graph.getBody().front();
  SmallVector<Location> argLocs =
      llvm::map_to_vector(source.getArguments(), [](BlockArgument a) { return a.getLoc(); });
  // The guard brings `b` back to the module once the body is built.
  OpBuilder::InsertionGuard guard(b);
  Block *entry = b.createBlock(&func.getBody(), {}, type->getInputs(), argLocs);
  IRMapping mapping;
  mapping.map(source.getArguments(), entry->getArguments());

  // Each tensor in external memory gets its own AXI master (gmem<i>), so
  // loads and stores proceed in parallel; its base address and the block
  // control go through the AXI-Lite control port. A load or store walking
  // memory in order moves several elements per beat when the port may widen
  // to the board's memory port (the cost model counts it so).
  StringAttr control = b.getStringAttr("control");
  for (auto [i, arg] : llvm::enumerate(entry->getArguments())) {
    int64_t numElements = cast<hls::ArrayType>(arg.getType()).getNumElements();
    hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::MAxi, arg,
                                   b.getStringAttr("gmem" + Twine(i)),
                                   b.getI64IntegerAttr(numElements),
                                   axiBits > 0 ? b.getI64IntegerAttr(axiBits) : IntegerAttr());
    hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::SAxiLite, arg, control,
                                   IntegerAttr(), IntegerAttr());
  }
  hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::SAxiLite, Value(), control,
                                 IntegerAttr(), IntegerAttr());
  hls::PragmaDataflowOp::create(b, loc);

  // One stream per channel, declared in the order of its producer's call and
  // named after the processes it connects (for readable C++ and reports).
  llvm::StringSet<> names;
  for (dfg::InstantiateOp inst : *order) {
    for (Value port : inst.getPorts()) {
      auto channel = port.getDefiningOp<dfg::ChannelOp>();
      if (!channel || port != channel.getWrite())
        continue;
      if (failed(checkLanesDivide(channel, processes)))
        return failure();
      FailureOr<hls::StreamType> streamType =
          convertChannelEnd(channel.getElementType(), channel.getLanes(), channel, "the channel");
      if (failed(streamType))
        return failure();
      auto consumer = cast<dfg::InstantiateOp>(*channel.getRead().user_begin());
      std::string base = (inst.getCallee() + "_to_" + consumer.getCallee()).str();
      std::string name = base;
      for (unsigned n = 1; !names.insert(name).second; ++n)
        name = base + "_" + std::to_string(n);
      auto stream = hls::StreamOp::create(b, channel.getLoc(), *streamType);
      stream->setAttr(directives::kName, b.getStringAttr(name));
      hls::PragmaStreamOp::create(b, channel.getLoc(), stream, channel.getDepth());
      mapping.map(channel.getWrite(), stream);
      mapping.map(channel.getRead(), stream);
    }
  }

  for (dfg::InstantiateOp inst : *order) {
    SmallVector<Value> operands =
        llvm::map_to_vector(inst.getPorts(), [&](Value port) { return mapping.lookup(port); });
    hls::CallOp::create(b, inst.getLoc(), TypeRange(), inst.getCallee(), operands);
  }
  hls::ReturnOp::create(b, loc, Value());
  return success();
}

} // namespace ming::tohls
