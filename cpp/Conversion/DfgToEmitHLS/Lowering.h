// The parts of convert-dfg-to-emithls (DfgToEmitHLS.cpp) shared by the files
// of this folder: the type conversions (Types.cpp), the lowering of one
// process body (ProcessLowering, defined across Process.cpp, Memory.cpp and
// Lanes.cpp) and the lowering of the graph to the top function (Graph.cpp).
// Private to this folder.
#ifndef MING_CONVERSION_DFGTOEMITHLS_LOWERING_H
#define MING_CONVERSION_DFGTOEMITHLS_LOWERING_H

#include "ming/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>

namespace ming::tohls {
using namespace mlir;
namespace hls = ming::emithls;

//===----------------------------------------------------------------------===//
// Types (Types.cpp)
//===----------------------------------------------------------------------===//

/// The scalars C++ variables and expressions can hold (index prints as int).
inline bool isScalar(Type type) { return isa<IntegerType, FloatType, IndexType>(type); }

/// A statically shaped, row-major memref of rank >= 1 becomes a C++ array.
FailureOr<hls::ArrayType> convertMemRef(MemRefType type, Operation *where, const Twine &what);

/// A channel end becomes an hls::stream: of its element type with one lane,
/// of packed words vector<LxT> (hls::vector<T, L>) with L > 1 lanes.
FailureOr<hls::StreamType> convertChannelEnd(Type elementType, unsigned lanes, Operation *where,
                                             const Twine &what);

FailureOr<FunctionType> convertSignature(FunctionOpInterface op);

/// The function name is printed verbatim as the C++ name.
LogicalResult checkCName(Operation *op, StringRef name);

/// The trip count of a loop with constant bounds and a positive step
/// (Lanes.cpp).
std::optional<int64_t> constantTripCount(scf::ForOp loop);

//===----------------------------------------------------------------------===//
// Process bodies (Process.cpp, Memory.cpp, Lanes.cpp)
//===----------------------------------------------------------------------===//

/// Rebuilds the body of one dfg.process inside a new emitHLS.func. Walks the
/// source ops in order, keeping `builder` at the matching point of the target
/// and `mapping` from source values to target values.
class ProcessLowering {
public:
  explicit ProcessLowering(const llvm::StringMap<memref::GlobalOp> &globals) : globals(globals) {}

  /// Appends the function of `process` at the insertion point of `b`.
  LogicalResult lower(dfg::ProcessOp process, OpBuilder &b);

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerScalarOp(Operation *op);
  LogicalResult lowerFor(scf::ForOp loop);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerAlloca(memref::AllocaOp op);
  LogicalResult lowerGetGlobal(memref::GetGlobalOp op);
  LogicalResult lowerLoad(memref::LoadOp op);
  LogicalResult lowerStore(memref::StoreOp op);
  LogicalResult lowerPull(dfg::PullOp op);
  LogicalResult lowerPush(dfg::PushOp op);

  /// The word and lane counter of every port with more than one lane.
  void createLaneState(Block &source, Block &entry);
  /// An integer or index constant, created once per function at its top.
  Value laneConstant(int64_t value, Type type);
  struct LanePort;
  /// The lane the current pull or push takes: `index` subscripts the word,
  /// `value` (the same or the i32 counter) is compared with 0 and L - 1.
  struct Lane {
    Value index;
    Value value;
  };
  Lane currentLane(Location loc, const LanePort &port);
  Value laneIs(Location loc, Lane lane, int64_t k);
  /// `lane = lane == L - 1 ? 0 : lane + 1;` (counted lanes only).
  void advanceLane(Location loc, const LanePort &port, Lane lane, Value last);

  // Loop-carried values and if results: emitHLS regions yield nothing, so
  // they live in C++ variables, exactly as a hand-written kernel would do.
  // An index value is kept in an i64 variable (C++ has no `index`).
  FailureOr<Value> createVar(Location loc, Type type, Value init, Operation *where);
  Value readVar(Location loc, Value var, Type type);
  void writeVar(Location loc, Value value, Value var);
  /// Assigns the operands of the scf.yield ending `block` to `vars`.
  void assignYielded(Block &block, ArrayRef<Value> vars);

  LogicalResult addLoopPragmas(scf::ForOp loop, hls::ForOp hlsFor);
  FailureOr<std::string> loopLabel(scf::ForOp loop);
  /// One ARRAY_PARTITION complete per dimension listed on `op`.
  void addPartitions(Operation *op, Value array, llvm::SmallDenseSet<int64_t> &done);

  const llvm::StringMap<memref::GlobalOp> &globals;
  OpBuilder *builder = nullptr;
  IRMapping mapping;
  /// Weights are declared once per function, at its top, after this op.
  Operation *romInsertPoint = nullptr;
  struct Rom {
    Value array;
    llvm::SmallDenseSet<int64_t> partitioned;
  };
  llvm::StringMap<Rom> roms;
  /// C++ labels have function scope: a repeated name gets a suffix.
  llvm::StringSet<> labels;

  /// A port of L > 1 lanes: `hls::vector<T, L> word;` holds the word being
  /// read or filled, `int32_t lane = 0;` the element of it the next pull or
  /// push takes. When the port's only pull or push sits directly in a loop
  /// nest and L divides the innermost trip count, the lane is the innermost
  /// iteration number mod L instead (no counter): after an unroll by a
  /// multiple of L, HLS sees constant lanes and one FIFO access per L
  /// elements. By source port (block argument of the process).
  struct LanePort {
    Value word;
    Value lane;          // the counter; null when `loop` gives the lane
    scf::ForOp loop;     // the innermost loop whose iteration number gives the lane
    int64_t lanes;
  };
  llvm::DenseMap<Value, LanePort> lanePorts;
  /// Where the lane state and its constants go: the top of the function.
  Operation *laneInsertPoint = nullptr;
  llvm::DenseMap<std::pair<int64_t, Type>, Value> laneConstants;
};

//===----------------------------------------------------------------------===//
// The graph (Graph.cpp)
//===----------------------------------------------------------------------===//

/// `dfg.graph` -> the top function: AXI interfaces, DATAFLOW, streams, calls.
LogicalResult lowerGraph(dfg::GraphOp graph, OpBuilder &b,
                         const llvm::StringMap<dfg::ProcessOp> &processes, int64_t axiBits);

} // namespace ming::tohls

#endif // MING_CONVERSION_DFGTOEMITHLS_LOWERING_H
