// Writing the DSE's choice into the IR: loop directives (#ming.loop), the
// cyclic partitioning of buffers the cost model assumed (#ming.partition),
// port lanes, and the estimates (#ming.estimate, #ming.loop_estimate) the
// report and the cycle-level simulator read.
#include "DseInternal.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace ming::dse {

void retypePort(dfg::ProcessOp process, unsigned arg, int64_t lanes) {
  MLIRContext *ctx = process.getContext();
  BlockArgument a = process.getArgument(arg);
  Type t = a.getType();
  Type nt = t;
  if (auto in = dyn_cast<dfg::InputType>(t))
    nt = dfg::InputType::get(ctx, in.getElementType(), lanes);
  else if (auto out = dyn_cast<dfg::OutputType>(t))
    nt = dfg::OutputType::get(ctx, out.getElementType(), lanes);
  if (nt == t)
    return;
  a.setType(nt);
  SmallVector<Type> inputs(process.getArgumentTypes());
  inputs[arg] = nt;
  process.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(ctx, inputs, process.getResultTypes())));
}

void writeConfig(dfg::ProcessOp process, const cost::ProcessConfig &cfg,
                 const cost::ProcessCost &c) {
  Builder b(process.getContext());
  for (auto &[id, choice] : cfg.loops) {
    if (id >= c.loops.size())
      continue;
    scf::ForOp loop = c.loops[id].loop;
    directives::LoopAttr directive = directives::getLoop(loop);
    int64_t unroll = choice.unroll.value_or(directive.getUnroll());
    int64_t ii = directive.getIi();
    if (choice.pipeline && !*choice.pipeline)
      ii = 0;
    else if (choice.ii && (ii > 0 || choice.pipeline))
      ii = *choice.ii;
    else if (choice.pipeline && ii == 0)
      ii = 1;
    directives::setLoop(loop, directive.with(ii, unroll));
  }
  // Buffers: the cyclic partitioning the model counted, dim by dim.
  for (const cost::BufferCost &bc : c.buffers) {
    if (!bc.op || bc.storage == "folded")
      continue;
    Operation *anchor = bc.op;
    SmallVector<Operation *> ops;
    if (isa<memref::AllocaOp>(anchor)) {
      ops.push_back(anchor);
      if (bc.storage == "uram")
        anchor->setAttr(directives::kUram, b.getUnitAttr());
      else
        anchor->removeAttr(directives::kUram);
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(anchor)) {
      process.getBody().walk([&](memref::GetGlobalOp g) {
        if (g.getName() == global.getName())
          ops.push_back(g);
      });
    } else {
      continue;
    }
    for (Operation *op : ops)
      directives::setPartition(op, directives::PartitionAttr::get(
                                       b.getContext(), directives::getPartition(op).getComplete(), bc.cyclic));
  }
}

int64_t mainII(const cost::ProcessCost &c) {
  int64_t ii = 0, longest = -1;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.pipelined && !lc.insidePipeline && lc.cycles > longest) {
      longest = lc.cycles;
      ii = lc.ii;
    }
  return ii;
}

void recordAttrs(dfg::ProcessOp process, const cost::ProcessCost &c) {
  Builder b(process.getContext());
  SmallVector<NamedAttribute> unroll;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.pipelined && !lc.insidePipeline)
      unroll.push_back(b.getNamedAttr("L" + std::to_string(lc.id), b.getI64IntegerAttr(lc.unroll)));
  process->setAttr(directives::kEstimate,
                   directives::EstimateAttr::get(b.getContext(), c.cycles, c.firstOutput, c.pre,
                                                 c.tail, c.dsp, c.bram18k, mainII(c),
                                                 b.getDictionaryAttr(unroll)));
  // Per-loop timing, for the cycle-level simulator: the II and depth of each
  // pipeline as the model sees them, and the loops Vitis flattens into one.
  for (const cost::LoopCost &lc : c.loops) {
    if (!lc.loop || lc.insidePipeline)
      continue;
    if (lc.pipelined)
      lc.loop->setAttr(directives::kLoopEstimate,
                       directives::LoopEstimateAttr::get(b.getContext(), lc.ii, lc.depth));
    else if (lc.flatIters)
      lc.loop->setAttr(directives::kFlattened, b.getUnitAttr());
    else if (lc.ownCycles > 1)
      // A sequential loop: what each group of its copies takes outside the
      // loops inside, its straight-line code (an f32 accumulation 5 cycles
      // an iteration).
      lc.loop->setAttr(directives::kLoopEstimate,
                       directives::LoopEstimateAttr::get(b.getContext(), lc.ownCycles, lc.ownCycles));
  }
}

} // namespace ming::dse
