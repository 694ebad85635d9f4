// The `ming` dialect: its attributes' own checks, and the rule for every
// `ming.*` name (which op it may stand on, which value it holds). The table
// of names is in ming/Directives/Directives.h.
#include "ming/Directives/Directives.h"
#include "ming/Directives/LoopView.h"
#include "ming/Dfg/Dfg.h"
#include "ming/EmitHLS/EmitHLS.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ming::directives;

#include "ming/Directives/DirectivesDialect.cpp.inc"

/// `[1, 2, 3]` or `[]`.
static FailureOr<SmallVector<int64_t>> parseIntegerList(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        values.push_back(v);
        return success();
      }))
    return failure();
  return values;
}

#define GET_ATTRDEF_CLASSES
#include "ming/Directives/DirectivesAttrs.cpp.inc"

void MingDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ming/Directives/DirectivesAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Attribute checks
//===----------------------------------------------------------------------===//

LogicalResult LoopAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t ii,
                               int64_t unroll, StringAttr label) {
  if (ii < 0)
    return emitError() << "#ming.loop: ii must be >= 1 to pipeline (0 or absent: not "
                          "pipelined), got "
                       << ii;
  if (unroll < 0)
    return emitError() << "#ming.loop: unroll must be >= 0 (0 unrolls fully), got " << unroll;
  if (label && !ming::emithls::isCIdentifier(label.getValue()))
    return emitError() << "#ming.loop: label must be a C identifier, got " << label;
  return success();
}

LoopAttr LoopAttr::with(int64_t ii, int64_t unroll) const {
  return LoopAttr::get(getContext(), ii, unroll, getLabel());
}

LogicalResult PartitionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<int64_t> complete, ArrayRef<int64_t> cyclic) {
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t d : complete)
    if (d < 1 || !seen.insert(d).second)
      return emitError() << "#ming.partition: complete dimensions are distinct and 1-based, got "
                         << d;
  if (cyclic.size() % 2 != 0)
    return emitError() << "#ming.partition: cyclic holds (dimension, factor) pairs";
  for (size_t i = 0; i < cyclic.size(); i += 2) {
    int64_t d = cyclic[i], factor = cyclic[i + 1];
    if (d < 1 || !seen.insert(d).second)
      return emitError() << "#ming.partition: cyclic dimension " << d
                         << " is not 1-based or is split twice";
    if (factor < 1)
      return emitError() << "#ming.partition: cyclic factor " << factor
                         << " of dimension " << d << " is below 1";
  }
  return success();
}

LogicalResult PartitionAttr::verifyFor(MemRefType type,
                                       function_ref<InFlightDiagnostic()> emitError) const {
  int64_t rank = type.getRank();
  if (rank == 0 && (!getComplete().empty() || !getCyclic().empty()))
    return emitError() << "partitions a rank-0 buffer, which is a scalar";
  for (int64_t d : getComplete())
    if (d > rank)
      return emitError() << "splits dimension " << d << " completely, but the buffer has "
                         << "dimensions 1.." << rank;
  ArrayRef<int64_t> cyclic = getCyclic();
  for (size_t i = 0; i < cyclic.size(); i += 2) {
    int64_t d = cyclic[i], factor = cyclic[i + 1];
    if (d > rank || (!type.isDynamicDim(d - 1) && factor > type.getDimSize(d - 1)))
      return emitError() << "splits dimension " << d << " cyclically by " << factor
                         << ", which does not fit " << type;
  }
  return success();
}

LogicalResult EstimateAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t cycles,
                                   int64_t firstOutput, int64_t pre, int64_t tail, int64_t dsp,
                                   int64_t bram18k, int64_t ii, DictionaryAttr unroll) {
  for (int64_t v : {cycles, firstOutput, pre, tail, dsp, bram18k, ii})
    if (v < 0)
      return emitError() << "#ming.estimate: figures are counts, got " << v;
  if (unroll)
    for (NamedAttribute f : unroll) {
      auto i = dyn_cast<IntegerAttr>(f.getValue());
      if (!i || i.getInt() < 0)
        return emitError() << "#ming.estimate: unroll of " << f.getName()
                           << " must be an integer >= 0";
    }
  return success();
}

LogicalResult LoopEstimateAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t ii,
                                       int64_t depth) {
  if (ii < 1 || depth < 0)
    return emitError() << "#ming.loop_estimate: ii >= 1 and depth >= 0, got ii " << ii
                       << " and depth " << depth;
  return success();
}

LogicalResult DesignAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t cycles,
                                 int64_t dsp, int64_t bram18k, StringAttr objective,
                                 StringAttr status) {
  if (cycles < 0 || dsp < 0 || bram18k < 0)
    return emitError() << "#ming.design: figures are counts";
  if (!objective || objective.empty() || !status || status.empty())
    return emitError() << "#ming.design: objective and status are named";
  return success();
}

//===----------------------------------------------------------------------===//
// Where each name may stand
//===----------------------------------------------------------------------===//

namespace {
/// The value kinds of the plain (builtin-valued) directives.
enum class Kind { Unit, Count, String, Counts };

bool holds(Attribute a, Kind kind) {
  switch (kind) {
  case Kind::Unit:
    return isa<UnitAttr>(a);
  case Kind::Count: {
    auto i = dyn_cast<IntegerAttr>(a);
    return i && i.getType().isSignlessInteger() && i.getInt() >= 0;
  }
  case Kind::String:
    return isa<StringAttr>(a);
  case Kind::Counts: {
    auto arr = dyn_cast<DenseI64ArrayAttr>(a);
    return arr && llvm::all_of(arr.asArrayRef(), [](int64_t v) { return v >= 0; });
  }
  }
  return false;
}

const char *spell(Kind kind) {
  switch (kind) {
  case Kind::Unit:
    return "a unit attribute";
  case Kind::Count:
    return "an integer >= 0";
  case Kind::String:
    return "a string";
  case Kind::Counts:
    return "an array<i64> of counts";
  }
  return "";
}
} // namespace

LogicalResult MingDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  auto error = [&]() { return op->emitOpError() << "'" << name << "' "; };
  auto typed = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return error() << "must be " << what << ", got " << value;
  };
  auto on = [&](bool ok, StringRef where) -> LogicalResult {
    if (ok)
      return success();
    return error() << "belongs on " << where;
  };

  if (name == kLoop || name == kLoopEstimate || name == kFlattened || name == kReassociate) {
    if (failed(on(isa<scf::ForOp>(op), "an scf.for")))
      return failure();
    if (name == kLoop)
      return typed(isa<LoopAttr>(value), "a #ming.loop<...>");
    if (name == kLoopEstimate)
      return typed(isa<LoopEstimateAttr>(value), "a #ming.loop_estimate<...>");
    return typed(isa<UnitAttr>(value), "a unit attribute");
  }
  if (name == kCarriedDistance) {
    if (failed(on(isa<scf::ForOp>(op), "an scf.for")))
      return failure();
    auto distance = dyn_cast<IntegerAttr>(value);
    return typed(distance && distance.getType().isSignlessInteger() && distance.getInt() >= 1,
                 "an integer of at least 1");
  }
  if (name == kPartition) {
    auto partition = dyn_cast<PartitionAttr>(value);
    if (!partition)
      return typed(false, "a #ming.partition<...>");
    MemRefType type = op->getNumResults() == 1
                          ? dyn_cast<MemRefType>(op->getResult(0).getType())
                          : MemRefType();
    if (failed(on(bool(type), "an op that makes a buffer (memref.alloca, memref.get_global)")))
      return failure();
    return partition.verifyFor(type, error);
  }
  if (name == kUram) {
    if (failed(on(isa<memref::AllocaOp>(op), "a memref.alloca (a ROM cannot be UltraRAM: it has no initial contents)")))
      return failure();
    return typed(isa<UnitAttr>(value), "a unit attribute");
  }
  if (name == kEstimate) {
    if (failed(on(isa<ming::dfg::ProcessOp>(op), "a dfg.process")))
      return failure();
    return typed(isa<EstimateAttr>(value), "a #ming.estimate<...>");
  }
  if (name == kDesign) {
    if (failed(on(isa<ming::dfg::GraphOp>(op), "a dfg.graph")))
      return failure();
    return typed(isa<DesignAttr>(value), "a #ming.design<...>");
  }

  static const std::pair<llvm::StringLiteral, Kind> plain[] = {
      {kTop, Kind::Unit},           {kNumInputs, Kind::Count},
      {kName, Kind::String},        {kKind, Kind::String},
      {kLookahead, Kind::Count},    {kInputElements, Kind::Count},
      {kJoinBurst, Kind::Counts},   {kPortElements, Kind::Counts},
      {kTestCrash, Kind::Unit}};
  for (auto &[known, kind] : plain)
    if (name == known)
      return typed(holds(value, kind), spell(kind));
  return error() << "is not a ming directive (see ming/Directives/Directives.h)";
}

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

LoopAttr ming::directives::getLoop(Operation *op) {
  if (auto loop = op->getAttrOfType<LoopAttr>(kLoop))
    return loop;
  return LoopAttr::get(op->getContext(), 0, 1, StringAttr());
}

SmallVector<Value> ming::directives::carriedBuffers(Operation *loop) {
  SmallVector<Value> both;
  if (!loop->hasAttr(kCarriedDistance))
    return both;
  llvm::DenseSet<Value> loaded, computed;
  loop->walk([&](memref::LoadOp load) { loaded.insert(load.getMemRef()); });
  // A buffer that only takes pulled values (the next input in a register
  // pair) carries nothing from its loads to its stores.
  loop->walk([&](memref::StoreOp store) {
    if (!store.getValueToStore().getDefiningOp<dfg::PullOp>())
      computed.insert(store.getMemRef());
  });
  loop->walk([&](memref::StoreOp store) {
    if (loaded.contains(store.getMemRef()) && computed.contains(store.getMemRef()) &&
        !llvm::is_contained(both, store.getMemRef()))
      both.push_back(store.getMemRef());
  });
  return both;
}

void ming::directives::setLoop(Operation *op, LoopAttr loop) {
  if (loop.getIi() == 0 && loop.getUnroll() == 1 && !loop.getLabel())
    op->removeAttr(kLoop);
  else
    op->setAttr(kLoop, loop);
}

PartitionAttr ming::directives::getPartition(Operation *op) {
  if (auto p = op->getAttrOfType<PartitionAttr>(kPartition))
    return p;
  return PartitionAttr::get(op->getContext(), {}, {});
}

void ming::directives::setPartition(Operation *op, PartitionAttr partition) {
  if (partition.getComplete().empty() && partition.getCyclic().empty())
    op->removeAttr(kPartition);
  else
    op->setAttr(kPartition, partition);
}

LoopView ming::directives::viewLoop(void *operation) {
  auto *op = static_cast<Operation *>(operation);
  LoopView view;
  LoopAttr loop = getLoop(op);
  view.ii = loop.getIi();
  view.unroll = loop.getUnroll();
  if (auto estimate = op->getAttrOfType<LoopEstimateAttr>(kLoopEstimate)) {
    view.estimated = true;
    view.estimatedII = estimate.getIi();
    view.estimatedDepth = estimate.getDepth();
  }
  view.flattened = op->hasAttr(kFlattened);
  return view;
}
