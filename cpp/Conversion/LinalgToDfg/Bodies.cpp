// Bodies of dfg processes: the streaming structures of MING Sec. IV-B written
// as scf loops with constant bounds, memref buffers and dfg.pull / dfg.push.
// Every loop and buffer is static, so dfg -> emitHLS maps them one to one.
// Here the compute processes (loop nests, accumulations) and the helpers
// all bodies share; the structural ones (load, store, fork, reorder, concat,
// slice, pad) are in Structural.cpp.
#include "Bodies.h"
#include "Emit.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
/// `args`, linalg.index becomes the iv of its loop, a `tensor.extract` of a
/// captured table a memref.load of its ROM, other constants captured from
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
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      // The address is data: the ROM is read wherever the value points.
      memref::GlobalOp global = e.tables ? e.tables->lookup(extract.getTensor()) : nullptr;
      assert(global && "lowerGeneric gives every table read a ROM");
      Value rom = memref::GetGlobalOp::create(e.b, e.loc, global.getType(), global.getSymName());
      SmallVector<Value> indices =
          llvm::map_to_vector(extract.getIndices(), [&](Value i) { return map.lookup(i); });
      map.map(extract.getResult(), memref::LoadOp::create(e.b, e.loc, rom, indices).getResult());
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

//===----------------------------------------------------------------------===//
// Flat loops (the structural processes of Structural.cpp, elementwise nests)
//===----------------------------------------------------------------------===//

/// One pipelined loop over every element of `shape` in stream `order`, the
/// tensor indices recovered by division: the node then offers the DSE any
/// unroll factor (and lane count) dividing the element count, not only the
/// divisors of its innermost dimension.
/// The row-major indices over `sizes` of the flat position `flat`.
SmallVector<Value> unflatten(Emitter &e, Value flat, ArrayRef<int64_t> sizes) {
  SmallVector<Value> ivs(sizes.size());
  int64_t stride = 1;
  for (int64_t i = sizes.size() - 1; i >= 0; --i) {
    Value q = stride == 1 ? flat : Value(arith::DivUIOp::create(e.b, e.loc, flat, e.idx(stride)));
    ivs[i] = i == 0 ? q : Value(arith::RemUIOp::create(e.b, e.loc, q, e.idx(sizes[i])));
    stride *= sizes[i];
  }
  return ivs;
}

scf::ForOp flatNest(Emitter &e, ArrayRef<int64_t> sizes,
                    llvm::function_ref<void(ArrayRef<Value>)> body) {
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  return e.nest({count}, [&](ArrayRef<Value> flat) { body(unflatten(e, flat[0], sizes)); });
}

//===----------------------------------------------------------------------===//
// Operand access shared by the compute processes
//===----------------------------------------------------------------------===//

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

SmallVector<unsigned> reducedAxes(AffineMap inMap, AffineMap outMap, ArrayRef<int64_t> shape,
                                  const Order &order) {
  SmallVector<unsigned> axes;
  for (unsigned axis : order) {
    auto d = dyn_cast<AffineDimExpr>(inMap.getResult(axis));
    if (d && shape[axis] > 1 && !outMap.isFunctionOfDim(d.getPosition()))
      axes.push_back(axis);
  }
  return axes;
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
    return memref::LoadOp::create(e.b, e.loc, mem,
                                  e.apply(operand.through ? operand.through.compose(map) : map, ivs));
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
struct NestBuilder : ComputeBody {
  using ComputeBody::ComputeBody;


  /// The loops in nest order: parallel ones in the output's stream order,
  /// then the reductions.
  SmallVector<unsigned> loops;
  unsigned numLoops = 0, numParallel = 0;
  bool reduces = false;
  /// All operands, inputs then the init, with their maps and stream plans.
  SmallVector<Operand, 4> all;
  SmallVector<AffineMap> maps;
  SmallVector<StreamPlan> plans;
  SmallVector<int64_t> trips;
  SmallVector<Value> ivs;
  /// The operand whose rows are pulled ahead into two buffers, if any.
  std::optional<unsigned> prefetch;
  /// The first parallel loop of those flattened into the prefetched rows.
  unsigned rowsFrom = 0;

  /// Whether the parallel loops run once: the nest computes one element.
  bool oneOutput() const {
    for (unsigned pos = 0; pos < numParallel; ++pos)
      if (trips[loops[pos]] != 1)
        return false;
    return true;
  }

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
    if (!ok) {
      prefetch.reset();
      return;
    }
    // The rows are every pixel, not one image row: a buffer pair per image
    // row would pull each row's first patch alone and drain the pipeline at
    // every row (8% of a 3x3 convolution on 32x32). Loops are flattened
    // outward while nothing else is pulled between them.
    rowsFrom = numParallel - 2;
    auto pulledAt = [&](unsigned lvl) {
      return llvm::any_of(llvm::enumerate(all), [&](auto it) {
        return it.value().role == Role::Stream && it.index() != *prefetch &&
               plans[it.index()].level == lvl;
      });
    };
    while (rowsFrom > 0 && !pulledAt(rowsFrom))
      --rowsFrom;
  }

  /// The parallel loops from `lvl` on with the prefetched rows: all but the
  /// last flattened into the rows, the last one the slots of a row.
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
    SmallVector<int64_t> rowTrips;
    for (unsigned pos = lvl; pos + 1 < numParallel; ++pos)
      rowTrips.push_back(trips[loops[pos]]);
    unsigned dn = loops[numParallel - 1];
    // One output per slot; the next row arrives `per` elements a slot, so a
    // long row (K > N) does not leave the multipliers idle.
    int64_t rows = llvm::product_of(rowTrips), cols = trips[dn],
            per = (rowSize + cols - 1) / cols;
    e.loop(rows, [&](Value m) {
      for (auto [pos, iv] : llvm::enumerate(unflatten(e, m, rowTrips)))
        ivs[loops[lvl + pos]] = iv;
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
        level(numParallel, Value());
      });
      e.pipeline(inner);
    });
  }

  /// The nest from loop position `lvl` on; inside the reductions it returns
  /// the accumulated value.
  Value level(unsigned lvl, Value acc) {
    if (prefetch && lvl == rowsFrom) {
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
      // A reduction to one element (a softmax row's max or sum) has no
      // parallel loop worth pipelining (a loop of one iteration folds away
      // with its directive): its reduction loop is pipelined, at the II its
      // accumulation allows, and the DSE may unroll it.
      if (oneOutput())
        e.pipeline(loop);
      e.push(loop.getResult(0), out);
      return Value();
    }
    if (lvl < numParallel) {
      scf::ForOp loop = e.loop(trips[d], [&](Value iv) {
        ivs[d] = iv;
        level(lvl + 1, Value());
      });
      if (lvl + 1 == numParallel && !(reduces && oneOutput()))
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
                            const Operand &init, Value out, const Order &outOrder,
                            const Tables &tables) {
  FailureOr<SmallVector<unsigned>> loops = loopOrder(op, outOrder);
  if (failed(loops))
    return op.emitError("convert-linalg-to-dfg: the output must be indexed by every parallel "
                        "loop dimension, one per axis");
  NestBuilder nb(b, loc, op, info, inputs, out, tables);
  nb.loops = *loops;
  nb.plan(init);
  if (nb.elementwise())
    return success();
  nb.findPrefetch();
  nb.level(0, Value());
  return success();
}

void setIvs(MutableArrayRef<Value> ivs, AffineMap map, ArrayRef<Value> idx) {
  for (auto [pos, expr] : llvm::enumerate(map.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(expr))
      ivs[d.getPosition()] = idx[pos];
}

Value startAccumulators(Emitter &e, linalg::GenericOp op, const Operand &init,
                        const Order &outOrder) {
  AffineMap outMap = op.getIndexingMapsArray().back();
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  SmallVector<Value> ivs(op.getNumLoops(), e.idx(0));
  Value acc = e.buffer(resultType.getShape(), resultType.getElementType());
  flatNest(e, permuteShape(resultType.getShape(), outOrder), [&](ArrayRef<Value> flat) {
    SmallVector<Value> idx = unpermute(flat, outOrder);
    setIvs(ivs, outMap, idx);
    Value start = readOperand(e, init, outMap, ivs, Value());
    if (!start)
      start = e.constant(zeroOf(resultType.getElementType()));
    memref::StoreOp::create(e.b, e.loc, start, acc, idx);
  });
  return acc;
}

void pushAccumulators(Emitter &e, Value acc, const Order &outOrder, Value out) {
  flatNest(e, permuteShape(cast<MemRefType>(acc.getType()).getShape(), outOrder),
           [&](ArrayRef<Value> flat) {
             e.push(memref::LoadOp::create(e.b, e.loc, acc, unpermute(flat, outOrder)), out);
           });
}

LogicalResult buildAccumulation(OpBuilder &b, Location loc, linalg::GenericOp op,
                                ArrayRef<Operand> inputs, const Operand &init, Value out,
                                const Order &outOrder, const Tables &tables) {
  Emitter e{b, loc, &tables};
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap outMap = maps.back();
  // Loops the input does not index run once (the checks of `accumulates`).
  Value zero = e.idx(0);
  SmallVector<Value> ivs(op.getNumLoops(), zero);
  Value acc = startAccumulators(e, op, init, outOrder);
  unsigned streamed = llvm::find_if(inputs, [](const Operand &o) { return o.role == Role::Stream; }) -
                      inputs.begin();
  const Operand &in = inputs[streamed];
  auto inType = cast<RankedTensorType>(in.source.getType());
  ivs.assign(op.getNumLoops(), zero);
  scf::ForOp loop = flatNest(e, permuteShape(inType.getShape(), in.order), [&](ArrayRef<Value> flat) {
    setIvs(ivs, maps[streamed], unpermute(flat, in.order));
    SmallVector<Value> args;
    for (auto [k, operand] : llvm::enumerate(inputs))
      args.push_back(k == streamed ? e.pull(operand.port)
                                   : readOperand(e, operand, maps[k], ivs, Value()));
    SmallVector<Value> slot = e.apply(outMap, ivs);
    args.push_back(memref::LoadOp::create(b, loc, acc, slot));
    memref::StoreOp::create(b, loc, clonePayload(e, op, args, ivs), acc, slot);
  });
  // An accumulator comes back after every element streamed inside the
  // innermost reduced axis: the distance of its read-modify-write.
  SmallVector<unsigned> reduced = reducedAxes(maps[streamed], outMap, inType.getShape(), in.order);
  if (!reduced.empty()) {
    int64_t distance = 1;
    for (unsigned axis : llvm::reverse(in.order)) {
      if (axis == reduced.back())
        break;
      distance *= inType.getDimSize(axis);
    }
    loop->setAttr(directives::kCarriedDistance, b.getI64IntegerAttr(distance));
  }
  pushAccumulators(e, acc, outOrder, out);
  return success();
}

int64_t lookaheadElements(linalg::GenericOp op, const KernelInfo &info,
                          ArrayRef<Operand> inputs, const Order &outOrder) {
  if (info.kind == KernelClass::SlidingWindow)
    return windowLookahead(op, info, inputs);
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
