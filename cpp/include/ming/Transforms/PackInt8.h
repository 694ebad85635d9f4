// int8 DSP packing: two int8 products that share one operand, a*w1 and a*w2,
// computed by one 27x18 multiplier, ((w1 << 18) + w2) * a, then split:
// the low 18 bits hold a*w2, the bits above hold a*w1 less a borrow of one
// when a*w2 is negative. Exact for every i8 value (-128 included).
//
// The rewrite works on a loop whose consecutive iterations multiply the same
// value by different ones (a layer's output-channel loop): it steps the loop
// by two and runs both iterations in lockstep, sharing what does not depend
// on the iteration and packing each pair of multiplies. The DSE offers it
// as a candidate of the process (cpp/DSE) and applies it when chosen.
#ifndef MING_TRANSFORMS_PACKINT8_H
#define MING_TRANSFORMS_PACKINT8_H

#include "ming/Dfg/Dfg.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace ming::pack {

/// Packs `loop` if it can: constant bounds, an even trip count, no
/// loop-carried values, no allocations, pulls (each port once, before any
/// push) and at most one push only directly in its body, stores only inside
/// a nested loop or branch of it that pulls nothing pulled elsewhere and
/// stores where no load of the body reads (the other half of a double
/// buffer), and at least one pair of i8 x i8 multiplies sharing an operand.
/// On success `loop` is replaced (erased) and the number of packed pairs per
/// iteration of the new loop is returned; otherwise 0, the IR unchanged, and
/// `why` (when given) says why; `replacement` (when given) receives the new
/// loop.
unsigned packLoop(mlir::scf::ForOp loop, std::string *why = nullptr,
                  mlir::scf::ForOp *replacement = nullptr);

/// Packs every loop of `process` that packLoop takes, outermost first (the
/// loops inside a packed one are not tried again), then in every block the
/// pairs of i8 x i8 multiplies that share an operand and whose operands all
/// stand before the first of them; `packed` hears of each (the loop, its
/// pairs per iteration). Returns the loops and blocks packed.
unsigned packProcess(dfg::ProcessOp process,
                     llvm::function_ref<void(mlir::scf::ForOp, unsigned)> packed = {});

} // namespace ming::pack

#endif
