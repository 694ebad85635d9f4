// Stream orders through reshapes: see Orders.h.
#include "Orders.h"

using namespace mlir;

namespace ming::lowering {

bool sameSequence(ArrayRef<int64_t> shape, const Order &a, const Order &b) {
  auto strip = [&](const Order &o) {
    Order out;
    for (unsigned d : o)
      if (shape[d] != 1)
        out.push_back(d);
    return out;
  };
  return strip(a) == strip(b);
}

std::optional<Order> stagedOrder(ArrayRef<int64_t> shape, const Order &stream,
                                 int64_t elementBits, int64_t maxBlockBits) {
  int64_t inner = int64_t(shape.size()) - 1;
  while (inner >= 0 && shape[inner] == 1)
    --inner;
  if (inner < 0)
    return std::nullopt;
  auto at = llvm::find(stream, unsigned(inner));
  Order staged(stream.begin(), at);
  Order block(at, stream.end());
  llvm::sort(block);
  staged.append(block.begin(), block.end());
  if (sameSequence(shape, staged, stream))
    return std::nullopt;
  int64_t blockElements = 1, outer = 1;
  for (unsigned d : block)
    blockElements *= shape[d];
  for (unsigned d : llvm::make_range(stream.begin(), at))
    outer *= shape[d];
  if (outer == 1 || blockElements * elementBits > maxBlockBits)
    return std::nullopt;
  return staged;
}

std::optional<SmallVector<unsigned>> unitReshapeMap(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<unsigned> fromDims, toDims;
  for (auto [d, n] : llvm::enumerate(from))
    if (n != 1)
      fromDims.push_back(d);
  for (auto [d, n] : llvm::enumerate(to))
    if (n != 1)
      toDims.push_back(d);
  if (fromDims.size() != toDims.size())
    return std::nullopt;
  for (auto [f, t] : llvm::zip(fromDims, toDims))
    if (from[f] != to[t])
      return std::nullopt;
  SmallVector<unsigned> map(from.size(), ~0u);
  for (auto [f, t] : llvm::zip(fromDims, toDims))
    map[f] = t;
  return map;
}

Order reshapeOrder(ArrayRef<int64_t> from, ArrayRef<int64_t> to, const Order &order,
                   ArrayRef<unsigned> map) {
  Order out;
  for (auto [d, n] : llvm::enumerate(to))
    if (n == 1)
      out.push_back(d);
  for (unsigned d : order)
    if (from[d] != 1)
      out.push_back(map[d]);
  return out;
}

Order refineOrder(const Order &coarse, ArrayRef<ReassociationIndices> groups) {
  Order fine;
  for (unsigned j : coarse)
    for (int64_t d : groups[j])
      fine.push_back(d);
  return fine;
}

std::optional<Order> coarsenOrder(const Order &fine, ArrayRef<int64_t> fineShape,
                                  ArrayRef<ReassociationIndices> groups) {
  SmallVector<unsigned> groupOf(fineShape.size());
  SmallVector<SmallVector<int64_t>> live(groups.size()); // non-unit dims per group
  for (auto [j, g] : llvm::enumerate(groups))
    for (int64_t d : g) {
      groupOf[d] = j;
      if (fineShape[d] != 1)
        live[j].push_back(d);
    }
  Order coarse;
  for (auto [j, l] : llvm::enumerate(live))
    if (l.empty())
      coarse.push_back(j);
  SmallVector<int64_t> seen;
  std::optional<unsigned> current;
  for (unsigned d : fine) {
    if (fineShape[d] == 1)
      continue;
    unsigned j = groupOf[d];
    if (current != j) {
      // A group starts: it must not have appeared before.
      if (llvm::is_contained(coarse, j))
        return std::nullopt;
      coarse.push_back(j);
      current = j;
      seen.clear();
    }
    seen.push_back(d);
    if (seen.size() == live[j].size() && !llvm::equal(seen, live[j]))
      return std::nullopt;
  }
  if (coarse.size() != groups.size())
    return std::nullopt;
  return coarse;
}

Order followOrder(AffineMap from, const Order &fromOrder, AffineMap to) {
  Order order;
  for (unsigned d : fromOrder) {
    auto dim = dyn_cast<AffineDimExpr>(from.getResult(d));
    if (!dim)
      continue;
    for (auto [pos, e] : llvm::enumerate(to.getResults()))
      if (e == dim && !llvm::is_contained(order, pos))
        order.push_back(pos);
  }
  for (unsigned d = 0; d < to.getNumResults(); ++d)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  return order;
}

Order groupedOrder(const Order &fine, ArrayRef<ReassociationIndices> groups) {
  SmallVector<unsigned> groupOf(fine.size());
  for (auto [j, g] : llvm::enumerate(groups))
    for (int64_t d : g)
      groupOf[d] = j;
  Order coarse;
  for (unsigned d : fine)
    if (!llvm::is_contained(coarse, groupOf[d]))
      coarse.push_back(groupOf[d]);
  return refineOrder(coarse, groups);
}

} // namespace ming::lowering
