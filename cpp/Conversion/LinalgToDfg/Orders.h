// Stream orders through reshapes (convert-linalg-to-dfg). A stream carries a
// tensor's elements in some dimension order; a reshape renames the tensor
// without moving data, so the stream passes unchanged whenever the same
// element sequence is an order of the reshaped tensor too. These helpers find
// that order, or the order the source must stream in for it to exist, so a
// reshape only costs a reorder buffer where the element sequence must change.
#ifndef MING_CONVERSION_LINALGTODFG_ORDERS_H
#define MING_CONVERSION_LINALGTODFG_ORDERS_H

#include "Bodies.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <optional>

namespace ming::lowering {

/// The order of a tensor read through `to` that follows loops read through
/// `from` in `fromOrder`: the dims of `to` those loops index, in that order,
/// then its others in order (an elementwise layer keeps its input's order;
/// a contraction's bias follows its gathered windows).
Order followOrder(mlir::AffineMap from, const Order &fromOrder, mlir::AffineMap to);

/// Whether streaming a tensor of `shape` in order `a` gives the same element
/// sequence as order `b`: unit dimensions can sit anywhere.
bool sameSequence(llvm::ArrayRef<int64_t> shape, const Order &a, const Order &b);

/// The order a load or store walks a graph argument of `shape` (row-major
/// memory) in, when the layers stream it in `stream`: the dims from the
/// memory's innermost non-unit one on, in memory order, under the stream's
/// outer dims, so each memory row moves as a run of consecutive addresses
/// (a port word per beat) and a reorder of one block of those dims (an image
/// row: NCHW memory, channels-last stream) bridges the two. Nothing when the
/// stream already walks memory in runs, or when the block would be the whole
/// tensor or more than `maxBlockBits`.
std::optional<Order> stagedOrder(llvm::ArrayRef<int64_t> shape, const Order &stream,
                                 int64_t elementBits, int64_t maxBlockBits);

/// For a reshape that only inserts or removes unit dimensions, the dims of
/// `to` matching each non-unit dim of `from`, in order; else nothing.
std::optional<llvm::SmallVector<unsigned>> unitReshapeMap(llvm::ArrayRef<int64_t> from,
                                                          llvm::ArrayRef<int64_t> to);

/// `order` of a tensor of shape `from` carried over to the reshaped `to`
/// (unit dims only), keeping the element sequence: the mapped non-unit dims
/// in order, `to`'s unit dims first.
Order reshapeOrder(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to, const Order &order,
                   llvm::ArrayRef<unsigned> map);

/// A reshape by reassociation (tensor.expand_shape / collapse_shape): each
/// coarse dim j is the fine dims `groups[j]`, row-major.
/// The fine order with the same element sequence as `coarse` (always one).
Order refineOrder(const Order &coarse, llvm::ArrayRef<mlir::ReassociationIndices> groups);

/// The coarse order with the same element sequence as `fine` (of a tensor of
/// `fineShape`), if there is one: the non-unit fine dims of each group must
/// stream next to each other, outermost first.
std::optional<Order> coarsenOrder(const Order &fine, llvm::ArrayRef<int64_t> fineShape,
                                  llvm::ArrayRef<mlir::ReassociationIndices> groups);

/// The fine order nearest `fine` that coarsens: the groups in the order
/// their first dim appears in `fine`, each row-major.
Order groupedOrder(const Order &fine, llvm::ArrayRef<mlir::ReassociationIndices> groups);

} // namespace ming::lowering

#endif
