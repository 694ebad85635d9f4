// emitHLS dialect: operations, their parsers and verifiers.
#include "ming/EmitHLS/EmitHLS.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace ming::emithls;

#define GET_OP_CLASSES
#include "ming/EmitHLS/EmitHLSOps.cpp.inc"

//===----------------------------------------------------------------------===//
// FuncOp / ReturnOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(p, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

/// C++ argument kinds: scalars by value, arrays and pointers (memory ports),
/// streams by reference. A C++ function returns at most one scalar.
LogicalResult FuncOp::verify() {
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

LogicalResult ReturnOp::verify() {
  auto func = (*this)->getParentOfType<FuncOp>();
  ArrayRef<Type> results = func.getResultTypes();
  if (results.empty() && getValue())
    return emitOpError("returns a value from a function declared void");
  if (!results.empty() && (!getValue() || getValue().getType() != results.front()))
    return emitOpError("must return a value of type ") << results.front();
  return success();
}
