// emitHLS dialect: registration, types and attributes.
#include "ming/EmitHLS/EmitHLS.h"
#include "ming/Directives/Directives.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ming::emithls;

/// `3x32xi8`: a static shape followed by the element type.
static ParseResult parseShape(AsmParser &parser, SmallVector<int64_t> &shape, Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape, Type elementType) {
  for (int64_t d : shape)
    printer << d << 'x';
  printer << elementType;
}

#include "ming/EmitHLS/EmitHLSDialect.cpp.inc"
#include "ming/EmitHLS/EmitHLSEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ming/EmitHLS/EmitHLSAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ming/EmitHLS/EmitHLSTypes.cpp.inc"

void EmitHLSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ming/EmitHLS/EmitHLSAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ming/EmitHLS/EmitHLSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ming/EmitHLS/EmitHLSOps.cpp.inc"
      >();
}

/// Streams, arrays, pointers and variables hold C++ scalars (int8_t, ap_int<N>,
/// float, ...): builtin integers and floats.
static LogicalResult verifyScalar(function_ref<InFlightDiagnostic()> emitError, Type type,
                                  StringRef what) {
  if (!isa<IntegerType, FloatType>(type))
    return emitError() << what << " element type must be an integer or float, got " << type;
  return success();
}

/// Streams and variables may also hold a packed word of L scalars,
/// `vector<LxT>` (hls::vector<T, L>): one dimension, static, not scalable.
static LogicalResult verifyScalarOrWord(function_ref<InFlightDiagnostic()> emitError, Type type,
                                        StringRef what) {
  auto word = dyn_cast<VectorType>(type);
  if (!word)
    return verifyScalar(emitError, type, what);
  if (word.getRank() != 1 || word.isScalable())
    return emitError() << what
                       << " word type must be a one-dimensional, fixed-size vector<LxT>, got "
                       << type;
  return verifyScalar(emitError, word.getElementType(), (what + " word").str());
}

LogicalResult StreamType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType) {
  return verifyScalarOrWord(emitError, elementType, "stream");
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType) {
  return verifyScalar(emitError, elementType, "pointer");
}

LogicalResult VarType::verify(function_ref<InFlightDiagnostic()> emitError, Type elementType) {
  return verifyScalarOrWord(emitError, elementType, "variable");
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "an array needs at least one dimension";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "array dimensions must be positive, got " << d;
  return verifyScalar(emitError, elementType, "array");
}

Type ming::emithls::getMemoryElementType(Type type) {
  if (auto array = dyn_cast<ArrayType>(type))
    return array.getElementType();
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getElementType();
  if (auto var = dyn_cast<VarType>(type))
    if (auto word = dyn_cast<VectorType>(var.getElementType()))
      return word.getElementType();
  return type;
}

bool ming::emithls::isCIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}
