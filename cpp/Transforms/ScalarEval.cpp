// The compile-time evaluator of scalar arith and math ops (ScalarEval.h).
#include "ScalarEval.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;

namespace ming::eval {

int64_t widthOf(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    return it.getWidth();
  return t.isIndex() ? 64 : 0;
}

int64_t wrap(int64_t v, int64_t width) {
  if (width >= 64 || width <= 0)
    return v;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (width - 1))
    u |= ~mask;
  return int64_t(u);
}

static uint64_t unsignedOf(int64_t v, int64_t width) {
  return width >= 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << width) - 1);
}

double roundTo(Type t, double v) { return t.isF32() ? double(float(v)) : v; }

std::optional<Scalar> scalarOf(Attribute attr) {
  Scalar s;
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    s.f = f.getValueAsDouble();
    return s;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    s.i = i.getType().isInteger(1) ? int64_t(i.getValue().getBoolValue()) : i.getValue().getSExtValue();
    return s;
  }
  return std::nullopt;
}

bool supportedElement(Type t) {
  return t.isF32() || t.isF64() || (isa<IntegerType>(t) && widthOf(t) <= 64);
}

std::optional<Scalar> evaluate(Operation *op, ArrayRef<Scalar> in) {
  Type t = op->getNumResults() ? op->getResult(0).getType() : Type();
  int64_t w = t ? widthOf(t) : 0;
  auto inW = [&](unsigned k) { return widthOf(op->getOperand(k).getType()); };
  auto f = [&](double v) { return std::optional<Scalar>(Scalar{roundTo(t, v), 0}); };
  auto i = [&](int64_t v) { return std::optional<Scalar>(Scalar{0, wrap(v, w)}); };
  auto a = [&](unsigned k) { return in[k].f; };
  auto n = [&](unsigned k) { return in[k].i; };
  auto u = [&](unsigned k) { return unsignedOf(in[k].i, inW(k)); };
  return llvm::TypeSwitch<Operation *, std::optional<Scalar>>(op)
      .Case([&](arith::AddFOp) { return f(a(0) + a(1)); })
      .Case([&](arith::SubFOp) { return f(a(0) - a(1)); })
      .Case([&](arith::MulFOp) { return f(a(0) * a(1)); })
      .Case([&](arith::DivFOp) { return f(a(0) / a(1)); })
      .Case([&](arith::NegFOp) { return f(-a(0)); })
      .Case([&](arith::MaximumFOp) { return f(std::isnan(a(0)) || std::isnan(a(1)) ? NAN : std::max(a(0), a(1))); })
      .Case([&](arith::MinimumFOp) { return f(std::isnan(a(0)) || std::isnan(a(1)) ? NAN : std::min(a(0), a(1))); })
      .Case([&](arith::MaxNumFOp) { return f(std::fmax(a(0), a(1))); })
      .Case([&](arith::MinNumFOp) { return f(std::fmin(a(0), a(1))); })
      .Case([&](arith::AddIOp) { return i(n(0) + n(1)); })
      .Case([&](arith::SubIOp) { return i(n(0) - n(1)); })
      .Case([&](arith::MulIOp) { return i(int64_t(uint64_t(n(0)) * uint64_t(n(1)))); })
      .Case([&](arith::DivSIOp) -> std::optional<Scalar> {
        if (n(1) == 0)
          return std::nullopt;
        return i(n(0) / n(1));
      })
      .Case([&](arith::RemSIOp) -> std::optional<Scalar> {
        if (n(1) == 0)
          return std::nullopt;
        return i(n(0) % n(1));
      })
      .Case([&](arith::MaxSIOp) { return i(std::max(n(0), n(1))); })
      .Case([&](arith::MinSIOp) { return i(std::min(n(0), n(1))); })
      .Case([&](arith::MaxUIOp) { return i(int64_t(std::max(u(0), u(1)))); })
      .Case([&](arith::MinUIOp) { return i(int64_t(std::min(u(0), u(1)))); })
      .Case([&](arith::AndIOp) { return i(n(0) & n(1)); })
      .Case([&](arith::OrIOp) { return i(n(0) | n(1)); })
      .Case([&](arith::XOrIOp) { return i(n(0) ^ n(1)); })
      .Case([&](arith::ShLIOp) -> std::optional<Scalar> {
        if (u(1) >= uint64_t(w))
          return std::nullopt;
        return i(int64_t(uint64_t(n(0)) << u(1)));
      })
      .Case([&](arith::ShRSIOp) -> std::optional<Scalar> {
        if (u(1) >= uint64_t(w))
          return std::nullopt;
        return i(n(0) >> u(1));
      })
      .Case([&](arith::ShRUIOp) -> std::optional<Scalar> {
        if (u(1) >= uint64_t(w))
          return std::nullopt;
        return i(int64_t(u(0) >> u(1)));
      })
      .Case([&](arith::ExtSIOp) { return i(n(0)); })
      .Case([&](arith::ExtUIOp) { return i(int64_t(u(0))); })
      .Case([&](arith::TruncIOp) { return i(n(0)); })
      .Case([&](arith::IndexCastOp) { return i(n(0)); })
      .Case([&](arith::SIToFPOp) { return f(double(n(0))); })
      .Case([&](arith::UIToFPOp) { return f(double(u(0))); })
      .Case([&](arith::FPToSIOp) -> std::optional<Scalar> {
        double v = std::trunc(a(0));
        if (!(v >= -9.2e18 && v <= 9.2e18))
          return std::nullopt;
        return i(int64_t(v));
      })
      .Case([&](arith::FPToUIOp) -> std::optional<Scalar> {
        double v = std::trunc(a(0));
        if (!(v >= 0 && v <= 1.8e19))
          return std::nullopt;
        return i(int64_t(uint64_t(v)));
      })
      .Case([&](arith::ExtFOp) { return f(a(0)); })
      .Case([&](arith::TruncFOp) { return f(a(0)); })
      .Case([&](arith::SelectOp) { return in[0].i ? std::optional<Scalar>(in[1]) : std::optional<Scalar>(in[2]); })
      .Case([&](arith::CmpFOp c) -> std::optional<Scalar> {
        double x = a(0), y = a(1);
        bool unordered = std::isnan(x) || std::isnan(y);
        using P = arith::CmpFPredicate;
        bool r;
        switch (c.getPredicate()) {
        case P::AlwaysFalse: r = false; break;
        case P::OEQ: r = !unordered && x == y; break;
        case P::OGT: r = !unordered && x > y; break;
        case P::OGE: r = !unordered && x >= y; break;
        case P::OLT: r = !unordered && x < y; break;
        case P::OLE: r = !unordered && x <= y; break;
        case P::ONE: r = !unordered && x != y; break;
        case P::ORD: r = !unordered; break;
        case P::UEQ: r = unordered || x == y; break;
        case P::UGT: r = unordered || x > y; break;
        case P::UGE: r = unordered || x >= y; break;
        case P::ULT: r = unordered || x < y; break;
        case P::ULE: r = unordered || x <= y; break;
        case P::UNE: r = unordered || x != y; break;
        case P::UNO: r = unordered; break;
        case P::AlwaysTrue: r = true; break;
        }
        return Scalar{0, r};
      })
      .Case([&](arith::CmpIOp c) -> std::optional<Scalar> {
        using P = arith::CmpIPredicate;
        int64_t x = n(0), y = n(1);
        uint64_t ux = u(0), uy = u(1);
        bool r;
        switch (c.getPredicate()) {
        case P::eq: r = x == y; break;
        case P::ne: r = x != y; break;
        case P::slt: r = x < y; break;
        case P::sle: r = x <= y; break;
        case P::sgt: r = x > y; break;
        case P::sge: r = x >= y; break;
        case P::ult: r = ux < uy; break;
        case P::ule: r = ux <= uy; break;
        case P::ugt: r = ux > uy; break;
        case P::uge: r = ux >= uy; break;
        }
        return Scalar{0, r};
      })
      .Case([&](math::ExpOp) { return f(std::exp(a(0))); })
      .Case([&](math::LogOp) { return f(std::log(a(0))); })
      .Case([&](math::Log1pOp) { return f(std::log1p(a(0))); })
      .Case([&](math::ErfOp) { return f(std::erf(a(0))); })
      .Case([&](math::SqrtOp) { return f(std::sqrt(a(0))); })
      .Case([&](math::RsqrtOp) { return f(1.0 / std::sqrt(a(0))); })
      .Case([&](math::TanhOp) { return f(std::tanh(a(0))); })
      .Case([&](math::AbsFOp) { return f(std::fabs(a(0))); })
      .Case([&](math::FloorOp) { return f(std::floor(a(0))); })
      .Case([&](math::CeilOp) { return f(std::ceil(a(0))); })
      .Case([&](math::RoundOp) { return f(std::round(a(0))); })
      .Case([&](math::RoundEvenOp) { return f(std::nearbyint(a(0))); })
      .Case([&](math::PowFOp) { return f(std::pow(a(0), a(1))); })
      // One rounding of a * b + c, in the result's precision.
      .Case([&](math::FmaOp) {
        return f(t.isF32() ? double(std::fmaf(float(a(0)), float(a(1)), float(a(2))))
                           : std::fma(a(0), a(1), a(2)));
      })
      .Default([&](Operation *) { return std::nullopt; });
}

bool knows(Operation *op) {
  // Ones are a value of every operand every known op accepts (no division
  // by zero, no shift by the width).
  SmallVector<Scalar> ones(op->getNumOperands(), Scalar{1, 1});
  return op->getNumResults() == 1 && evaluate(op, ones).has_value();
}

std::optional<Scalar> BlockEvaluator::valueOf(Value v) {
  if (auto it = env.find(v); it != env.end())
    return it->second;
  Attribute outside;
  if (matchPattern(v, m_Constant(&outside)))
    return scalarOf(outside);
  return std::nullopt;
}

std::optional<SmallVector<Scalar, 1>> BlockEvaluator::run(ArrayRef<Scalar> args, ArrayRef<int64_t> ivs) {
  env.clear();
  failed = nullptr;
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    env[arg] = value;
  for (Operation &inner : body.without_terminator()) {
    std::optional<Scalar> r;
    Attribute cst;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (index.getDim() < ivs.size())
        r = Scalar{0, ivs[index.getDim()]};
    } else if (matchPattern(&inner, m_Constant(&cst))) {
      r = scalarOf(cst);
    } else if (inner.getNumResults() == 1) {
      SmallVector<Scalar> in;
      for (Value v : inner.getOperands()) {
        std::optional<Scalar> s = valueOf(v);
        if (!s)
          return std::nullopt; // a captured value that is not a constant
        in.push_back(*s);
      }
      r = evaluate(&inner, in);
    }
    if (!r) {
      failed = &inner;
      return std::nullopt;
    }
    env[inner.getResult(0)] = *r;
  }
  SmallVector<Scalar, 1> out;
  for (Value v : body.getTerminator()->getOperands()) {
    std::optional<Scalar> s = valueOf(v);
    if (!s)
      return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

} // namespace ming::eval
