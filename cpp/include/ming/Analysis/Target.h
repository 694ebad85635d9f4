// The target description the cost model reads (docs/cost-model.md): operator
// latencies and DSP48E2 counts per type, memory latencies, and the storage
// thresholds of the HLS tool, for one device family at one clock. The values
// built in are Vitis HLS on UltraScale+ at 200 MHz; a JSON file in the same
// shape (targets/vitis-ultrascale-200mhz.json is the built-in one, written
// out) replaces any of them, so a board or a tool version can change the
// model without recompiling ming.
#ifndef MING_ANALYSIS_TARGET_H
#define MING_ANALYSIS_TARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ming::cost {

struct OpTiming {
  int64_t dsp = 0, latency = 0;
};

/// A floating-point operator at half, single and double precision.
struct FloatOp {
  OpTiming f16, f32, f64;
};

struct Target {
  std::string name;
  /// By operator: mulf, addf (also subf), divf, sqrtf, expf, maxf (max/min),
  /// cmpf, negf (also absf), itofp, fptoi, fpconv (extf/truncf).
  std::map<std::string, FloatOp> floatOps;
  /// Integer multiplication in one DSP48E2 / cascaded over several.
  int64_t mulLatency = 2, mulCascadeLatency = 3;
  /// A radix-2 divider takes the width plus this many cycles.
  int64_t divExtraLatency = 4;
  /// Add, subtract, compare, logic, shifts, select.
  int64_t aluLatency = 1;
  /// Reading a FIFO (dfg.pull) or writing one (dfg.push).
  int64_t fifoLatency = 1;
  /// A BRAM read (address and data registers), a LUTRAM read, an m_axi read
  /// inside a burst.
  int64_t bramLatency = 2, lutramLatency = 1, externalLatency = 1;
  /// A read from an UltraRAM (URAM288: 4,096 words of 72 bits, two ports),
  /// assumed registered like a BRAM's.
  int64_t uramLatency = 2;
  /// Arrays (or banks of a partitioned array) of at most this many bits are
  /// LUTRAM/registers: 0 BRAM.
  int64_t lutramMaxBits = 1024;
  /// A FIFO lane is SRL/LUTRAM while depth <= srlMaxDepth or depth * width
  /// <= srlMaxBits (Vitis config_storage fifo defaults), else BRAM.
  int64_t srlMaxDepth = 2, srlMaxBits = 1024;
  /// Ports of one RAM/ROM bank (BRAM and LUTRAM are dual-port).
  int64_t memPorts = 2;
  /// Width of an m_axi port to external memory: elements per cycle of a
  /// load/store node = axiBits / element bits.
  int64_t axiBits = 128;

  /// Vitis HLS on UltraScale+ at 200 MHz (the numbers of docs/cost-model.md).
  static const Target &builtin();
  /// The built-in target with what the JSON file at `path` names replaced;
  /// null with `error` set for an unreadable file, an unknown key or a
  /// negative value.
  static std::unique_ptr<Target> load(llvm::StringRef path, std::string &error);
  /// The description as JSON, in the format load() reads.
  std::string toJson() const;
};

} // namespace ming::cost

#endif
