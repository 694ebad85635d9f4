// Float sums as balanced trees. Vitis keeps a float accumulation in source
// order: n terms cost n adds in series, 4 cycles each, which sets a float
// layer's latency (a 128-input dense layer: 512 cycles per output). Summed
// as a tree the same terms take ceil(log2(n + 1)) adds. The reassociation
// changes the rounding, so it is the user's choice (`--reassociate-float`):
//
//   ming-mark-float-sums  marks every float accumulation of the dfg processes
//                         (`ming.reassociate` on its loops); the cost model
//                         then times it as a tree wherever the DSE unrolls it;
//   ming-float-trees      after the DSE, writes each marked accumulation that
//                         is unrolled inside a pipeline as that tree: the terms
//                         into a register array, then one loop per level,
//                         so the C++ (and its C simulation) sums in the order
//                         the hardware does.
#include "ming/Directives/Directives.h"
#include "ming/Transforms/Passes.h"

#include "ming/Dfg/Dfg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

namespace ming {
#define GEN_PASS_DEF_MARKFLOATSUMS
#define GEN_PASS_DEF_FLOATTREES
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace ming {
namespace {

/// The loops of the float sum `loop` carries, outermost first: `loop` with
/// one float iter_arg used only to add one term (`acc + term`, the leaf) or
/// to start a nested loop that continues the sum and whose result is what
/// `loop` yields. Empty when `loop` is not such a sum.
SmallVector<scf::ForOp> sumNest(scf::ForOp loop) {
  SmallVector<scf::ForOp> nest;
  for (scf::ForOp at = loop; at;) {
    if (at.getNumRegionIterArgs() != 1 || !isa<FloatType>(at.getRegionIterArgs()[0].getType()))
      return {};
    Value acc = at.getRegionIterArgs()[0];
    Value yielded = at.getBody()->getTerminator()->getOperand(0);
    if (!acc.hasOneUse() || !yielded.hasOneUse())
      return {};
    nest.push_back(at);
    Operation *def = yielded.getDefiningOp();
    if (auto add = dyn_cast_or_null<arith::AddFOp>(def);
        add && add->getBlock() == at.getBody() && (add.getLhs() == acc || add.getRhs() == acc) &&
        add.getLhs() != add.getRhs())
      return nest;
    auto inner = dyn_cast_or_null<scf::ForOp>(def);
    if (!inner || inner->getBlock() != at.getBody() || inner.getNumRegionIterArgs() != 1 ||
        inner.getInitArgs()[0] != acc)
      return {};
    at = inner;
  }
  return {};
}

/// Whether `loop` continues the sum of the loop around it (then that one
/// is the root of the nest).
bool continuesParent(scf::ForOp loop) {
  auto parent = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!parent)
    return false;
  SmallVector<scf::ForOp> nest = sumNest(parent);
  return nest.size() > 1 && nest[1] == loop;
}

/// Whether `loop` runs unrolled inside a pipeline (a pipelined loop around
/// it): Vitis unrolls every loop in a pipeline completely.
bool insidePipeline(scf::ForOp loop) {
  for (Operation *op = loop->getParentOp(); op; op = op->getParentOp())
    if (auto around = dyn_cast<scf::ForOp>(op); around && directives::getLoop(around).isPipelined())
      return true;
  return false;
}

struct MarkFloatSums : impl::MarkFloatSumsBase<MarkFloatSums> {
  void runOnOperation() override {
    getOperation()->walk([](dfg::ProcessOp process) {
      process.getBody().walk([](scf::ForOp loop) {
        for (scf::ForOp level : sumNest(loop))
          level->setAttr(directives::kReassociate, UnitAttr::get(loop.getContext()));
      });
    });
  }
};

/// Writes the sum of the nest rooted at `nest[0]` as a tree: every term into
/// an (n + 1)-element register array, the sum's start value last, then
/// levels adding element i + s into element i for s = 1, 2, 4, ...; the
/// result is element 0. Every trip count must be constant.
LogicalResult expand(SmallVector<scf::ForOp> nest) {
  SmallVector<int64_t> trips;
  int64_t terms = 1;
  for (scf::ForOp loop : nest) {
    std::optional<APInt> trip = loop.getStaticTripCount();
    if (!trip || trip->getZExtValue() == 0 || trip->getZExtValue() > (1u << 20))
      return failure();
    trips.push_back(int64_t(trip->getZExtValue()));
    terms *= trips.back();
    if (terms > (1 << 20))
      return failure();
  }
  scf::ForOp root = nest.front();
  Location loc = root.getLoc();
  OpBuilder b(root);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Type element = root.getRegionIterArgs()[0].getType();
  auto type = MemRefType::get({terms + 1}, element);
  auto leaves = memref::AllocaOp::create(b, loc, type);
  directives::setPartition(leaves, directives::PartitionAttr::get(b.getContext(), {1}, {}));
  memref::StoreOp::create(b, loc, root.getInitArgs()[0], leaves, ValueRange{index(terms)});

  // The nest again, without the sum: each term stored at its position in
  // the nest's iteration order.
  arith::AddFOp leafAdd;
  IRMapping map; // across the levels: an inner body reads what outer ones compute
  std::function<void(size_t, Value)> cloneLevel = [&](size_t i, Value outer) {
    scf::ForOp loop = nest[i];
    auto copy = scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    for (NamedAttribute attr : loop->getDiscardableAttrs())
      if (attr.getName() != directives::kReassociate)
        copy->setAttr(attr.getName(), attr.getValue());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(copy.getBody()->getTerminator());
    map.map(loop.getInductionVar(), copy.getInductionVar());
    // Position = outer * trip + (iv - lb) / step.
    Value k = copy.getInductionVar();
    if (getConstantIntValue(loop.getLowerBound()) != 0)
      k = arith::SubIOp::create(b, loc, k, loop.getLowerBound());
    if (getConstantIntValue(loop.getStep()) != 1)
      k = arith::DivUIOp::create(b, loc, k, loop.getStep());
    Value position = outer ? arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, outer, index(trips[i])), k)
                           : k;
    Value acc = loop.getRegionIterArgs()[0];
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (i + 1 < nest.size() && &op == nest[i + 1].getOperation()) {
        cloneLevel(i + 1, position);
        continue;
      }
      auto add = dyn_cast<arith::AddFOp>(op);
      if (i + 1 == nest.size() && add && add.getResult() == loop.getBody()->getTerminator()->getOperand(0)) {
        leafAdd = add;
        Value term = map.lookupOrDefault(add.getLhs() == acc ? add.getRhs() : add.getLhs());
        memref::StoreOp::create(b, loc, term, leaves, ValueRange{position});
        continue;
      }
      b.clone(op, map);
    }
  };
  cloneLevel(0, Value());

  // The levels: at stride s, element i takes element i + s for every i that
  // is a multiple of 2s with i + s within the array.
  for (int64_t s = 1; s < terms + 1; s *= 2) {
    auto level = scf::ForOp::create(b, loc, index(0), index(terms + 1 - s), index(2 * s));
    // Unrolled, as the loops of the sum were (Vitis unrolls every loop in a
    // pipeline; the pragma says it in the C++).
    directives::setLoop(level, directives::LoopAttr::get(b.getContext(), 0, 0, StringAttr()));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(level.getBody()->getTerminator());
    Value i = level.getInductionVar();
    Value j = arith::AddIOp::create(b, loc, i, index(s));
    Value lhs = memref::LoadOp::create(b, loc, leaves, ValueRange{i});
    Value rhs = memref::LoadOp::create(b, loc, leaves, ValueRange{j});
    auto sum = arith::AddFOp::create(b, loc, lhs, rhs, leafAdd.getFastmathAttr());
    memref::StoreOp::create(b, loc, sum, leaves, ValueRange{i});
  }
  Value result = memref::LoadOp::create(b, loc, leaves, ValueRange{index(0)});
  root.getResult(0).replaceAllUsesWith(result);
  root.erase();
  return success();
}

struct FloatTrees : impl::FloatTreesBase<FloatTrees> {
  void runOnOperation() override {
    SmallVector<SmallVector<scf::ForOp>> roots;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(directives::kReassociate) || continuesParent(loop) || !insidePipeline(loop))
        return;
      SmallVector<scf::ForOp> nest = sumNest(loop);
      if (!nest.empty())
        roots.push_back(nest);
    });
    for (auto &nest : roots) {
      scf::ForOp root = nest.front();
      if (failed(expand(nest)))
        root.emitRemark("float sum kept in source order: its trip counts are not constant and small");
    }
  }
};

} // namespace
} // namespace ming
