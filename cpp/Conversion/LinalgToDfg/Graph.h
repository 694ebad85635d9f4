// The graph builder of convert-linalg-to-dfg: it walks the normalised
// function, gives every tensor that flows between layers a stream and every
// layer a process. Declared here so that its parts can live apart: the stream
// plumbing shared by all ops (Streams.cpp), the lowering of each kind of op
// (Lowerings.cpp) and the walk that drives them (LinalgToDfg.cpp). Private
// to this folder.
#ifndef MING_CONVERSION_LINALGTODFG_GRAPH_H
#define MING_CONVERSION_LINALGTODFG_GRAPH_H

#include "Bodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>

namespace ming::lowering {
using namespace mlir;

/// A streamed tensor: the read ends of its channels, one per reader (through
/// a fork when there are several), and the order its elements come in.
struct Source {
  SmallVector<Value> reads; // channel read ends still to hand out
  unsigned next = 0;
  Order order;
};

/// Builds the dfg.graph of `func` in `module`, then erases `func`.
class GraphBuilder {
public:
  GraphBuilder(ModuleOp module, func::FuncOp func)
      : module(module), func(func), b(module.getContext()), gb(module.getContext()) {}

  LogicalResult run();

private:
  // Operand classification.
  FailureOr<Operand> classify(linalg::GenericOp op, OpOperand &use, bool windowed);
  unsigned streamUses(Value v);
  memref::GlobalOp globalFor(arith::ConstantOp cst, StringRef name = "weights");
  FailureOr<Tables> tablesOf(linalg::GenericOp op);

  // Streams.
  Value makeSource(Value v, Order order, Location loc);
  void distribute(Value v, Value read, Order order, Location loc);
  FailureOr<std::pair<Value, Order>> take(Value v, std::optional<Order> want, Location loc);

  // Processes.
  dfg::ProcessOp newProcess(StringRef base, dfg::KernelKind kind, TypeRange ports,
                            Location loc);
  void instantiate(dfg::ProcessOp proc, ValueRange ports, Location loc);
  dfg::ChannelOp channel(Type elem, Location loc, int64_t depth = 2);

  LogicalResult lowerGeneric(linalg::GenericOp op);
  LogicalResult lowerAlias(Operation *op, Value src, Value result);
  LogicalResult lowerConcat(tensor::ConcatOp op);
  LogicalResult lowerSlice(tensor::ExtractSliceOp op);
  LogicalResult lowerPad(tensor::PadOp op);
  LogicalResult lowerFilter(Operation *op, StringRef name, dfg::KernelKind kind, Value source,
                            Value result, function_ref<void(Value, Value, const Order &)> build,
                            function_ref<int64_t(const Order &)> lookahead);
  LogicalResult lowerReturn(func::ReturnOp ret);
  void setLookahead(dfg::ProcessOp proc, int64_t lookahead, int64_t inputElements);
  /// A reorder process from `from` to `to` between `read` and `write`.
  void addReorder(Value read, RankedTensorType type, const Order &from, const Order &to,
                  Location loc, Value write);
  /// The order the load or store of a graph argument walks memory in when
  /// its layers stream it in `stream` (Orders.h stagedOrder), if another.
  std::optional<Order> boundaryOrder(Value tensor, const Order &stream);

  ModuleOp module;
  func::FuncOp func;
  OpBuilder b;  // process bodies and module-level ops
  OpBuilder gb; // inside the graph
  dfg::GraphOp graph;
  DenseMap<Value, Source> sources;
  DenseMap<Value, Order> required;
  /// Streamed tensors whose producer spreads its outputs over its run (a
  /// window, a loop-nest reduction, maps and reshapes of one), not all at
  /// its end: a dense layer reading one overlaps it (outerProduct).
  llvm::DenseSet<Value> progressive;
  DenseMap<Operation *, memref::GlobalOp> globals;
  /// Pads some reader does not window: a process of their own.
  llvm::SmallPtrSet<Operation *, 4> padProcesses;
  SymbolTable *symbols = nullptr;
  unsigned counter = 0;
};

} // namespace ming::lowering

#endif
