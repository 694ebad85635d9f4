// ming-fold-constants: whatever a model computes from constants only (weight
// transposes, weight dequantisation, BatchNorm arithmetic on per-channel
// vectors, reshapes of weights) is computed here, at compile time, so that
// it reaches the layer that reads it as one ROM instead of a process that
// streams it. See td/ming/Transforms/Passes.td for the contract.
//
// A linalg.generic folds when every input is a constant (dense or
// dense_resource, a fill, a splat), its outputs are constants, fills or
// unread empties, its payload uses only the scalar ops the evaluator
// (ScalarEval.h) knows, and it does not grow the data: a bias broadcast to a whole feature
// map stays a small ROM and a broadcast, which costs no storage.
#include "ScalarEval.h"

#include "ming/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

#include <cfenv>
#include <cmath>
#include <optional>

namespace ming {
#define GEN_PASS_DEF_FOLDCONSTANTS
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;
using namespace ming::eval;

namespace {

/// No fold may take more scalar evaluations than this (a few seconds).
constexpr int64_t kMaxWork = int64_t(1) << 26;

/// A constant tensor's elements, flat in row-major order.
struct Data {
  Type elem;
  std::vector<Scalar> values;
  bool splat = false; // one value for every element
  Scalar at(int64_t k) const { return splat ? values.front() : values[k]; }
};

/// The elements of a dense or dense_resource attribute.
std::optional<Data> dataOf(Attribute attr) {
  auto typed = dyn_cast<TypedAttr>(attr);
  if (!typed)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(typed.getType());
  if (!type || !supportedElement(type.getElementType()))
    return std::nullopt;
  Data d;
  d.elem = type.getElementType();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    d.splat = dense.isSplat();
    if (d.splat) {
      std::optional<Scalar> s = scalarOf(dense.getSplatValue<Attribute>());
      if (!s)
        return std::nullopt;
      d.values.push_back(*s);
      return d;
    }
    d.values.reserve(dense.getNumElements());
    if (d.elem.isF32()) {
      for (float v : dense.getValues<float>())
        d.values.push_back({double(v), 0});
    } else if (d.elem.isF64()) {
      for (double v : dense.getValues<double>())
        d.values.push_back({v, 0});
    } else {
      bool boolean = d.elem.isInteger(1);
      for (const APInt &v : dense.getValues<APInt>())
        d.values.push_back({0, boolean ? int64_t(v.getBoolValue()) : v.getSExtValue()});
    }
    return d;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> raw = blob->getData();
    int64_t n = type.getNumElements();
    int64_t bytes = d.elem.isF32() ? 4 : d.elem.isF64() ? 8 : (widthOf(d.elem) + 7) / 8;
    if (!llvm::is_contained({1, 2, 4, 8}, bytes) || int64_t(raw.size()) != n * bytes)
      return std::nullopt;
    d.values.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      const char *p = raw.data() + k * bytes;
      Scalar &s = d.values[k];
      if (d.elem.isF32()) {
        float v;
        memcpy(&v, p, 4);
        s.f = v;
      } else if (d.elem.isF64()) {
        memcpy(&s.f, p, 8);
      } else {
        int64_t v = 0;
        memcpy(&v, p, bytes); // little endian
        s.i = wrap(v, widthOf(d.elem) == 1 ? 8 : bytes * 8);
        if (widthOf(d.elem) == 1)
          s.i = s.i != 0;
      }
    }
    return d;
  }
  return std::nullopt;
}

/// The constant tensor `v` is, if any: a constant op, or a fill of one.
std::optional<Data> constantData(Value v) {
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr)))
    return dataOf(attr);
  if (auto fill = v.getDefiningOp<linalg::GenericOp>())
    if (std::optional<Value> value = linalg::isaFillOpInterface(fill)) {
      Attribute scalar;
      if (!matchPattern(*value, m_Constant(&scalar)))
        return std::nullopt;
      std::optional<Scalar> s = scalarOf(scalar);
      auto type = cast<RankedTensorType>(v.getType());
      if (!s || !supportedElement(type.getElementType()))
        return std::nullopt;
      Data d;
      d.elem = type.getElementType();
          d.splat = true;
      d.values.push_back(*s);
      return d;
    }
  return std::nullopt;
}

DenseElementsAttr toAttr(RankedTensorType type, const Data &d) {
  Type e = type.getElementType();
  int64_t n = type.getNumElements();
  auto get = [&](int64_t k) { return d.at(k); };
  if (e.isF32()) {
    std::vector<float> v(n);
    for (int64_t k = 0; k < n; ++k)
      v[k] = float(get(k).f);
    return DenseElementsAttr::get(type, ArrayRef<float>(v));
  }
  if (e.isF64()) {
    std::vector<double> v(n);
    for (int64_t k = 0; k < n; ++k)
      v[k] = get(k).f;
    return DenseElementsAttr::get(type, ArrayRef<double>(v));
  }
  int64_t w = widthOf(e);
  std::vector<APInt> v;
  v.reserve(n);
  for (int64_t k = 0; k < n; ++k)
    v.push_back(APInt(w, uint64_t(get(k).i), /*isSigned=*/true, /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, v);
}

/// Whether every payload op of `op` is one `evaluate` knows.
bool knownPayload(linalg::GenericOp op) {
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (isa<linalg::IndexOp>(inner) || matchPattern(&inner, m_Constant()))
      continue;
    if (!knows(&inner))
      return false;
  }
  return true;
}

/// An indexing map as flat offsets: offset = base + sum(coeff[d] * iv[d]).
struct Linear {
  int64_t base = 0;
  SmallVector<int64_t> coeff;
};

std::optional<Linear> linearise(AffineMap map, ArrayRef<int64_t> shape) {
  for (AffineExpr e : map.getResults())
    if (!e.isPureAffine())
      return std::nullopt;
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int k = int(shape.size()) - 2; k >= 0; --k)
    strides[k] = strides[k + 1] * shape[k + 1];
  unsigned n = map.getNumDims();
  auto flat = [&](ArrayRef<int64_t> point) {
    SmallVector<int64_t> idx = map.compose(point);
    int64_t off = 0;
    for (auto [k, v] : llvm::enumerate(idx))
      off += strides[k] * v;
    return off;
  };
  Linear l;
  SmallVector<int64_t> point(n, 0);
  l.base = flat(point);
  for (unsigned d = 0; d < n; ++d) {
    point[d] = 1;
    l.coeff.push_back(flat(point) - l.base);
    point[d] = 0;
  }
  return l;
}

/// Folds `op` into a constant, or returns null (leaving it as it is).
Value fold(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() == 0)
    return {};
  auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape() || !supportedElement(resultType.getElementType()))
    return {};
  Block &body = op.getRegion().front();
  SmallVector<Data> operands;
  int64_t inputElements = 0;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<RankedTensorType>(in->get().getType()))
      return {};
    std::optional<Data> d = constantData(in->get());
    if (!d)
      return {};
    inputElements += d->splat ? 1 : int64_t(d->values.size());
    operands.push_back(std::move(*d));
  }
  OpOperand *init = op.getDpsInitOperand(0);
  bool initRead = !body.getArgument(init->getOperandNumber()).use_empty();
  if (initRead) {
    std::optional<Data> d = constantData(init->get());
    if (!d)
      return {};
    operands.push_back(std::move(*d));
  } else if (!init->get().getDefiningOp<tensor::EmptyOp>() && !constantData(init->get())) {
    return {};
  }
  // Growing data (a broadcast) is cheaper left as it is.
  int64_t numel = resultType.getNumElements();
  if (numel > std::max<int64_t>(inputElements, 1))
    return {};
  if (!knownPayload(op))
    return {};
  SmallVector<int64_t> trips = op.getStaticLoopRanges();
  int64_t points = 1;
  for (int64_t t : trips) {
    if (ShapedType::isDynamic(t) || t <= 0)
      return {};
    points *= t;
    if (points > kMaxWork)
      return {};
  }
  int64_t ops = int64_t(body.getOperations().size());
  if (points * ops > kMaxWork)
    return {};

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Linear> access;
  for (auto [k, map] : llvm::enumerate(maps)) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(op->getOperand(k).getType()).getShape();
    std::optional<Linear> l = linearise(map, shape);
    if (!l)
      return {};
    access.push_back(*l);
  }

  Data out;
  out.elem = resultType.getElementType();
  out.values.assign(numel, Scalar{});
  if (initRead) {
    const Data &initData = operands.back();
    for (int64_t k = 0; k < numel; ++k)
      out.values[k] = initData.at(k);
  }

  // Round half to even for math.roundeven.
  int savedRounding = std::fegetround();
  std::fesetround(FE_TONEAREST);
  BlockEvaluator evaluator(body);
  SmallVector<int64_t> iv(trips.size(), 0);
  unsigned numInputs = op.getNumDpsInputs();
  SmallVector<Scalar> args(numInputs + 1);
  bool ok = true;
  for (int64_t p = 0; p < points && ok; ++p) {
    auto offset = [&](unsigned k) {
      int64_t off = access[k].base;
      for (auto [d, c] : llvm::enumerate(access[k].coeff))
        off += c * iv[d];
      return off;
    };
    for (unsigned k = 0; k < numInputs; ++k)
      args[k] = operands[k].at(offset(k));
    int64_t outOff = offset(numInputs);
    args[numInputs] = out.values[outOff];
    std::optional<SmallVector<Scalar, 1>> r = evaluator.run(args, iv);
    if (!r || r->empty()) {
      ok = false;
      break;
    }
    out.values[outOff] = r->front();
    // Next point, last loop fastest.
    for (int d = int(iv.size()) - 1; d >= 0; --d) {
      if (++iv[d] < trips[d])
        break;
      iv[d] = 0;
    }
  }
  std::fesetround(savedRounding);
  if (!ok)
    return {};
  rewriter.setInsertionPoint(op);
  return arith::ConstantOp::create(rewriter, op.getLoc(), resultType, toAttr(resultType, out));
}

/// A reshape of a constant: the same elements under the new shape.
Value foldReshape(RewriterBase &rewriter, Operation *op) {
  Attribute attr;
  if (!matchPattern(op->getOperand(0), m_Constant(&attr)))
    return {};
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!type.hasStaticShape())
    return {};
  std::optional<Data> d = dataOf(attr);
  if (!d)
    return {};
  rewriter.setInsertionPoint(op);
  return arith::ConstantOp::create(rewriter, op->getLoc(), type, toAttr(type, *d));
}

struct FoldConstants : ming::impl::FoldConstantsBase<FoldConstants> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    IRRewriter rewriter(func.getContext());
    // Walk order is SSA order, so a fold's result feeds the next one.
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<linalg::GenericOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      Value folded;
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        folded = fold(rewriter, generic);
      else
        folded = foldReshape(rewriter, op);
      if (!folded)
        continue;
      ++numFolded;
      rewriter.replaceOp(op, folded);
    }
    // Constants nobody reads any more.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
      if (isOpTriviallyDead(&op))
        op.erase();
  }
};

} // namespace
