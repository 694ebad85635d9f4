// emitHLS dialect: verifiers of the pragma ops. Each pragma is one
// `#pragma HLS ...` line, so each check below rejects a line Vitis HLS would
// reject, ignore or apply twice.
#include "ming/EmitHLS/EmitHLS.h"

using namespace mlir;
using namespace ming::emithls;

/// The nearest earlier op of type OpTy in the same block that `match`es, or
/// null. Only earlier ones: a repeated pragma is reported once, on the repeat.
template <typename OpTy>
static OpTy findEarlier(Operation *op, function_ref<bool(OpTy)> match = nullptr) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
    if (auto other = dyn_cast<OpTy>(prev); other && (!match || match(other)))
      return other;
  return {};
}

/// Loop and function pragmas describe their whole body: a second one would
/// contradict or duplicate the first.
template <typename OpTy>
static LogicalResult verifyOncePerBody(OpTy op) {
  if (findEarlier<OpTy>(op))
    return op.emitOpError("repeats an earlier ")
           << OpTy::getOperationName() << " in the same body";
  return success();
}

//===----------------------------------------------------------------------===//
// Function and loop pragmas
//===----------------------------------------------------------------------===//

LogicalResult PragmaDataflowOp::verify() { return verifyOncePerBody(*this); }

LogicalResult PragmaInlineOp::verify() { return verifyOncePerBody(*this); }

LogicalResult PragmaPipelineOp::verify() {
  std::optional<int64_t> ii;
  if (IntegerAttr attr = getIiAttr())
    ii = attr.getInt();
  if (getOff() && ii)
    return emitOpError("pipeline off takes no II");
  if (ii && *ii < 1)
    return emitOpError("II must be at least 1, got ") << *ii;
  if (failed(verifyOncePerBody(*this)))
    return failure();
  // A dataflow function runs its processes concurrently; pipelining it
  // instead would contradict the dataflow pragma.
  Block *body = (*this)->getBlock();
  if (isa<FuncOp>((*this)->getParentOp()) &&
      llvm::any_of(*body, [](Operation &op) { return isa<PragmaDataflowOp>(op); }))
    return emitOpError("cannot pipeline a dataflow function");
  return success();
}

LogicalResult PragmaUnrollOp::verify() {
  if (IntegerAttr attr = getFactorAttr()) {
    int64_t factor = attr.getInt();
    if (factor < 1)
      return emitOpError("unroll factor must be at least 1, got ") << factor;
    uint64_t tripCount = cast<ForOp>((*this)->getParentOp()).getTripCount();
    if (uint64_t(factor) > tripCount)
      return emitOpError("unroll factor ")
             << factor << " exceeds the trip count " << tripCount << " of the enclosing loop";
  }
  return verifyOncePerBody(*this);
}

LogicalResult PragmaDependenceOp::verify() {
  int64_t distance = getDistanceAttr().getInt();
  if (distance < 1)
    return emitOpError("distance must be at least 1, got ") << distance;
  if (findEarlier<PragmaDependenceOp>(
          *this, [&](PragmaDependenceOp other) { return other.getArray() == getArray(); }))
    return emitOpError("repeats an earlier ") << getOperationName() << " of the same array";
  return success();
}

LogicalResult PragmaLoopTripcountOp::verify() {
  int64_t min = getMinAttr().getInt(), max = getMaxAttr().getInt(), avg = getAvgAttr().getInt();
  if (min < 0)
    return emitOpError("min must be non-negative, got ") << min;
  if (min > avg || avg > max)
    return emitOpError("needs min <= avg <= max, got min = ")
           << min << ", avg = " << avg << ", max = " << max;
  return verifyOncePerBody(*this);
}

//===----------------------------------------------------------------------===//
// Variable pragmas
//===----------------------------------------------------------------------===//

LogicalResult PragmaArrayPartitionOp::verify() {
  ArrayRef<int64_t> shape = getArray().getType().getShape();
  int64_t rank = shape.size();
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim > rank)
    return emitOpError("dim ") << dim << " is out of range for a rank-" << rank
                               << " array (1.." << rank << ", or 0 for every dimension)";
  PartitionKind kind = getKind();
  IntegerAttr factorAttr = getFactorAttr();
  if (kind == PartitionKind::Complete) {
    if (factorAttr)
      return emitOpError("complete partitioning takes no factor");
  } else {
    StringRef name = stringifyPartitionKind(kind);
    if (!factorAttr)
      return emitOpError() << name << " partitioning needs a factor";
    int64_t factor = factorAttr.getInt();
    if (factor < 2)
      return emitOpError() << name << " partitioning needs a factor of at least 2, got "
                           << factor;
    // With dim = 0 the factor applies to every dimension.
    for (int64_t d = (dim == 0 ? 1 : dim); d <= (dim == 0 ? rank : dim); ++d)
      if (factor > shape[d - 1])
        return emitOpError("factor ")
               << factor << " exceeds the size " << shape[d - 1] << " of dimension " << d;
  }
  // Two partitions of the same dimension (or of all of them) conflict.
  if (findEarlier<PragmaArrayPartitionOp>(*this, [&](PragmaArrayPartitionOp other) {
        int64_t otherDim = other.getDimAttr().getInt();
        return other.getArray() == getArray() &&
               (otherDim == dim || otherDim == 0 || dim == 0);
      }))
    return emitOpError("overlaps an earlier ")
           << getOperationName() << " of the same array and dimension";
  return success();
}

/// An array that C++ only reads: a `rom` array, or an array argument that the
/// function never stores to nor hands to a call (which could store to it).
static bool isReadOnlyArray(Value value) {
  if (auto array = value.getDefiningOp<ArrayOp>())
    return array.getRom();
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !isa<FuncOp>(arg.getOwner()->getParentOp()))
    return false;
  return llvm::none_of(arg.getUsers(),
                       [](Operation *user) { return isa<StoreOp, CallOp>(user); });
}

LogicalResult PragmaBindStorageOp::verify() {
  StorageKind storage = getStorage();
  Type type = getVariable().getType();
  StringRef name = stringifyStorageKind(storage);
  bool isFifo = storage == StorageKind::Fifo;
  bool isRom = storage == StorageKind::Rom1P || storage == StorageKind::Rom2P ||
               storage == StorageKind::RomNP;
  if (isFifo && !isa<StreamType>(type))
    return emitOpError("fifo storage is only for streams, got ") << type;
  if (!isFifo && !isa<ArrayType>(type))
    return emitOpError() << name << " storage is only for arrays, got " << type;
  if (isRom && !isReadOnlyArray(getVariable()))
    return emitOpError() << name
                         << " storage needs a rom array or an array argument that is only "
                            "read (never stored to nor passed to a call)";
  // UltraScale+ UltraRAM has no initial contents the bitstream could set.
  if (isRom && getImpl() == StorageImpl::Uram)
    return emitOpError() << name << " storage cannot be uram: an UltraRAM has no initial contents";
  // Shift registers implement FIFOs only.
  if (getImpl() == StorageImpl::Srl && !isFifo)
    return emitOpError("impl srl is only for fifo storage");
  if (findEarlier<PragmaBindStorageOp>(
          *this, [&](PragmaBindStorageOp other) { return other.getVariable() == getVariable(); }))
    return emitOpError("repeats an earlier ") << getOperationName() << " of the same variable";
  return success();
}

LogicalResult PragmaStreamOp::verify() {
  int64_t depth = getDepthAttr().getInt();
  if (depth < 1)
    return emitOpError("depth must be at least 1, got ") << depth;
  if (findEarlier<PragmaStreamOp>(
          *this, [&](PragmaStreamOp other) { return other.getStream() == getStream(); }))
    return emitOpError("repeats an earlier ") << getOperationName() << " of the same stream";
  return success();
}

//===----------------------------------------------------------------------===//
// Interface pragma
//===----------------------------------------------------------------------===//

LogicalResult PragmaInterfaceOp::verify() {
  InterfaceMode mode = getMode();
  Value port = getPort();
  if (port) {
    auto arg = dyn_cast<BlockArgument>(port);
    if (!arg || arg.getOwner() != (*this)->getBlock() ||
        !isa<FuncOp>(arg.getOwner()->getParentOp()))
      return emitOpError("port must be an argument of the enclosing emitHLS.func");
    Type type = port.getType();
    if (mode == InterfaceMode::MAxi && !isa<PointerType, ArrayType>(type))
      return emitOpError("m_axi port must be an !emitHLS.ptr or !emitHLS.array, got ") << type;
    if (mode == InterfaceMode::Axis && !isa<StreamType>(type))
      return emitOpError("axis port must be an !emitHLS.stream, got ") << type;
    // On a pointer or array, s_axilite maps its base address (offset=slave).
    if (mode == InterfaceMode::SAxiLite && isa<StreamType>(type))
      return emitOpError("s_axilite port must be a scalar, !emitHLS.ptr or !emitHLS.array, got ")
             << type;
  } else if (mode != InterfaceMode::SAxiLite) {
    return emitOpError("port=return (no port) is only for s_axilite, not ")
           << stringifyInterfaceMode(mode);
  }
  if (std::optional<StringRef> bundle = getBundle()) {
    if (mode == InterfaceMode::Axis)
      return emitOpError("axis ports take no bundle");
    if (!isCIdentifier(*bundle))
      return emitOpError("bundle '") << *bundle << "' is not a valid C identifier";
  }
  if (IntegerAttr depthAttr = getDepthAttr()) {
    if (mode != InterfaceMode::MAxi)
      return emitOpError("depth is only for m_axi ports");
    if (depthAttr.getInt() < 1)
      return emitOpError("depth must be at least 1, got ") << depthAttr.getInt();
  }
  if (IntegerAttr widen = getMaxWidenBitwidthAttr()) {
    if (mode != InterfaceMode::MAxi)
      return emitOpError("max_widen_bitwidth is only for m_axi ports");
    int64_t bits = widen.getInt();
    if (bits < 8 || bits > 1024 || !llvm::isPowerOf2_64(bits))
      return emitOpError("max_widen_bitwidth must be a power of two from 8 to 1024, got ") << bits;
  }
  // A memory port takes both m_axi (data) and s_axilite (its base address).
  if (findEarlier<PragmaInterfaceOp>(*this, [&](PragmaInterfaceOp other) {
        return other.getPort() == port && other.getMode() == mode;
      }))
    return emitOpError("repeats an earlier ")
           << getOperationName() << " of the same port";
  return success();
}
