// The `ming` dialect: the directive vocabulary the stages pass to each other
// (td/ming/Directives). Every `ming.*` attribute is named here, with the op it
// may stand on and its value; the dialect's verifier refuses any other name
// and any ill-typed value, so readers use the accessors below unchecked.
//
//   name                  value                          on
//   ming.loop             #ming.loop<ii, unroll, label>  scf.for
//   ming.loop_estimate    #ming.loop_estimate<ii, depth> scf.for (pipelined; on a
//                                                        sequential loop, ii = depth = the
//                                                        cycles an iteration takes outside
//                                                        its inner loops)
//   ming.flattened        unit                           scf.for Vitis flattens
//   ming.carried_distance integer >= 1                   scf.for (read-modify-write)
//   ming.reassociate      unit                           scf.for (a float sum)
//   ming.partition        #ming.partition<...>           memref.alloca/get_global
//   ming.estimate         #ming.estimate<...>            dfg.process
//   ming.design           #ming.design<...>              dfg.graph
//   ming.top              unit                           the design's top
//   ming.num_inputs       integer >= 0                   the top (inputs first)
//   ming.name             string                         channels, streams
//   ming.kind             string                         emitHLS.func (graph.dot)
//   ming.lookahead        integer >= 0                   dfg.process (fork FIFOs)
//   ming.input_elements   integer >= 0                   dfg.process (fork FIFOs)
//   ming.join_burst       array<i64> >= 0, one per port  dfg.process (a concat)
//   ming.port_elements    array<i64> >= 0, one per port  dfg.process
//   ming.test_crash       unit                           test-only (crash reports)
#ifndef MING_DIRECTIVES_DIRECTIVES_H
#define MING_DIRECTIVES_DIRECTIVES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "ming/Directives/DirectivesDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ming/Directives/DirectivesAttrs.h.inc"

namespace ming::directives {

inline constexpr llvm::StringLiteral kLoop = "ming.loop";
inline constexpr llvm::StringLiteral kLoopEstimate = "ming.loop_estimate";
inline constexpr llvm::StringLiteral kFlattened = "ming.flattened";
/// On a loop that loads elements of a local buffer and stores them back
/// updated (an accumulation in stream order): no element stored in one
/// iteration is loaded again fewer than this many iterations later, counted
/// before unrolling. The cost model bounds the loop's II by the chain
/// through memory over that distance; the C++ states it to Vitis
/// (DEPENDENCE), whose own analysis cannot see it through a modulo.
inline constexpr llvm::StringLiteral kCarriedDistance = "ming.carried_distance";
/// On the loops of a float sum (ming-mark-float-sums): its terms may be
/// added in any order. The cost model times it as a balanced tree where it
/// runs unrolled, and ming-float-trees writes it as that tree.
inline constexpr llvm::StringLiteral kReassociate = "ming.reassociate";
inline constexpr llvm::StringLiteral kPartition = "ming.partition";
/// A unit attribute on a memref.alloca: the buffer is bound to UltraRAM (the
/// DSE's choice; convert-dfg-to-emithls writes BIND_STORAGE impl=uram).
inline constexpr llvm::StringLiteral kUram = "ming.uram";
inline constexpr llvm::StringLiteral kEstimate = "ming.estimate";
inline constexpr llvm::StringLiteral kDesign = "ming.design";
inline constexpr llvm::StringLiteral kTop = "ming.top";
inline constexpr llvm::StringLiteral kNumInputs = "ming.num_inputs";
inline constexpr llvm::StringLiteral kName = "ming.name";
inline constexpr llvm::StringLiteral kKind = "ming.kind";
/// Elements of its (largest) streamed input a process pulls before its first
/// output plus how far it runs ahead later, and that input's element count:
/// convert-linalg-to-dfg writes them for the fork FIFO depths
/// (ming/DSE/FifoDepths.h).
inline constexpr llvm::StringLiteral kLookahead = "ming.lookahead";
inline constexpr llvm::StringLiteral kInputElements = "ming.input_elements";
/// Per input port of a join that reads its inputs in turn (a concat): the
/// elements it pulls from that port while the other ports wait. The branches
/// feeding the other ports lag by that much.
inline constexpr llvm::StringLiteral kJoinBurst = "ming.join_burst";
/// Per port of a process that pushes or pulls under conditions (a slice) or
/// joins inputs of different sizes (a concat): the elements the port moves in
/// all, which the DSE's lanes must divide.
inline constexpr llvm::StringLiteral kPortElements = "ming.port_elements";
inline constexpr llvm::StringLiteral kTestCrash = "ming.test_crash";

/// The loop directives of `op` (the defaults when it has none).
LoopAttr getLoop(mlir::Operation *op);
/// Sets them, or removes the attribute when all are defaults.
void setLoop(mlir::Operation *op, LoopAttr loop);
/// The buffers a loop marked `ming.carried_distance` loads and stores back
/// (those the distance is about), in the order of their first store; empty
/// without the mark.
llvm::SmallVector<mlir::Value> carriedBuffers(mlir::Operation *loop);
/// The partitioning of a buffer (the empty one when it has none).
PartitionAttr getPartition(mlir::Operation *op);
/// Sets it, or removes the attribute when it splits nothing.
void setPartition(mlir::Operation *op, PartitionAttr partition);

} // namespace ming::directives

#endif
