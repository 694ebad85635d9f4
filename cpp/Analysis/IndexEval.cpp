// Integer evaluation of index arithmetic (loop bounds, window conditions) for
// the cost model: what an SSA index value is when the induction variables
// around it are known.
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
// Integer evaluation of index arithmetic (loop bounds, window conditions)
//===----------------------------------------------------------------------===//


std::optional<int64_t> evalInt(Value v, const Known &known, int depth) {
  if (auto it = known.find(v); it != known.end())
    return it->second == kUnknownInt ? std::nullopt : std::optional<int64_t>(it->second);
  return evalDefinition(v, known, depth);
}

std::optional<int64_t> evalDefinition(Value v, const Known &known, int depth) {
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return std::nullopt;
  // arith.constant read directly: matchPattern folds, and this runs for every
  // condition of every iteration the first-output search tries.
  if (auto c = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(c.getValue());
    if (!attr)
      return std::nullopt;
    const APInt &cst = attr.getValue();
    return v.getType().isInteger(1) ? int64_t(cst.getBoolValue()) : cst.getSExtValue();
  }
  auto arg = [&](unsigned i) { return evalInt(def->getOperand(i), known, depth + 1); };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return arg(0);
  if (def->getNumOperands() == 3 && isa<arith::SelectOp>(def)) {
    auto c = arg(0);
    if (!c)
      return std::nullopt;
    return *c ? arg(1) : arg(2);
  }
  if (def->getNumOperands() != 2) {
    // Another dialect's constant. The trait lookup is slow enough to be a
    // quarter of the DSE's enumeration when asked of every addi and cmpi
    // of every condition the event searches evaluate, so it comes last.
    APInt cst;
    if (def->hasTrait<OpTrait::ConstantLike>() && matchPattern(v, m_ConstantInt(&cst)))
      return v.getType().isInteger(1) ? int64_t(cst.getBoolValue()) : cst.getSExtValue();
    return std::nullopt;
  }
  auto a = arg(0);
  if (!a)
    return std::nullopt;
  // Short-circuit booleans: a false operand decides andi, a true one ori.
  if (isa<arith::AndIOp>(def) && v.getType().isInteger(1) && *a == 0)
    return 0;
  if (isa<arith::OrIOp>(def) && v.getType().isInteger(1) && *a != 0)
    return 1;
  auto b = arg(1);
  if (!b)
    return std::nullopt;
  int64_t x = *a, y = *b;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::CmpIOp cmp) -> std::optional<int64_t> {
        uint64_t ux = x, uy = y;
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq: return x == y;
        case arith::CmpIPredicate::ne: return x != y;
        case arith::CmpIPredicate::slt: return x < y;
        case arith::CmpIPredicate::sle: return x <= y;
        case arith::CmpIPredicate::sgt: return x > y;
        case arith::CmpIPredicate::sge: return x >= y;
        case arith::CmpIPredicate::ult: return ux < uy;
        case arith::CmpIPredicate::ule: return ux <= uy;
        case arith::CmpIPredicate::ugt: return ux > uy;
        case arith::CmpIPredicate::uge: return ux >= uy;
        }
        return std::nullopt;
      })
      .Case([&](arith::AddIOp) { return x + y; })
      .Case([&](arith::SubIOp) { return x - y; })
      .Case([&](arith::MulIOp) { return x * y; })
      .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(x / y) : std::nullopt;
      })
      .Case([&](arith::DivUIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(int64_t(uint64_t(x) / uint64_t(y))) : std::nullopt;
      })
      .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(x % y) : std::nullopt;
      })
      .Case([&](arith::RemUIOp) -> std::optional<int64_t> {
        return y ? std::optional<int64_t>(int64_t(uint64_t(x) % uint64_t(y))) : std::nullopt;
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (!y)
          return std::nullopt;
        int64_t q = x / y;
        return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
      })
      .Case([&](arith::AndIOp) { return x & y; })
      .Case([&](arith::OrIOp) { return x | y; })
      .Case([&](arith::XOrIOp) { return x ^ y; })
      .Case([&](arith::MaxSIOp) { return std::max(x, y); })
      .Case([&](arith::MinSIOp) { return std::min(x, y); })
      .Case([&](arith::ShLIOp) { return x << y; })
      .Case([&](arith::ShRSIOp) { return x >> y; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<std::pair<int64_t, int64_t>> residueOf(Value v, const Known &known, const Residues &residues,
                                                     bool index, int depth) {
  if (auto c = evalInt(v, known))
    return std::make_pair(*c, int64_t(0));
  if (auto it = residues.find(v); it != residues.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || def->getNumOperands() != 2)
    return std::nullopt;
  auto a = residueOf(def->getOperand(0), known, residues, index, depth + 1);
  auto b = a ? residueOf(def->getOperand(1), known, residues, index, depth + 1) : std::nullopt;
  if (!b)
    return std::nullopt;
  auto normal = [](int64_t r, int64_t m) {
    return std::make_pair(m ? ((r % m) + m) % m : r, m);
  };
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    int64_t m = std::gcd(a->second, b->second);
    int64_t r = isa<arith::AddIOp>(def) ? a->first + b->first : a->first - b->first;
    return normal(r, m);
  }
  if (isa<arith::MulIOp>(def)) {
    if (b->second != 0)
      std::swap(a, b);
    if (b->second != 0)
      return std::nullopt;
    return normal(a->first * b->first, a->second * std::llabs(b->first));
  }
  // An unsigned remainder by a power of two that divides the modulus: the
  // residue itself, whatever the sign (2^64 and 2^32 are multiples of it).
  if (isa<arith::RemUIOp>(def) && b->second == 0 && b->first > 0 && llvm::isPowerOf2_64(b->first) &&
      a->second % b->first == 0)
    return std::make_pair(((a->first % b->first) + b->first) % b->first, int64_t(0));
  // Memory indices are never negative: any divisor of the modulus keeps the
  // remainder fixed, and the quotient is r / c + k * (m / c); a remainder by
  // a multiple of the modulus keeps the residue.
  if (index && b->second == 0 && b->first > 0 && a->second > 0) {
    int64_t c = b->first, m = a->second, r = ((a->first % m) + m) % m;
    if (m % c == 0 && isa<arith::RemUIOp>(def))
      return std::make_pair(r % c, int64_t(0));
    if (m % c == 0 && isa<arith::DivUIOp>(def))
      return std::make_pair(r / c, m / c);
    if (c % m == 0 && isa<arith::RemUIOp>(def))
      return std::make_pair(r, m);
  }
  return std::nullopt;
}

std::optional<int64_t> evalCondition(Value v, const Known &known, const Residues &residues, int depth) {
  if (auto c = evalInt(v, known))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || residues.empty())
    return std::nullopt;
  if (isa<arith::AndIOp, arith::OrIOp>(def) && v.getType().isInteger(1)) {
    bool isAnd = isa<arith::AndIOp>(def);
    auto a = evalCondition(def->getOperand(0), known, residues, depth + 1);
    auto b = evalCondition(def->getOperand(1), known, residues, depth + 1);
    // A false operand decides an and, a true one an or.
    if ((a && bool(*a) != isAnd) || (b && bool(*b) != isAnd))
      return isAnd ? 0 : 1;
    if (a && b)
      return isAnd ? 1 : 0;
    return std::nullopt;
  }
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::eq && cmp.getPredicate() != arith::CmpIPredicate::ne))
    return std::nullopt;
  auto a = residueOf(cmp.getLhs(), known, residues, /*index=*/false, depth + 1);
  auto b = a ? residueOf(cmp.getRhs(), known, residues, /*index=*/false, depth + 1) : std::nullopt;
  if (!b)
    return std::nullopt;
  bool eq;
  if (a->second == 0 && b->second == 0) {
    eq = a->first == b->first;
  } else {
    // Values in different classes of a common modulus always differ.
    int64_t m = std::gcd(a->second, b->second);
    if (((a->first - b->first) % m + m) % m == 0)
      return std::nullopt;
    eq = false;
  }
  return (cmp.getPredicate() == arith::CmpIPredicate::eq) == eq ? 1 : 0;
}

Bounds loopBounds(scf::ForOp loop) {
  Bounds b;
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0) {
    b.constant = false;
    return b;
  }
  b.lb = *lb;
  b.step = *step;
  b.trip = *ub > *lb ? ceilDiv(*ub - *lb, *step) : 0;
  return b;
}

} // namespace ming::cost
