// The process model's structure (loops, buffers, events) and the cycles of
// its loops and pipelines; sequential code (how often each branch runs, the
// cycles of blocks outside pipelines) is in SequentialCycles.cpp, the walk of
// one pipelined body in Walker.cpp, first and last events in EventSearch.cpp
// (the iterations they walk in IterationSearch.cpp).
#include "ProcessModel.h"

#include "ming/Analysis/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

void ProcessModel::collectLoops() {
  unsigned next = 0;
  process.getBody().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    unsigned id = next++;
    loopIds[loop] = id;
    ResolvedLoop r;
    r.id = id;
    r.bounds = loopBounds(loop);
    if (!r.bounds.constant) {
      result.notes.push_back("L" + std::to_string(id) + ": dynamic bounds, counted as one iteration");
    }
    LoopChoice choice;
    if (auto it = config.loops.find(id); it != config.loops.end())
      choice = it->second;
    directives::LoopAttr directive = directives::getLoop(loop);
    int64_t unroll = choice.unroll.value_or(directive.getUnroll());
    r.unroll = unroll <= 0 ? std::max<int64_t>(r.bounds.trip, 1)
                           : std::min(unroll, std::max<int64_t>(r.bounds.trip, 1));
    r.pipelined = choice.pipeline.value_or(directive.isPipelined());
    r.ii = std::max<int64_t>(1, choice.ii.value_or(directive.getIi()));
    resolved[loop] = r;
  });
}

int ProcessModel::findBuffer(Value memref, unsigned *argNo) {
  if (auto arg = dyn_cast<BlockArgument>(memref)) {
    if (arg.getOwner()->getParentOp() == process.getOperation()) {
      *argNo = arg.getArgNumber();
      return -2; // external memory
    }
    return -1;
  }
  Operation *def = memref.getDefiningOp();
  if (auto alloca = dyn_cast_or_null<memref::AllocaOp>(def)) {
    auto it = allocaBuffer.find(alloca);
    return it == allocaBuffer.end() ? -1 : int(it->second);
  }
  if (auto global = dyn_cast_or_null<memref::GetGlobalOp>(def)) {
    auto it = globalBuffer.find(global.getName().str());
    return it == globalBuffer.end() ? -1 : int(it->second);
  }
  return -1;
}

void ProcessModel::collectBuffers() {
  auto layout = [&](Buffer &b, MemRefType type) {
    b.shape.assign(type.getShape().begin(), type.getShape().end());
    b.width = bitWidth(type.getElementType());
    b.elements = type.hasStaticShape() ? type.getNumElements() : 1;
    b.irBanks = 1;
    for (unsigned d : b.partDims)
      if (d < b.shape.size())
        b.irBanks *= b.shape[d];
    int64_t words = ceilDiv(b.elements, b.irBanks);
    const Target &t = *options.target;
    b.loadLatency = words <= 1                           ? 0
                    : words * b.width <= t.lutramMaxBits ? t.lutramLatency
                    : b.uram                             ? t.uramLatency
                                                         : t.bramLatency;
  };
  process.getBody().walk([&](Operation *op) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
      Buffer b;
      b.anchor = op;
      b.name = "alloca";
      directives::PartitionAttr partition = directives::getPartition(op);
      b.cyclic = !partition.getCyclic().empty();
      for (int64_t d : partition.getComplete())
        b.partDims.push_back(unsigned(d - 1));
      b.uram = config.uram.value_or(op->hasAttr(directives::kUram));
      layout(b, alloca.getType());
      allocaBuffer[op] = buffers.size();
      buffers.push_back(std::move(b));
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
      std::string name = global.getName().str();
      if (globalBuffer.count(name))
        return;
      Buffer b;
      b.anchor = op;
      b.name = "@" + name;
      b.rom = true;
      auto sym = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, global.getNameAttr());
      b.rom = !sym || sym.getConstant();
      b.cyclic = !directives::getPartition(op).getCyclic().empty();
      layout(b, global.getType());
      globalBuffer[name] = buffers.size();
      buffers.push_back(std::move(b));
    }
  });
}

std::optional<unsigned> ProcessModel::portArg(Value port) {
  if (auto arg = dyn_cast<BlockArgument>(port))
    if (arg.getOwner()->getParentOp() == process.getOperation())
      return arg.getArgNumber();
  return std::nullopt;
}

int64_t ProcessModel::streamLanes(unsigned arg) {
  Type t = process.getArgument(arg).getType();
  int64_t lanes = 1;
  if (auto in = dyn_cast<dfg::InputType>(t))
    lanes = in.getLanes();
  else if (auto out = dyn_cast<dfg::OutputType>(t))
    lanes = out.getLanes();
  else
    return 1;
  if (auto it = config.lanes.find(arg); it != config.lanes.end())
    lanes = std::max<int64_t>(1, it->second);
  return lanes;
}

void ProcessModel::markEvents() {
  bool anyPush = false;
  process.getBody().walk([&](dfg::PushOp) { anyPush = true; });
  process.getBody().walk([&](Operation *op) {
    bool isEvent = isa<dfg::PushOp>(op);
    if (!anyPush)
      if (auto store = dyn_cast<memref::StoreOp>(op))
        isEvent = isa<BlockArgument>(store.getMemRef()) &&
                  cast<BlockArgument>(store.getMemRef()).getOwner()->getParentOp() ==
                      process.getOperation();
    if (isa<dfg::PullOp>(op))
      for (Operation *p = op; p && p != process.getOperation(); p = p->getParentOp())
        pullAncestors.insert(p);
    if (!isEvent)
      return;
    for (Operation *p = op; p && p != process.getOperation(); p = p->getParentOp())
      eventAncestors.insert(p);
  });
}

bool ProcessModel::hasLoop(Block &block) {
  for (Operation &op : block)
    if (op.walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted())
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Loop and block cycles
//===----------------------------------------------------------------------===//

void ProcessModel::pipelineCost(scf::ForOp loop, LoopCost &lc) {
  const ResolvedLoop &r = resolved[loop];
  WalkSummary local;
  WalkSummary *sum = &local;
  bool hit = false;
  if (cache) {
    auto [it, inserted] = cache->walks.try_emplace({loop.getOperation(), r.unroll});
    sum = &it->second;
    hit = !inserted;
  }
  if (!hit) {
    Walker w(*this, /*skipLoops=*/false);
    for (Value buffer : directives::carriedBuffers(loop))
      w.carriedBuffers.insert(buffer);
    size_t notesBefore = result.notes.size();
    SmallVector<int64_t> argArr(loop.getInitArgs().size(), 0),
        argCar(loop.getInitArgs().size(), 0);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    Bounds bounds = loopBounds(loop);
    // Enumerating, a walk sure to run out is not started: its configuration
    // is not offered while any other is (ProcessCost::partial), and a body
    // of a whole layer's MACs took seconds a walk.
    if (cache && llvm::SaturatingMultiply(uint64_t(std::max<int64_t>(1, r.unroll)),
                                          uint64_t(leastWalkOps(*loop.getBody(), kWalkBudget + 1))) >
                     uint64_t(kWalkBudget))
      w.exhausted = true;
    for (int64_t k = 0; k < r.unroll && !w.exhausted; ++k) {
      w.loadKeys.clear(); // the pipelined IV differs between copies
      w.opaque.clear();
      if (r.unroll > 1 && bounds.constant)
        w.residues[loop.getInductionVar()] = {bounds.lb + k * bounds.step, r.unroll * bounds.step};
      for (auto [j, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
        w.define(iterArg, argArr[j], argCar[j]);
      w.walkBlock(*loop.getBody(), sum->counters);
      for (auto [j, v] : llvm::enumerate(yield.getOperands())) {
        argArr[j] = w.arr(v);
        argCar[j] = w.car(v);
      }
    }
    if (w.exhausted)
      result.notes.push_back("L" + std::to_string(r.id) +
                             ": unrolled body too large, counted in part");
    sum->exhausted = w.exhausted;
    markScattered(loop, r.unroll, sum->counters);
    sum->carried = argCar;
    sum->memoryChain = w.memoryChain;
    sum->maxArrival = w.maxArrival;
    sum->firstEvent = w.firstEvent;
    for (auto &[bi, counts] : sum->counters.banks)
      sum->accessed.push_back(bi);
    for (auto [bi, b] : llvm::enumerate(buffers))
      if (b.accessed)
        sum->accessed.push_back(bi);
    sum->notes.assign(result.notes.begin() + notesBefore, result.notes.end());
  } else {
    for (unsigned bi : sum->accessed)
      buffers[bi].accessed = true;
    result.notes.append(sum->notes.begin(), sum->notes.end());
  }
  result.partial |= sum->exhausted;
  Counters &c = sum->counters;
  SmallVector<int64_t> &argCar = sum->carried;
  lc.iiRequested = r.ii;
  lc.iiRecurrence = 0;
  // A pipeline of one iteration (a loop unrolled by its trip count) carries
  // nothing from one iteration to the next: no recurrence bounds its II, so
  // none spreads its operations over shared units either.
  if (ceilDiv(r.bounds.trip, r.unroll) > 1) {
    for (int64_t cr : argCar)
      lc.iiRecurrence = std::max(lc.iiRecurrence, cr);
    // Through memory the path spans `distance / unroll` iterations. Copies
    // closer than that (an unroll past the distance) update one element in
    // turn within an iteration, and the next iteration waits for the last.
    if (auto distance = loop->getAttrOfType<IntegerAttr>(directives::kCarriedDistance);
        distance && sum->memoryChain > 0) {
      int64_t apart = distance.getInt() / r.unroll;
      lc.iiRecurrence = std::max(lc.iiRecurrence,
                                 apart >= 1 ? ceilDiv(sum->memoryChain, apart)
                                            : sum->memoryChain * ceilDiv(r.unroll, distance.getInt()));
    }
  }
  lc.iiPorts = 0;
  std::string portWhy;
  for (auto [arg, n] : c.ports) {
    Type t = process.getArgument(arg).getType();
    int64_t perCycle = streamLanes(arg);
    if (auto mem = dyn_cast<MemRefType>(t); mem && !c.scattered.count(arg))
      perCycle = std::max<int64_t>(1, options.target->axiBits / std::max<int64_t>(1, bitWidth(mem.getElementType())));
    int64_t ii = ceilDiv(n, perCycle);
    lc.portAccesses[arg] = n;
    if (ii > lc.iiPorts) {
      lc.iiPorts = ii;
      portWhy = "port arg" + std::to_string(arg);
    }
  }
  lc.iiMemory = 0;
  std::string memWhy;
  for (auto &[bi, counts] : c.banks) {
    Buffer &buf = buffers[bi];
    int64_t words = ceilDiv(buf.elements, buf.irBanks);
    int64_t worst = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    int64_t ii = words <= 1 ? 0 : ceilDiv(worst, options.target->memPorts);
    // The DSE partitions it (or did, #ming.partition cyclic, when the IR is
    // estimated as is): the fewest banks for the requested II, from where
    // each unrolled access falls. At II k a bank serves k times its ports.
    if (autoPartition || buf.cyclic) {
      int64_t perBank = options.target->memPorts * std::max<int64_t>(lc.iiRequested, 1);
      auto [it, fresh] = sum->partitions.try_emplace({bi, perBank});
      if (fresh)
        it->second = choosePartition(buf, c.accesses[bi], perBank, kMaxRegisterBits);
      const PartitionChoice &choice = it->second;
      buf.factors.resize(choice.factors.size(), 1);
      for (auto [f, g] : llvm::zip(buf.factors, choice.factors))
        f = std::max(f, g);
      // Only banks too few for the request bound the II (a transposing
      // buffer larger than registers may be).
      int64_t chosenII = choice.registers ? 0 : ceilDiv(choice.worst, options.target->memPorts);
      if (chosenII > std::max<int64_t>(lc.iiRequested, 1) && chosenII > lc.iiMemory) {
        lc.iiMemory = chosenII;
        memWhy = "memory " + buf.name;
      }
      continue;
    }
    if (ii > lc.iiMemory) {
      lc.iiMemory = ii;
      memWhy = "memory " + buf.name;
    }
  }
  // Reads at addresses the data computes (a lookup table) are spread by no
  // partitioning: a bank may get all of them, whatever the factor. They
  // need a port each.
  for (auto &[bi, n] : c.dataAddressed) {
    Buffer &buf = buffers[bi];
    int64_t words = ceilDiv(buf.elements, buf.irBanks);
    int64_t ii = words <= 1 ? 0 : ceilDiv(n, options.target->memPorts);
    if (ii > lc.iiMemory) {
      lc.iiMemory = ii;
      memWhy = "memory " + buf.name + " (data addresses)";
    }
  }
  lc.ii = lc.iiRequested;
  lc.iiLimiter = "request";
  auto raise = [&](int64_t v, const std::string &why) {
    if (v > lc.ii) {
      lc.ii = v;
      lc.iiLimiter = why;
    }
  };
  raise(lc.iiRecurrence, "recurrence");
  raise(lc.iiPorts, portWhy);
  raise(lc.iiMemory, memWhy);
  lc.depth = std::max<int64_t>(1, sum->maxArrival);
  std::optional<int64_t> firstEvent = sum->firstEvent;
  int64_t lag = 0;
  if (r.unroll > 1 && lc.ii > 1 && !sum->exhausted) {
    SlotTiming timing = slotTiming(loop, lc.ii);
    result.partial |= timing.exhausted;
    lc.depth = std::max<int64_t>(1, timing.depth);
    firstEvent = timing.firstEvent;
    lag = std::max<int64_t>(0, timing.lag.value_or(0));
  }
  int64_t iters = ceilDiv(r.bounds.trip, r.unroll);
  // The last iteration still needs its port and memory accesses' cycles (a
  // fully unrolled loop of 128 pulls on one lane takes 128 cycles, not its
  // depth; so do 256 reads of a dual-port table).
  lc.cycles = iters > 0 ? (iters - 1) * lc.ii + std::max({lc.depth, lc.iiPorts, lc.iiMemory}) : 0;
  lc.dsp = 0;
  for (auto &[kind, v] : c.ops) {
    lc.opCounts[kind] = v.first;
    int64_t units = options.shareAcrossII ? ceilDiv(v.first, lc.ii) : v.first;
    lc.dsp += units * v.second;
  }
  pushTiming[loop] = {firstEvent, lag};
}

/// The depth and first push of a pipelined body whose copies start where the
/// simulator issues them, copy k at floor(k * II / unroll): its pulls then
/// and everything that depends on its induction variable. Walked with every
/// copy at 0, a map unrolled 16 at II 16 would seem to push its last result
/// at the latency of one copy, 15 cycles before its last input arrives.
SlotTiming ProcessModel::slotTiming(scf::ForOp loop, int64_t ii) {
  const ResolvedLoop &r = resolved[loop];
  SlotTiming *timing = nullptr, local;
  if (cache) {
    auto [it, inserted] = cache->timings.try_emplace({loop.getOperation(), r.unroll, ii});
    if (!inserted)
      return it->second;
    timing = &it->second;
  } else {
    timing = &local;
  }
  // Without loop-carried values the copies differ only in their start, and
  // every arrival is a max-plus function of it: the first copy has the
  // earliest event and the last the latest arrival, so those two suffice
  // (a 1x1 convolution's body of 160 x 1,280 MACs unrolled 64 times would
  // otherwise be walked 64 times per configuration).
  bool carried = !loop.getInitArgs().empty();
  if (!carried && r.unroll > 1 && cache) {
    // The last copy's latest arrival is max(A, start + B), so two walks of
    // it, from 0 and from a start later than any arrival, give it for every
    // II: the lane variants of one unroll then cost no walk each.
    auto [it, inserted] = cache->slotStarts.try_emplace({loop.getOperation(), r.unroll});
    SlotStarts &starts = it->second;
    if (inserted) {
      // walkCopy sets no induction variable, so every copy walked from 0
      // has the arrivals of the first: one walk gives `atZero`, and the
      // late copy goes on from the walker's state after it.
      Walker first(*this, /*skipLoops=*/false);
      walkCopy(loop, first, 0);
      Walker late = first;
      walkCopy(loop, late, kLateStart);
      starts.exhausted = late.exhausted;
      starts.usable = first.firstEvent == late.firstEvent;
      starts.atZero = first.maxArrival;
      starts.late = late.maxArrival >= kLateStart ? std::optional<int64_t>(late.maxArrival - kLateStart)
                                                  : std::nullopt;
      starts.firstEvent = first.firstEvent;
      if (late.copyEvent && *late.copyEvent >= kLateStart)
        starts.lag = *late.copyEvent - kLateStart;
    }
    if (starts.usable) {
      int64_t start = (r.unroll - 1) * ii / r.unroll;
      timing->depth = starts.late ? std::max(starts.atZero, start + *starts.late) : starts.atZero;
      timing->firstEvent = starts.firstEvent;
      timing->lag = starts.lag;
      timing->exhausted = starts.exhausted;
      return *timing;
    }
  }
  Walker w(*this, /*skipLoops=*/false);
  for (int64_t k = 0; k < r.unroll && !w.exhausted; ++k) {
    if (!carried && k > 0 && k < r.unroll - 1)
      k = r.unroll - 1;
    walkCopy(loop, w, k * ii / r.unroll);
    // The last copy's first push less its start: exact where its start
    // decides it, else at most firstEvent.
    if (k == r.unroll - 1 && w.copyEvent)
      timing->lag = *w.copyEvent - k * ii / r.unroll;
  }
  timing->depth = w.maxArrival;
  timing->firstEvent = w.firstEvent;
  timing->exhausted = w.exhausted;
  return *timing;
}

/// Walks one copy of a pipelined body, started at `start`, on `w`: its
/// loop-carried values come from the copy `w` walked before.
void ProcessModel::walkCopy(scf::ForOp loop, Walker &w, int64_t start) {
  Counters unused;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  w.loadKeys.clear();
  w.opaque.clear();
  w.copyEvent.reset();
  w.pullBase = start;
  w.define(loop.getInductionVar(), w.pullBase, -1);
  for (auto [j, iterArg] : llvm::enumerate(loop.getRegionIterArgs()))
    w.define(iterArg, w.copyArr.empty() ? 0 : w.copyArr[j], w.copyCar.empty() ? 0 : w.copyCar[j]);
  w.walkBlock(*loop.getBody(), unused);
  w.copyArr.assign(yield.getNumOperands(), 0);
  w.copyCar.assign(yield.getNumOperands(), 0);
  for (auto [j, v] : llvm::enumerate(yield.getOperands())) {
    w.copyArr[j] = w.arr(v);
    w.copyCar[j] = w.car(v);
  }
}

int64_t ProcessModel::loopCycles(scf::ForOp loop) {
  if (auto it = opCycles.find(loop); it != opCycles.end())
    return it->second;
  const ResolvedLoop &r = resolved[loop];
  LoopCost &lc = result.loops[r.id];
  lc.trip = r.bounds.trip;
  lc.unroll = r.unroll;
  lc.pipelined = r.pipelined;
  if (r.pipelined) {
    pipelineCost(loop, lc);
    // Loops inside are fully unrolled.
    loop.getBody()->walk([&](scf::ForOp inner) {
      LoopCost &il = result.loops[loopIds[inner]];
      il.insidePipeline = true;
      il.pipelined = false;
      il.unroll = il.trip = loopBounds(inner).trip;
    });
  } else if (scf::ForOp inner = perfectInner(loop)) {
    // Loop flattening of a perfect nest around a pipeline (Vitis does it by
    // default): one pipeline over the product of the trip counts.
    loopCycles(inner);
    const LoopCost &in = result.loops[loopIds[inner]];
    int64_t innerIters = in.flatIters ? in.flatIters : ceilDiv(in.trip, in.unroll);
    lc.flatIters = r.bounds.trip * innerIters;
    lc.ii = in.ii;
    lc.depth = in.depth;
    lc.iterCycles = innerIters * in.ii;
    lc.cycles =
        lc.flatIters > 0 ? (lc.flatIters - 1) * in.ii + std::max({in.depth, in.iiPorts, in.iiMemory}) : 0;
  } else {
    int64_t iters = ceilDiv(r.bounds.trip, r.unroll);
    int64_t iter;
    if (!hasLoop(*loop.getBody())) {
      // Straight-line body: its unrolled copies as one dataflow graph.
      Walker w(*this, /*skipLoops=*/false);
      Counters c;
      for (int64_t k = 0; k < r.unroll; ++k)
        w.walkBlock(*loop.getBody(), c);
      for (auto &[kind, v] : c.ops) {
        auto &slot = sequentialOps[kind];
        slot.first = std::max(slot.first, v.first);
        slot.second = v.second;
        lc.opCounts[kind] = v.first;
      }
      iter = std::max<int64_t>(1, w.maxArrival);
      lc.ownCycles = iter;
    } else {
      // One state to enter/leave the body's loops, copies run one after another.
      iter = r.unroll * seqBlock(*loop.getBody()) + 1;
      lc.ownCycles = r.unroll * straightCycles.lookup(loop.getBody()) + 1;
    }
    lc.iterCycles = iter;
    lc.cycles = iters * iter;
  }
  opCycles[loop] = lc.cycles;
  return lc.cycles;
}

/// External memory the unrolled copies of a pipelined `loop` access at
/// addresses that do not follow one another (a load walking a transposed
/// layout): the port moves one element per beat there, not a word of
/// several. The copies' addresses are evaluated with the pipelined index at
/// its first `unroll` values and every enclosing index at its start.
void ProcessModel::markScattered(scf::ForOp loop, int64_t unroll, Counters &c) {
  if (unroll < 2)
    return;
  Known known;
  for (Operation *p = loop->getParentOp(); p && p != process.getOperation(); p = p->getParentOp())
    if (auto outer = dyn_cast<scf::ForOp>(p))
      known[outer.getInductionVar()] = loopBounds(outer).lb;
  Bounds b = loopBounds(loop);
  int64_t copies = std::min(unroll, std::max<int64_t>(1, b.trip));
  loop.getBody()->walk([&](Operation *op) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
    } else {
      return;
    }
    unsigned argNo = 0;
    if (findBuffer(memref, &argNo) != -2)
      return;
    auto type = cast<MemRefType>(memref.getType());
    if (!type.hasStaticShape()) {
      c.scattered.insert(argNo);
      return;
    }
    ArrayRef<int64_t> shape = type.getShape();
    std::optional<int64_t> previous;
    for (int64_t k = 0; k < copies; ++k) {
      known[loop.getInductionVar()] = b.lb + k * b.step;
      std::optional<int64_t> address = 0;
      for (auto [d, v] : llvm::enumerate(indices)) {
        std::optional<int64_t> i = evalInt(v, known);
        if (!i || !address) {
          address.reset();
          break;
        }
        *address = *address * shape[d] + *i;
      }
      if (!address || (previous && *address != *previous + 1)) {
        c.scattered.insert(argNo);
        return;
      }
      previous = address;
    }
  });
}

/// The only loop in the body of a sequential, not unrolled, `loop` without
/// loop-carried values, when that loop is pipelined or itself such a nest.
scf::ForOp ProcessModel::perfectInner(scf::ForOp loop) {
  const ResolvedLoop &r = resolved[loop];
  if (r.pipelined || r.unroll != 1 || !loop.getInitArgs().empty())
    return {};
  scf::ForOp inner;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    auto f = dyn_cast<scf::ForOp>(op);
    if (!f || inner || !f.getInitArgs().empty())
      return {};
    inner = f;
  }
  if (!inner)
    return {};
  if (resolved[inner].pipelined || perfectInner(inner))
    return inner;
  return {};
}

} // namespace ming::cost
