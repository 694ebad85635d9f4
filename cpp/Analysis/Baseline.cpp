// The vanilla baseline: every process sequential but for its innermost
// pipelined loops, one lane per port, as the paper compares against.
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
// Vanilla baseline
//===----------------------------------------------------------------------===//

ProcessConfig vanillaConfig(dfg::ProcessOp process) {
  ProcessConfig cfg;
  cfg.autoPartition = false;
  unsigned next = 0;
  process.getBody().walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    bool innermost = !loop.getBody()
                           ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
                           .wasInterrupted();
    LoopChoice &c = cfg.loops[next++];
    c.unroll = 1;
    c.pipeline = innermost;
    c.ii = 1;
  });
  for (unsigned a = 0; a < process.getNumArguments(); ++a)
    if (isa<dfg::InputType, dfg::OutputType>(process.getArgument(a).getType()))
      cfg.lanes[a] = 1;
  return cfg;
}

/// Elements that go through port `arg` of `process` in one run: per pull or
/// push the product of the enclosing trip counts. `conditional` tells whether
/// some access sits under an scf.if (then the count is an upper bound).
static int64_t portElements(dfg::ProcessOp process, unsigned arg, bool &conditional) {
  conditional = false;
  int64_t total = 0;
  Value port = process.getArgument(arg);
  process.getBody().walk([&](Operation *op) {
    Value p;
    if (auto pull = dyn_cast<dfg::PullOp>(op))
      p = pull.getPort();
    else if (auto push = dyn_cast<dfg::PushOp>(op))
      p = push.getPort();
    if (!p || p != port)
      return;
    int64_t n = 1;
    for (Operation *o = op->getParentOp(); o && o != process.getOperation(); o = o->getParentOp()) {
      if (auto loop = dyn_cast<scf::ForOp>(o))
        n *= std::max<int64_t>(loopBounds(loop).trip, 0);
      else if (isa<scf::IfOp>(o))
        conditional = true;
    }
    total += n;
  });
  return total;
}

BaselineCost estimateBaseline(dfg::GraphOp graph, const CostOptions &options) {
  BaselineCost out;
  std::map<std::string, ProcessCost> costs;
  // Channel end -> (instance's process, argument number).
  llvm::DenseMap<Value, std::pair<dfg::ProcessOp, unsigned>> ends;
  for (Operation &op : graph.getBody().front()) {
    auto inst = dyn_cast<dfg::InstantiateOp>(op);
    if (!inst)
      continue;
    auto process = SymbolTable::lookupNearestSymbolFrom<dfg::ProcessOp>(inst, inst.getCalleeAttr());
    if (!process)
      continue;
    auto it = costs.find(process.getSymName().str());
    if (it == costs.end())
      it = costs.emplace(process.getSymName().str(),
                         estimate(process, vanillaConfig(process), options))
               .first;
    out.cycles += it->second.cycles;
    out.dsp += it->second.dsp;
    out.bram18k += it->second.bram18k;
    for (auto [i, port] : llvm::enumerate(inst.getPorts()))
      ends[port] = {process, unsigned(i)};
  }
  for (Operation &op : graph.getBody().front()) {
    auto ch = dyn_cast<dfg::ChannelOp>(op);
    if (!ch)
      continue;
    auto w = ends.find(ch.getWrite()), r = ends.find(ch.getRead());
    std::optional<int64_t> exact, bound;
    for (auto it : {w, r}) {
      if (it == ends.end())
        continue;
      bool conditional = false;
      int64_t n = portElements(it->second.first, it->second.second, conditional);
      if (!conditional && !exact)
        exact = n;
      bound = bound ? std::min(*bound, n) : n;
    }
    int64_t elements = exact ? *exact : bound.value_or(0);
    int64_t width = bitWidth(ch.getElementType());
    if (elements > 1 && elements * width > options.target->lutramMaxBits)
      out.tensorBram18k += bram18kBlocks(elements, width);
  }
  out.bram18k += out.tensorBram18k;
  return out;
}

} // namespace ming::cost
