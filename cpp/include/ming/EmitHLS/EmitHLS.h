// The emitHLS dialect: Vitis HLS C++, one op per construct (td/ming/EmitHLS).
#ifndef MING_EMITHLS_EMITHLS_H
#define MING_EMITHLS_EMITHLS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ming/EmitHLS/EmitHLSDialect.h.inc"
#include "ming/EmitHLS/EmitHLSEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ming/EmitHLS/EmitHLSAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ming/EmitHLS/EmitHLSTypes.h.inc"

namespace ming::emithls {

/// The element type of an !emitHLS.array or !emitHLS.ptr, or the scalar of
/// an !emitHLS.var<vector<LxT>> (a packed word); any other type is
/// returned unchanged, so type inference never fails and the verifier can
/// report the wrong type instead.
mlir::Type getMemoryElementType(mlir::Type type);

/// True for a C identifier: [A-Za-z_][A-Za-z0-9_]*. Function names, loop
/// labels and AXI bundle names are printed verbatim into the C++.
bool isCIdentifier(llvm::StringRef name);

} // namespace ming::emithls

#define GET_OP_CLASSES
#include "ming/EmitHLS/EmitHLSOps.h.inc"

#endif
