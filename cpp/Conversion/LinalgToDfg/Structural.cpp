// Bodies of the structural processes: load, store, fork, reorder, concat,
// slice and pad. They move elements without computing on them, each in
// pipelined flat loops (flatNest) in stream order, so that the DSE may
// unroll them by any divisor of the element count. The compute processes
// are in Bodies.cpp.
#include "Bodies.h"
#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace ming::lowering {

void buildLoad(OpBuilder &b, Location loc, Value memory, Value out, const Order &order) {
  Emitter e{b, loc};
  auto type = cast<MemRefType>(memory.getType());
  flatNest(e, permuteShape(type.getShape(), order), [&](ArrayRef<Value> ivs) {
    e.push(memref::LoadOp::create(b, loc, memory, unpermute(ivs, order)), out);
  });
}

void buildStore(OpBuilder &b, Location loc, Value in, Value memory, const Order &order) {
  Emitter e{b, loc};
  auto type = cast<MemRefType>(memory.getType());
  flatNest(e, permuteShape(type.getShape(), order), [&](ArrayRef<Value> ivs) {
    memref::StoreOp::create(b, loc, e.pull(in), memory, unpermute(ivs, order));
  });
}

void buildFork(OpBuilder &b, Location loc, Value in, ValueRange outs, int64_t count) {
  Emitter e{b, loc};
  e.nest({count}, [&](ArrayRef<Value>) {
    Value v = e.pull(in);
    for (Value out : outs)
      e.push(v, out);
  });
}

int64_t reorderPrefix(const Order &from, const Order &to) {
  unsigned n = 0;
  while (n < from.size() && from[n] == to[n])
    ++n;
  return n;
}

void buildReorder(OpBuilder &b, Location loc, Value in, Value out, RankedTensorType type,
                  const Order &from, const Order &to) {
  Emitter e{b, loc};
  // Dims both orders stream outermost, in the same order, stay loops around
  // the buffer: it holds one block of the remaining dims (a pixel's channels
  // for a channel shuffle), not the whole tensor.
  unsigned prefix = reorderPrefix(from, to);
  int64_t outerCount = 1;
  for (unsigned d : ArrayRef<unsigned>(from).take_front(prefix))
    outerCount *= type.getDimSize(d);
  if (outerCount == 1)
    prefix = 0; // one block: the whole tensor, in its own shape
  Order inFrom(from.begin() + prefix, from.end()), inTo(to.begin() + prefix, to.end());
  // Buffer dims in ascending tensor-dim order.
  Order sorted(inFrom);
  llvm::sort(sorted);
  auto local = [&](const Order &o) {
    Order r;
    for (unsigned d : o)
      r.push_back(llvm::find(sorted, d) - sorted.begin());
    return r;
  };
  SmallVector<int64_t> bufShape;
  for (unsigned d : sorted)
    bufShape.push_back(type.getDimSize(d));
  Order lFrom = local(inFrom), lTo = local(inTo);
  SmallVector<int64_t> fromSizes = permuteShape(bufShape, lFrom);
  SmallVector<int64_t> toSizes = permuteShape(bufShape, lTo);
  // Filled and drained by flat pipelines, so that any lane count dividing
  // the block is offered, not only the divisors of its inner dim. Blocks
  // after the first are double-buffered: one pipeline fills block r + 1 into
  // one half while it drains block r from the other, so the reorder keeps
  // the stream's pace instead of halving it. One block has no halves.
  SmallVector<int64_t> shape;
  if (outerCount > 1)
    shape.push_back(2);
  shape.append(bufShape.begin(), bufShape.end());
  Value buffer = e.buffer(shape, type.getElementType());
  auto at = [&](Value half, ArrayRef<Value> ivs, const Order &order) {
    SmallVector<Value> indices;
    if (half)
      indices.push_back(half);
    llvm::append_range(indices, unpermute(ivs, order));
    return indices;
  };
  auto fill = [&](ArrayRef<Value> ivs, Value half) {
    memref::StoreOp::create(b, loc, e.pull(in), buffer, at(half, ivs, lFrom));
  };
  auto drain = [&](ArrayRef<Value> ivs, Value half) {
    e.push(memref::LoadOp::create(b, loc, buffer, at(half, ivs, lTo)), out);
  };
  if (outerCount == 1) {
    flatNest(e, fromSizes, [&](ArrayRef<Value> ivs) { fill(ivs, Value()); });
    flatNest(e, toSizes, [&](ArrayRef<Value> ivs) { drain(ivs, Value()); });
    return;
  }
  int64_t blockSize = type.getNumElements() / outerCount;
  flatNest(e, fromSizes, [&](ArrayRef<Value> ivs) { fill(ivs, e.idx(0)); });
  e.loop(outerCount - 1, [&](Value r) {
    Value drained = arith::RemUIOp::create(b, loc, r, e.idx(2));
    Value next = arith::AddIOp::create(b, loc, r, e.idx(1));
    Value filled = arith::RemUIOp::create(b, loc, next, e.idx(2));
    e.nest({blockSize}, [&](ArrayRef<Value> flat) {
      fill(unflatten(e, flat[0], fromSizes), filled);
      drain(unflatten(e, flat[0], toSizes), drained);
    });
  });
  flatNest(e, toSizes, [&](ArrayRef<Value> ivs) { drain(ivs, e.idx((outerCount - 1) % 2)); });
}

int64_t concatChunk(RankedTensorType type, unsigned dim, const Order &order) {
  int64_t n = 1;
  bool inside = false;
  for (unsigned d : order) {
    inside |= d == dim;
    if (inside)
      n *= type.getDimSize(d);
  }
  return n;
}

void buildConcat(OpBuilder &b, Location loc, ValueRange ins, Value out,
                 ArrayRef<RankedTensorType> inTypes, unsigned dim, const Order &order) {
  Emitter e{b, loc};
  int64_t outer = 1;
  for (unsigned d : order) {
    if (d == dim)
      break;
    outer *= inTypes.front().getDimSize(d);
  }
  auto chunks = [&] {
    for (auto [in, type] : llvm::zip(ins, inTypes))
      e.nest({concatChunk(type, dim, order)}, [&](ArrayRef<Value>) { e.push(e.pull(in), out); });
  };
  if (outer == 1)
    chunks();
  else
    e.loop(outer, [&](Value) { chunks(); });
}

void buildSlice(OpBuilder &b, Location loc, Value in, Value out, RankedTensorType source,
                ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                const Order &order) {
  Emitter e{b, loc};
  flatNest(e, permuteShape(source.getShape(), order), [&](ArrayRef<Value> ivs) {
    Value v = e.pull(in);
    SmallVector<Value> idx = unpermute(ivs, order);
    Value keep;
    auto also = [&](Value c) { keep = keep ? e.both(keep, c) : c; };
    for (auto [d, i] : llvm::enumerate(idx)) {
      int64_t off = offsets[d], size = sizes[d], stride = strides[d];
      if (off == 0 && stride == 1 && size == source.getDimSize(d))
        continue;
      if (off > 0)
        also(e.cmp(arith::CmpIPredicate::uge, i, off));
      also(e.cmp(arith::CmpIPredicate::ult, i, off + (size - 1) * stride + 1));
      if (stride > 1) {
        Value rel = arith::SubIOp::create(b, loc, i, e.idx(off));
        Value rem = arith::RemUIOp::create(b, loc, rel, e.idx(stride));
        also(e.cmp(arith::CmpIPredicate::eq, rem, 0));
      }
    }
    if (!keep) {
      e.push(v, out);
      return;
    }
    auto ifKeep = scf::IfOp::create(b, loc, TypeRange{}, keep, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifKeep.thenBlock()->getTerminator());
    e.push(v, out);
  });
}

void buildPad(OpBuilder &b, Location loc, Value in, Value out, RankedTensorType source,
              RankedTensorType padded, ArrayRef<int64_t> low, TypedAttr value,
              const Order &order) {
  Emitter e{b, loc};
  Type elem = source.getElementType();
  flatNest(e, permuteShape(padded.getShape(), order), [&](ArrayRef<Value> ivs) {
    SmallVector<Value> idx = unpermute(ivs, order);
    Value inside;
    auto also = [&](Value c) { inside = inside ? e.both(inside, c) : c; };
    for (auto [d, i] : llvm::enumerate(idx)) {
      if (low[d] > 0)
        also(e.cmp(arith::CmpIPredicate::uge, i, low[d]));
      if (low[d] + source.getDimSize(d) < padded.getDimSize(d))
        also(e.cmp(arith::CmpIPredicate::ult, i, low[d] + source.getDimSize(d)));
    }
    if (!inside) {
      e.push(e.pull(in), out);
      return;
    }
    auto ifInside = scf::IfOp::create(b, loc, TypeRange{elem}, inside, true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifInside.thenBlock());
      scf::YieldOp::create(b, loc, e.pull(in));
      b.setInsertionPointToStart(ifInside.elseBlock());
      scf::YieldOp::create(b, loc, e.constant(value));
    }
    e.push(ifInside.getResult(0), out);
  });
}

} // namespace ming::lowering
