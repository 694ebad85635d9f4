// Elementwise functions of one quantised tensor as lookup tables (Rewriter.h):
// Sigmoid, Tanh, HardSwish, Elu, LeakyRelu, Exp... between a dequantize and a
// quantize. An 8-bit input has 256 values, so the compiler computes
// Q(f(D(x))) for each of them, the dequantize, the float payloads and the
// quantize evaluated in the payloads' own order and precision (ScalarEval.h),
// and the layer becomes a read of a constant 256-entry table indexed by the
// input: exact, with no float and no multiplier left. TFLite's int8 kernels
// compute Logistic and Tanh the same way.
#include "Rewriter.h"
#include "Requantise.h"

#include "../ScalarEval.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cfenv>
#include <functional>

namespace ming::quant {

/// `v` as a per-element constant of a generic body: a scalar, a splat or
/// rank-0 constant tensor, or a fill of one.
static std::optional<double> elementConstant(Value v) {
  if (auto c = scalarConstant(v))
    return c;
  if (auto spread = spreadSource(v))
    return scalarConstant(spread->first);
  return std::nullopt;
}

/// An elementwise generic the chain may go through: identity maps on its
/// tensor operands, a payload that reads neither its init nor its position.
/// Its result is a float or, between floats, an integer (Softplus selects by
/// an i1 mask); the dequantizes the chain starts from and the quantizes are
/// not part of it.
static bool chainable(linalg::GenericOp g) {
  if (!isElementwise(g) || !eval::supportedElement(elementTypeOf(g.getResult(0))) ||
      matchDequant(g.getResult(0)) || matchQuant(g))
    return false;
  Block *body = g.getBody();
  if (!body->getArgument(g.getNumDpsInputs()).use_empty())
    return false;
  if (!body->getOps<linalg::IndexOp>().empty())
    return false;
  for (OpOperand *in : g.getDpsInputOperands()) {
    if (elementConstant(in->get()))
      continue;
    if (!g.getMatchingIndexingMap(in).isIdentity() || !isa<RankedTensorType>(in->get().getType()))
      return false;
  }
  return true;
}

std::optional<UnaryChain> unaryChain(Value v) {
  UnaryChain chain;
  llvm::SmallPtrSet<Operation *, 8> seen;
  bool unary = true;
  // Post order: every generic after the generics it reads.
  std::function<void(Value)> visit = [&](Value x) {
    auto g = x.getDefiningOp<linalg::GenericOp>();
    if (!g || !chainable(g)) {
      if (chain.source && chain.source != x)
        unary = false;
      chain.source = x;
      return;
    }
    if (!seen.insert(g).second)
      return;
    for (OpOperand *in : g.getDpsInputOperands())
      if (!elementConstant(in->get()))
        visit(in->get());
    chain.ops.push_back(g);
  };
  visit(v);
  if (!unary || chain.ops.empty() || !chain.source)
    return std::nullopt;
  return chain;
}

/// Q(f(D(q))) for q = -128..127: the dequantize of `x`, the chain's payloads
/// and the quantize's own payload evaluated in order, each op in its
/// precision. Nothing, with `why` set, where a value has none.
static std::optional<SmallVector<int64_t>> tableOf(linalg::GenericOp qop,
                                                   MutableArrayRef<linalg::GenericOp> ops, Value source,
                                                   const QInfo &x, std::string &why) {
  // The constant operands of each generic, the same for every element; float
  // ops read `f`, integer ones (a select's condition) `i`.
  SmallVector<SmallVector<std::optional<eval::Scalar>>> constants;
  SmallVector<eval::BlockEvaluator> evaluators;
  for (linalg::GenericOp g : ops) {
    auto &k = constants.emplace_back();
    for (OpOperand *in : g.getDpsInputOperands()) {
      std::optional<double> c = elementConstant(in->get());
      k.push_back(c ? std::optional(eval::Scalar{*c, static_cast<int64_t>(*c)}) : std::nullopt);
    }
    evaluators.emplace_back(*g.getBody());
  }
  eval::BlockEvaluator quantize(*qop.getBody());
  Type inElem = elementTypeOf(source);
  Value last = ops.back().getResult(0);
  SmallVector<int64_t> table;
  for (int64_t q = -128; q < 128; ++q) {
    llvm::DenseMap<Value, eval::Scalar> values;
    values[source] = eval::Scalar{eval::roundTo(inElem, double(q - x.zp) * x.scale), 0};
    for (auto [g, evaluator, k] : llvm::zip(ops, evaluators, constants)) {
      SmallVector<eval::Scalar> args;
      for (auto [in, c] : llvm::zip(g.getDpsInputOperands(), k))
        args.push_back(c ? *c : values.lookup(in->get()));
      args.push_back(eval::Scalar{}); // the init, never read
      std::optional<SmallVector<eval::Scalar, 1>> r = evaluator.run(args);
      if (!r) {
        Operation *at = evaluator.failedAt();
        why = (Twine("an elementwise function without a value at the quantised input ") + Twine(q) +
               " ('" + (at ? at->getName().getStringRef() : StringRef("a captured value")) + "')")
                  .str();
        return std::nullopt;
      }
      values[g.getResult(0)] = r->front();
    }
    // NaN has no integer: the quantize's fptosi has no value.
    std::optional<SmallVector<eval::Scalar, 1>> r = quantize.run({values.lookup(last), eval::Scalar{}});
    if (!r) {
      why = (Twine("an elementwise function that is not a number at the quantised input ") + Twine(q)).str();
      return std::nullopt;
    }
    table.push_back(r->front().i);
  }
  return table;
}

std::optional<Value> Rewriter::lookup(linalg::GenericOp qop, const UnaryChain &chain) {
  SmallVector<linalg::GenericOp> ops(chain.ops); // op accessors are not const
  Type inElem = elementTypeOf(chain.source);
  if (!isa<FloatType>(inElem) || !eval::supportedElement(inElem))
    return fail("an elementwise function of a tensor that is not f32 or f64"), std::nullopt;
  for (linalg::GenericOp g : ops)
    for (Operation &op : g.getBody()->without_terminator())
      if (!matchPattern(&op, m_Constant()) && !eval::knows(&op))
        return fail(Twine("an elementwise function with '") + op.getName().getStringRef() +
                    "', which the table's compile-time evaluator does not know"),
               std::nullopt;
  auto x = asQuant(chain.source);
  if (!x)
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(elementTypeOf(x->q));
  if (!intType || intType.getWidth() != 8)
    return fail("an elementwise function of a quantised tensor that is not 8-bit (a table "
                "holds 256 values)"),
           std::nullopt;
  int savedRounding = std::fegetround();
  std::fesetround(FE_TONEAREST); // math.roundeven rounds half to even
  std::optional<SmallVector<int64_t>> table = tableOf(qop, ops, chain.source, *x, why);
  std::fesetround(savedRounding);
  if (!table)
    return std::nullopt;

  Type outElem = elementTypeOf(qop.getResult(0));
  IntBuilder ib{b, qop.getLoc()};
  Value result = qop.getResult(0);
  // A constant function needs no table, the identity not even a layer.
  if (llvm::all_equal(*table))
    return ib.fill(result, outElem, table->front());
  bool identity = elementTypeOf(x->q) == outElem;
  for (int64_t k = 0; k < 256; ++k)
    identity &= (*table)[k] == k - 128;
  if (identity)
    return x->q;
  // out = table[x + 128]: a ROM read with the input as its address.
  Value rom = ib.constVector(*table, outElem);
  auto type = cast<RankedTensorType>(x->q.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, qop.getLoc(), TypeRange{RankedTensorType::get(type.getShape(), outElem)}, ValueRange{x->q},
             ValueRange{ib.empty(x->q, outElem)}, ArrayRef<AffineMap>{id, id}, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[0]);
               index = arith::AddIOp::create(nb, l, index, arith::ConstantIndexOp::create(nb, l, 128));
               Value v = tensor::ExtractOp::create(nb, l, rom, ValueRange{index});
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

} // namespace ming::quant
