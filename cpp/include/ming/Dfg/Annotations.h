// Discardable attributes convert-linalg-to-dfg leaves on dfg.process ops for
// stage 4 (the DSE): what a process's body implies about its streams, which
// the cost model and the FIFO sizing read back. One place for their names.
#ifndef MING_DFG_ANNOTATIONS_H
#define MING_DFG_ANNOTATIONS_H

#include "llvm/ADT/StringRef.h"

namespace ming::dfg {

/// Process attributes convert-linalg-to-dfg writes for the fork FIFO depths
/// (ming/DSE/FifoDepths.h):
/// elements of its (largest) streamed input a process pulls before its first
/// output plus how far it runs ahead later, and that input's element count.
inline constexpr llvm::StringLiteral kLookaheadAttr = "ming.lookahead";
inline constexpr llvm::StringLiteral kInputElementsAttr = "ming.input_elements";
/// Per input port of a join that reads its inputs in turn (a concat): the
/// elements it pulls from that port while the other ports wait. The branches
/// feeding the other ports lag by that much.
inline constexpr llvm::StringLiteral kJoinBurstAttr = "ming.join_burst";
/// Per port of a process that pushes or pulls under conditions (a slice) or
/// joins inputs of different sizes (a concat): the elements the port moves in
/// all, which the DSE's lanes must divide.
inline constexpr llvm::StringLiteral kPortElementsAttr = "ming.port_elements";

} // namespace ming::dfg

#endif
