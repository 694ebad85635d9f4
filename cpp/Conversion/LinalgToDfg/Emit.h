// What the builders of process bodies share (Bodies.cpp, Window.cpp): the
// Emitter of index arithmetic and constant-bound loops, and the helpers that
// read operands and clone the linalg payload. Private to this folder.
#ifndef MING_CONVERSION_LINALGTODFG_EMIT_H
#define MING_CONVERSION_LINALGTODFG_EMIT_H

#include "Bodies.h"
#include "ming/Directives/Directives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

namespace ming::lowering {
using namespace mlir;

/// Emits index arithmetic and constant-bound loops at the builder's point.
struct Emitter {
  OpBuilder &b;
  Location loc;
  /// The ROMs of the tables the payload reads (clonePayload), if any.
  const Tables *tables = nullptr;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// `for iv in [0, ub)` with no loop-carried values; `body` runs inside.
  scf::ForOp loop(int64_t ub, llvm::function_ref<void(Value)> body) { return loop(0, ub, body); }

  /// `for iv in [lb, ub)` with no loop-carried values.
  scf::ForOp loop(int64_t lb, int64_t ub, llvm::function_ref<void(Value)> body) {
    auto op = scf::ForOp::create(b, loc, idx(lb), idx(ub), idx(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op.getBody()->getTerminator());
    body(op.getInductionVar());
    return op;
  }

  /// `for iv in [0, ub)` carrying one value; `body` returns the next one.
  scf::ForOp loopCarry(int64_t ub, Value init, llvm::function_ref<Value(Value, Value)> body) {
    auto op = scf::ForOp::create(b, loc, idx(0), idx(ub), idx(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.getBody());
    Value next = body(op.getInductionVar(), op.getRegionIterArgs().front());
    scf::YieldOp::create(b, loc, next);
    return op;
  }

  /// Nested loops over `sizes`, outermost first; `body` gets the ivs.
  /// Returns the outermost loop (none for no sizes).
  scf::ForOp nest(ArrayRef<int64_t> sizes, llvm::function_ref<void(ArrayRef<Value>)> body,
                  bool pipelineInnermost = true) {
    SmallVector<Value> ivs;
    scf::ForOp outermost;
    std::function<void(unsigned)> rec = [&](unsigned level) {
      if (level == sizes.size()) {
        body(ivs);
        return;
      }
      scf::ForOp op = loop(sizes[level], [&](Value iv) {
        ivs.push_back(iv);
        rec(level + 1);
        ivs.pop_back();
      });
      if (level == 0)
        outermost = op;
      if (pipelineInnermost && level + 1 == sizes.size())
        pipeline(op);
    };
    rec(0);
    return outermost;
  }

  void pipeline(scf::ForOp op) {
    directives::LoopAttr loop = directives::getLoop(op);
    directives::setLoop(op, loop.with(1, loop.getUnroll()));
  }
  void unrollFull(scf::ForOp op) {
    directives::LoopAttr loop = directives::getLoop(op);
    directives::setLoop(op, loop.with(loop.getIi(), 0));
  }

  Value add(Value a, Value c) { return arith::AddIOp::create(b, loc, a, c); }
  Value mul(Value a, int64_t c) { return c == 1 ? a : arith::MulIOp::create(b, loc, a, idx(c)); }
  Value cmp(arith::CmpIPredicate p, Value a, int64_t c) {
    return arith::CmpIOp::create(b, loc, p, a, idx(c));
  }
  Value both(Value a, Value c) { return arith::AndIOp::create(b, loc, a, c); }

  /// An affine expression of loop dims as index arithmetic (the indices are
  /// never negative, so unsigned division is exact).
  Value affine(AffineExpr expr, ArrayRef<Value> dims) {
    if (auto d = dyn_cast<AffineDimExpr>(expr))
      return dims[d.getPosition()];
    if (auto c = dyn_cast<AffineConstantExpr>(expr))
      return idx(c.getValue());
    auto bin = cast<AffineBinaryOpExpr>(expr);
    Value l = affine(bin.getLHS(), dims), r = affine(bin.getRHS(), dims);
    switch (bin.getKind()) {
    case AffineExprKind::Add:
      return arith::AddIOp::create(b, loc, l, r);
    case AffineExprKind::Mul:
      return arith::MulIOp::create(b, loc, l, r);
    case AffineExprKind::FloorDiv:
      return arith::DivUIOp::create(b, loc, l, r);
    case AffineExprKind::Mod:
      return arith::RemUIOp::create(b, loc, l, r);
    default:
      return arith::CeilDivUIOp::create(b, loc, l, r);
    }
  }

  SmallVector<Value> apply(AffineMap map, ArrayRef<Value> dims) {
    SmallVector<Value> out;
    for (AffineExpr e : map.getResults())
      out.push_back(affine(e, dims));
    return out;
  }

  Value pull(Value port) {
    auto type = cast<dfg::InputType>(port.getType());
    return dfg::PullOp::create(b, loc, type.getElementType(), port, Value());
  }
  void push(Value v, Value port) { dfg::PushOp::create(b, loc, v, port, Value()); }

  Value buffer(ArrayRef<int64_t> shape, Type elem) {
    return memref::AllocaOp::create(b, loc, MemRefType::get(shape, elem));
  }

  /// A buffer of `shape` filled from `port` in row-major order.
  Value pullBuffer(ArrayRef<int64_t> shape, Value port) {
    Value buf = buffer(shape, cast<dfg::InputType>(port.getType()).getElementType());
    nest(shape, [&](ArrayRef<Value> ivs) { memref::StoreOp::create(b, loc, pull(port), buf, ivs); });
    return buf;
  }
  Value constant(TypedAttr attr) { return arith::ConstantOp::create(b, loc, attr); }
};

/// What a builder of a compute process body (NestBuilder, WindowBuilder)
/// starts from: the generic, its kernel class, its operands as the process
/// receives them, and the output port.
struct ComputeBody {
  ComputeBody(OpBuilder &b, Location loc, linalg::GenericOp op, const KernelInfo &info,
              ArrayRef<Operand> inputs, Value out, const Tables &tables)
      : b(b), loc(loc), op(op), info(info), inputs(inputs), out(out), e{b, loc, &tables} {}

  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const KernelInfo &info;
  ArrayRef<Operand> inputs;
  Value out;
  Emitter e;
};

/// Indices of a tensor element from the ivs of loops in `order`.
SmallVector<Value> unpermute(ArrayRef<Value> ivs, const Order &order);
SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape, const Order &order);
/// Clones the payload of `op` at the builder's point: block arguments become
/// `args`, linalg.index becomes the iv of its loop, a table read a read of its
/// ROM (e.tables). Returns the yielded value.
Value clonePayload(Emitter &e, linalg::GenericOp op, ArrayRef<Value> args, ArrayRef<Value> ivs);
/// The row-major indices over `sizes` of the flat position `flat`.
SmallVector<Value> unflatten(Emitter &e, Value flat, ArrayRef<int64_t> sizes);
/// One pipelined loop over the product of `sizes`, the indices recovered.
scf::ForOp flatNest(Emitter &e, ArrayRef<int64_t> sizes, llvm::function_ref<void(ArrayRef<Value>)> body);
/// Loop dims read by `map`, or failure if a result is not a dim or constant.
FailureOr<SmallVector<unsigned>> plainDims(AffineMap map);
/// The axes of a tensor read through `inMap` that a reduction with output
/// map `outMap` sums over (longer than 1, a dim the output does not read),
/// in `order`, outermost first.
SmallVector<unsigned> reducedAxes(AffineMap inMap, AffineMap outMap, ArrayRef<int64_t> shape,
                                  const Order &order);
/// Sets the loop ivs that read element `idx` (in tensor order) through `map`.
void setIvs(MutableArrayRef<Value> ivs, AffineMap map, ArrayRef<Value> idx);
/// One accumulator per output element of `op`, a buffer of the result's
/// shape set from the init (zero without one), in `outOrder`.
Value startAccumulators(Emitter &e, linalg::GenericOp op, const Operand &init,
                        const Order &outOrder);
/// Pushes every accumulator of `acc` on `out`, in `outOrder`.
void pushAccumulators(Emitter &e, Value acc, const Order &outOrder, Value out);
/// Value of a non-streamed operand (or a fully buffered stream) at `ivs`.
Value readOperand(Emitter &e, const Operand &operand, AffineMap map, ArrayRef<Value> ivs,
                  Value buffer);
TypedAttr zeroOf(Type t);
/// Elements of its windowed input a sliding window pulls before its first
/// output and runs ahead later (Window.cpp; lookaheadElements).
int64_t windowLookahead(linalg::GenericOp op, const KernelInfo &info, ArrayRef<Operand> inputs);

} // namespace ming::lowering

#endif
