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

namespace {

/// Whether `v` is computed from one of `ivs` (through any operations).
bool dependsOn(Value v, const llvm::DenseSet<Value> &ivs, int depth = 0) {
  if (ivs.contains(v))
    return true;
  if (depth > 16)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return dependsOn(o, ivs, depth + 1); });
}

/// Splits `factor` over the dimensions of `type` that the unrolled accesses
/// of `memrefs` vary in (most varying first, the innermost on a tie):
/// [dim, factor, ...] with 1-based dims, never a completely partitioned one.
SmallVector<int64_t> cyclicPartition(MemRefType type, ArrayRef<int64_t> complete,
                                     ArrayRef<Value> memrefs, const llvm::DenseSet<Value> &ivs,
                                     int64_t factor) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> score(rank, 0);
  for (Value m : memrefs)
    for (Operation *user : m.getUsers()) {
      ValueRange indices;
      if (auto load = dyn_cast<memref::LoadOp>(user))
        indices = load.getIndices();
      else if (auto store = dyn_cast<memref::StoreOp>(user))
        indices = store.getIndices();
      else
        continue;
      for (auto [d, idx] : llvm::enumerate(indices))
        if (dependsOn(idx, ivs))
          ++score[d];
    }
  SmallVector<int64_t> dims;
  for (int64_t d = rank - 1; d >= 0; --d)
    if (!llvm::is_contained(complete, d + 1) && type.getDimSize(d) > 1)
      dims.push_back(d);
  llvm::stable_sort(dims, [&](int64_t a, int64_t b) { return score[a] > score[b]; });
  SmallVector<int64_t> out;
  int64_t remaining = factor;
  for (int64_t d : dims) {
    if (remaining <= 1)
      break;
    if (score[d] == 0 && !out.empty())
      break;
    int64_t f = std::min(remaining, type.getDimSize(d));
    if (f < 2)
      continue;
    out.push_back(d + 1);
    out.push_back(f);
    remaining = (remaining + f - 1) / f;
  }
  return out;
}

} // namespace

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
  // Buffers: the cyclic partitioning the model assumed.
  llvm::DenseSet<Value> ivs;
  for (const cost::LoopCost &lc : c.loops)
    if (lc.loop && (lc.insidePipeline || lc.unroll > 1))
      ivs.insert(const_cast<scf::ForOp &>(lc.loop).getInductionVar());
  for (const cost::BufferCost &bc : c.buffers) {
    if (!bc.op || bc.storage == "folded")
      continue;
    Operation *anchor = bc.op;
    SmallVector<Operation *> ops;
    MemRefType type;
    if (auto alloca = dyn_cast<memref::AllocaOp>(anchor)) {
      ops.push_back(anchor);
      type = alloca.getType();
      if (bc.storage == "uram")
        anchor->setAttr(directives::kUram, b.getUnitAttr());
      else
        anchor->removeAttr(directives::kUram);
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(anchor)) {
      type = global.getType();
      process.getBody().walk([&](memref::GetGlobalOp g) {
        if (g.getName() == global.getName())
          ops.push_back(g);
      });
    } else {
      continue;
    }
    ArrayRef<int64_t> complete = directives::getPartition(anchor).getComplete();
    for (Operation *op : ops)
      directives::setPartition(
          op, directives::PartitionAttr::get(b.getContext(), directives::getPartition(op).getComplete(), {}));
    int64_t irBanks = 1;
    for (int64_t d : complete)
      if (d >= 1 && d <= type.getRank())
        irBanks *= type.getDimSize(d - 1);
    if (bc.banks <= irBanks || irBanks <= 0)
      continue;
    SmallVector<Value> memrefs;
    for (Operation *o : ops)
      memrefs.push_back(o->getResult(0));
    SmallVector<int64_t> spec = cyclicPartition(type, complete, memrefs, ivs, bc.banks / irBanks);
    if (spec.empty())
      continue;
    for (Operation *op : ops)
      directives::setPartition(op, directives::PartitionAttr::get(
                                       b.getContext(), directives::getPartition(op).getComplete(), spec));
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
