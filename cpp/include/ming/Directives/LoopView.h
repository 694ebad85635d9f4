// A loop's directives and estimates as plain figures, for the Rust side (the
// cxx bridge includes no MLIR header): the cycle-level simulator reads them
// here instead of parsing #ming.loop and #ming.loop_estimate text.
#ifndef MING_DIRECTIVES_LOOPVIEW_H
#define MING_DIRECTIVES_LOOPVIEW_H

#include <cstdint>

namespace ming::directives {

struct LoopView {
  /// #ming.loop: pipeline II (0: not pipelined), unroll factor (0: fully).
  int64_t ii = 0;
  int64_t unroll = 1;
  /// #ming.loop_estimate, when `estimated`.
  bool estimated = false;
  int64_t estimatedII = 0;
  int64_t estimatedDepth = 0;
  /// ming.flattened.
  bool flattened = false;
};

/// The view of an scf.for given as its mlir::Operation*.
LoopView viewLoop(void *operation);

} // namespace ming::directives

#endif
