// dfg dialect: operations, their parsers and verifiers.
#include "ming/Dfg/Dfg.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "ming/Support/FunctionLike.h"

using namespace mlir;
using namespace ming::dfg;

#define GET_OP_CLASSES
#include "ming/Dfg/DfgOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Function-like ops (graph, process) share the func.func syntax.
//===----------------------------------------------------------------------===//

/// Shared checks: a function-like dfg op returns nothing and has a body.
static LogicalResult verifyFunctionLike(Operation *op, FunctionType type) {
  if (type.getNumResults() != 0)
    return op->emitOpError("returns nothing; results are written through memref "
                           "arguments or output ports");
  return success();
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  return ming::parseFunctionLike<GraphOp>(parser, result);
}
void GraphOp::print(OpAsmPrinter &p) { ming::printFunctionLike(*this, p); }

RegionKind GraphOp::getRegionKind(unsigned) { return RegionKind::Graph; }

LogicalResult GraphOp::verify() {
  if (failed(verifyFunctionLike(*this, getFunctionType())))
    return failure();
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<MemRefType>(type))
      return emitOpError("argument #") << i << " must be a memref (external memory), got "
                                      << type;
  return success();
}

LogicalResult GraphOp::verifyRegions() {
  for (Operation &op : getBody().front())
    if (!isa<ChannelOp, InstantiateOp>(op))
      return op.emitOpError("is not allowed in a dfg.graph, which holds only "
                            "dfg.channel and dfg.instantiate");
  return success();
}

ParseResult ProcessOp::parse(OpAsmParser &parser, OperationState &result) {
  return ming::parseFunctionLike<ProcessOp>(parser, result);
}
void ProcessOp::print(OpAsmPrinter &p) { ming::printFunctionLike(*this, p); }

LogicalResult ProcessOp::verify() {
  if (failed(verifyFunctionLike(*this, getFunctionType())))
    return failure();
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<InputType, OutputType, MemRefType>(type))
      return emitOpError("port #") << i
                                   << " must be a channel end (!dfg.in, !dfg.out) or a "
                                      "memref of external memory, got "
                                   << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ChannelOp
//===----------------------------------------------------------------------===//

LogicalResult ChannelOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto elemAttr = adaptor.getElementTypeAttr();
  auto lanesAttr = adaptor.getLanesAttr();
  if (!elemAttr || !lanesAttr)
    return failure();
  auto emitError = mlir::detail::getDefaultDiagnosticEmitFn(loc ? *loc : UnknownLoc::get(ctx));
  int64_t lanes = lanesAttr.getInt();
  if (lanes < 1)
    return emitError() << "a channel needs at least one lane, got " << lanes;
  unsigned n = static_cast<unsigned>(lanes);
  Type out = OutputType::getChecked(emitError, ctx, elemAttr.getValue(), n);
  Type in = InputType::getChecked(emitError, ctx, elemAttr.getValue(), n);
  if (!out || !in)
    return failure();
  types.push_back(out);
  types.push_back(in);
  return success();
}

/// Kahn networks need point-to-point channels: one writer, one reader.
LogicalResult ChannelOp::verify() {
  auto count = [](Value v) { return std::distance(v.use_begin(), v.use_end()); };
  if (int64_t n = count(getWrite()); n != 1)
    return emitOpError("must have exactly one producer (an instance taking its "
                       "!dfg.out end), found ")
           << n;
  if (int64_t n = count(getRead()); n != 1)
    return emitOpError("must have exactly one consumer (an instance taking its "
                       "!dfg.in end), found ")
           << n;
  return success();
}

//===----------------------------------------------------------------------===//
// InstantiateOp
//===----------------------------------------------------------------------===//

LogicalResult InstantiateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee = symbolTable.lookupNearestSymbolFrom(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << getCalleeAttr() << " does not reference a symbol";
  auto process = dyn_cast<ProcessOp>(callee);
  if (!process)
    return emitOpError() << getCalleeAttr() << " is a '" << callee->getName()
                         << "', not a dfg.process";
  ArrayRef<Type> ports = process.getArgumentTypes();
  if (ports.size() != getPorts().size())
    return emitOpError("process ") << getCalleeAttr() << " has " << ports.size()
                                    << " ports, but " << getPorts().size()
                                    << " operands were given";
  for (auto [i, port, operand] : llvm::enumerate(ports, getPorts().getTypes()))
    if (port != operand)
      return emitOpError("operand #")
             << i << " has type " << operand << ", but port #" << i << " of "
             << getCalleeAttr() << " has type " << port;
  return success();
}

//===----------------------------------------------------------------------===//
// PullOp / PushOp
//===----------------------------------------------------------------------===//

/// A lane index selects one of several parallel FIFOs; with one lane there is
/// nothing to select. Without an index on a multi-lane port the elements go
/// round robin (element k on lane k mod lanes), so widening a channel keeps
/// the process body unchanged.
static LogicalResult verifyLane(Operation *op, unsigned lanes, Value lane) {
  if (lanes == 1 && lane)
    return op->emitOpError("has a lane index, but the port has a single lane");
  return success();
}

LogicalResult PullOp::verify() {
  return verifyLane(*this, getPort().getType().getLanes(), getLane());
}

LogicalResult PushOp::verify() {
  return verifyLane(*this, getPort().getType().getLanes(), getLane());
}
