// Elementwise functions of one quantised tensor as lookup tables (Rewriter.h):
// Sigmoid, Tanh, HardSwish, Elu, LeakyRelu, Exp... between a dequantize and a
// quantize. An 8-bit input has 256 values, so the compiler computes
// Q(f(D(x))) for each of them, the dequantize, the float payloads and the
// quantize evaluated in the payloads' own order and precision (ScalarEval.h),
// and the layer becomes a read of a constant 256-entry table indexed by the
// input: exact, with no float and no multiplier left. TFLite's int8 kernels
// compute Logistic and Tanh the same way; its LeakyRelu rounds a fixed-point
// multiplier, and for TFLite models (`rounding=tflite`) the table holds that.
// A constant that varies along one dimension (PRelu's slope per channel)
// gives one row of 256 per index of that dimension, read at
// row * 256 + x + 128.
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

/// The elements of a constant tensor, or of the dequantize of one (a
/// quantised PRelu slope), as the dequantize computes them in f32.
static std::optional<SmallVector<double>> constantValues(Value v) {
  if (auto vals = denseValues(v))
    return vals;
  std::optional<Dequant> d = matchDequant(v);
  if (!d || !isa<Float32Type>(elementTypeOf(v)))
    return std::nullopt;
  auto q = denseValues(d->q);
  if (!q)
    return std::nullopt;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(d->q.getType()).getShape();
  int64_t inner = 1;
  for (size_t k = d->axis + 1; d->axis >= 0 && k < shape.size(); ++k)
    inner *= shape[k];
  SmallVector<double> out;
  for (auto [n, x] : llvm::enumerate(*q)) {
    int64_t c = d->axis >= 0 ? (int64_t(n) / inner) % shape[d->axis] : 0;
    // (q - zp) as f32 times an f32 scale: the double product is exact, its
    // rounding to f32 is the float multiplication's.
    float diff = static_cast<float>(x - d->zpAt(c));
    out.push_back(static_cast<float>(double(diff) * static_cast<float>(d->scaleAt(c))));
  }
  return out;
}

/// The operand `in` of `g` as a per-element constant: one value (dim -1), or
/// a constant tensor that varies along one loop dimension only, e.g. a slope
/// of shape [C, 1, 1] read at (d1, 0, 0).
static std::optional<Leaf> elementLeaf(OpOperand *in, linalg::GenericOp g) {
  if (auto c = elementConstant(in->get()))
    return Leaf{{*c}, -1};
  auto vals = constantValues(in->get());
  auto type = dyn_cast<RankedTensorType>(in->get().getType());
  if (!vals || !type)
    return std::nullopt;
  AffineMap map = g.getMatchingIndexingMap(in);
  int dim = -1;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(e); d && dim < 0 && type.getDimSize(k) == int64_t(vals->size())) {
      dim = static_cast<int>(d.getPosition());
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0 || type.getDimSize(k) != 1)
      return std::nullopt;
  }
  if (dim < 0)
    return std::nullopt;
  return Leaf{std::move(*vals), dim};
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
    if (elementLeaf(in, g))
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
      if (!elementLeaf(in, g))
        visit(in->get());
    chain.ops.push_back(g);
  };
  visit(v);
  if (!unary || chain.ops.empty() || !chain.source)
    return std::nullopt;
  return chain;
}

/// A table: `rows` rows of 256, one per index of loop dimension `dim` (one
/// row and dim -1 when no constant varies).
struct Table {
  SmallVector<int64_t> values;
  int64_t rows = 1;
  int dim = -1;
  /// The function's value before the quantize at each input of row 0.
  SmallVector<double> real;
};

/// The largest number of rows a table may have (PRelu over 1,024 channels:
/// 256 Kbit of ROM).
static constexpr int64_t kMaxRows = 1024;

/// Q(f(D(q))) for q = -128..127 (and every row): the dequantize of `x`, the
/// chain's payloads and the quantize's own payload evaluated in order, each op
/// in its precision. Nothing, with `why` set, where a value has none.
static std::optional<Table> tableOf(linalg::GenericOp qop, MutableArrayRef<linalg::GenericOp> ops,
                                    Value source, const QInfo &x, std::string &why) {
  // The constant operands of each generic, the same for every element of a
  // row; float ops read `f`, integer ones (a select's condition) `i`.
  SmallVector<SmallVector<std::optional<Leaf>>> constants;
  SmallVector<eval::BlockEvaluator> evaluators;
  Table table;
  for (linalg::GenericOp g : ops) {
    auto &k = constants.emplace_back();
    for (OpOperand *in : g.getDpsInputOperands()) {
      std::optional<Leaf> leaf = elementLeaf(in, g);
      if (leaf && leaf->dim >= 0) {
        if ((table.dim >= 0 && table.dim != leaf->dim) ||
            (table.rows > 1 && table.rows != int64_t(leaf->vals.size()))) {
          why = "an elementwise function of constants that vary along two dimensions";
          return std::nullopt;
        }
        table.dim = leaf->dim;
        table.rows = static_cast<int64_t>(leaf->vals.size());
      }
      k.push_back(leaf);
    }
    evaluators.emplace_back(*g.getBody());
  }
  if (table.rows > kMaxRows) {
    why = (Twine("an elementwise function of a constant with ") + Twine(table.rows) +
           " values (a table of more than " + Twine(kMaxRows) + " rows of 256)")
              .str();
    return std::nullopt;
  }
  eval::BlockEvaluator quantize(*qop.getBody());
  Type inElem = elementTypeOf(source);
  Value last = ops.back().getResult(0);
  for (int64_t n = 0; n < table.rows * 256; ++n) {
    int64_t row = n / 256, q = n % 256 - 128;
    llvm::DenseMap<Value, eval::Scalar> values;
    values[source] = eval::Scalar{eval::roundTo(inElem, double(q - x.zp) * x.scale), 0};
    for (auto [g, evaluator, k] : llvm::zip(ops, evaluators, constants)) {
      SmallVector<eval::Scalar> args;
      for (auto [in, c] : llvm::zip(g.getDpsInputOperands(), k)) {
        if (!c) {
          args.push_back(values.lookup(in->get()));
          continue;
        }
        double v = c->vals.size() == 1 ? c->vals[0] : c->vals[row];
        args.push_back(eval::Scalar{v, static_cast<int64_t>(v)});
      }
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
    if (row == 0)
      table.real.push_back(values.lookup(last).f);
    // NaN has no integer: the quantize's fptosi has no value.
    std::optional<SmallVector<eval::Scalar, 1>> r = quantize.run({values.lookup(last), eval::Scalar{}});
    if (!r) {
      why = (Twine("an elementwise function that is not a number at the quantised input ") + Twine(q)).str();
      return std::nullopt;
    }
    table.values.push_back(r->front().i);
  }
  // Rows that are all the same are one row.
  if (table.rows > 1 && llvm::all_of(llvm::seq<int64_t>(1, table.rows), [&](int64_t row) {
        return std::equal(table.values.begin(), table.values.begin() + 256, table.values.begin() + row * 256);
      })) {
    table.values.resize(256);
    table.rows = 1;
    table.dim = -1;
  }
  return table;
}

/// The slope of a LeakyRelu whose value at each input `real` holds (x for
/// x >= 0, slope * x below, x = (q - zp) scale in f32), or nothing.
static std::optional<float> leakySlope(ArrayRef<double> real, const QInfo &x) {
  std::optional<float> slope;
  double widest = 0;
  for (int64_t k = 0; k < 256; ++k) {
    int64_t d = k - 128 - x.zp;
    double in = static_cast<float>(static_cast<float>(d) * static_cast<float>(x.scale));
    if (d >= 0) {
      if (real[k] != in)
        return std::nullopt;
      continue;
    }
    // The widest input gives the slope to f32 precision; every other
    // negative input must then give f32(in * slope).
    if (-in > widest) {
      widest = -in;
      slope = static_cast<float>(real[k] / in);
    }
  }
  if (!slope || *slope == 1.0f)
    return std::nullopt;
  for (int64_t k = 0; k < 256; ++k) {
    int64_t d = k - 128 - x.zp;
    float in = static_cast<float>(d) * static_cast<float>(x.scale);
    if (d < 0 && real[k] != static_cast<double>(in * *slope))
      return std::nullopt;
  }
  return slope;
}

/// TFLite's int8 LEAKY_RELU as XNNPACK, the interpreter's default kernels,
/// computes it: each side's scale (s_in / s_out, times the slope below 0)
/// rounded to 8 fraction bits, M = rint(256 s), out = ((q - zp_in) M + 128)
/// >> 8 + zp_out, clamped. (TFLite's reference kernel rounds a 31-bit
/// multiplier instead; the two disagree at a few inputs.)
static SmallVector<int64_t> xnnpackLeakyRelu(float slope, const QInfo &x, const Quant &q) {
  float positive = static_cast<float>(x.scale) / static_cast<float>(q.scale);
  float negative = positive * slope;
  int64_t mp = static_cast<int64_t>(std::nearbyint(256.0f * positive));
  int64_t mn = static_cast<int64_t>(std::nearbyint(256.0f * negative));
  SmallVector<int64_t> values;
  for (int64_t k = 0; k < 256; ++k) {
    int64_t d = k - 128 - x.zp;
    int64_t acc = d * (d >= 0 ? mp : mn) + 128;
    values.push_back(std::clamp<int64_t>((acc >> 8) + q.zp, q.lo, q.hi));
  }
  return values;
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
  std::optional<Table> table = tableOf(qop, ops, chain.source, *x, why);
  std::fesetround(savedRounding);
  if (!table)
    return std::nullopt;
  // A LeakyRelu of a TFLite model: its runtime's rounding, not the float
  // function's.
  if (rounding == Rounding::Tflite && table->rows == 1)
    if (std::optional<float> slope = leakySlope(table->real, *x))
      if (std::optional<Quant> q = matchQuant(qop))
        table->values = xnnpackLeakyRelu(*slope, *x, *q);

  Type outElem = elementTypeOf(qop.getResult(0));
  IntBuilder ib{b, qop.getLoc()};
  Value result = qop.getResult(0);
  // A constant function needs no table, the identity not even a layer.
  if (llvm::all_equal(table->values))
    return ib.fill(result, outElem, table->values.front());
  bool identity = elementTypeOf(x->q) == outElem && table->rows == 1;
  for (int64_t k = 0; k < 256 && identity; ++k)
    identity &= table->values[k] == k - 128;
  if (identity)
    return x->q;
  // out = table[row * 256 + x + 128]: a ROM read with the input as its address.
  Value rom = ib.constVector(table->values, outElem);
  int rowDim = table->dim;
  auto type = cast<RankedTensorType>(x->q.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, qop.getLoc(), TypeRange{RankedTensorType::get(type.getShape(), outElem)}, ValueRange{x->q},
             ValueRange{ib.empty(x->q, outElem)}, ArrayRef<AffineMap>{id, id}, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value index = arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[0]);
               index = arith::AddIOp::create(nb, l, index, arith::ConstantIndexOp::create(nb, l, 128));
               if (rowDim >= 0) {
                 Value row = linalg::IndexOp::create(nb, l, rowDim);
                 row = arith::MulIOp::create(nb, l, row, arith::ConstantIndexOp::create(nb, l, 256));
                 index = arith::AddIOp::create(nb, l, row, index);
               }
               Value v = tensor::ExtractOp::create(nb, l, rom, ValueRange{index});
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

} // namespace ming::quant
