// convert-dfg-to-emithls (td/ming/Conversion/Passes.td): lowers a dataflow
// graph to emitHLS, the IR that prints one-to-one as Vitis HLS C++.
//
//   dfg.process  -> emitHLS.func with INLINE off; ports become streams and
//                   arrays; the body (scf, memref, arith, math, pull/push) is
//                   rebuilt op by op with an IRMapping.
//   lanes = L    -> a channel of L > 1 lanes is ONE stream of packed words
//                   (hls::vector<T, L>): each such port keeps a word and a
//                   lane (a counter, or the innermost loop's iteration mod L),
//                   so the round-robin pulls and pushes of an unchanged body
//                   move one word per L elements. L must divide the number
//                   of elements on the channel.
//   dfg.graph    -> the top emitHLS.func: AXI interfaces, DATAFLOW, one
//                   hls::stream per channel, one call per instance in
//                   producer -> consumer order.
//   memref.global constants (weights) become `rom` arrays inside the
//   functions that read them, so the module ends up holding only functions.
//
// Anything outside that contract is rejected with a located error; the pass
// never builds IR that the emitHLS verifiers would have to reject.
#include "ming/Conversion/Passes.h"
#include "ming/Directives/Directives.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTDFGTOEMITHLS
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;
using namespace ming;
namespace hls = ming::emithls;

// The discardable attributes the directive defaults (and later the DSE) put
// on process bodies.

static constexpr StringLiteral kSupportedOps =
    "arith and math ops on scalars, scf.for with constant bounds, scf.if, scf.yield, "
    "memref.alloca/load/store/get_global, dfg.pull and dfg.push";

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The scalars C++ variables and expressions can hold (index prints as int).
static bool isScalar(Type type) { return isa<IntegerType, FloatType, IndexType>(type); }

/// A statically shaped, row-major memref of rank >= 1 becomes a C++ array.
static FailureOr<hls::ArrayType> convertMemRef(MemRefType type, Operation *where,
                                               const Twine &what) {
  if (!type.hasStaticShape())
    return where->emitOpError() << what << " has a dynamic shape (" << type
                                << "); only static shapes become C++ arrays";
  if (!type.getLayout().isIdentity())
    return where->emitOpError() << what << " has a non-identity layout (" << type
                                << "); only row-major memrefs become C++ arrays";
  if (type.getRank() == 0)
    return where->emitOpError() << what << " is a rank-0 memref; a C++ array needs a dimension";
  hls::ArrayType array = hls::ArrayType::getChecked(
      [&] { return where->emitOpError() << what << ": "; }, type.getContext(), type.getShape(),
      type.getElementType());
  if (!array)
    return failure();
  return array;
}

/// A channel end becomes an hls::stream: of its element type with one lane,
/// of packed words vector<LxT> (hls::vector<T, L>) with L > 1 lanes.
static FailureOr<hls::StreamType> convertChannelEnd(Type elementType, unsigned lanes,
                                                    Operation *where, const Twine &what) {
  Type word = elementType;
  if (lanes > 1) {
    if (!isa<IntegerType, FloatType>(elementType))
      return where->emitOpError() << what << " has element type " << elementType
                                  << "; only integer and float lanes pack into a word";
    word = VectorType::get({int64_t(lanes)}, elementType);
  }
  hls::StreamType stream = hls::StreamType::getChecked(
      [&] { return where->emitOpError() << what << ": "; }, elementType.getContext(), word);
  if (!stream)
    return failure();
  return stream;
}

/// Port types of a process or graph: channel ends and external memory.
static FailureOr<Type> convertPort(Type type, Operation *where, unsigned index) {
  std::string what = "port #" + std::to_string(index);
  if (auto in = dyn_cast<dfg::InputType>(type))
    return convertChannelEnd(in.getElementType(), in.getLanes(), where, what);
  if (auto out = dyn_cast<dfg::OutputType>(type))
    return convertChannelEnd(out.getElementType(), out.getLanes(), where, what);
  if (auto memref = dyn_cast<MemRefType>(type))
    return convertMemRef(memref, where, what);
  return where->emitOpError() << what << " has type " << type
                              << "; only !dfg.in, !dfg.out and memref ports are supported";
}

static FailureOr<FunctionType> convertSignature(FunctionOpInterface op) {
  SmallVector<Type> inputs;
  for (auto [i, type] : llvm::enumerate(op.getArgumentTypes())) {
    FailureOr<Type> converted = convertPort(type, op, i);
    if (failed(converted))
      return failure();
    inputs.push_back(*converted);
  }
  return FunctionType::get(op->getContext(), inputs, {});
}

/// The function name is printed verbatim as the C++ name.
static LogicalResult checkCName(Operation *op, StringRef name) {
  if (hls::isCIdentifier(name))
    return success();
  return op->emitOpError("name '") << name
                                   << "' is not a valid C identifier, so it cannot name an "
                                      "HLS function";
}

//===----------------------------------------------------------------------===//
// Process bodies
//===----------------------------------------------------------------------===//

namespace {
/// Rebuilds the body of one dfg.process inside a new emitHLS.func. Walks the
/// source ops in order, keeping `builder` at the matching point of the target
/// and `mapping` from source values to target values.
class ProcessLowering {
public:
  explicit ProcessLowering(const llvm::StringMap<memref::GlobalOp> &globals) : globals(globals) {}

  /// Appends the function of `process` at the insertion point of `b`.
  LogicalResult lower(dfg::ProcessOp process, OpBuilder &b);

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerScalarOp(Operation *op);
  LogicalResult lowerFor(scf::ForOp loop);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerAlloca(memref::AllocaOp op);
  LogicalResult lowerGetGlobal(memref::GetGlobalOp op);
  LogicalResult lowerLoad(memref::LoadOp op);
  LogicalResult lowerStore(memref::StoreOp op);
  LogicalResult lowerPull(dfg::PullOp op);
  LogicalResult lowerPush(dfg::PushOp op);

  /// The word and lane counter of every port with more than one lane.
  void createLaneState(Block &source, Block &entry);
  /// An integer or index constant, created once per function at its top.
  Value laneConstant(int64_t value, Type type);
  struct LanePort;
  /// The lane the current pull or push takes: `index` subscripts the word,
  /// `value` (the same or the i32 counter) is compared with 0 and L - 1.
  struct Lane {
    Value index;
    Value value;
  };
  Lane currentLane(Location loc, const LanePort &port);
  Value laneIs(Location loc, Lane lane, int64_t k);
  /// `lane = lane == L - 1 ? 0 : lane + 1;` (counted lanes only).
  void advanceLane(Location loc, const LanePort &port, Lane lane, Value last);

  // Loop-carried values and if results: emitHLS regions yield nothing, so
  // they live in C++ variables, exactly as a hand-written kernel would do.
  // An index value is kept in an i64 variable (C++ has no `index`).
  FailureOr<Value> createVar(Location loc, Type type, Value init, Operation *where);
  Value readVar(Location loc, Value var, Type type);
  void writeVar(Location loc, Value value, Value var);
  /// Assigns the operands of the scf.yield ending `block` to `vars`.
  void assignYielded(Block &block, ArrayRef<Value> vars);

  LogicalResult addLoopPragmas(scf::ForOp loop, hls::ForOp hlsFor);
  FailureOr<std::string> loopLabel(scf::ForOp loop);
  /// One ARRAY_PARTITION complete per dimension listed on `op`.
  void addPartitions(Operation *op, Value array, llvm::SmallDenseSet<int64_t> &done);

  const llvm::StringMap<memref::GlobalOp> &globals;
  OpBuilder *builder = nullptr;
  IRMapping mapping;
  /// Weights are declared once per function, at its top, after this op.
  Operation *romInsertPoint = nullptr;
  struct Rom {
    Value array;
    llvm::SmallDenseSet<int64_t> partitioned;
  };
  llvm::StringMap<Rom> roms;
  /// C++ labels have function scope: a repeated name gets a suffix.
  llvm::StringSet<> labels;

  /// A port of L > 1 lanes: `hls::vector<T, L> word;` holds the word being
  /// read or filled, `int32_t lane = 0;` the element of it the next pull or
  /// push takes. When the port's only pull or push sits directly in a loop
  /// nest and L divides the innermost trip count, the lane is the innermost
  /// iteration number mod L instead (no counter): after an unroll by a
  /// multiple of L, HLS sees constant lanes and one FIFO access per L
  /// elements. By source port (block argument of the process).
  struct LanePort {
    Value word;
    Value lane;          // the counter; null when `loop` gives the lane
    scf::ForOp loop;     // the innermost loop whose iteration number gives the lane
    int64_t lanes;
  };
  llvm::DenseMap<Value, LanePort> lanePorts;
  /// Where the lane state and its constants go: the top of the function.
  Operation *laneInsertPoint = nullptr;
  llvm::DenseMap<std::pair<int64_t, Type>, Value> laneConstants;
};
} // namespace

LogicalResult ProcessLowering::lower(dfg::ProcessOp process, OpBuilder &b) {
  if (failed(checkCName(process, process.getSymName())))
    return failure();
  FailureOr<FunctionType> type = convertSignature(process);
  if (failed(type))
    return failure();

  Location loc = process.getLoc();
  auto func = hls::FuncOp::create(b, loc, process.getSymName(), *type, ArrayAttr(), ArrayAttr());
  Block &source = process.getBody().front();
  SmallVector<Location> argLocs =
      llvm::map_to_vector(source.getArguments(), [](BlockArgument a) { return a.getLoc(); });
  // The guard brings `b` back to the module once the body is built.
  OpBuilder::InsertionGuard guard(b);
  Block *entry = b.createBlock(&func.getBody(), {}, type->getInputs(), argLocs);
  mapping.map(source.getArguments(), entry->getArguments());

  builder = &b;
  // Every process is its own dataflow module, never inlined into the top.
  romInsertPoint = hls::PragmaInlineOp::create(b, loc, /*off=*/true);
  laneInsertPoint = romInsertPoint;
  createLaneState(source, *entry);
  if (failed(lowerBlock(source)))
    return failure();
  hls::ReturnOp::create(b, loc, Value());

  // Index constants that only fed loop bounds have no user left.
  func.walk([](arith::ConstantOp constant) {
    if (constant->use_empty())
      constant->erase();
  });
  return success();
}

LogicalResult ProcessLowering::lowerBlock(Block &block) {
  for (Operation &op : block) {
    // A yield is handled by the op owning the region.
    if (isa<scf::YieldOp>(op))
      continue;
    if (failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult ProcessLowering::lowerOp(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](scf::ForOp o) { return lowerFor(o); })
      .Case([&](scf::IfOp o) { return lowerIf(o); })
      .Case([&](memref::AllocaOp o) { return lowerAlloca(o); })
      .Case([&](memref::GetGlobalOp o) { return lowerGetGlobal(o); })
      .Case([&](memref::LoadOp o) { return lowerLoad(o); })
      .Case([&](memref::StoreOp o) { return lowerStore(o); })
      .Case([&](dfg::PullOp o) { return lowerPull(o); })
      .Case([&](dfg::PushOp o) { return lowerPush(o); })
      .Default([&](Operation *other) -> LogicalResult {
        StringRef dialect = other->getName().getDialectNamespace();
        if (dialect == "arith" || dialect == "math")
          return lowerScalarOp(other);
        return other->emitOpError("is not supported in a dfg.process (supported: ")
               << kSupportedOps << ")";
      });
}

/// arith and math print directly as C++ expressions: cloned unchanged.
LogicalResult ProcessLowering::lowerScalarOp(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type type : types)
    if (!isScalar(type))
      return op->emitOpError("operates on ")
             << type << "; only integer, float and index scalars become C++ expressions";
  if (op->getNumRegions() != 0)
    return op->emitOpError("has regions, which have no C++ expression");
  builder->clone(*op, mapping);
  return success();
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

FailureOr<Value> ProcessLowering::createVar(Location loc, Type type, Value init,
                                            Operation *where) {
  if (!isScalar(type))
    return where->emitOpError("carries a value of type ")
           << type << "; only integer, float and index scalars fit in a C++ variable";
  Type stored = type.isIndex() ? builder->getI64Type() : type;
  if (init && type.isIndex())
    init = arith::IndexCastOp::create(*builder, loc, stored, init);
  return Value(hls::VarOp::create(*builder, loc, hls::VarType::get(builder->getContext(), stored), init));
}

Value ProcessLowering::readVar(Location loc, Value var, Type type) {
  Type stored = cast<hls::VarType>(var.getType()).getElementType();
  Value value = hls::GetOp::create(*builder, loc, stored, var);
  if (type.isIndex())
    value = arith::IndexCastOp::create(*builder, loc, type, value);
  return value;
}

void ProcessLowering::writeVar(Location loc, Value value, Value var) {
  Type stored = cast<hls::VarType>(var.getType()).getElementType();
  if (value.getType().isIndex())
    value = arith::IndexCastOp::create(*builder, loc, stored, value);
  hls::AssignOp::create(*builder, loc, value, var);
}

void ProcessLowering::assignYielded(Block &block, ArrayRef<Value> vars) {
  auto yield = cast<scf::YieldOp>(block.getTerminator());
  for (auto [value, var] : llvm::zip_equal(yield.getResults(), vars))
    writeVar(yield.getLoc(), mapping.lookup(value), var);
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult ProcessLowering::lowerFor(scf::ForOp loop) {
  Location loc = loop.getLoc();
  if (!loop.getInductionVar().getType().isIndex())
    return loop.emitOpError("has an induction variable of type ")
           << loop.getInductionVar().getType() << "; only index loops are supported";
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step)
    return loop.emitOpError("has a non-constant ")
           << (!lb ? "lower bound" : !ub ? "upper bound" : "step")
           << "; HLS loops need constant bounds and step (arith.constant)";
  if (*step <= 0)
    return loop.emitOpError("has step ") << *step << "; only positive steps are supported";
  FailureOr<std::string> label = loopLabel(loop);
  if (failed(label))
    return failure();

  SmallVector<Value> vars;
  for (auto [init, arg] : llvm::zip_equal(loop.getInitArgs(), loop.getRegionIterArgs())) {
    FailureOr<Value> var = createVar(loc, arg.getType(), mapping.lookup(init), loop);
    if (failed(var))
      return failure();
    vars.push_back(*var);
  }
  // An empty scf range (ub < lb) stays empty as `for (i = lb; i < lb; ...)`.
  auto hlsFor = hls::ForOp::create(*builder, loc, *lb, std::max(*lb, *ub), *step, *label);
  {
    OpBuilder::InsertionGuard guard(*builder);
    Block &body = hlsFor.getBody().front();
    builder->setInsertionPoint(body.getTerminator());
    // Loop pragmas come first: they describe the whole body.
    if (failed(addLoopPragmas(loop, hlsFor)))
      return failure();
    mapping.map(loop.getInductionVar(), hlsFor.getInductionVar());
    // A value nobody uses is not read: each read is a line of C++.
    for (auto [arg, var] : llvm::zip_equal(loop.getRegionIterArgs(), vars))
      if (!arg.use_empty())
        mapping.map(arg, readVar(loc, var, arg.getType()));
    if (failed(lowerBlock(*loop.getBody())))
      return failure();
    assignYielded(*loop.getBody(), vars);
  }
  for (auto [result, var] : llvm::zip_equal(loop.getResults(), vars))
    if (!result.use_empty())
      mapping.map(result, readVar(loc, var, result.getType()));
  return success();
}

FailureOr<std::string> ProcessLowering::loopLabel(scf::ForOp loop) {
  StringAttr name = directives::getLoop(loop).getLabel();
  if (!name)
    return std::string();
  std::string label = name.getValue().str();
  for (unsigned n = 1; !labels.insert(label).second; ++n)
    label = (name.getValue() + "_" + Twine(n)).str();
  return label;
}

LogicalResult ProcessLowering::addLoopPragmas(scf::ForOp loop, hls::ForOp hlsFor) {
  Location loc = loop.getLoc();
  directives::LoopAttr directive = directives::getLoop(loop);
  if (directive.isPipelined())
    hls::PragmaPipelineOp::create(*builder, loc, /*off=*/false,
                                  builder->getI64IntegerAttr(directive.getIi()));
  if (int64_t factor = directive.getUnroll(); factor != 1) {
    uint64_t tripCount = hlsFor.getTripCount();
    if (factor > 0 && uint64_t(factor) > tripCount)
      return loop.emitOpError() << "unroll factor " << factor << " of " << directive
                                << " exceeds the trip count " << tripCount;
    // Factor 0 means full unrolling: the pragma without a factor.
    hls::PragmaUnrollOp::create(*builder, loc,
                                factor == 0 ? IntegerAttr() : builder->getI64IntegerAttr(factor));
  }
  return success();
}

LogicalResult ProcessLowering::lowerIf(scf::IfOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> vars;
  for (Type type : op.getResultTypes()) {
    FailureOr<Value> var = createVar(loc, type, Value(), op);
    if (failed(var))
      return failure();
    vars.push_back(*var);
  }
  bool withElse = !op.getElseRegion().empty();
  auto hlsIf = hls::IfOp::create(*builder, loc, mapping.lookup(op.getCondition()), withElse);
  auto lowerBranch = [&](Block &source, Block *target) -> LogicalResult {
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPoint(target->getTerminator());
    if (failed(lowerBlock(source)))
      return failure();
    assignYielded(source, vars);
    return success();
  };
  if (failed(lowerBranch(op.getThenRegion().front(), hlsIf.getThenBlock())))
    return failure();
  if (withElse && failed(lowerBranch(op.getElseRegion().front(), hlsIf.getElseBlock())))
    return failure();
  for (auto [result, var] : llvm::zip_equal(op.getResults(), vars))
    if (!result.use_empty())
      mapping.map(result, readVar(loc, var, result.getType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// ARRAY_PARTITION pragmas of the buffer's #ming.partition (the dialect's
/// verifier checked it against the buffer's type): the DSE's cyclic banks,
/// then the complete dimensions. `done` holds dim (complete) or -dim (cyclic)
/// once emitted, for a ROM read through several memref.get_global ops.
void ProcessLowering::addPartitions(Operation *op, Value array,
                                    llvm::SmallDenseSet<int64_t> &done) {
  directives::PartitionAttr partition = directives::getPartition(op);
  ArrayRef<int64_t> cyclic = partition.getCyclic();
  for (size_t i = 0; i < cyclic.size(); i += 2) {
    int64_t dim = cyclic[i], factor = cyclic[i + 1];
    if (done.insert(-dim).second)
      hls::PragmaArrayPartitionOp::create(*builder, op->getLoc(), array,
                                          hls::PartitionKind::Cyclic,
                                          builder->getI64IntegerAttr(factor), dim);
  }
  for (int64_t dim : partition.getComplete())
    if (done.insert(dim).second)
      hls::PragmaArrayPartitionOp::create(*builder, op->getLoc(), array,
                                          hls::PartitionKind::Complete, IntegerAttr(), dim);
}

LogicalResult ProcessLowering::lowerAlloca(memref::AllocaOp op) {
  MemRefType type = op.getType();
  // A rank-0 buffer is a scalar: a C++ variable.
  if (type.getRank() == 0) {
    FailureOr<Value> var = createVar(op.getLoc(), type.getElementType(), Value(), op);
    if (failed(var))
      return failure();
    mapping.map(op.getResult(), *var);
    return success();
  }
  FailureOr<hls::ArrayType> arrayType = convertMemRef(type, op, "the buffer");
  if (failed(arrayType))
    return failure();
  Value array = hls::ArrayOp::create(*builder, op.getLoc(), *arrayType, /*rom=*/false,
                                     ElementsAttr());
  mapping.map(op.getResult(), array);
  llvm::SmallDenseSet<int64_t> done;
  addPartitions(op, array, done);
  return success();
}

/// A constant global (weights) becomes a `rom` array declared at the top of
/// each function that reads it, once per function.
LogicalResult ProcessLowering::lowerGetGlobal(memref::GetGlobalOp op) {
  StringRef name = op.getName();
  auto it = roms.find(name);
  if (it == roms.end()) {
    memref::GlobalOp global = globals.lookup(name);
    if (!global)
      return op.emitOpError("references @") << name << ", which is not a memref.global of the module";
    std::optional<Attribute> init = global.getInitialValue();
    if (!global.getConstant() || !init ||
        !isa<DenseElementsAttr, DenseResourceElementsAttr>(*init))
      return op.emitOpError("reads @")
             << name
             << ", but only constant globals with a dense or dense_resource initial value "
                "(weights) are supported";
    FailureOr<hls::ArrayType> arrayType = convertMemRef(global.getType(), op, "the global");
    if (failed(arrayType))
      return failure();
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPointAfter(romInsertPoint);
    auto array = hls::ArrayOp::create(*builder, global.getLoc(), *arrayType, /*rom=*/true,
                                      cast<ElementsAttr>(*init));
    it = roms.try_emplace(name, Rom{array, {}}).first;
    romInsertPoint = array;
  }
  // Partition pragmas follow the ROM's declaration (and its earlier pragmas).
  OpBuilder::InsertionGuard guard(*builder);
  builder->setInsertionPointAfter(romInsertPoint);
  addPartitions(op, it->second.array, it->second.partitioned);
  romInsertPoint = &*std::prev(builder->getInsertionPoint());
  mapping.map(op.getResult(), it->second.array);
  return success();
}

LogicalResult ProcessLowering::lowerLoad(memref::LoadOp op) {
  Value memory = mapping.lookup(op.getMemref());
  if (isa<hls::VarType>(memory.getType())) {
    mapping.map(op.getResult(), readVar(op.getLoc(), memory, op.getType()));
    return success();
  }
  SmallVector<Value> indices = llvm::map_to_vector(
      op.getIndices(), [&](Value index) { return mapping.lookup(index); });
  Value value = hls::LoadOp::create(*builder, op.getLoc(), op.getType(), memory, indices);
  mapping.map(op.getResult(), value);
  return success();
}

LogicalResult ProcessLowering::lowerStore(memref::StoreOp op) {
  Value memory = mapping.lookup(op.getMemref());
  Value value = mapping.lookup(op.getValueToStore());
  if (isa<hls::VarType>(memory.getType())) {
    writeVar(op.getLoc(), value, memory);
    return success();
  }
  if (auto array = memory.getDefiningOp<hls::ArrayOp>(); array && array.getRom())
    return op.emitOpError("stores into a constant global; weights are read-only");
  SmallVector<Value> indices = llvm::map_to_vector(
      op.getIndices(), [&](Value index) { return mapping.lookup(index); });
  hls::StoreOp::create(*builder, op.getLoc(), value, memory, indices);
  return success();
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

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

static std::optional<int64_t> constantTripCount(scf::ForOp loop) {
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

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

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
static LogicalResult lowerGraph(dfg::GraphOp graph, OpBuilder &b,
                                const llvm::StringMap<dfg::ProcessOp> &processes) {
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
  // control go through the AXI-Lite control port.
  StringAttr control = b.getStringAttr("control");
  for (auto [i, arg] : llvm::enumerate(entry->getArguments())) {
    int64_t numElements = cast<hls::ArrayType>(arg.getType()).getNumElements();
    hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::MAxi, arg,
                                   b.getStringAttr("gmem" + Twine(i)),
                                   b.getI64IntegerAttr(numElements));
    hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::SAxiLite, arg, control,
                                   IntegerAttr());
  }
  hls::PragmaInterfaceOp::create(b, loc, hls::InterfaceMode::SAxiLite, Value(), control,
                                 IntegerAttr());
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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertDfgToEmitHLS : ming::impl::ConvertDfgToEmitHLSBase<ConvertDfgToEmitHLS> {
  void runOnOperation() override {
    if (failed(convert(getOperation())))
      signalPassFailure();
  }

  static LogicalResult convert(ModuleOp module) {
    llvm::StringMap<memref::GlobalOp> globals;
    llvm::StringMap<dfg::ProcessOp> processByName;
    SmallVector<dfg::ProcessOp> processes;
    SmallVector<dfg::GraphOp> graphs;
    for (Operation &op : *module.getBody()) {
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        globals[global.getSymName()] = global;
      else if (auto process = dyn_cast<dfg::ProcessOp>(op)) {
        processes.push_back(process);
        processByName[process.getSymName()] = process;
      }
      else if (auto graph = dyn_cast<dfg::GraphOp>(op))
        graphs.push_back(graph);
      else
        return op.emitOpError("is not supported at module level; the module must hold "
                              "memref.global constants, dfg.process ops and one dfg.graph");
    }
    if (graphs.empty())
      return module.emitOpError("holds no dfg.graph; exactly one is needed for the top function");
    if (graphs.size() > 1)
      return graphs[1].emitOpError("is a second dfg.graph; exactly one is supported (the top "
                                   "function), the first is @")
             << graphs[0].getSymName();

    // New functions go after the old ops, processes first and the top last;
    // the dfg ops and globals are erased once everything is built.
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    for (dfg::ProcessOp process : processes)
      if (failed(ProcessLowering(globals).lower(process, b)))
        return failure();
    if (failed(lowerGraph(graphs[0], b, processByName)))
      return failure();

    graphs[0]->erase();
    for (dfg::ProcessOp process : processes)
      process->erase();
    for (auto &entry : globals)
      entry.second->erase();
    return success();
  }
};
} // namespace
