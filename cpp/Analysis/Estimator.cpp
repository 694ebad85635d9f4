// A process's estimate under one configuration (ProcessModel::run) and the
// Estimator that caches what does not depend on the configuration.
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

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {
//===----------------------------------------------------------------------===//
// Process
//===----------------------------------------------------------------------===//

ProcessCost ProcessModel::run() {
  collectLoops();
  result.loops.resize(loopIds.size());
  for (auto &[op, id] : loopIds) {
    result.loops[id].id = id;
    result.loops[id].loop = cast<scf::ForOp>(op);
    result.loops[id].trip = resolved[op].bounds.trip;
  }
  collectBuffers();
  markEvents();
  result.cycles = seqBlock(process.getBody().front());

  // DSP: every pipeline its own operators, sequential code shares per kind.
  result.dsp = 0;
  for (LoopCost &lc : result.loops)
    if (lc.pipelined)
      result.dsp += lc.dsp;
  for (auto &[kind, v] : sequentialOps)
    result.dsp += v.first * v.second;

  // BRAM of buffers and ROMs.
  for (Buffer &b : buffers) {
    BufferCost bc;
    bc.op = b.anchor;
    bc.name = b.name;
    bc.rom = b.rom;
    bc.elements = b.elements;
    bc.width = b.width;
    bc.banks = b.irBanks;
    bc.wordsPerBank = ceilDiv(b.elements, bc.banks);
    if (!b.factors.empty()) {
      bc.banks = 1;
      bc.wordsPerBank = 1;
      for (auto [d, size] : llvm::enumerate(b.shape)) {
        bool complete = llvm::is_contained(b.partDims, unsigned(d));
        int64_t f = complete ? size : std::min(size, d < b.factors.size() ? b.factors[d] : 1);
        bc.banks *= f;
        bc.wordsPerBank *= ceilDiv(size, f);
        if (!complete && f > 1)
          bc.cyclic.append({int64_t(d) + 1, f});
      }
      // Chosen, one bank is enough: recorded as a factor of 1, so that the
      // IR estimated as it stands counts its reads as here (an address every
      // unrolled copy reads is read once), not one per copy.
      if (bc.cyclic.empty())
        for (unsigned d = 0; d < b.shape.size(); ++d)
          if (!llvm::is_contained(b.partDims, d)) {
            bc.cyclic.append({int64_t(d) + 1, 1});
            break;
          }
    }
    if (b.rom && !b.accessed) {
      bc.storage = "folded";
    } else if (bc.wordsPerBank <= 1) {
      bc.storage = "registers";
    } else if (bc.wordsPerBank * b.width <= options.target->lutramMaxBits) {
      bc.storage = "lutram";
    } else if (b.uram && !b.rom) {
      bc.storage = "uram";
      bc.uram = bc.banks * uramBlocks(bc.wordsPerBank, b.width);
    } else {
      bc.storage = "bram";
      bc.bram18k = bc.banks * bram18kBlocks(bc.wordsPerBank, b.width);
    }
    result.bram18k += bc.bram18k;
    result.uram += bc.uram;
    result.buffers.push_back(bc);
  }

  // First output.
  Known known;
  if (eventAncestors.empty())
    result.firstOutput = result.cycles;
  else if (auto at = findFirst(process.getBody().front(), known, 0))
    result.firstOutput = std::min(*at, result.cycles);
  else
    result.firstOutput = result.cycles;
  if (enumBudget < 0)
    result.notes.push_back("enumeration budget exhausted: first output approximate");

  // The ops holding the pushes (or pulls) of each port.
  auto holders = [&](BlockArgument arg) {
    llvm::DenseSet<Operation *> set;
    for (Operation *user : arg.getUsers())
      if (isa<dfg::PullOp, dfg::PushOp>(user))
        for (Operation *p = user; p && p != process.getOperation(); p = p->getParentOp())
          set.insert(p);
    return set;
  };
  SmallVector<BlockArgument> outs;
  SmallVector<llvm::DenseSet<Operation *>> outHolders;
  llvm::DenseSet<Operation *> anyPush;
  for (BlockArgument arg : process.getArguments())
    if (isa<dfg::OutputType>(arg.getType())) {
      outs.push_back(arg);
      outHolders.push_back(holders(arg));
      anyPush.insert(outHolders.back().begin(), outHolders.back().end());
    }

  // Per output: what runs after the pipeline of its last push.
  endMode = true;
  for (auto [out, set] : llvm::zip(outs, outHolders)) {
    int64_t trail = 0;
    if (!set.empty()) {
      events = &set;
      eventSet = -1 - int64_t(out.getArgNumber());
      enumBudget = kEnumBudget;
      Known k;
      if (std::optional<int64_t> end = findLast(process.getBody().front(), k, 0); end && enumBudget >= 0)
        trail = std::clamp<int64_t>(result.cycles - *end, 0, result.cycles);
    }
    result.trailOut.push_back(trail);
  }
  endMode = false;
  events = &eventAncestors;
  eventSet = 0;

  // First and last pull: `pre` and `tail` for the graph latency.
  if (!pullAncestors.empty()) {
    events = &pullAncestors;
    pullMode = true;
    eventSet = 1;
    enumBudget = kEnumBudget;
    Known k1, k2;
    std::optional<int64_t> first = findFirst(process.getBody().front(), k1, 0);
    std::optional<int64_t> last = findLast(process.getBody().front(), k2, 0);
    result.pre = std::clamp<int64_t>(first.value_or(0), 0, result.cycles);
    result.tail = last ? std::clamp<int64_t>(result.cycles - *last, 0, result.cycles) : 0;
    auto totals = process->getAttrOfType<DenseI64ArrayAttr>(directives::kPortElements);
    std::vector<unsigned> pipelinedIds;
    for (auto &[loop, r] : resolved)
      if (r.pipelined)
        pipelinedIds.push_back(r.id);
    llvm::sort(pipelinedIds);
    unsigned in = 0;
    // Per input port: the same backward search over that port's pulls only,
    // and what each output pushes after that port's last pull.
    for (BlockArgument arg : process.getArguments()) {
      if (!isa<dfg::InputType>(arg.getType()))
        continue;
      llvm::DenseSet<Operation *> portPulls = holders(arg);
      int64_t tail = 0;
      if (!portPulls.empty()) {
        events = &portPulls;
        eventSet = 2 + arg.getArgNumber();
        Known k3;
        std::optional<int64_t> portLast = findLast(process.getBody().front(), k3, 0);
        tail = portLast ? std::clamp<int64_t>(result.cycles - *portLast, 0, result.cycles)
                        : result.tail;
        // Its first pull; the first pull of any port where the search
        // runs out of budget (earlier, so the bound stays a lower one).
        Known k6;
        int64_t before = enumBudget;
        std::optional<int64_t> portFirst = findFirst(process.getBody().front(), k6, 0);
        result.preIn.push_back(portFirst && enumBudget >= 0
                                   ? std::clamp<int64_t>(*portFirst, result.pre, result.cycles)
                                   : result.pre);
        enumBudget = before;
        int64_t fill = 0, fillAt = 0;
        Known k5;
        // The search's way is the same for every configuration: found once
        // per port, then only timed.
        const FillPath *path = nullptr;
        std::tuple<int64_t, std::vector<unsigned>, std::vector<int64_t>> fillKey{eventSet, pipelinedIds,
                                                                                 outputLanes()};
        if (cache)
          if (auto it = cache->fills.find(fillKey); it != cache->fills.end())
            path = &it->second;
        bool met = false;
        if (path) {
          met = path->met;
          fill = path->count;
          if (met && !path->steps.empty())
            fillAt = fillTimeAlong(process.getBody().front(), path->steps, 0, k5, 0);
        } else if (!anyPush.empty()) {
          int64_t budget = enumBudget;
          fillStack.clear();
          fillLast.clear();
          fillPushed.clear();
          met = fillBeforeFirstPush(process.getBody().front(), k5, 0, anyPush, fill, fillAt);
          // Set when the budget ran out inside a pipeline iteration.
          fillFinishing = false;
          if (cache && enumBudget >= 0 && budget >= 0)
            cache->fills[fillKey] = FillPath{met, fill, fillLast};
        }
        if (met) {
          result.fillElements.push_back(fill);
          result.fillTime.push_back(fillAt);
        } else {
          result.fillElements.push_back(0);
          result.fillTime.push_back(0);
        }
        for (auto [o, pushes] : llvm::enumerate(outHolders)) {
          Burst burst{unsigned(o), in, 0, 0};
          std::optional<int64_t> first;
          Known k4;
          burstAfterLastPull(process.getBody().front(), k4, 0, pushes, burst.elements, first);
          if (first)
            burst.lead = std::clamp<int64_t>(result.cycles - *first, 0, result.cycles);
          result.bursts.push_back(burst);
        }
      }
      if (portPulls.empty()) {
        result.preIn.push_back(result.pre);
        result.fillElements.push_back(0);
        result.fillTime.push_back(0);
      }
      result.inElements.push_back(totals && arg.getArgNumber() < totals.size()
                                      ? totals[arg.getArgNumber()]
                                      : portElements(arg));
      // The pace of the port's last pipeline (in program order): II over
      // elements an iteration pulls. What reaches the port last meets it.
      double rate = 0;
      for (const LoopCost &lc : result.loops)
        if (lc.pipelined && !lc.insidePipeline)
          if (auto it = lc.portAccesses.find(arg.getArgNumber());
              it != lc.portAccesses.end() && it->second > 0)
            rate = double(lc.ii) / double(it->second);
      // A word of L lanes is read whole, by the pull of its first element:
      // the last word comes in L - 1 pulls before the last pull, the whole
      // cycles of them (copies of one slot pull together). A store taking a
      // 15-lane word at 4 elements a cycle ends 5 cycles after the word, not
      // 2 after its last element.
      int64_t lanes = streamLanes(arg.getArgNumber());
      if (lanes > 1 && !portPulls.empty())
        tail = std::min<int64_t>(result.cycles,
                                 tail + int64_t(std::floor(double(lanes - 1) * rate + 1e-9)));
      result.tailIn.push_back(tail);
      result.pullCycles.push_back(rate);
      ++in;
    }
    if (enumBudget < 0)
      result.notes.push_back("enumeration budget exhausted: first/last pull approximate");
    events = &eventAncestors;
    pullMode = false;
    eventSet = 0;
  }
  std::vector<std::string> unique;
  for (std::string &note : result.notes)
    if (!llvm::is_contained(unique, note))
      unique.push_back(note);
  result.notes.assign(unique.begin(), unique.end());
  return result;
}

/// Elements moved through `port` in one run: per pull or push, the trip
/// counts of the loops around it times how often the conditions around it
/// hold.
int64_t ProcessModel::portElements(BlockArgument port) {
  double total = 0;
  for (Operation *user : port.getUsers()) {
    if (!isa<dfg::PullOp, dfg::PushOp>(user))
      continue;
    double n = 1;
    for (Operation *child = user, *p = user->getParentOp(); p && p != process.getOperation();
         child = p, p = p->getParentOp()) {
      if (auto loop = dyn_cast<scf::ForOp>(p))
        n *= double(std::max<int64_t>(0, loopBounds(loop).trip));
      else if (auto ifOp = dyn_cast<scf::IfOp>(p)) {
        double prob = ifProbability(ifOp);
        n *= child->getParentRegion() == &ifOp.getThenRegion() ? prob : 1.0 - prob;
      }
    }
    total += n;
  }
  return int64_t(std::llround(total));
}

ProcessCost estimate(dfg::ProcessOp process, const ProcessConfig &config,
                     const CostOptions &options) {
  ProcessModel model(process, config, options);
  return model.run();
}

static ProcessCost estimateCached(dfg::ProcessOp process, const ProcessConfig &config,
                                  const CostOptions &options, WalkCache &cache) {
  ProcessModel model(process, config, options, &cache);
  return model.run();
}

struct Estimator::Cache : WalkCache {};

Estimator::Estimator(dfg::ProcessOp process, const CostOptions &options)
    : process(process), options(options), cache(std::make_unique<Cache>()) {}

Estimator::~Estimator() = default;

ProcessCost Estimator::estimate(const ProcessConfig &config) {
  return estimateCached(process, config, options, *cache);
}

} // namespace ming::cost
