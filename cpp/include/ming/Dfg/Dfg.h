// The dfg dialect: Kahn process networks of streaming kernels (td/ming/Dfg).
#ifndef MING_DFG_DFG_H
#define MING_DFG_DFG_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include "ming/Dfg/DfgDialect.h.inc"
#include "ming/Dfg/DfgEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ming/Dfg/DfgAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ming/Dfg/DfgTypes.h.inc"

#define GET_OP_CLASSES
#include "ming/Dfg/DfgOps.h.inc"

#endif
