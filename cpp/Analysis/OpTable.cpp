// The operation table of the cost model: latency, DSPs and pipelining of each
// arithmetic op by type and width (docs/cost-model.md, "Operations"), and
// BRAM18K sizing of buffers and FIFOs.
#include "ProcessModel.h"

#include "ming/Analysis/CostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace mlir;

namespace ming::cost {

//===----------------------------------------------------------------------===//
// Operation table
//===----------------------------------------------------------------------===//

int64_t multiplierDsp(unsigned wa, unsigned wb, unsigned wr) {
  if (wa == 0 || wb == 0)
    return 0;
  if ((wa <= 27 && wb <= 18) || (wb <= 27 && wa <= 18))
    return 1;
  // Signed operands split into 26-bit (A port) and 17-bit (B port) unsigned
  // slices; slice (i, j) contributes from bit 26i + 17j on, so slices past
  // the result width need no DSP (UG579, wide multipliers by cascading).
  // Either operand may take the A port: a 21 x 32-bit product is one A slice
  // by two B slices (2 DSP), not two by two.
  auto tiles = [&](unsigned a, unsigned b) {
    int64_t na = ceilDiv(a, 26), nb = ceilDiv(b, 17), n = 0;
    for (int64_t i = 0; i < na; ++i)
      for (int64_t j = 0; j < nb; ++j)
        if (26 * i + 17 * j < int64_t(wr))
          ++n;
    return std::max<int64_t>(n, 1);
  };
  return std::min(tiles(wa, wb), tiles(wb, wa));
}

unsigned bitWidth(Type type) {
  if (type.isIndex())
    return 32; // index prints as int in the HLS C++
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 32;
}

/// Signed bits needed for a constant.
static unsigned constantBits(const APInt &value) {
  return std::max<unsigned>(1, value.getSignificantBits());
}

/// Width a multiplier operand really needs: through extensions, constants.
static unsigned effectiveWidth(Value v) {
  if (Operation *def = v.getDefiningOp()) {
    if (isa<arith::ExtSIOp, arith::ExtUIOp>(def)) {
      unsigned w = bitWidth(def->getOperand(0).getType());
      return isa<arith::ExtUIOp>(def) ? w + 1 : w; // unsigned into a signed port
    }
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return constantBits(value);
  }
  return bitWidth(v.getType());
}

static std::string floatName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

OpCost operationCost(Operation *op, const Target &target) {
  OpCost c;
  Type type = op->getNumResults() ? op->getResult(0).getType()
                                  : (op->getNumOperands() ? op->getOperand(0).getType() : Type());
  // Floating point: the target's operator cores by precision.
  auto flt = [&](llvm::StringRef base, Type t) {
    c.kind = (base + " " + floatName(t)).str();
    auto it = target.floatOps.find(base.str());
    if (it == target.floatOps.end())
      return;
    unsigned w = bitWidth(t);
    const OpTiming &timing = w >= 64 ? it->second.f64 : w <= 16 ? it->second.f16 : it->second.f32;
    c.dsp = timing.dsp;
    c.latency = timing.latency;
  };
  Type operandType = op->getNumOperands() ? op->getOperand(0).getType() : type;
  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::MulFOp>([&](auto) { flt("mulf", type); })
      .Case<arith::AddFOp, arith::SubFOp>([&](auto) { flt("addf", type); })
      .Case<arith::DivFOp>([&](auto) { flt("divf", type); })
      .Case<math::SqrtOp>([&](auto) { flt("sqrtf", type); })
      .Case<math::ExpOp>([&](auto) { flt("expf", type); })
      .Case<math::ErfOp>([&](auto) { flt("erff", type); })
      .Case<math::Log1pOp>([&](auto) { flt("log1pf", type); })
      .Case<math::LogOp>([&](auto) { flt("logf", type); })
      .Case<math::TanhOp>([&](auto) { flt("tanhf", type); })
      .Case<math::PowFOp>([&](auto) { flt("powf", type); })
      .Case<math::FPowIOp>([&](math::FPowIOp pow) {
        // A constant power of 0 to kMaxPower is emitted as its products (a
        // chain; the emitter's MAX_POWER, rust/translate/expression.rs).
        constexpr int64_t kMaxPower = 8;
        APInt k;
        if (!matchPattern(pow.getRhs(), m_ConstantInt(&k)) || k.getSExtValue() < 0 ||
            k.getSExtValue() > kMaxPower) {
          c.kind = "math.fpowi";
          c.latency = 1;
          c.known = false;
          return;
        }
        int64_t products = std::max<int64_t>(0, k.getSExtValue() - 1);
        flt("mulf", type);
        c.kind = "fpowi " + std::to_string(k.getSExtValue()) + " " + floatName(type);
        c.dsp *= products;
        c.latency *= products;
      })
      .Case<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp>(
          [&](auto) { flt("maxf", type); })
      .Case<arith::CmpFOp>([&](auto) { flt("cmpf", operandType); })
      .Case<arith::NegFOp, math::AbsFOp>([&](auto) { flt("negf", type); })
      .Case<arith::SIToFPOp, arith::UIToFPOp>([&](auto) { flt("itofp", type); })
      .Case<arith::FPToSIOp, arith::FPToUIOp>([&](auto) { flt("fptoi", operandType); })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](auto) { flt("fpconv", type); })
      .Case<arith::MulIOp>([&](arith::MulIOp mul) {
        unsigned wa = effectiveWidth(mul.getLhs()), wb = effectiveWidth(mul.getRhs());
        unsigned wr = bitWidth(type);
        wa = std::min(wa, wr);
        wb = std::min(wb, wr);
        c.kind = "muli " + std::to_string(std::max(wa, wb)) + "x" +
                 std::to_string(std::min(wa, wb)) + "->" + std::to_string(wr);
        // A multiplication by a power of two is a shift: wiring.
        APInt value;
        for (Value operand : {mul.getLhs(), mul.getRhs()})
          if (matchPattern(operand, m_ConstantInt(&value)) && (value.isPowerOf2() || value.isZero())) {
            c.kind = "muli pow2";
            c.latency = 0;
            return;
          }
        c.dsp = multiplierDsp(wa, wb, wr);
        c.latency = c.dsp > 1 ? target.mulCascadeLatency : target.mulLatency;
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([&](auto) {
        c.kind = "divi " + std::to_string(bitWidth(type));
        c.latency = bitWidth(type) + target.divExtraLatency; // radix-2, a bit per cycle
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::CmpIOp, arith::AndIOp, arith::OrIOp,
            arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
            arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::SelectOp>([&](Operation *o) {
        c.kind = o->getName().stripDialect().str() + " " + std::to_string(bitWidth(operandType));
        c.latency = target.aluLatency;
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::BitcastOp>([&](Operation *o) {
        c.kind = "cast";
        c.latency = 0;
      })
      .Default([&](Operation *o) {
        c.kind = o->getName().getStringRef().str();
        c.latency = 1;
        c.known = false;
      });
  return c;
}

//===----------------------------------------------------------------------===//
// BRAM shapes
//===----------------------------------------------------------------------===//

int64_t uramBlocks(int64_t words, int64_t width) {
  if (words <= 0 || width <= 0)
    return 0;
  return ((words + 4095) / 4096) * ((width + 71) / 72);
}

int64_t bram18kBlocks(int64_t words, int64_t width) {
  if (words <= 0 || width <= 0)
    return 0;
  // (depth, width) of one RAMB18E2 (UG573); 512x36 in simple dual-port mode.
  static constexpr std::pair<int64_t, int64_t> shapes[] = {
      {16384, 1}, {8192, 2}, {4096, 4}, {2048, 9}, {1024, 18}, {512, 36}};
  int64_t best = INT64_MAX;
  for (auto [d, w] : shapes)
    best = std::min(best, ceilDiv(width, w) * ceilDiv(words, d));
  return best;
}

int64_t channelBram18k(int64_t lanes, int64_t depth, int64_t width, const CostOptions &options) {
  if (depth <= options.target->srlMaxDepth || depth * width <= options.target->srlMaxBits)
    return 0;
  return lanes * bram18kBlocks(depth, width);
}

} // namespace ming::cost
