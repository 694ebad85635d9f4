// A float dense layer accumulated as its input streams (an outer product per
// input element): y[co] += x[ci] * W[ci][co] for every output co as each
// x[ci] arrives, where the loop nest of Bodies.cpp waits for the whole x and
// then computes each output as one chain of adds in the model's order, a
// chain that is still running long after the last input. Here each
// accumulator meets its terms in that same order (the results are the
// model's bit for bit), and after its last input the layer owes one add per
// output. Behind a producer that spreads its outputs over its run (a dense
// layer or a convolution computing output after output) the two overlap.
// Its own outputs all come at its end, so the layer after it is better left
// a loop nest, which is what `GraphBuilder::progressive` decides.
#include "Emit.h"
#include "Normalise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace ming::lowering {

namespace {

/// The loop dims the output has that the streamed input does not index
/// (the columns each input element updates), or none when `op` is not a
/// single-row dense layer over one streamed input.
std::optional<SmallVector<unsigned>> columnDims(linalg::GenericOp op, const KernelInfo &info,
                                                ArrayRef<Operand> inputs, const Operand &init,
                                                unsigned &streamed) {
  if (info.kind != KernelClass::RegularReduction || init.role == Role::Stream)
    return std::nullopt;
  std::optional<unsigned> found;
  for (auto [k, operand] : llvm::enumerate(inputs)) {
    if (operand.role != Role::Stream)
      continue;
    if (found || !operand.padLow.empty())
      return std::nullopt;
    found = k;
  }
  if (!found)
    return std::nullopt;
  streamed = *found;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  FailureOr<SmallVector<unsigned>> dims = plainDims(maps[streamed]);
  if (failed(dims))
    return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> columns;
  bool reduces = false;
  for (auto [d, trip] : llvm::enumerate(info.tripCounts)) {
    if (trip == 1)
      continue;
    bool indexed = llvm::is_contained(*dims, d);
    bool parallel = iters[d] == utils::IteratorType::parallel;
    // One row: the input's parallel dims (a batch, pixels) run once, so
    // every input element is a term of every output.
    if (parallel && indexed)
      return std::nullopt;
    if (!parallel && !indexed)
      return std::nullopt;
    if (parallel)
      columns.push_back(d);
    reduces |= !parallel;
  }
  if (columns.empty() || !reduces)
    return std::nullopt;
  return columns;
}

} // namespace

bool outerProduct(linalg::GenericOp op, const KernelInfo &info, ArrayRef<Operand> inputs,
                  const Operand &init, const Order &arriving) {
  // The accumulators are registers or one small RAM: as many as a single
  // accumulation (`accumulates`) keeps.
  constexpr int64_t kMaxAccumulators = 4096;
  auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
  if (resultType.getNumElements() > kMaxAccumulators)
    return false;
  unsigned streamed = 0;
  if (!columnDims(op, info, inputs, init, streamed))
    return false;
  // An integer loop nest sums its reduction as a tree, a few cycles after
  // its input, and packs two products in a DSP: measured on the int8
  // autoencoder (kv260), outer products made it slower (1,212 to 1,503
  // cycles against 1,197). A float one adds its terms one after the other
  // in the model's order, a chain of adders after its last input, which
  // the outer product reduces to one add. Each accumulator must still meet
  // its terms in the op's order: the reduced axes arrive nested as their
  // loop dims are.
  if (integerPayload(op))
    return false;
  AffineMap map = op.getIndexingMapsArray()[streamed];
  auto shape = cast<RankedTensorType>(inputs[streamed].source.getType()).getShape();
  SmallVector<unsigned> dimsArriving;
  for (unsigned axis : reducedAxes(map, op.getIndexingMapsArray().back(), shape, arriving))
    dimsArriving.push_back(cast<AffineDimExpr>(map.getResult(axis)).getPosition());
  return llvm::is_sorted(dimsArriving);
}

LogicalResult buildOuterProduct(OpBuilder &b, Location loc, linalg::GenericOp op,
                                const KernelInfo &info, ArrayRef<Operand> inputs,
                                const Operand &init, Value out, const Order &outOrder,
                                const Tables &tables) {
  Emitter e{b, loc, &tables};
  unsigned streamed = 0;
  std::optional<SmallVector<unsigned>> columns = columnDims(op, info, inputs, init, streamed);
  if (!columns)
    return op.emitError("convert-linalg-to-dfg: internal error: not a single-row dense layer");
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap outMap = maps.back();
  Value zero = e.idx(0);
  SmallVector<Value> ivs(op.getNumLoops(), zero);
  // The accumulators start from the init (a bias, or zero).
  Value acc = startAccumulators(e, op, init, outOrder);

  // Rows: the input's elements in the order they arrive; columns: the
  // outputs each updates. The next element is pulled into the other half of
  // a register pair during the current row, so the nest is perfect and
  // flattens into one pipeline of rows x columns slots.
  const Operand &in = inputs[streamed];
  auto inType = cast<RankedTensorType>(in.source.getType());
  SmallVector<int64_t> rowSizes = permuteShape(inType.getShape(), in.order);
  int64_t rows = inType.getNumElements();
  SmallVector<int64_t> colTrips;
  for (unsigned d : *columns)
    colTrips.push_back(info.tripCounts[d]);
  int64_t cols = llvm::product_of(colTrips);
  Value xs = e.buffer({2}, inType.getElementType());
  memref::StoreOp::create(b, loc, e.pull(in.port), xs, ValueRange{zero});
  scf::ForOp outer = e.loop(rows, [&](Value m) {
    // Everything inside the inner loop: a perfect nest flattens.
    scf::ForOp inner = e.loop(cols, [&](Value j) {
      Value slot = arith::RemUIOp::create(b, loc, m, e.idx(2));
      Value next = arith::RemUIOp::create(b, loc, e.add(m, e.idx(1)), e.idx(2));
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j, zero);
      Value pull = e.both(first, e.cmp(arith::CmpIPredicate::ult, m, rows - 1));
      auto ifPull = scf::IfOp::create(b, loc, pull, /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifPull.thenBlock());
        memref::StoreOp::create(b, loc, e.pull(in.port), xs, ValueRange{next});
      }
      ivs.assign(op.getNumLoops(), zero);
      setIvs(ivs, maps[streamed], unpermute(unflatten(e, m, rowSizes), in.order));
      for (auto [d, iv] : llvm::zip(*columns, unflatten(e, j, colTrips)))
        ivs[d] = iv;
      SmallVector<Value> args;
      for (auto [k, operand] : llvm::enumerate(inputs))
        args.push_back(k == streamed ? memref::LoadOp::create(b, loc, xs, ValueRange{slot}).getResult()
                                     : readOperand(e, operand, maps[k], ivs, Value()));
      SmallVector<Value> where = e.apply(outMap, ivs);
      args.push_back(memref::LoadOp::create(b, loc, acc, where));
      memref::StoreOp::create(b, loc, clonePayload(e, op, args, ivs), acc, where);
    });
    e.pipeline(inner);
    // An accumulator comes back one row later: `cols` slots of the inner
    // loop, one iteration of the outer one (should the DSE pipeline that).
    inner->setAttr(directives::kCarriedDistance, b.getI64IntegerAttr(cols));
  });
  outer->setAttr(directives::kCarriedDistance, b.getI64IntegerAttr(1));

  pushAccumulators(e, acc, outOrder, out);
  return success();
}

} // namespace ming::lowering
