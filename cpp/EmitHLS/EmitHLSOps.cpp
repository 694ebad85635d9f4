// emitHLS dialect: operations, their parsers and verifiers (pragmas live in
// EmitHLSPragmas.cpp).
#include "ming/EmitHLS/EmitHLS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "ming/Support/FunctionLike.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace ming::emithls;

#define GET_OP_CLASSES
#include "ming/EmitHLS/EmitHLSOps.cpp.inc"

/// `2x3` for a shape, as in the type syntax.
static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(shape, os, "x");
  return s;
}

//===----------------------------------------------------------------------===//
// FuncOp / ReturnOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  return ming::parseFunctionLike<FuncOp>(parser, result);
}

void FuncOp::print(OpAsmPrinter &p) { ming::printFunctionLike(*this, p); }

/// C++ argument kinds: scalars by value, arrays and pointers (memory ports),
/// streams by reference. A C++ function returns at most one scalar.
LogicalResult FuncOp::verify() {
  if (!isCIdentifier(getSymName()))
    return emitOpError("name '") << getSymName() << "' is not a valid C identifier";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<IntegerType, FloatType, ArrayType, PointerType, StreamType>(type))
      return emitOpError("argument #")
             << i << " must be a scalar, !emitHLS.array, !emitHLS.ptr or !emitHLS.stream, got "
             << type;
  if (getResultTypes().size() > 1)
    return emitOpError("a C++ function returns at most one value, got ")
           << getResultTypes().size();
  for (Type type : getResultTypes())
    if (!isa<IntegerType, FloatType>(type))
      return emitOpError("the result must be a scalar, got ") << type;
  return success();
}

/// C++ labels have function scope, and HLS reports name loops by label.
LogicalResult FuncOp::verifyRegions() {
  llvm::StringMap<ForOp> labels;
  WalkResult result = walk<WalkOrder::PreOrder>([&](ForOp loop) {
    std::optional<StringRef> label = loop.getLabel();
    if (!label || labels.try_emplace(*label, loop).second)
      return WalkResult::advance();
    loop.emitOpError("label '") << *label << "' is already used by another loop of '"
                                << getSymName() << "'";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult ReturnOp::verify() {
  auto func = (*this)->getParentOfType<FuncOp>();
  ArrayRef<Type> results = func.getResultTypes();
  if (results.empty() && getValue())
    return emitOpError("returns a value from a function declared void");
  if (!results.empty() && (!getValue() || getValue().getType() != results.front()))
    return emitOpError("must return a value of type ") << results.front();
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee = symbolTable.lookupNearestSymbolFrom(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'@") << getCallee() << "' does not reference a symbol";
  auto func = dyn_cast<FuncOp>(callee);
  if (!func)
    return emitOpError("'@") << getCallee() << "' is a '" << callee->getName()
                             << "', not an emitHLS.func";
  if (func == (*this)->getParentOfType<FuncOp>())
    return emitOpError("'@") << getCallee()
                             << "' calls itself: HLS cannot synthesise recursion";
  ArrayRef<Type> params = func.getArgumentTypes();
  if (params.size() != getOperands().size())
    return emitOpError("'@") << getCallee() << "' takes " << params.size()
                             << " arguments, but " << getOperands().size()
                             << " operands were given";
  for (auto [i, param, operand] : llvm::enumerate(params, getOperands().getTypes()))
    if (param != operand)
      return emitOpError("operand #") << i << " has type " << operand << ", but argument #"
                                      << i << " of '@" << getCallee() << "' has type "
                                      << param;
  ArrayRef<Type> results = func.getResultTypes();
  if (results.size() != (*this)->getNumResults())
    return emitOpError("'@") << getCallee() << "' returns " << results.size()
                             << " values, but the call has " << (*this)->getNumResults()
                             << " results";
  if (!results.empty() && results.front() != getResult().getType())
    return emitOpError("result has type ") << getResult().getType() << ", but '@"
                                           << getCallee() << "' returns "
                                           << results.front();
  return success();
}

//===----------------------------------------------------------------------===//
// ArrayOp
//===----------------------------------------------------------------------===//

LogicalResult ArrayOp::verify() {
  ArrayType type = getType();
  std::optional<ElementsAttr> init = getInit();
  if (getRom() && !init)
    return emitOpError("a rom array is const and needs an initialiser");
  if (!init)
    return success();
  // Only these two are printed as C initialiser lists (dense) or external
  // weight data (dense_resource).
  if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(*init))
    return emitOpError("initialiser must be a dense<...> or dense_resource<...> attribute");
  ShapedType initType = init->getShapedType();
  if (initType.getShape() != type.getShape())
    return emitOpError("initialiser shape ")
           << shapeString(initType.getShape()) << " does not match the array shape "
           << shapeString(type.getShape());
  if (initType.getElementType() != type.getElementType())
    return emitOpError("initialiser element type ")
           << initType.getElementType() << " does not match the array element type "
           << type.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(OpBuilder &builder, OperationState &result, int64_t lowerBound,
                  int64_t upperBound, int64_t step, StringRef label) {
  result.addAttribute(getLowerBoundAttrName(result.name), builder.getI64IntegerAttr(lowerBound));
  result.addAttribute(getUpperBoundAttrName(result.name), builder.getI64IntegerAttr(upperBound));
  result.addAttribute(getStepAttrName(result.name), builder.getI64IntegerAttr(step));
  if (!label.empty())
    result.addAttribute(getLabelAttrName(result.name), builder.getStringAttr(label));
  OpBuilder::InsertionGuard guard(builder);
  Region *body = result.addRegion();
  builder.createBlock(body, {}, {builder.getIndexType()}, {result.location});
  YieldOp::create(builder, result.location);
}

/// emitHLS.for %i = LB to UB step S [label "name"] [attributes {...}] { ... }
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  OpAsmParser::Argument iv;
  int64_t lowerBound, upperBound, step;
  if (parser.parseArgument(iv) || parser.parseEqual() || parser.parseInteger(lowerBound) ||
      parser.parseKeyword("to") || parser.parseInteger(upperBound) ||
      parser.parseKeyword("step") || parser.parseInteger(step))
    return failure();
  result.addAttribute(getLowerBoundAttrName(result.name), builder.getI64IntegerAttr(lowerBound));
  result.addAttribute(getUpperBoundAttrName(result.name), builder.getI64IntegerAttr(upperBound));
  result.addAttribute(getStepAttrName(result.name), builder.getI64IntegerAttr(step));
  if (succeeded(parser.parseOptionalKeyword("label"))) {
    std::string label;
    if (parser.parseString(&label))
      return failure();
    result.addAttribute(getLabelAttrName(result.name), builder.getStringAttr(label));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  iv.type = builder.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ensureTerminator(*body, builder, result.location);
  return success();
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLowerBoundAttr().getInt() << " to "
    << getUpperBoundAttr().getInt() << " step " << getStepAttr().getInt();
  if (std::optional<StringRef> label = getLabel()) {
    p << " label ";
    p.printString(*label);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getLowerBoundAttrName(), getUpperBoundAttrName(),
                                      getStepAttrName(), getLabelAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false, /*printBlockTerminators=*/false);
}

/// The C++ loop is `for (int i = lb; i < ub; i += step)`: it must count up
/// and terminate.
LogicalResult ForOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("body must take exactly one index argument (the induction variable)");
  int64_t lowerBound = getLowerBoundAttr().getInt();
  int64_t upperBound = getUpperBoundAttr().getInt();
  int64_t step = getStepAttr().getInt();
  if (step <= 0)
    return emitOpError("step must be positive, got ") << step;
  if (lowerBound > upperBound)
    return emitOpError("lower bound ") << lowerBound << " exceeds upper bound " << upperBound;
  if (std::optional<StringRef> label = getLabel(); label && !isCIdentifier(*label))
    return emitOpError("label '") << *label << "' is not a valid C identifier";
  return success();
}

uint64_t ForOp::getTripCount() {
  int64_t lowerBound = getLowerBoundAttr().getInt();
  int64_t upperBound = getUpperBoundAttr().getInt();
  int64_t step = getStepAttr().getInt();
  if (upperBound <= lowerBound || step <= 0)
    return 0;
  // Unsigned arithmetic: ub - lb may not fit in int64_t.
  uint64_t span = uint64_t(upperBound) - uint64_t(lowerBound);
  return span / uint64_t(step) + (span % uint64_t(step) != 0);
}

SmallVector<Region *> ForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{
      Builder(getContext()).getIndexAttr(getLowerBoundAttr().getInt())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{
      Builder(getContext()).getIndexAttr(getUpperBoundAttr().getInt())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{Builder(getContext()).getIndexAttr(getStepAttr().getInt())};
}

std::optional<APInt> ForOp::getStaticTripCount() { return APInt(64, getTripCount()); }

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &result, Value condition, bool withElse) {
  result.addOperands(condition);
  OpBuilder::InsertionGuard guard(builder);
  Region *thenRegion = result.addRegion();
  builder.createBlock(thenRegion);
  YieldOp::create(builder, result.location);
  Region *elseRegion = result.addRegion();
  if (withElse) {
    builder.createBlock(elseRegion);
    YieldOp::create(builder, result.location);
  }
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// `a[i][j]` needs one subscript per array dimension; a pointer is flat.
static LogicalResult verifySubscripts(Operation *op, Type memory, size_t numIndices) {
  if (auto array = dyn_cast<ArrayType>(memory)) {
    size_t rank = array.getShape().size();
    if (numIndices != rank)
      return op->emitOpError("needs ") << rank << " indices, one per dimension of " << memory
                                       << ", got " << numIndices;
    return success();
  }
  if (numIndices != 1)
    return op->emitOpError("needs exactly one index into ")
           << (isa<PointerType>(memory) ? "a pointer" : "a word variable") << ", got "
           << numIndices;
  return success();
}

LogicalResult LoadOp::verify() {
  return verifySubscripts(*this, getMemref().getType(), getIndices().size());
}

LogicalResult StoreOp::verify() {
  if (failed(verifySubscripts(*this, getMemref().getType(), getIndices().size())))
    return failure();
  if (auto array = getMemref().getDefiningOp<ArrayOp>(); array && array.getRom())
    return emitOpError("cannot store into a rom array: it is const");
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  Type from = getInput().getType(), to = getResult().getType();
  if (!isa<IntegerType, FloatType>(from) || !isa<IntegerType, FloatType>(to))
    return emitOpError("casts between integer and float scalars only, got ")
           << from << " to " << to;
  if (from == to)
    return emitOpError("casts ") << from << " to itself; a cast must change the type";
  return success();
}
