// The process bodies of convert-dfg-to-emithls: one emitHLS.func per
// dfg.process, rebuilt op by op (scalar ops, the C++ variables that carry
// loop and if results, loops with their pragmas, ifs). Memory and stream
// ops have files of their own (Memory.cpp, Lanes.cpp).
#include "Lowering.h"

#include "ming/Directives/Directives.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ming::tohls {

// The discardable attributes the directive defaults (and later the DSE) put
// on process bodies.

static constexpr StringLiteral kSupportedOps =
    "arith and math ops on scalars, scf.for with constant bounds, scf.if, scf.yield, "
    "memref.alloca/load/store/get_global, dfg.pull and dfg.push";

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
  // The distance of a read-modify-write, in iterations of the unrolled loop.
  // Closer than one iteration, Vitis chains the copies itself.
  if (auto distance = loop->getAttrOfType<IntegerAttr>(directives::kCarriedDistance)) {
    int64_t unroll = directive.getUnroll() == 0 ? int64_t(hlsFor.getTripCount()) : directive.getUnroll();
    int64_t apart = distance.getInt() / std::max<int64_t>(1, unroll);
    if (apart >= 1)
      for (Value buffer : directives::carriedBuffers(loop))
        if (Value array = mapping.lookupOrNull(buffer); array && isa<hls::ArrayType>(array.getType()))
          hls::PragmaDependenceOp::create(*builder, loc, array, builder->getI64IntegerAttr(apart));
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

} // namespace ming::tohls
