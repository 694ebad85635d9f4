// The func.func syntax for function-like ops of our dialects (dfg.graph,
// dfg.process, emitHLS.func): `@name(%arg: T, ...) -> R attributes {...} {...}`.
#ifndef MING_SUPPORT_FUNCTIONLIKE_H
#define MING_SUPPORT_FUNCTIONLIKE_H

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionImplementation.h"

namespace ming {

template <typename OpTy>
mlir::ParseResult parseFunctionLike(mlir::OpAsmParser &parser, mlir::OperationState &result) {
  auto buildFuncType = [](mlir::Builder &builder, llvm::ArrayRef<mlir::Type> argTypes,
                          llvm::ArrayRef<mlir::Type> results,
                          mlir::function_interface_impl::VariadicFlag,
                          std::string &) { return builder.getFunctionType(argTypes, results); };
  return mlir::function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, OpTy::getFunctionTypeAttrName(result.name),
      buildFuncType, OpTy::getArgAttrsAttrName(result.name), OpTy::getResAttrsAttrName(result.name));
}

template <typename OpTy>
void printFunctionLike(OpTy op, mlir::OpAsmPrinter &p) {
  mlir::function_interface_impl::printFunctionOp(p, op, /*isVariadic=*/false,
                                                 op.getFunctionTypeAttrName(),
                                                 op.getArgAttrsAttrName(), op.getResAttrsAttrName());
}

} // namespace ming

#endif
