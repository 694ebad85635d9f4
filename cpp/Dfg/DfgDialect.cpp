// dfg dialect: registration, types and attributes.
#include "ming/Dfg/Dfg.h"
#include "ming/Directives/Directives.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ming::dfg;

#include "ming/Dfg/DfgDialect.cpp.inc"
#include "ming/Dfg/DfgEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ming/Dfg/DfgAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ming/Dfg/DfgTypes.cpp.inc"

void DfgDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ming/Dfg/DfgAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ming/Dfg/DfgTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ming/Dfg/DfgOps.cpp.inc"
      >();
}

/// Channels carry scalars that become C++ scalar types in HLS.
static LogicalResult verifyPort(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, unsigned lanes) {
  if (!isa<IntegerType, FloatType, IndexType>(elementType))
    return emitError() << "channel element type must be an integer or float, got "
                       << elementType;
  if (lanes == 0)
    return emitError() << "a channel needs at least one lane";
  return success();
}

LogicalResult InputType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, unsigned lanes) {
  return verifyPort(emitError, elementType, lanes);
}

LogicalResult OutputType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type elementType, unsigned lanes) {
  return verifyPort(emitError, elementType, lanes);
}
