// Builders for the bodies of dfg processes (convert-linalg-to-dfg): scf loops
// with constant bounds, memref buffers, dfg.pull / dfg.push and the linalg
// payload cloned per element. Kept apart from the graph construction so each
// streaming structure (load, store, fork, reorder, loop nest, line buffer)
// reads on its own.
#ifndef MING_CONVERSION_LINALGTODFG_BODIES_H
#define MING_CONVERSION_LINALGTODFG_BODIES_H

#include "ming/Analysis/KernelAnalysis.h"
#include "ming/Dfg/Dfg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace ming::lowering {

/// A tensor dimension order, outermost first: the order in which a stream
/// carries a tensor's elements.
using Order = llvm::SmallVector<unsigned>;

Order identityOrder(unsigned rank);

/// How a linalg operand reaches the process.
enum class Role {
  Stream, // pulled from an input port
  Rom,    // a constant tensor: a memref.global read by index
  Splat,  // one constant value (fill, splat constant, scalar constant)
  None,   // tensor.empty: only its shape matters
};

/// The constant tables a payload reads by data, `tensor.extract` of a
/// constant captured from outside the op (a quantised activation's lookup
/// table): each held in a ROM, a memref.global read at the computed address.
using Tables = llvm::DenseMap<mlir::Value, mlir::memref::GlobalOp>;

struct Operand {
  Role role = Role::None;
  /// Stream: the tensor carried by the stream (a folded pad's source).
  mlir::Value source;
  /// Stream: the port of the process the values come from.
  mlir::Value port;
  /// Stream: the order the stream carries `source` in.
  Order order;
  /// Rom: the global holding the constant.
  mlir::memref::GlobalOp global;
  /// Rom read through a broadcast: the constant's coordinates from the
  /// operand's (null: the same).
  mlir::AffineMap through;
  /// Splat: the value.
  mlir::TypedAttr splat;
  /// Stream through a folded tensor.pad: padding per source dim and value.
  llvm::SmallVector<int64_t> padLow, padHigh;
  mlir::TypedAttr padValue;
};

/// Fills the body of `proc` (one block, ports as arguments).
void buildLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value memory, mlir::Value out,
               const Order &order);
void buildStore(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in, mlir::Value memory,
                const Order &order);
void buildFork(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in,
               mlir::ValueRange outs, int64_t count);
/// Reorder: the leading dims `from` and `to` share (reorderPrefix of them)
/// stay loops; one block of the remaining dims is buffered at a time.
int64_t reorderPrefix(const Order &from, const Order &to);
void buildReorder(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in, mlir::Value out,
                  mlir::RankedTensorType type, const Order &from, const Order &to);

/// tensor.concat: for each position of the dims streamed outside the concat
/// dim `dim`, the chunk of every input in turn (all streams carry `order`).
/// Nothing is buffered: the FIFOs of the inputs hold what waits.
void buildConcat(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange ins, mlir::Value out,
                 llvm::ArrayRef<mlir::RankedTensorType> inTypes, unsigned dim, const Order &order);

/// The elements of one input chunk of a concat (the concat dim and the dims
/// streamed inside it): how long the others wait while it passes.
int64_t concatChunk(mlir::RankedTensorType type, unsigned dim, const Order &order);

/// tensor.extract_slice without rank reduction: the whole source streams
/// through in `order`; the elements inside the slice are pushed.
void buildSlice(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in, mlir::Value out,
                mlir::RankedTensorType source, llvm::ArrayRef<int64_t> offsets,
                llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides,
                const Order &order);

/// tensor.pad read by something other than a window: the padded tensor
/// streams in `order`; padding cells get `value`, the others the source's
/// next element (which streams in the same order).
void buildPad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in, mlir::Value out,
              mlir::RankedTensorType source, mlir::RankedTensorType padded,
              llvm::ArrayRef<int64_t> low, mlir::TypedAttr value, const Order &order);

/// Pure parallel and regular reduction: the output's loop nest in `outOrder`
/// with the reductions innermost. Returns failure (with a diagnostic at the
/// op) on accesses the loop nest cannot stream.
mlir::LogicalResult buildLoopNest(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::linalg::GenericOp op, const KernelInfo &info,
                                  llvm::ArrayRef<Operand> inputs, const Operand &init,
                                  mlir::Value out, const Order &outOrder, const Tables &tables);

/// A reduction over one input taken in the order it streams: one
/// accumulator per output element, set from the init, updated as each input
/// element passes, pushed in `outOrder` once the input has passed.
mlir::LogicalResult buildAccumulation(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::linalg::GenericOp op, llvm::ArrayRef<Operand> inputs,
                                      const Operand &init, mlir::Value out, const Order &outOrder,
                                      const Tables &tables);

/// Whether `op` is a single-row float dense layer (one streamed input, every
/// parallel dim it indexes of one iteration) whose input arrives in
/// `arriving` with its reduced axes in the op's order, so that
/// buildOuterProduct computes the result the op defines, bit for bit.
bool outerProduct(mlir::linalg::GenericOp op, const KernelInfo &info,
                  llvm::ArrayRef<Operand> inputs, const Operand &init, const Order &arriving);

/// A single-row float dense layer as outer products (OuterProduct.cpp): one
/// accumulator per output, set from the init; each input element, as it
/// arrives, updates every output; the outputs are pushed in `outOrder` after
/// the last one.
mlir::LogicalResult buildOuterProduct(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::linalg::GenericOp op, const KernelInfo &info,
                                      llvm::ArrayRef<Operand> inputs, const Operand &init,
                                      mlir::Value out, const Order &outOrder,
                                      const Tables &tables);

/// The stream order a loop nest in `outOrder` needs for an input read
/// through `map` (dims in order of their loop's position; constants first).
mlir::FailureOr<Order> loopNestInputOrder(mlir::linalg::GenericOp op, mlir::AffineMap map,
                                          const Order &outOrder);

/// Sliding window: line buffer of (Keff - 1) padded rows and a Keff x Keff
/// window register per channel.
mlir::LogicalResult buildWindow(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::linalg::GenericOp op, const KernelInfo &info,
                                llvm::ArrayRef<Operand> inputs, const Operand &init,
                                mlir::Value out, const Tables &tables);

/// The geometry of a 2-D sliding window over input operand `operand`.
struct Window {
  unsigned operand = 0;
  std::optional<unsigned> batch;     // input tensor dim of the batch, if any
  unsigned axis[2] = {0, 0};         // input tensor dims that slide
  llvm::SmallVector<unsigned> channels; // remaining input tensor dims, in order
  WindowAccess access[2];
};

/// The window of a sliding-window generic: one input sliding over exactly two
/// of its dims, the others read at plain dims or constants; nullopt
/// otherwise (windowOf in Window.cpp says why).
std::optional<Window> slidingWindow(mlir::linalg::GenericOp op, const KernelInfo &info);

/// The window of `op`, or an error at it saying why it has none.
mlir::FailureOr<Window> windowOf(mlir::linalg::GenericOp op, const KernelInfo &info);

/// The extent a window access spans: dilation * (taps - 1) + 1.
int64_t effective(const WindowAccess &a, llvm::ArrayRef<int64_t> trips);

/// Leading padded columns a window's row loop skips (WindowBuilder::skipped):
/// the left padding a window completes nothing in, as much as the right
/// padding leaves in the window from the previous row, the columns left a
/// multiple of the stride.
int64_t skippedColumns(int64_t low, int64_t high, int64_t keff, int64_t padded, int64_t stride);

/// Whether the window's process computes two adjacent output columns per
/// iteration (an int8 depthwise multiply-accumulate of column stride 1):
/// each weight then multiplies a tap of both windows, a pair ming-pack-int8
/// computes in one DSP.
bool pairsColumns(mlir::linalg::GenericOp op, const KernelInfo &info, const Window &w,
                  llvm::ArrayRef<Operand> inputs);

/// The stream orders of a sliding window's windowed input (batch, the two
/// sliding axes, then the rest) and of its output (batch, the two spatial
/// axes, then the rest). Fail with a diagnostic on unsupported shapes.
mlir::FailureOr<Order> windowInputOrder(mlir::linalg::GenericOp op, const KernelInfo &info);
mlir::FailureOr<Order> windowOutputOrder(mlir::linalg::GenericOp op, const KernelInfo &info);

/// The order a window op needs for a non-windowed streamed input, or failure.
mlir::FailureOr<Order> windowSideInputOrder(mlir::linalg::GenericOp op, const KernelInfo &info,
                                            mlir::AffineMap map);

/// Input elements a process of `op` pulls before its first output, plus how
/// far it may run ahead of its output later (a sliding window: the real pixels
/// up to its first window position, row-start and stride slack; a loop nest:
/// its reuse buffers plus one in flight). Sizes the FIFOs of reconvergent
/// paths.
int64_t lookaheadElements(mlir::linalg::GenericOp op, const KernelInfo &info,
                         llvm::ArrayRef<Operand> inputs, const Order &outOrder);

} // namespace ming::lowering

#endif
