// Bodies of dfg processes: the streaming structures of MING Sec. IV-B written
// as scf loops with constant bounds, memref buffers and dfg.pull / dfg.push.
// Every loop and buffer is static, so dfg -> emitHLS maps them one to one.
#include "Bodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace ming::lowering {

Order identityOrder(unsigned rank) {
  Order order;
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(d);
  return order;
}

//===----------------------------------------------------------------------===//
// Small builders
//===----------------------------------------------------------------------===//

namespace {
/// Emits index arithmetic and constant-bound loops at the builder's point.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// `for iv in [0, ub)` with no loop-carried values; `body` runs inside.
  scf::ForOp loop(int64_t ub, llvm::function_ref<void(Value)> body) {
    auto op = scf::ForOp::create(b, loc, idx(0), idx(ub), idx(1));
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
  void nest(ArrayRef<int64_t> sizes, llvm::function_ref<void(ArrayRef<Value>)> body,
            bool pipelineInnermost = true) {
    SmallVector<Value> ivs;
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
      if (pipelineInnermost && level + 1 == sizes.size())
        pipeline(op);
    };
    rec(0);
  }

  void pipeline(scf::ForOp op) { op->setAttr("ming.pipeline_ii", b.getI64IntegerAttr(1)); }
  void unrollFull(scf::ForOp op) { op->setAttr("ming.unroll", b.getI64IntegerAttr(0)); }

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

/// Indices of a tensor element from the ivs of loops in `order`.
SmallVector<Value> unpermute(ArrayRef<Value> ivs, const Order &order) {
  SmallVector<Value> indices(order.size());
  for (auto [i, d] : llvm::enumerate(order))
    indices[d] = ivs[i];
  return indices;
}

SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape, const Order &order) {
  SmallVector<int64_t> sizes;
  for (unsigned d : order)
    sizes.push_back(shape[d]);
  return sizes;
}

/// Clones the payload of `op` at the builder's point: block arguments become
/// `args`, linalg.index becomes the iv of its loop, constants captured from
/// outside the generic are re-created. Returns the yielded value.
Value clonePayload(Emitter &e, linalg::GenericOp op, ArrayRef<Value> args,
                   ArrayRef<Value> ivs) {
  Block &body = op.getRegion().front();
  IRMapping map;
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    if (v)
      map.map(arg, v);
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    for (Value operand : inner.getOperands())
      if (!map.contains(operand) && operand.getParentRegion() != &op.getRegion())
        if (Operation *def = operand.getDefiningOp())
          map.map(operand, e.b.clone(*def)->getResult(0));
    e.b.clone(inner, map);
  }
  // The yielded value may come from outside the body too (canonicalisation
  // folds a payload that always yields the same constant into a yield of a
  // constant of the function): cloned like the operands above.
  Value result = body.getTerminator()->getOperand(0);
  if (!map.contains(result))
    if (Operation *def = result.getDefiningOp())
      map.map(result, e.b.clone(*def)->getResult(0));
  return map.lookup(result);
}
} // namespace

//===----------------------------------------------------------------------===//
// Structural processes
//===----------------------------------------------------------------------===//

/// One pipelined loop over every element of `shape` in stream `order`, the
/// tensor indices recovered by division: the node then offers the DSE any
/// unroll factor (and lane count) dividing the element count, not only the
/// divisors of its innermost dimension.
/// The row-major indices over `sizes` of the flat position `flat`.
static SmallVector<Value> unflatten(Emitter &e, Value flat, ArrayRef<int64_t> sizes) {
  SmallVector<Value> ivs(sizes.size());
  int64_t stride = 1;
  for (int64_t i = sizes.size() - 1; i >= 0; --i) {
    Value q = stride == 1 ? flat : Value(arith::DivUIOp::create(e.b, e.loc, flat, e.idx(stride)));
    ivs[i] = i == 0 ? q : Value(arith::RemUIOp::create(e.b, e.loc, q, e.idx(sizes[i])));
    stride *= sizes[i];
  }
  return ivs;
}

static void flatNest(Emitter &e, ArrayRef<int64_t> sizes,
                     llvm::function_ref<void(ArrayRef<Value>)> body) {
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  e.nest({count}, [&](ArrayRef<Value> flat) { body(unflatten(e, flat[0], sizes)); });
}

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
  Value buffer = e.buffer(bufShape, type.getElementType());
  auto block = [&] {
    e.nest(permuteShape(bufShape, lFrom), [&](ArrayRef<Value> ivs) {
      memref::StoreOp::create(b, loc, e.pull(in), buffer, unpermute(ivs, lFrom));
    });
    e.nest(permuteShape(bufShape, lTo), [&](ArrayRef<Value> ivs) {
      e.push(memref::LoadOp::create(b, loc, buffer, unpermute(ivs, lTo)), out);
    });
  };
  if (outerCount == 1)
    block();
  else
    e.loop(outerCount, [&](Value) { block(); });
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

//===----------------------------------------------------------------------===//
// Operand access shared by the compute processes
//===----------------------------------------------------------------------===//

namespace {
/// Loop dims read by `map`, or failure if a result is not a dim or constant.
FailureOr<SmallVector<unsigned>> plainDims(AffineMap map) {
  SmallVector<unsigned> dims;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      dims.push_back(d.getPosition());
    else if (!isa<AffineConstantExpr>(e))
      return failure();
  }
  return dims;
}

/// Value of a non-streamed operand (or a fully buffered stream) at `ivs`.
Value readOperand(Emitter &e, const Operand &operand, AffineMap map, ArrayRef<Value> ivs,
                  Value buffer) {
  switch (operand.role) {
  case Role::Splat:
    return e.constant(operand.splat);
  case Role::Rom: {
    auto global = operand.global;
    Value mem = memref::GetGlobalOp::create(e.b, e.loc, global.getType(), global.getSymName());
    return memref::LoadOp::create(e.b, e.loc, mem, e.apply(map, ivs));
  }
  case Role::Stream:
    return memref::LoadOp::create(e.b, e.loc, buffer, e.apply(map, ivs));
  case Role::None:
    return Value();
  }
  return Value();
}

TypedAttr zeroOf(Type t) {
  OpBuilder b(t.getContext());
  return cast<TypedAttr>(b.getZeroAttr(t));
}
} // namespace

//===----------------------------------------------------------------------===//
// Pure parallel and regular reduction: one loop nest
//===----------------------------------------------------------------------===//

/// Loop order of a loop nest: the output's parallel dims in stream order,
/// then the reductions in their original order (the reference's summation
/// order, so floating-point results match bit for bit).
static FailureOr<SmallVector<unsigned>> loopOrder(linalg::GenericOp op, const Order &outOrder) {
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> order;
  for (unsigned d : outOrder) {
    // A constant index (a unit axis written at 0, as a keepdims reduction
    // writes it) has no loop.
    if (isa<AffineConstantExpr>(outMap.getResult(d)))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(outMap.getResult(d));
    if (!dim)
      return failure();
    order.push_back(dim.getPosition());
  }
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (auto [d, it] : llvm::enumerate(iters)) {
    bool listed = llvm::is_contained(order, d);
    if (it == utils::IteratorType::parallel && !listed)
      return failure();
    if (it == utils::IteratorType::reduction)
      order.push_back(d);
  }
  return order;
}

FailureOr<Order> loopNestInputOrder(linalg::GenericOp op, AffineMap map, const Order &outOrder) {
  FailureOr<SmallVector<unsigned>> loops = loopOrder(op, outOrder);
  if (failed(loops))
    return failure();
  Order order;
  for (auto [pos, e] : llvm::enumerate(map.getResults()))
    if (isa<AffineConstantExpr>(e))
      order.push_back(pos);
  SmallVector<std::pair<unsigned, unsigned>> ranked; // (loop position, tensor dim)
  for (auto [pos, e] : llvm::enumerate(map.getResults())) {
    if (isa<AffineConstantExpr>(e))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim) // read in full first: any order does
      return identityOrder(map.getNumResults());
    ranked.push_back({static_cast<unsigned>(llvm::find(*loops, dim.getPosition()) - loops->begin()),
                      static_cast<unsigned>(pos)});
  }
  llvm::sort(ranked);
  for (auto [loopPos, d] : ranked)
    order.push_back(d);
  return order;
}

namespace {
/// Where a streamed input of a loop nest is pulled: at `level` (before the
/// loop at that position), into a buffer over `bufferDims` if those loops
/// reuse it, else into one value.
struct StreamPlan {
  unsigned level = 0;
  SmallVector<unsigned> bufferDims;
  bool full = false; // the whole tensor, read before the loops
  Value buffer, scalar;
  Value slot;        // double buffering: the half of `buffer` being read
};
} // namespace

namespace {

/// The body of a pure-parallel or regular-reduction process
/// (buildLoopNest), one builder per step: where each streamed operand is
/// pulled (plans), the flat loop of an elementwise body, the double-buffered
/// rows of a matmul-like nest, and the general nest level by level.
struct NestBuilder {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const KernelInfo &info;
  ArrayRef<Operand> inputs;
  Value out;
  Emitter e{b, loc};

  /// The loops in nest order: parallel ones in the output's stream order,
  /// then the reductions.
  SmallVector<unsigned> loops;
  unsigned numLoops = 0, numParallel = 0;
  bool reduces = false;
  /// All operands, inputs then the init, with their maps and stream plans.
  SmallVector<Operand> all;
  SmallVector<AffineMap> maps;
  SmallVector<StreamPlan> plans;
  SmallVector<int64_t> trips;
  SmallVector<Value> ivs;
  /// The operand whose rows are pulled ahead into two buffers, if any.
  std::optional<unsigned> prefetch;

  void plan(const Operand &init) {
    numLoops = loops.size();
    for (utils::IteratorType t : op.getIteratorTypesArray())
      numParallel += t == utils::IteratorType::parallel;
    reduces = numParallel < numLoops;
    all.assign(inputs.begin(), inputs.end());
    all.push_back(init);
    maps = op.getIndexingMapsArray();
    plans.resize(all.size());
    for (auto [k, operand] : llvm::enumerate(all)) {
      if (operand.role != Role::Stream)
        continue;
      FailureOr<SmallVector<unsigned>> dims = plainDims(maps[k]);
      StreamPlan &plan = plans[k];
      if (failed(dims)) {
        // Computed indices (e.g. upsampling's floordiv) have no streaming
        // order: the whole operand is read first, then indexed freely.
        plan.full = true;
        continue;
      }
      while (plan.level < numLoops && llvm::is_contained(*dims, loops[plan.level]))
        ++plan.level;
      for (unsigned pos = plan.level; pos < numLoops; ++pos)
        if (llvm::is_contained(*dims, loops[pos]))
          plan.bufferDims.push_back(loops[pos]);
    }
    trips = info.tripCounts;
    ivs.resize(numLoops);
  }

  /// Pulls everything planned at `level`.
  void pullAt(unsigned level) {
    for (auto [k, operand] : llvm::enumerate(all)) {
      StreamPlan &plan = plans[k];
      if (operand.role != Role::Stream || plan.level != level)
        continue;
      if (plan.full) {
        plan.buffer = e.pullBuffer(
            cast<RankedTensorType>(operand.source.getType()).getShape(), operand.port);
        continue;
      }
      if (plan.bufferDims.empty()) {
        plan.scalar = e.pull(operand.port);
        continue;
      }
      SmallVector<int64_t> shape;
      for (unsigned d : plan.bufferDims)
        shape.push_back(trips[d]);
      plan.buffer = e.pullBuffer(shape, operand.port);
    }
  }

  /// Operand k at the current ivs.
  Value valueOf(unsigned k) {
    const Operand &operand = all[k];
    StreamPlan &plan = plans[k];
    if (operand.role == Role::Stream) {
      if (plan.full)
        return memref::LoadOp::create(b, loc, plan.buffer, e.apply(maps[k], ivs));
      if (plan.bufferDims.empty())
        return plan.scalar;
      SmallVector<Value> idx;
      if (plan.slot)
        idx.push_back(plan.slot);
      for (unsigned d : plan.bufferDims)
        idx.push_back(ivs[d]);
      return memref::LoadOp::create(b, loc, plan.buffer, idx);
    }
    return readOperand(e, operand, maps[k], ivs, Value());
  }

  Value payload(Value acc) {
    SmallVector<Value> args;
    for (unsigned k = 0; k < inputs.size(); ++k)
      args.push_back(valueOf(k));
    args.push_back(acc);
    return clonePayload(e, op, args, ivs);
  }

  /// Elementwise with every stream read once per element: one flat loop, so
  /// the DSE can widen it by any divisor of the element count.
  bool elementwise() {
    bool flat = !reduces && llvm::all_of(llvm::enumerate(all), [&](auto it) {
      return it.value().role != Role::Stream ||
             (plans[it.index()].level == numLoops && !plans[it.index()].full);
    });
    if (!flat || numLoops == 0)
      return false;
    SmallVector<int64_t> sizes;
    for (unsigned d : loops)
      sizes.push_back(trips[d]);
    flatNest(e, sizes, [&](ArrayRef<Value> flatIvs) {
      for (auto [pos, d] : llvm::enumerate(loops))
        ivs[d] = flatIvs[pos];
      pullAt(numLoops);
      e.push(payload(valueOf(all.size() - 1)), out);
    });
    return true;
  }

  /// Matmul-like nests: one operand (a row of X) is buffered per iteration
  /// of the loop around the pipelined one and reused across it. Pulling the
  /// next row while this one is computed (two buffers) keeps the pipeline
  /// from draining every row, and leaves a perfect nest that flattens into
  /// one pipeline: N slots per row, each pulling ceil(K / N) elements of the
  /// next row, instead of K + N slots and a drain.
  void findPrefetch() {
    if (!reduces || numParallel < 2)
      return;
    bool ok = true;
    for (auto [k, operand] : llvm::enumerate(all)) {
      const StreamPlan &plan = plans[k];
      if (operand.role != Role::Stream || plan.full || plan.level < numParallel - 1 ||
          plan.level >= numParallel)
        continue;
      ok &= !plan.bufferDims.empty() && !prefetch;
      prefetch = k;
    }
    if (!ok)
      prefetch.reset();
  }

  /// The last two parallel loops (from `lvl`) with the prefetched rows.
  void prefetched(unsigned lvl) {
    StreamPlan &plan = plans[*prefetch];
    Value port = all[*prefetch].port;
    SmallVector<int64_t> row, shape = {2};
    int64_t rowSize = 1;
    for (unsigned d : plan.bufferDims) {
      row.push_back(trips[d]);
      rowSize *= trips[d];
    }
    shape.append(row);
    plan.buffer = e.buffer(shape, cast<dfg::InputType>(port.getType()).getElementType());
    auto pullInto = [&](Value half, Value flat) {
      SmallVector<Value> idx = {half};
      llvm::append_range(idx, unflatten(e, flat, row));
      memref::StoreOp::create(b, loc, e.pull(port), plan.buffer, idx);
    };
    e.nest({rowSize}, [&](ArrayRef<Value> j) { pullInto(e.idx(0), j[0]); });
    unsigned dm = loops[lvl], dn = loops[lvl + 1];
    // One output per slot; the next row arrives `per` elements a slot, so a
    // long row (K > N) does not leave the multipliers idle.
    int64_t rows = trips[dm], cols = trips[dn], per = (rowSize + cols - 1) / cols;
    e.loop(rows, [&](Value m) {
      ivs[dm] = m;
      // Everything inside the inner loop: a perfect nest flattens.
      scf::ForOp inner = e.loop(cols, [&](Value j) {
        plan.slot = arith::RemUIOp::create(b, loc, m, e.idx(2));
        Value next = arith::RemUIOp::create(b, loc, e.add(m, e.idx(1)), e.idx(2));
        Value more = e.cmp(arith::CmpIPredicate::ult, m, rows - 1);
        auto fillOne = [&](Value flat) {
          Value fill = cols * per > rowSize
                           ? e.both(more, e.cmp(arith::CmpIPredicate::ult, flat, rowSize))
                           : more;
          auto ifFill = scf::IfOp::create(b, loc, fill, /*withElseRegion=*/false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifFill.thenBlock());
          pullInto(next, flat);
        };
        if (per == 1)
          fillOne(j);
        else
          e.loop(per, [&](Value i) { fillOne(e.add(e.mul(j, per), i)); });
        ivs[dn] = j;
        level(lvl + 2, Value());
      });
      e.pipeline(inner);
    });
  }

  /// The nest from loop position `lvl` on; inside the reductions it returns
  /// the accumulated value.
  Value level(unsigned lvl, Value acc) {
    if (prefetch && lvl + 2 == numParallel) {
      pullAt(lvl); // what the nest reads once (there is no level between)
      prefetched(lvl);
      return Value();
    }
    pullAt(lvl);
    if (lvl == numLoops) {
      if (reduces)
        return payload(acc);
      e.push(payload(valueOf(all.size() - 1)), out);
      return Value();
    }
    unsigned d = loops[lvl];
    if (lvl == numParallel && reduces) {
      Value start = valueOf(all.size() - 1);
      if (!start)
        start = e.constant(zeroOf(cast<dfg::OutputType>(out.getType()).getElementType()));
      scf::ForOp loop = e.loopCarry(trips[d], start, [&](Value iv, Value carried) {
        ivs[d] = iv;
        return level(lvl + 1, carried);
      });
      e.push(loop.getResult(0), out);
      return Value();
    }
    if (lvl < numParallel) {
      scf::ForOp loop = e.loop(trips[d], [&](Value iv) {
        ivs[d] = iv;
        level(lvl + 1, Value());
      });
      if (lvl + 1 == numParallel)
        e.pipeline(loop);
      return Value();
    }
    scf::ForOp loop = e.loopCarry(trips[d], acc, [&](Value iv, Value carried) {
      ivs[d] = iv;
      return level(lvl + 1, carried);
    });
    return loop.getResult(0);
  }
};

} // namespace

LogicalResult buildLoopNest(OpBuilder &b, Location loc, linalg::GenericOp op,
                            const KernelInfo &info, ArrayRef<Operand> inputs,
                            const Operand &init, Value out, const Order &outOrder) {
  FailureOr<SmallVector<unsigned>> loops = loopOrder(op, outOrder);
  if (failed(loops))
    return op.emitError("convert-linalg-to-dfg: the output must be indexed by every parallel "
                        "loop dimension, one per axis");
  NestBuilder nb{b, loc, op, info, inputs, out};
  nb.loops = *loops;
  nb.plan(init);
  if (nb.elementwise())
    return success();
  nb.findPrefetch();
  nb.level(0, Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Sliding window: line buffer + window register
//===----------------------------------------------------------------------===//

namespace {
/// The geometry of a 2-D sliding window over input operand `operand`.
struct Window {
  unsigned operand = 0;
  std::optional<unsigned> batch;     // input tensor dim of the batch, if any
  unsigned axis[2] = {0, 0};         // input tensor dims that slide
  SmallVector<unsigned> channels;    // remaining input tensor dims, in order
  WindowAccess access[2];
};

FailureOr<Window> windowOf(linalg::GenericOp op, const KernelInfo &info) {
  Window w;
  if (info.windows.size() != 2 || info.windows[0].operand != info.windows[1].operand ||
      info.windows[0].result == info.windows[1].result)
    return op.emitError("convert-linalg-to-dfg: a sliding window must slide one input over "
                        "exactly two axes (2-D convolution or pooling); this one has ")
           << info.windows.size() << " sliding axes";
  w.operand = info.windows[0].operand;
  w.access[0] = info.windows[0];
  w.access[1] = info.windows[1];
  if (w.access[0].result > w.access[1].result)
    std::swap(w.access[0], w.access[1]);
  w.axis[0] = w.access[0].result;
  w.axis[1] = w.access[1].result;
  AffineMap map = op.getIndexingMapsArray()[w.operand];
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < map.getNumResults(); ++d) {
    if (d == w.axis[0] || d == w.axis[1])
      continue;
    AffineExpr e = map.getResult(d);
    if (!isa<AffineDimExpr, AffineConstantExpr>(e))
      return op.emitError("convert-linalg-to-dfg: the windowed input is read at ")
             << AffineMapAttr::get(map) << "; only its two sliding axes may be compound expressions";
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (d == 0 && dim && iters[dim.getPosition()] == utils::IteratorType::parallel)
      w.batch = d;
    else
      w.channels.push_back(d);
  }
  return w;
}

int64_t effective(const WindowAccess &a, ArrayRef<int64_t> trips) {
  return a.dilation * (trips[a.reductionDim] - 1) + 1;
}
} // namespace

FailureOr<Order> windowInputOrder(linalg::GenericOp op, const KernelInfo &info) {
  FailureOr<Window> w = windowOf(op, info);
  if (failed(w))
    return failure();
  Order order;
  if (w->batch)
    order.push_back(*w->batch);
  order.push_back(w->axis[0]);
  order.push_back(w->axis[1]);
  order.append(w->channels.begin(), w->channels.end());
  return order;
}

FailureOr<Order> windowOutputOrder(linalg::GenericOp op, const KernelInfo &info) {
  FailureOr<Window> w = windowOf(op, info);
  if (failed(w))
    return failure();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap inMap = op.getIndexingMapsArray()[w->operand];
  std::optional<unsigned> batchLoop;
  if (w->batch)
    batchLoop = cast<AffineDimExpr>(inMap.getResult(*w->batch)).getPosition();
  auto outDimOf = [&](unsigned loop) -> std::optional<unsigned> {
    for (auto [pos, e] : llvm::enumerate(outMap.getResults()))
      if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == loop)
        return pos;
    return std::nullopt;
  };
  Order order;
  if (batchLoop)
    if (auto d = outDimOf(*batchLoop))
      order.push_back(*d);
  for (const WindowAccess &a : w->access) {
    auto d = outDimOf(a.parallelDim);
    if (!d)
      return op.emitError("convert-linalg-to-dfg: the output is not indexed by the window's "
                          "parallel dimension d")
             << a.parallelDim;
    order.push_back(*d);
  }
  for (unsigned d = 0; d < outMap.getNumResults(); ++d) {
    if (!isa<AffineDimExpr, AffineConstantExpr>(outMap.getResult(d)))
      return op.emitError("convert-linalg-to-dfg: the output must be indexed by plain loop "
                          "dimensions");
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  }
  return order;
}

FailureOr<Order> windowSideInputOrder(linalg::GenericOp op, const KernelInfo &info,
                                      AffineMap map) {
  FailureOr<Window> w = windowOf(op, info);
  FailureOr<Order> outOrder = windowOutputOrder(op, info);
  FailureOr<SmallVector<unsigned>> dims = plainDims(map);
  if (failed(w) || failed(outOrder) || failed(dims))
    return failure();
  AffineMap inMap = op.getIndexingMapsArray()[w->operand];
  SmallVector<unsigned> pixelLoops = {w->access[0].parallelDim, w->access[1].parallelDim};
  if (w->batch)
    pixelLoops.push_back(cast<AffineDimExpr>(inMap.getResult(*w->batch)).getPosition());
  // Read in full before the first pixel: needs no pixel dimension.
  if (llvm::none_of(*dims, [&](unsigned d) { return llvm::is_contained(pixelLoops, d); }))
    return identityOrder(map.getNumResults());
  // Pulled once per output element: indexed exactly like the output.
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (map.getNumResults() != outMap.getNumResults())
    return failure();
  Order order;
  for (unsigned od : *outOrder) {
    auto want = outMap.getResult(od);
    auto it = llvm::find(map.getResults(), want);
    if (it == map.getResults().end())
      return failure();
    order.push_back(it - map.getResults().begin());
  }
  return order;
}

namespace {

/// The body of a sliding-window process (buildWindow), one builder per step:
/// the window's geometry, the side inputs, the line and window buffers, and
/// per padded pixel the shift of the new column in, the test whether a
/// window is complete, and the output elements computed from it.
struct WindowBuilder {
  OpBuilder &b;
  Location loc;
  linalg::GenericOp op;
  const KernelInfo &info;
  ArrayRef<Operand> inputs;
  Value out;
  Emitter e{b, loc};

  Window w;
  SmallVector<int64_t> trips;
  SmallVector<AffineMap> maps;
  AffineMap inMap, outMap;
  const Operand *x = nullptr;
  RankedTensorType xType;
  Type elem;
  /// Per window axis (rows, columns): the input's size, its low padding,
  /// the padded size, the effective kernel, stride, dilation, output size.
  int64_t size[2], low[2], padded[2], keff[2], stride[2], dil[2], outSize[2];
  int64_t channels = 1;
  TypedAttr padValue;

  /// Every operand, the init last; side inputs read in full up front
  /// (fullBuffers) or pulled per output element (perElement).
  SmallVector<Operand> all;
  SmallVector<Value> fullBuffers;
  SmallVector<unsigned> perElement;
  Value lines, window;
  SmallVector<Value> ivs;
  std::optional<unsigned> batchLoop;
  /// Output dims that are neither batch nor pixel (the per-pixel loops), and
  /// the reductions inside them.
  SmallVector<unsigned> restLoops, reductions;

  void geometry() {
    trips = info.tripCounts;
    maps = op.getIndexingMapsArray();
    inMap = maps[w.operand];
    outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    x = &inputs[w.operand];
    xType = cast<RankedTensorType>(x->source.getType());
    elem = xType.getElementType();
    for (int a = 0; a < 2; ++a) {
      unsigned d = w.axis[a];
      size[a] = xType.getDimSize(d);
      low[a] = x->padLow.empty() ? 0 : x->padLow[d];
      int64_t high = x->padHigh.empty() ? 0 : x->padHigh[d];
      padded[a] = size[a] + low[a] + high;
      keff[a] = effective(w.access[a], trips);
      stride[a] = w.access[a].stride;
      dil[a] = w.access[a].dilation;
      outSize[a] = trips[w.access[a].parallelDim];
    }
    for (unsigned d : w.channels)
      channels *= xType.getDimSize(d);
    padValue = x->padValue ? x->padValue : zeroOf(elem);
    if (w.batch)
      batchLoop = cast<AffineDimExpr>(inMap.getResult(*w.batch)).getPosition();
    ivs.resize(trips.size());
  }

  /// Side inputs: read in full up front, or pulled per output element.
  LogicalResult sideInputs(const Operand &init) {
    all.assign(inputs.begin(), inputs.end());
    all.push_back(init);
    fullBuffers.resize(all.size());
    SmallVector<unsigned> pixelLoops = {w.access[0].parallelDim, w.access[1].parallelDim};
    if (batchLoop)
      pixelLoops.push_back(*batchLoop);
    for (auto [k, operand] : llvm::enumerate(all)) {
      if (k == w.operand || operand.role != Role::Stream)
        continue;
      if (failed(windowSideInputOrder(op, info, maps[k])))
        return op.emitError("convert-linalg-to-dfg: streamed operand #")
               << k << " of a sliding window must either not depend on the pixel or be "
               << "indexed like the output";
      bool perPixel = llvm::any_of(maps[k].getResults(), [&](AffineExpr ex) {
        auto d = dyn_cast<AffineDimExpr>(ex);
        return d && llvm::is_contained(pixelLoops, d.getPosition());
      });
      if (perPixel) {
        perElement.push_back(k);
        continue;
      }
      fullBuffers[k] = e.pullBuffer(
          cast<RankedTensorType>(operand.source.getType()).getShape(), operand.port);
    }
    return success();
  }

  /// keff[0] - 1 line buffers and the window, completely partitioned where
  /// every tap reads them at once.
  void buffers() {
    if (keff[0] > 1) {
      lines = e.buffer({keff[0] - 1, padded[1], channels}, elem);
      lines.getDefiningOp()->setAttr("ming.partition_complete_dims", b.getDenseI64ArrayAttr({1}));
    }
    window = e.buffer({keff[0], keff[1], channels}, elem);
    window.getDefiningOp()->setAttr("ming.partition_complete_dims",
                                    b.getDenseI64ArrayAttr({1, 2}));
    // Start from the pad value: the shifts then never copy an indeterminate
    // value (undefined behaviour in C++), at a cost of one pass over the
    // buffers before the first pixel.
    for (Value buffer : {lines, window}) {
      if (!buffer)
        continue;
      e.nest(cast<MemRefType>(buffer.getType()).getShape(), [&](ArrayRef<Value> bivs) {
        memref::StoreOp::create(b, loc, e.constant(padValue), buffer, bivs);
      });
    }
  }

  void loopsAroundPixel(const Order &outOrder) {
    for (unsigned od : outOrder) {
      auto d = dyn_cast<AffineDimExpr>(outMap.getResult(od));
      if (!d)
        continue;
      unsigned loop = d.getPosition();
      if (loop == w.access[0].parallelDim || loop == w.access[1].parallelDim ||
          (batchLoop && loop == *batchLoop))
        continue;
      restLoops.push_back(loop);
    }
    reductions.assign(info.reduction.begin(), info.reduction.end());
    for (unsigned d = 0; d < trips.size(); ++d)
      if (op.getIteratorTypesArray()[d] == utils::IteratorType::reduction &&
          !llvm::is_contained(reductions, d))
        reductions.push_back(d);
    llvm::sort(reductions);
  }

  /// Index of the windowed input's channel dims, flattened row-major.
  Value channelIndex() {
    Value flat = e.idx(0);
    for (unsigned d : w.channels) {
      flat = e.mul(flat, xType.getDimSize(d));
      flat = e.add(flat, e.affine(inMap.getResult(d), ivs));
    }
    return flat;
  }

  /// Shifts the pixel at padded (r, c) into the window and the line
  /// buffers, channel by channel in the stream's order: pulled when it is
  /// inside the input, the pad value when not.
  void shiftIn(Value r, Value c) {
    using P = arith::CmpIPredicate;
    Value inRow = e.both(e.cmp(P::sge, r, low[0]), e.cmp(P::slt, r, low[0] + size[0]));
    Value inCol = e.both(e.cmp(P::sge, c, low[1]), e.cmp(P::slt, c, low[1] + size[1]));
    Value inside = e.both(inRow, inCol);
    scf::ForOp chLoop = e.loop(channels, [&](Value ch) {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{elem}, inside, true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, e.pull(x->port));
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, e.constant(padValue));
      }
      Value v = ifOp.getResult(0);
      for (int64_t kh = 0; kh < keff[0]; ++kh)
        for (int64_t kw = 0; kw + 1 < keff[1]; ++kw) {
          Value t = memref::LoadOp::create(b, loc, window, ValueRange{e.idx(kh), e.idx(kw + 1), ch});
          memref::StoreOp::create(b, loc, t, window, ValueRange{e.idx(kh), e.idx(kw), ch});
        }
      for (int64_t kh = 0; kh + 1 < keff[0]; ++kh) {
        Value t = memref::LoadOp::create(b, loc, lines, ValueRange{e.idx(kh), c, ch});
        memref::StoreOp::create(b, loc, t, window, ValueRange{e.idx(kh), e.idx(keff[1] - 1), ch});
      }
      memref::StoreOp::create(b, loc, v, window,
                              ValueRange{e.idx(keff[0] - 1), e.idx(keff[1] - 1), ch});
      for (int64_t kh = 0; kh + 2 < keff[0]; ++kh) {
        Value t = memref::LoadOp::create(b, loc, lines, ValueRange{e.idx(kh + 1), c, ch});
        memref::StoreOp::create(b, loc, t, lines, ValueRange{e.idx(kh), c, ch});
      }
      if (keff[0] > 1)
        memref::StoreOp::create(b, loc, v, lines, ValueRange{e.idx(keff[0] - 2), c, ch});
    });
    e.unrollFull(chLoop);
  }

  /// Emits the output elements of the window ending at padded (r, c) when
  /// it is complete: at the bottom-right tap of a strided position.
  void whenComplete(Value r, Value c) {
    using P = arith::CmpIPredicate;
    Value rr = arith::SubIOp::create(b, loc, r, e.idx(keff[0] - 1));
    Value cc = arith::SubIOp::create(b, loc, c, e.idx(keff[1] - 1));
    Value ready = e.both(e.cmp(P::sge, r, keff[0] - 1), e.cmp(P::sge, c, keff[1] - 1));
    auto ifReady = scf::IfOp::create(b, loc, TypeRange{}, ready, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifReady.thenBlock()->getTerminator());
    Value oh = arith::DivUIOp::create(b, loc, rr, e.idx(stride[0]));
    Value ow = arith::DivUIOp::create(b, loc, cc, e.idx(stride[1]));
    Value onGrid = e.both(e.cmp(P::eq, arith::RemUIOp::create(b, loc, rr, e.idx(stride[0])), 0),
                          e.cmp(P::eq, arith::RemUIOp::create(b, loc, cc, e.idx(stride[1])), 0));
    Value inOut = e.both(e.cmp(P::slt, oh, outSize[0]), e.cmp(P::slt, ow, outSize[1]));
    auto ifOut = scf::IfOp::create(b, loc, TypeRange{}, e.both(onGrid, inOut), false);
    b.setInsertionPoint(ifOut.thenBlock()->getTerminator());
    ivs[w.access[0].parallelDim] = oh;
    ivs[w.access[1].parallelDim] = ow;
    outputs(0);
  }

  /// The per-pixel loops from `level` on, then one output element.
  void outputs(unsigned level) {
    if (level < restLoops.size()) {
      e.loop(trips[restLoops[level]], [&](Value iv) {
        ivs[restLoops[level]] = iv;
        outputs(level + 1);
      });
      return;
    }
    SmallVector<Value> pulled(all.size());
    for (unsigned k : perElement)
      pulled[k] = e.pull(all[k].port);
    Value start = valueOf(all.size() - 1, pulled);
    if (!start)
      start = e.constant(zeroOf(cast<dfg::OutputType>(out.getType()).getElementType()));
    e.push(reduce(0, start, pulled), out);
  }

  /// Operand k at the current ivs: a window tap, a pulled element, or a read.
  Value valueOf(unsigned k, ArrayRef<Value> pulled) {
    if (k == w.operand) {
      Value rIdx = e.mul(ivs[w.access[0].reductionDim], dil[0]);
      Value cIdx = e.mul(ivs[w.access[1].reductionDim], dil[1]);
      return memref::LoadOp::create(b, loc, window, ValueRange{rIdx, cIdx, channelIndex()});
    }
    if (pulled[k])
      return pulled[k];
    return readOperand(e, all[k], maps[k], ivs, fullBuffers[k]);
  }

  /// The reduction loops from `level` on around the payload.
  Value reduce(unsigned level, Value acc, ArrayRef<Value> pulled) {
    if (level == reductions.size()) {
      SmallVector<Value> args;
      for (unsigned k = 0; k < inputs.size(); ++k)
        args.push_back(valueOf(k, pulled));
      args.push_back(acc);
      return clonePayload(e, op, args, ivs);
    }
    unsigned d = reductions[level];
    scf::ForOp l = e.loopCarry(trips[d], acc, [&](Value iv, Value carried) {
      ivs[d] = iv;
      return reduce(level + 1, carried, pulled);
    });
    return l.getResult(0);
  }

  /// Every padded pixel in raster order, the column loop pipelined.
  void image() {
    e.loop(padded[0], [&](Value r) {
      scf::ForOp cols = e.loop(padded[1], [&](Value c) {
        shiftIn(r, c);
        whenComplete(r, c);
      });
      e.pipeline(cols);
    });
  }
};

} // namespace

LogicalResult buildWindow(OpBuilder &b, Location loc, linalg::GenericOp op,
                          const KernelInfo &info, ArrayRef<Operand> inputs,
                          const Operand &init, Value out) {
  FailureOr<Window> w = windowOf(op, info);
  FailureOr<Order> outOrder = windowOutputOrder(op, info);
  if (failed(w) || failed(outOrder))
    return failure();
  WindowBuilder wb{b, loc, op, info, inputs, out};
  wb.w = *w;
  wb.geometry();
  if (failed(wb.sideInputs(init)))
    return failure();
  wb.buffers();
  wb.loopsAroundPixel(*outOrder);
  if (wb.batchLoop)
    wb.e.loop(wb.trips[*wb.batchLoop], [&](Value n) {
      wb.ivs[*wb.batchLoop] = n;
      wb.image();
    });
  else
    wb.image();
  return success();
}

int64_t lookaheadElements(linalg::GenericOp op, const KernelInfo &info,
                          ArrayRef<Operand> inputs, const Order &outOrder) {
  if (info.kind == KernelClass::SlidingWindow) {
    FailureOr<Window> w = windowOf(op, info);
    if (failed(w))
      return 0;
    const Operand &x = inputs[w->operand];
    auto type = cast<RankedTensorType>(x.source.getType());
    int64_t channels = 1;
    for (unsigned d : w->channels)
      channels *= type.getDimSize(d);
    auto pad = [&](ArrayRef<int64_t> p, unsigned axis) { return p.empty() ? 0 : p[axis]; };
    int64_t height = type.getDimSize(w->axis[0]), width = type.getDimSize(w->axis[1]);
    int64_t top = pad(x.padLow, w->axis[0]), left = pad(x.padLow, w->axis[1]);
    int64_t kr = effective(w->access[0], info.tripCounts);
    int64_t kc = effective(w->access[1], info.tripCounts);
    // The first output sits at padded position (kr-1, kc-1): every real pixel
    // up to it in raster order is pulled first.
    int64_t rows = std::clamp<int64_t>(kr - 1 - top, 0, height);
    bool lastRowReal = kr - 1 >= top && kr - 1 < top + height;
    int64_t cols = lastRowReal ? std::clamp<int64_t>(kc - left, 0, width) : 0;
    // Later the process runs further ahead: at each row start (kc-1 pixels
    // before the row's first output) and over the rows a vertical stride skips.
    int64_t ahead = (kc - 1) + (w->access[1].stride - 1) + (w->access[0].stride - 1) * width;
    return (rows * width + cols + ahead) * channels;
  }
  // A loop nest holds its reuse buffers plus the element in flight.
  FailureOr<SmallVector<unsigned>> loops = loopOrder(op, outOrder);
  if (failed(loops))
    return 1;
  int64_t held = 1;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (auto [k, operand] : llvm::enumerate(inputs)) {
    FailureOr<SmallVector<unsigned>> dims = plainDims(maps[k]);
    if (operand.role != Role::Stream)
      continue;
    if (failed(dims)) {
      held += cast<RankedTensorType>(operand.source.getType()).getNumElements();
      continue;
    }
    unsigned level = 0;
    while (level < loops->size() && llvm::is_contained(*dims, (*loops)[level]))
      ++level;
    int64_t buffered = 1;
    for (unsigned pos = level; pos < loops->size(); ++pos)
      if (llvm::is_contained(*dims, (*loops)[pos]))
        buffered *= info.tripCounts[(*loops)[pos]];
    // The first output waits for the whole first reduction: a row's maximum
    // (Softmax) pulls the row before it says anything.
    int64_t reduced = 1;
    for (unsigned d : *dims)
      if (info.reduction.contains(d) ||
          op.getIteratorTypesArray()[d] == utils::IteratorType::reduction)
        reduced *= info.tripCounts[d];
    held += std::max(buffered, reduced);
  }
  return held;
}

} // namespace ming::lowering
