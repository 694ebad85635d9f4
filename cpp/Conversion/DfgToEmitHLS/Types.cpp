// The types of convert-dfg-to-emithls: memrefs become C++ arrays, channel
// ends hls::streams (of packed words with several lanes), and the port list
// of a process or graph a function signature. Shared by the process bodies
// and the top function, so kept apart from both.
#include "Lowering.h"

namespace ming::tohls {

/// A statically shaped, row-major memref of rank >= 1 becomes a C++ array.
FailureOr<hls::ArrayType> convertMemRef(MemRefType type, Operation *where,
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
FailureOr<hls::StreamType> convertChannelEnd(Type elementType, unsigned lanes,
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

FailureOr<FunctionType> convertSignature(FunctionOpInterface op) {
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
LogicalResult checkCName(Operation *op, StringRef name) {
  if (hls::isCIdentifier(name))
    return success();
  return op->emitOpError("name '") << name
                                   << "' is not a valid C identifier, so it cannot name an "
                                      "HLS function";
}

} // namespace ming::tohls
