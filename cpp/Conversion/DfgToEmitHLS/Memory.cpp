// The memory of a process body in convert-dfg-to-emithls: local buffers
// become C++ arrays or variables, weights `rom` arrays declared once per
// function, each with the ARRAY_PARTITION pragmas of its #ming.partition,
// and loads and stores become subscripts.
#include "Lowering.h"

#include "ming/Directives/Directives.h"

namespace ming::tohls {

/// ARRAY_PARTITION pragmas of the buffer's #ming.partition (the dialect's
/// verifier checked it against the buffer's type): the DSE's cyclic banks
/// (complete where a factor reaches the dim's size), then the complete
/// dimensions. `done` holds dim (complete) or -dim (cyclic)
/// once emitted, for a ROM read through several memref.get_global ops.
void ProcessLowering::addPartitions(Operation *op, Value array,
                                    llvm::SmallDenseSet<int64_t> &done) {
  directives::PartitionAttr partition = directives::getPartition(op);
  ArrayRef<int64_t> cyclic = partition.getCyclic();
  auto type = cast<MemRefType>(op->getResult(0).getType());
  for (size_t i = 0; i < cyclic.size(); i += 2) {
    int64_t dim = cyclic[i], factor = cyclic[i + 1];
    // One bank: the DSE's record that it counted the reads as partitioned.
    if (factor <= 1)
      continue;
    // As many banks as elements along the dim: a complete partitioning.
    if (factor >= type.getDimSize(dim - 1)) {
      if (done.insert(dim).second)
        hls::PragmaArrayPartitionOp::create(*builder, op->getLoc(), array,
                                            hls::PartitionKind::Complete, IntegerAttr(), dim);
      continue;
    }
    if (done.insert(-dim).second)
      hls::PragmaArrayPartitionOp::create(*builder, op->getLoc(), array,
                                          hls::PartitionKind::Cyclic,
                                          builder->getI64IntegerAttr(factor), dim);
  }
  for (int64_t dim : partition.getComplete())
    if (done.insert(dim).second)
      hls::PragmaArrayPartitionOp::create(*builder, op->getLoc(), array,
                                          hls::PartitionKind::Complete, IntegerAttr(), dim);
}

LogicalResult ProcessLowering::lowerAlloca(memref::AllocaOp op) {
  MemRefType type = op.getType();
  // A rank-0 buffer is a scalar: a C++ variable.
  if (type.getRank() == 0) {
    FailureOr<Value> var = createVar(op.getLoc(), type.getElementType(), Value(), op);
    if (failed(var))
      return failure();
    mapping.map(op.getResult(), *var);
    return success();
  }
  FailureOr<hls::ArrayType> arrayType = convertMemRef(type, op, "the buffer");
  if (failed(arrayType))
    return failure();
  Value array = hls::ArrayOp::create(*builder, op.getLoc(), *arrayType, /*rom=*/false,
                                     ElementsAttr());
  mapping.map(op.getResult(), array);
  llvm::SmallDenseSet<int64_t> done;
  addPartitions(op, array, done);
  // The DSE's UltraRAM binding; two ports of any kind, as the cost model
  // counts for every memory.
  if (op->hasAttr(directives::kUram))
    hls::PragmaBindStorageOp::create(*builder, op.getLoc(), array, hls::StorageKind::RamT2P,
                                     hls::StorageImpl::Uram);
  return success();
}

/// A constant global (weights) becomes a `rom` array declared at the top of
/// each function that reads it, once per function.
LogicalResult ProcessLowering::lowerGetGlobal(memref::GetGlobalOp op) {
  StringRef name = op.getName();
  auto it = roms.find(name);
  if (it == roms.end()) {
    memref::GlobalOp global = globals.lookup(name);
    if (!global)
      return op.emitOpError("references @") << name << ", which is not a memref.global of the module";
    std::optional<Attribute> init = global.getInitialValue();
    if (!global.getConstant() || !init ||
        !isa<DenseElementsAttr, DenseResourceElementsAttr>(*init))
      return op.emitOpError("reads @")
             << name
             << ", but only constant globals with a dense or dense_resource initial value "
                "(weights) are supported";
    FailureOr<hls::ArrayType> arrayType = convertMemRef(global.getType(), op, "the global");
    if (failed(arrayType))
      return failure();
    OpBuilder::InsertionGuard guard(*builder);
    builder->setInsertionPointAfter(romInsertPoint);
    auto array = hls::ArrayOp::create(*builder, global.getLoc(), *arrayType, /*rom=*/true,
                                      cast<ElementsAttr>(*init));
    it = roms.try_emplace(name, Rom{array, {}}).first;
    romInsertPoint = array;
  }
  // Partition pragmas follow the ROM's declaration (and its earlier pragmas).
  OpBuilder::InsertionGuard guard(*builder);
  builder->setInsertionPointAfter(romInsertPoint);
  addPartitions(op, it->second.array, it->second.partitioned);
  romInsertPoint = &*std::prev(builder->getInsertionPoint());
  mapping.map(op.getResult(), it->second.array);
  return success();
}

LogicalResult ProcessLowering::lowerLoad(memref::LoadOp op) {
  Value memory = mapping.lookup(op.getMemref());
  if (isa<hls::VarType>(memory.getType())) {
    mapping.map(op.getResult(), readVar(op.getLoc(), memory, op.getType()));
    return success();
  }
  SmallVector<Value> indices = llvm::map_to_vector(
      op.getIndices(), [&](Value index) { return mapping.lookup(index); });
  Value value = hls::LoadOp::create(*builder, op.getLoc(), op.getType(), memory, indices);
  mapping.map(op.getResult(), value);
  return success();
}

LogicalResult ProcessLowering::lowerStore(memref::StoreOp op) {
  Value memory = mapping.lookup(op.getMemref());
  Value value = mapping.lookup(op.getValueToStore());
  if (isa<hls::VarType>(memory.getType())) {
    writeVar(op.getLoc(), value, memory);
    return success();
  }
  if (auto array = memory.getDefiningOp<hls::ArrayOp>(); array && array.getRom())
    return op.emitOpError("stores into a constant global; weights are read-only");
  SmallVector<Value> indices = llvm::map_to_vector(
      op.getIndices(), [&](Value index) { return mapping.lookup(index); });
  hls::StoreOp::create(*builder, op.getLoc(), value, memory, indices);
  return success();
}

} // namespace ming::tohls
