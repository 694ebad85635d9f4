// convert-linalg-to-dfg (td/ming/Conversion/Passes.td): the function of
// linalg ops on tensors becomes a dfg.graph of streaming processes.
//
// Walk order is the function's (SSA order is a topological order). Each
// tensor value that flows between layers gets a stream: a channel from its
// producer, through a fork process when several consumers read it. A
// stream carries its tensor in an element order chosen by the producer;
// sliding windows need batch, rows, columns, channels, and a consumer that
// needs another order than the producer's gets a reorder process (a full
// buffer, the only storage that grows with the tensor: reported as a
// remark).
#include "Bodies.h"
#include "Normalise.h"
#include "Orders.h"

#include "ming/DSE/FifoDepths.h"
#include "ming/Dfg/Annotations.h"
#include "ming/Analysis/KernelAnalysis.h"
#include "ming/Support/CrashReport.h"
#include "ming/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/FoldUtils.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTLINALGTODFG
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;
using namespace ming::lowering;
using ming::KernelClass;
using ming::KernelInfo;
using ming::WindowAccess;
namespace dfg = ming::dfg;

namespace {

constexpr const char *kSupported =
    "supported are linalg structured ops (named or linalg.generic), linalg.fill, "
    "tensor.pad, tensor.empty, tensor.collapse_shape, tensor.expand_shape, "
    "tensor.concat, tensor.extract_slice (static, keeping the rank) and arith.constant";

//===----------------------------------------------------------------------===//
// Input checks and normalisation
//===----------------------------------------------------------------------===//

bool isStatic(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return !shaped || shaped.hasStaticShape();
}

/// Element types the generated C++ and its testbench carry.
bool supportedElement(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (auto i = dyn_cast<IntegerType>(elem))
    return i.isSignless() && i.getWidth() <= 64;
  return elem.isF32() || elem.isF64() || elem.isIndex();
}

/// `name` made a C identifier no other symbol of `table` has: characters
/// outside [A-Za-z0-9_] become '_', a leading digit gets "m_", a C++ keyword
/// or a taken name a '_' suffix.
std::string cIdentifier(StringRef name, SymbolTable &table) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char",
      "class", "const", "constexpr", "continue", "default", "delete", "do", "double", "else",
      "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "main", "mutable", "namespace", "new", "not", "nullptr",
      "operator", "or", "private", "protected", "public", "register", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true",
      "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void",
      "volatile", "while", "xor"};
  std::string out;
  for (char c : name)
    out += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (out.empty() || llvm::isDigit(out.front()))
    out = "m_" + out;
  while (keywords.contains(out) || (out != name && table.lookup(out)))
    out += '_';
  return out;
}

/// The function to compile (`top`, or the module's only one), or a
/// diagnostic; the other functions are dropped.
FailureOr<func::FuncOp> theFunction(ModuleOp module, StringRef top) {
  SmallVector<func::FuncOp> defined;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      defined.push_back(f);
  auto names = [&] {
    std::string list;
    for (func::FuncOp f : defined)
      list += (list.empty() ? "'" : ", '") + f.getSymName().str() + "'";
    return list;
  };
  func::FuncOp found;
  if (!top.empty()) {
    for (func::FuncOp f : defined)
      if (f.getSymName() == top)
        found = f;
    if (!found) {
      InFlightDiagnostic diag = emitError(module.getLoc(), "convert-linalg-to-dfg: no function '")
                                << top << "' to compile";
      if (!defined.empty())
        diag << "; the module defines " << names();
      return failure();
    }
  } else if (defined.size() > 1) {
    defined[1].emitError("convert-linalg-to-dfg: several functions could be the top (")
        << names() << "); choose one with --top";
    return failure();
  } else if (!defined.empty()) {
    found = defined.front();
  }
  if (!found) {
    emitError(module.getLoc(), "convert-linalg-to-dfg: no function with a body to compile");
    return failure();
  }
  WalkResult calls = found.walk([&](func::CallOp call) {
    if (call.getCallee() != found.getSymName())
      return WalkResult::advance();
    call.emitError("convert-linalg-to-dfg: '")
        << found.getSymName() << "' calls itself; recursion cannot become hardware";
    return WalkResult::interrupt();
  });
  if (calls.wasInterrupted())
    return failure();
  for (func::FuncOp f : defined)
    if (f != found)
      f.erase();
  if (llvm::none_of(found.getArgumentTypes(), [](Type t) { return isa<TensorType>(t); })) {
    found.emitError("convert-linalg-to-dfg: '")
        << found.getSymName()
        << "' takes no tensor argument; a streaming design needs an input to stream";
    return failure();
  }
  if (!found.getBody().hasOneBlock()) {
    found.emitError("convert-linalg-to-dfg: the function must be a single block");
    return failure();
  }
  for (Type t : llvm::concat<const Type>(found.getArgumentTypes(), found.getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape()) {
      found.emitError("convert-linalg-to-dfg: arguments and results must be tensors of "
                      "static shape, got ")
          << t;
      return failure();
    }
    if (!supportedElement(t)) {
      found.emitError("convert-linalg-to-dfg: '")
          << found.getSymName() << "' has a " << t
          << " argument or result; ming streams signless integers up to i64, f32 and f64";
      return failure();
    }
  }
  return found;
}

/// `op` without its unused results: their yields and the payload computing
/// only them go; an unused result whose accumulator the kept ones read (a
/// running arg-max feeding the max) stays and is reported by the converter.
LogicalResult eraseDeadResults(RewriterBase &rewriter, linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  unsigned numInputs = op.getNumDpsInputs();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  // Payload ops each kept result needs, found backwards from the yield.
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> work;
  for (auto [k, r] : llvm::enumerate(op.getResults()))
    if (!r.use_empty())
      work.push_back(yield.getOperand(k));
  llvm::SmallDenseSet<unsigned> readArgs;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &body)
        readArgs.insert(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || !needed.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<unsigned> keep;
  for (auto [k, r] : llvm::enumerate(op.getResults()))
    if (!r.use_empty() || readArgs.contains(numInputs + k))
      keep.push_back(k);
  if (keep.size() == op.getNumResults())
    return success();
  SmallVector<Value> inits;
  SmallVector<Type> types;
  SmallVector<AffineMap> all = op.getIndexingMapsArray();
  SmallVector<AffineMap> maps(all.begin(), all.begin() + numInputs);
  for (unsigned k : keep) {
    inits.push_back(op.getDpsInits()[k]);
    types.push_back(op.getResult(k).getType());
    maps.push_back(all[numInputs + k]);
  }
  rewriter.setInsertionPoint(op);
  auto kept = linalg::GenericOp::create(rewriter, op.getLoc(), types, op.getDpsInputs(), inits,
                                        maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), kept.getRegion(), kept.getRegion().begin());
  Block &moved = kept.getRegion().front();
  auto newYield = cast<linalg::YieldOp>(moved.getTerminator());
  SmallVector<Value> yielded;
  for (unsigned k : keep)
    yielded.push_back(newYield.getOperand(k));
  rewriter.setInsertionPoint(newYield);
  linalg::YieldOp::create(rewriter, newYield.getLoc(), yielded);
  rewriter.eraseOp(newYield);
  // Users before producers; a vector, since a std::reverse_iterator over the
  // block would point past each erased op.
  SmallVector<Operation *> payload;
  for (Operation &inner : moved.without_terminator())
    payload.push_back(&inner);
  for (Operation *inner : llvm::reverse(payload))
    if (isOpTriviallyDead(inner))
      rewriter.eraseOp(inner);
  BitVector dead(moved.getNumArguments());
  for (unsigned k = 0; k < op.getNumResults(); ++k)
    if (!llvm::is_contained(keep, k))
      dead.set(numInputs + k);
  moved.eraseArguments(dead);
  for (auto [n, k] : llvm::enumerate(keep))
    rewriter.replaceAllUsesWith(op.getResult(k), kept.getResult(n));
  rewriter.eraseOp(op);
  return success();
}
TypedAttr padValue(tensor::PadOp pad);

/// Checks every op of the body and generalises named linalg ops.
LogicalResult normalise(func::FuncOp func) {
  // Results nobody reads (the arg-max index of a max reduction that lowers
  // Softmax) would be streams without a reader: drop them first.
  IRRewriter rewriter(func.getContext());
  SmallVector<linalg::GenericOp> partlyDead;
  func.walk([&](linalg::GenericOp op) {
    if (op.getNumResults() > 1 && llvm::any_of(op.getResults(), [](Value r) { return r.use_empty(); }))
      partlyDead.push_back(op);
  });
  for (linalg::GenericOp op : partlyDead)
    if (failed(eraseDeadResults(rewriter, op)))
      return failure();
  Block &top = func.getBody().front();
  // Scalar arithmetic on constants becomes a constant (IREE pads a pool with
  // an f64 constant truncated to f32).
  OperationFolder folder(func.getContext());
  for (Operation &op : llvm::make_early_inc_range(top)) {
    if (op.getNumRegions() || op.getNumResults() != 1 || isa<arith::ConstantOp>(op) ||
        isa<ShapedType>(op.getResult(0).getType()) || !isa<arith::ArithDialect>(op.getDialect()))
      continue;
    if (!llvm::all_of(op.getOperands(), [](Value v) { return matchPattern(v, m_Constant()); }))
      continue;
    // arith.truncf does not fold an inexact conversion (-DBL_MAX to f32);
    // the C++ cast would round it to nearest, and so does this.
    FloatAttr value;
    if (auto trunc = dyn_cast<arith::TruncFOp>(op);
        trunc && matchPattern(trunc.getIn(), m_Constant(&value))) {
      APFloat f = value.getValue();
      bool losesInfo = false;
      FloatType to = cast<FloatType>(trunc.getType());
      f.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
      rewriter.setInsertionPoint(trunc);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(trunc, FloatAttr::get(to, f));
      continue;
    }
    (void)folder.tryToFold(&op);
  }
  // A padded constant is a constant (IREE counts a ceil_mode average pool's
  // window by pooling a padded tensor of ones); a window over a constant is
  // then read by index.
  for (auto pad : llvm::make_early_inc_range(top.getOps<tensor::PadOp>())) {
    DenseElementsAttr source;
    TypedAttr value = padValue(pad);
    auto type = dyn_cast<RankedTensorType>(pad.getResultType());
    if (!value || !type || !type.hasStaticShape() || type.getNumElements() > (1 << 20) ||
        !pad.getLow().empty() || !pad.getHigh().empty() ||
        !matchPattern(pad.getSource(), m_Constant(&source)))
      continue;
    ArrayRef<int64_t> low = pad.getStaticLow();
    if (llvm::any_of(low, [](int64_t x) { return x < 0; }) ||
        llvm::any_of(pad.getStaticHigh(), [](int64_t x) { return x < 0; }))
      continue;
    DenseElementsAttr padded;
    if (source.isSplat() && source.getSplatValue<Attribute>() == value) {
      padded = DenseElementsAttr::get(type, value);
    } else {
      ArrayRef<int64_t> shape = type.getShape(), from = source.getType().getShape();
      SmallVector<Attribute> src(source.getValues<Attribute>());
      SmallVector<Attribute> out;
      out.reserve(type.getNumElements());
      SmallVector<int64_t> idx(shape.size(), 0);
      for (int64_t n = 0; n < type.getNumElements(); ++n) {
        int64_t flat = 0;
        bool inside = true;
        for (size_t d = 0; d < shape.size(); ++d) {
          int64_t s = idx[d] - low[d];
          inside &= s >= 0 && s < from[d];
          flat = flat * from[d] + s;
        }
        out.push_back(inside ? src[source.isSplat() ? 0 : flat] : Attribute(value));
        for (size_t d = shape.size(); d-- > 0;)
          if (++idx[d] < shape[d])
            break;
          else
            idx[d] = 0;
      }
      padded = DenseElementsAttr::get(type, out);
    }
    rewriter.setInsertionPoint(pad);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(pad, padded);
  }
  // A pad of a pad by the same value is one pad (IREE pads a ceil_mode
  // pool's input twice: the explicit pads, then the rows and columns the
  // last window overhangs).
  for (auto outer : llvm::make_early_inc_range(top.getOps<tensor::PadOp>())) {
    auto inner = outer.getSource().getDefiningOp<tensor::PadOp>();
    if (!inner || !inner->hasOneUse() || !padValue(outer) || padValue(outer) != padValue(inner) ||
        !outer.getLow().empty() || !outer.getHigh().empty() || !inner.getLow().empty() ||
        !inner.getHigh().empty())
      continue;
    SmallVector<int64_t> low(outer.getStaticLow()), high(outer.getStaticHigh());
    bool ok = true;
    for (size_t d = 0; d < low.size(); ++d) {
      ok &= inner.getStaticLow()[d] >= 0 && inner.getStaticHigh()[d] >= 0;
      low[d] += inner.getStaticLow()[d];
      high[d] += inner.getStaticHigh()[d];
    }
    if (!ok)
      continue;
    rewriter.modifyOpInPlace(outer, [&] {
      outer.getSourceMutable().assign(inner.getSource());
      outer.setStaticLow(low);
      outer.setStaticHigh(high);
    });
    rewriter.eraseOp(inner);
  }
  SmallVector<linalg::LinalgOp> named;
  for (Operation &op : func.getBody().front()) {
    for (Type t : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes())) {
      if (!isStatic(t))
        return op.emitError("convert-linalg-to-dfg: '")
               << op.getName() << "' has a dynamic shape (" << t
               << "); ming streams static shapes only";
      if (!supportedElement(t))
        return op.emitError("convert-linalg-to-dfg: '")
               << op.getName() << "' has elements of type " << getElementTypeOrSelf(t)
               << "; ming streams signless integers up to i64, f32 and f64";
    }
    if (isa<arith::ConstantOp, tensor::EmptyOp, tensor::PadOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp, tensor::ConcatOp, func::ReturnOp, linalg::GenericOp>(op))
      continue;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (!slice.getOffsets().empty() || !slice.getSizes().empty() || !slice.getStrides().empty())
        return op.emitError("convert-linalg-to-dfg: a tensor.extract_slice with dynamic "
                            "offsets, sizes or strides cannot be streamed");
      if (slice.getSourceType().getRank() != slice.getResultType().getRank())
        return op.emitError("convert-linalg-to-dfg: a rank-reducing tensor.extract_slice is "
                            "not supported; slices keep the rank (a reshape may follow)");
      if (llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s < 1; }))
        return op.emitError("convert-linalg-to-dfg: tensor.extract_slice needs positive strides");
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      named.push_back(linalgOp);
      continue;
    }
    return op.emitError("convert-linalg-to-dfg: '")
           << op.getName() << "' is not supported; " << kSupported;
  }
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return op.emitError("convert-linalg-to-dfg: cannot generalise '")
             << op->getName() << "'";
  }
  if (failed(liftOneDimWindows(func)))
    return failure();
  // Dead layers would leave streams nobody reads.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
    if (isOpTriviallyDead(&op))
      op.erase();
  return success();
}

/// The constant `v` is defined by, if any.
TypedAttr constantOf(Value v) {
  Attribute attr;
  if (v && matchPattern(v, m_Constant(&attr)))
    return dyn_cast<TypedAttr>(attr);
  return {};
}

/// The constant a fill-like generic writes everywhere (linalg.fill after
/// generalisation), if `op` is one.
TypedAttr fillValue(linalg::GenericOp op) {
  std::optional<Value> value = linalg::isaFillOpInterface(op);
  return value ? constantOf(*value) : TypedAttr();
}

/// The constant value yielded by a tensor.pad, if it is one.
TypedAttr padValue(tensor::PadOp pad) { return constantOf(pad.getConstantPaddingValue()); }

//===----------------------------------------------------------------------===//
// The graph builder
//===----------------------------------------------------------------------===//

struct Source {
  SmallVector<Value> reads; // channel read ends still to hand out
  unsigned next = 0;
  Order order;
};


class GraphBuilder {
public:
  GraphBuilder(ModuleOp module, func::FuncOp func)
      : module(module), func(func), b(module.getContext()), gb(module.getContext()) {}

  LogicalResult run();

private:
  // Operand classification.
  FailureOr<Operand> classify(linalg::GenericOp op, OpOperand &use, bool windowed);
  unsigned streamUses(Value v);
  memref::GlobalOp globalFor(arith::ConstantOp cst);

  // Streams.
  Value makeSource(Value v, Order order, Location loc);
  void distribute(Value v, Value read, Order order, Location loc);
  FailureOr<std::pair<Value, Order>> take(Value v, std::optional<Order> want, Location loc);

  // Processes.
  dfg::ProcessOp newProcess(StringRef base, dfg::KernelKind kind, TypeRange ports,
                            Location loc);
  void instantiate(dfg::ProcessOp proc, ValueRange ports, Location loc);
  dfg::ChannelOp channel(Type elem, Location loc, int64_t depth = 2);

  LogicalResult lowerGeneric(linalg::GenericOp op);
  LogicalResult lowerAlias(Operation *op, Value src, Value result);
  LogicalResult lowerConcat(tensor::ConcatOp op);
  LogicalResult lowerSlice(tensor::ExtractSliceOp op);
  LogicalResult lowerPad(tensor::PadOp op);
  LogicalResult lowerReturn(func::ReturnOp ret);
  void setLookahead(dfg::ProcessOp proc, int64_t lookahead, int64_t inputElements);

  ModuleOp module;
  func::FuncOp func;
  OpBuilder b;  // process bodies and module-level ops
  OpBuilder gb; // inside the graph
  dfg::GraphOp graph;
  DenseMap<Value, Source> sources;
  DenseMap<Value, Order> required;
  DenseMap<Operation *, memref::GlobalOp> globals;
  /// Pads some reader does not window: a process of their own.
  llvm::SmallPtrSet<Operation *, 4> padProcesses;
  SymbolTable *symbols = nullptr;
  unsigned counter = 0;
};

FailureOr<Operand> GraphBuilder::classify(linalg::GenericOp op, OpOperand &use, bool windowed) {
  Operand operand;
  Value v = use.get();
  Block &body = op.getRegion().front();
  bool read = !body.getArgument(use.getOperandNumber()).use_empty();
  Operation *def = v.getDefiningOp();

  if (!isa<ShapedType>(v.getType())) {
    operand.splat = constantOf(v);
    if (!operand.splat)
      return op.emitError("convert-linalg-to-dfg: scalar operand #")
             << use.getOperandNumber() << " must be a constant";
    operand.role = Role::Splat;
    return operand;
  }
  if (isa_and_nonnull<tensor::EmptyOp>(def)) {
    if (read)
      return op.emitError("convert-linalg-to-dfg: operand #")
             << use.getOperandNumber() << " is a tensor.empty whose values the payload reads";
    return operand;
  }
  if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def)) {
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()); dense && dense.isSplat()) {
      operand.role = Role::Splat;
      operand.splat = cast<TypedAttr>(dense.getSplatValue<Attribute>());
      return operand;
    }
    operand.role = Role::Rom;
    operand.global = globalFor(cst);
    return operand;
  }
  if (auto producer = dyn_cast_or_null<linalg::GenericOp>(def))
    if (TypedAttr fill = fillValue(producer)) {
      operand.role = Role::Splat;
      operand.splat = fill;
      return operand;
    }
  operand.role = Role::Stream;
  operand.source = v;
  if (auto pad = dyn_cast_or_null<tensor::PadOp>(def); pad && !padProcesses.count(pad)) {
    if (!windowed)
      return pad.emitError("convert-linalg-to-dfg: this tensor.pad feeds operand #")
             << use.getOperandNumber()
             << ", which is not a sliding window; padding is folded into sliding windows only";
    operand.padValue = padValue(pad);
    if (!operand.padValue)
      return pad.emitError("convert-linalg-to-dfg: tensor.pad must pad with a constant");
    operand.source = pad.getSource();
    operand.padLow.assign(pad.getStaticLow().begin(), pad.getStaticLow().end());
    operand.padHigh.assign(pad.getStaticHigh().begin(), pad.getStaticHigh().end());
    if (llvm::any_of(llvm::concat<int64_t>(operand.padLow, operand.padHigh),
                     [](int64_t p) { return p < 0 || ShapedType::isDynamic(p); }))
      return pad.emitError("convert-linalg-to-dfg: tensor.pad needs static, non-negative "
                           "padding");
  }
  return operand;
}

/// How many streams a value feeds: each streamed operand use, each return
/// and each alias (collapse/expand) that is itself streamed.
unsigned GraphBuilder::streamUses(Value v) {
  unsigned n = 0;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user))
      ++n;
    else if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ConcatOp,
                 tensor::ExtractSliceOp>(user))
      n += streamUses(user->getResult(0)) > 0;
    else if (auto pad = dyn_cast<tensor::PadOp>(user))
      n += padProcesses.count(pad) ? streamUses(pad.getResult()) > 0 : streamUses(pad.getResult());
    else if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
      if (fillValue(generic))
        continue;
      Operation *def = v.getDefiningOp();
      if (isa_and_nonnull<tensor::EmptyOp, arith::ConstantOp>(def))
        continue;
      if (auto producer = dyn_cast_or_null<linalg::GenericOp>(def); producer && fillValue(producer))
        continue;
      ++n;
    }
  }
  return n;
}

memref::GlobalOp GraphBuilder::globalFor(arith::ConstantOp cst) {
  auto it = globals.find(cst);
  if (it != globals.end())
    return it->second;
  auto type = cast<RankedTensorType>(cst.getType());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      b, cst.getLoc(), "weights", b.getStringAttr("private"),
      MemRefType::get(type.getShape(), type.getElementType()), cst.getValue(),
      /*constant=*/true, /*alignment=*/nullptr);
  symbols->insert(global); // uniquifies the name
  globals[cst] = global;
  return global;
}

dfg::ChannelOp GraphBuilder::channel(Type elem, Location loc, int64_t depth) {
  return dfg::ChannelOp::create(gb, loc, elem, 1, depth);
}

dfg::ProcessOp GraphBuilder::newProcess(StringRef base, dfg::KernelKind kind, TypeRange ports,
                                        Location loc) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(graph);
  auto type = FunctionType::get(b.getContext(), ports, {});
  auto proc = dfg::ProcessOp::create(b, loc, (base + Twine(counter++)).str(), type,
                                     /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
                                     dfg::KernelKindAttr::get(b.getContext(), kind));
  Block *block = new Block();
  proc.getBody().push_back(block);
  for (Type t : ports)
    block->addArgument(t, loc);
  symbols->insert(proc);
  return proc;
}

void GraphBuilder::instantiate(dfg::ProcessOp proc, ValueRange ports, Location loc) {
  dfg::InstantiateOp::create(gb, loc, proc.getSymName(), ports);
}

Value GraphBuilder::makeSource(Value v, Order order, Location loc) {
  dfg::ChannelOp ch = channel(getElementTypeOrSelf(v.getType()), loc);
  distribute(v, ch.getRead(), std::move(order), loc);
  return ch.getWrite();
}

void GraphBuilder::distribute(Value v, Value read, Order order, Location loc) {
  Source &s = sources[v];
  s.order = std::move(order);
  unsigned n = streamUses(v);
  if (n <= 1) {
    s.reads = {read};
    return;
  }
  Type elem = getElementTypeOrSelf(v.getType());
  SmallVector<Type> ports = {dfg::InputType::get(elem)};
  int64_t numel = cast<RankedTensorType>(v.getType()).getNumElements();
  SmallVector<Value> operands = {read}, outs;
  for (unsigned i = 0; i < n; ++i) {
    ports.push_back(dfg::OutputType::get(elem));
    dfg::ChannelOp ch = channel(elem, loc);
    operands.push_back(ch.getWrite());
    s.reads.push_back(ch.getRead());
  }
  dfg::ProcessOp proc = newProcess("fork", dfg::KernelKind::Fork, ports, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&proc.getBody().front());
  buildFork(b, loc, proc.getArgument(0), proc.getArguments().drop_front(), numel);
  instantiate(proc, operands, loc);
  setLookahead(proc, 0, numel);
}

FailureOr<std::pair<Value, Order>> GraphBuilder::take(Value v, std::optional<Order> want,
                                                     Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(v.getType());
  if (!sources.count(v)) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner()->getParentOp() != func)
      return emitError(loc, "convert-linalg-to-dfg: this value is not produced by a "
                            "streaming layer (a constant or fill cannot be streamed)");
    // Graph inputs: a load process reads memory in the first consumer's order.
    Order order = want ? *want : identityOrder(tensorType.getRank());
    Type elem = tensorType.getElementType();
    Value mem = graph.getBody().front().getArgument(arg.getArgNumber());
    dfg::ProcessOp proc = newProcess("load", dfg::KernelKind::Load,
                                     {mem.getType(), dfg::OutputType::get(elem)}, loc);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&proc.getBody().front());
      buildLoad(b, loc, proc.getArgument(0), proc.getArgument(1), order);
    }
    Value write = makeSource(v, order, loc);
    instantiate(proc, {mem, write}, loc);
  }
  Source &s = sources[v];
  if (s.next >= s.reads.size())
    return emitError(loc, "convert-linalg-to-dfg: internal error: more readers than counted");
  Value read = s.reads[s.next++];
  if (!want || *want == s.order)
    return std::make_pair(read, s.order);
  if (sameSequence(tensorType.getShape(), *want, s.order))
    return std::make_pair(read, *want);
  // The consumer needs another element order: buffer what differs, the
  // whole tensor when the orders share no outer dims.
  Type elem = tensorType.getElementType();
  int64_t block = 1;
  for (unsigned d : ArrayRef<unsigned>(s.order).drop_front(reorderPrefix(s.order, *want)))
    block *= tensorType.getDimSize(d);
  if (block == tensorType.getNumElements())
    emitRemark(loc, "convert-linalg-to-dfg: reordering a ")
        << tensorType << " stream through a full buffer (producer and consumer stream it in "
        << "different element orders)";
  dfg::ProcessOp proc = newProcess("reorder", dfg::KernelKind::PureParallel,
                                   {dfg::InputType::get(elem), dfg::OutputType::get(elem)}, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    buildReorder(b, loc, proc.getArgument(0), proc.getArgument(1), tensorType, s.order, *want);
  }
  dfg::ChannelOp ch = channel(elem, loc);
  instantiate(proc, {read, ch.getWrite()}, loc);
  setLookahead(proc, block, tensorType.getNumElements());
  return std::make_pair(Value(ch.getRead()), *want);
}

/// The order a loop nest's output takes from an already streamed input, so
/// that elementwise layers between convolutions keep the pixel-major order.
Order inheritedOrder(linalg::GenericOp op, AffineMap inMap, const Order &inOrder) {
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  Order order;
  for (unsigned d : inOrder) {
    auto dim = dyn_cast<AffineDimExpr>(inMap.getResult(d));
    if (!dim)
      continue;
    for (auto [pos, e] : llvm::enumerate(outMap.getResults()))
      if (e == dim && !llvm::is_contained(order, pos))
        order.push_back(pos);
  }
  for (unsigned d = 0; d < outMap.getNumResults(); ++d)
    if (!llvm::is_contained(order, d))
      order.push_back(d);
  return order;
}

LogicalResult GraphBuilder::lowerGeneric(linalg::GenericOp op) {
  ming::crash::Scope scope(op, "lowering");
  Location loc = op.getLoc();
  if (fillValue(op)) {
    if (streamUses(op.getResult(0)))
      return op.emitError("convert-linalg-to-dfg: a constant-filled tensor that is not only an "
                          "accumulator or operand cannot be streamed");
    return success();
  }
  if (op.getNumDpsInits() != 1)
    return op.emitError("convert-linalg-to-dfg: linalg ops with ")
           << op.getNumDpsInits() << " results are not supported; one result is";
  // The payload runs inside an isolated process: only scalar arithmetic and
  // constants captured from outside.
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) &&
        !isa<linalg::IndexOp>(inner))
      return inner.emitError("convert-linalg-to-dfg: '")
             << inner.getName() << "' in a linalg payload is not supported; arith and math are";
    for (Value v : inner.getOperands())
      if (v.getParentRegion() != &op.getRegion() && !matchPattern(v, m_Constant()))
        return inner.emitError("convert-linalg-to-dfg: the payload uses a value defined "
                               "outside the op that is not a constant");
  }
  FailureOr<KernelInfo> infoOr = ming::analyzeKernel(op);
  if (failed(infoOr))
    return op.emitError("convert-linalg-to-dfg: dynamic loop ranges");
  KernelInfo info = *infoOr;
  bool window = info.kind == KernelClass::SlidingWindow;
  std::optional<unsigned> windowed;
  if (window)
    windowed = info.windows.front().operand;

  SmallVector<Operand> inputs;
  for (OpOperand *use : op.getDpsInputOperands()) {
    FailureOr<Operand> operand =
        classify(op, *use, windowed && *windowed == use->getOperandNumber());
    if (failed(operand))
      return failure();
    inputs.push_back(*operand);
  }
  // A window over a constant (IREE divides an average pool by a pool of a
  // tensor of ones when the padding is not counted) has nothing to stream
  // through a line buffer: the constant is read by index like any other, so
  // the op is a plain reduction nest.
  if (window && inputs[*windowed].role != Role::Stream) {
    window = false;
    windowed.reset();
    info.kind = KernelClass::RegularReduction;
  }
  FailureOr<Operand> initOr = classify(op, *op.getDpsInitOperand(0), false);
  if (failed(initOr))
    return failure();
  Operand init = *initOr;
  if (init.role == Role::Stream && !init.padLow.empty())
    return op.emitError("convert-linalg-to-dfg: a padded accumulator is not supported");

  // The output's element order.
  Order outOrder;
  Value result = op.getResult(0);
  auto resultType = cast<RankedTensorType>(result.getType());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (window) {
    FailureOr<Order> o = windowOutputOrder(op, info);
    if (failed(o))
      return failure();
    outOrder = *o;
  } else if (auto it = required.find(result); it != required.end()) {
    outOrder = it->second;
  } else {
    outOrder = identityOrder(resultType.getRank());
    for (auto [k, operand] : llvm::enumerate(inputs))
      if (operand.role == Role::Stream && sources.count(operand.source)) {
        outOrder = inheritedOrder(op, maps[k], sources[operand.source].order);
        break;
      }
  }

  // Ports: every streamed operand (inputs, then the init), then the output.
  SmallVector<Type> ports;
  SmallVector<Value> operands;
  auto addStream = [&](Operand &operand, AffineMap map, bool isWindowed) -> LogicalResult {
    FailureOr<Order> want = isWindowed ? windowInputOrder(op, info)
                            : window   ? windowSideInputOrder(op, info, map)
                                       : loopNestInputOrder(op, map, outOrder);
    if (failed(want))
      return op.emitError("convert-linalg-to-dfg: cannot stream an operand read at ")
             << AffineMapAttr::get(map);
    FailureOr<std::pair<Value, Order>> taken = take(operand.source, *want, loc);
    if (failed(taken))
      return failure();
    operand.order = taken->second;
    operands.push_back(taken->first);
    ports.push_back(dfg::InputType::get(getElementTypeOrSelf(operand.source.getType())));
    return success();
  };
  for (auto [k, operand] : llvm::enumerate(inputs))
    if (operand.role == Role::Stream &&
        failed(addStream(operand, maps[k], windowed && *windowed == k)))
      return failure();
  if (init.role == Role::Stream && failed(addStream(init, maps.back(), false)))
    return failure();
  Type outElem = resultType.getElementType();
  ports.push_back(dfg::OutputType::get(outElem));
  operands.push_back(makeSource(result, outOrder, loc));

  StringRef base = window ? "window" : info.kind == KernelClass::RegularReduction ? "reduce" : "map";
  dfg::KernelKind kind = window ? dfg::KernelKind::SlidingWindow
                         : info.kind == KernelClass::RegularReduction
                             ? dfg::KernelKind::RegularReduction
                             : dfg::KernelKind::PureParallel;
  dfg::ProcessOp proc = newProcess(base, kind, ports, loc);
  Block &body = proc.getBody().front();
  unsigned port = 0;
  for (Operand &operand : inputs)
    if (operand.role == Role::Stream)
      operand.port = body.getArgument(port++);
  if (init.role == Role::Stream)
    init.port = body.getArgument(port++);
  Value out = body.getArgument(port);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    LogicalResult built = window ? buildWindow(b, loc, op, info, inputs, init, out)
                                 : buildLoopNest(b, loc, op, info, inputs, init, out, outOrder);
    if (failed(built))
      return failure();
  }
  instantiate(proc, operands, loc);

  int64_t inputNumel = 1;
  for (const Operand &operand : inputs)
    if (operand.role == Role::Stream)
      inputNumel = std::max(inputNumel,
                            cast<RankedTensorType>(operand.source.getType()).getNumElements());
  setLookahead(proc, lookaheadElements(op, info, inputs, outOrder), inputNumel);
  if (window) {
    // A window over folded padding pulls under conditions: per loop iteration
    // its accesses vary, and only the totals bound its ports' lanes.
    SmallVector<int64_t> totals;
    for (const Operand &operand : inputs)
      if (operand.role == Role::Stream)
        totals.push_back(cast<RankedTensorType>(operand.source.getType()).getNumElements());
    if (init.role == Role::Stream)
      totals.push_back(cast<RankedTensorType>(init.source.getType()).getNumElements());
    totals.push_back(resultType.getNumElements());
    proc->setAttr(ming::dfg::kPortElementsAttr, b.getDenseI64ArrayAttr(totals));
  }
  return success();
}

LogicalResult GraphBuilder::lowerAlias(Operation *op, Value src, Value result) {
  if (!streamUses(result))
    return success();
  auto type = cast<RankedTensorType>(src.getType());
  auto resultType = cast<RankedTensorType>(result.getType());
  // Inserting or removing unit dimensions (squeeze, unsqueeze, a 1-D layer
  // seen as 2-D) keeps any element order: carry the source's over, or the
  // one the result's consumer needs.
  if (auto map = unitReshapeMap(type.getShape(), resultType.getShape())) {
    std::optional<Order> want;
    if (auto it = required.find(result); it != required.end()) {
      // The source order whose sequence is the wanted one.
      auto back = unitReshapeMap(resultType.getShape(), type.getShape());
      want = reshapeOrder(resultType.getShape(), type.getShape(), it->second, *back);
    }
    FailureOr<std::pair<Value, Order>> taken = take(src, want, op->getLoc());
    if (failed(taken))
      return failure();
    Order carried = reshapeOrder(type.getShape(), resultType.getShape(), taken->second, *map);
    distribute(result, taken->first, carried, op->getLoc());
    return success();
  }
  // Any other reshape splits dims (expand) or merges them (collapse): the
  // stream passes unchanged when its element sequence is an order of the
  // result too. Prefer the order the result's consumer needs, else the one
  // the source already streams in, with merged dims made adjacent.
  bool expand = isa<tensor::ExpandShapeOp>(op);
  SmallVector<ReassociationIndices> groups =
      expand ? cast<tensor::ExpandShapeOp>(op).getReassociationIndices()
             : cast<tensor::CollapseShapeOp>(op).getReassociationIndices();
  ArrayRef<int64_t> fineShape = expand ? resultType.getShape() : type.getShape();
  std::optional<Order> want;
  if (auto it = required.find(result); it != required.end())
    want = expand ? coarsenOrder(it->second, fineShape, groups)
                  : std::optional<Order>(refineOrder(it->second, groups));
  if (!want) {
    if (auto it = sources.find(src); it != sources.end())
      want = expand ? it->second.order : groupedOrder(it->second.order, groups);
    else
      want = identityOrder(type.getRank());
  }
  FailureOr<std::pair<Value, Order>> taken = take(src, want, op->getLoc());
  if (failed(taken))
    return failure();
  std::optional<Order> carried = expand ? std::optional<Order>(refineOrder(taken->second, groups))
                                        : coarsenOrder(taken->second, fineShape, groups);
  if (!carried)
    return op->emitError("convert-linalg-to-dfg: internal error: no stream order for this "
                         "reshape");
  distribute(result, taken->first, *carried, op->getLoc());
  return success();
}

/// The order `v` is wanted in, if a consumer fixed one.
static std::optional<Order> requiredOrder(const DenseMap<Value, Order> &required, Value v) {
  if (auto it = required.find(v); it != required.end())
    return it->second;
  return std::nullopt;
}

/// Concat: every input streams in the output's order (same rank), so the
/// process forwards chunk after chunk and buffers nothing; while one input's
/// chunk passes, the others wait in their FIFOs (`ming.join_burst`).
LogicalResult GraphBuilder::lowerConcat(tensor::ConcatOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  Location loc = op.getLoc();
  auto resultType = cast<RankedTensorType>(result.getType());
  unsigned dim = op.getDim();
  std::optional<Order> want = requiredOrder(required, result);
  if (!want) {
    // Follow the first input already streamed (a window's pixel-major order),
    // so no input needs a reorder buffer.
    for (Value in : op.getInputs())
      if (auto it = sources.find(in); it != sources.end()) {
        want = it->second.order;
        break;
      }
  }
  Order order = want ? *want : identityOrder(resultType.getRank());
  SmallVector<Type> ports;
  SmallVector<Value> operands;
  SmallVector<RankedTensorType> types;
  SmallVector<int64_t> bursts;
  for (Value in : op.getInputs()) {
    auto type = cast<RankedTensorType>(in.getType());
    FailureOr<std::pair<Value, Order>> taken = take(in, order, loc);
    if (failed(taken))
      return failure();
    operands.push_back(taken->first);
    ports.push_back(dfg::InputType::get(type.getElementType()));
    types.push_back(type);
    bursts.push_back(concatChunk(type, dim, order));
  }
  Type elem = resultType.getElementType();
  ports.push_back(dfg::OutputType::get(elem));
  operands.push_back(makeSource(result, order, loc));
  dfg::ProcessOp proc = newProcess("concat", dfg::KernelKind::Concat, ports, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    Block &body = proc.getBody().front();
    buildConcat(b, loc, body.getArguments().drop_back(), body.getArguments().back(), types, dim,
                order);
  }
  instantiate(proc, operands, loc);
  // Bursts count elements of one input; the largest input scales them to the
  // forked tensor's elements (a fork feeding the concat directly: one to one).
  int64_t largest = 1;
  for (RankedTensorType t : types)
    largest = std::max(largest, t.getNumElements());
  setLookahead(proc, 0, largest);
  proc->setAttr(ming::dfg::kJoinBurstAttr, b.getDenseI64ArrayAttr(bursts));
  SmallVector<int64_t> totals;
  for (RankedTensorType t : types)
    totals.push_back(t.getNumElements());
  totals.push_back(resultType.getNumElements());
  proc->setAttr(ming::dfg::kPortElementsAttr, b.getDenseI64ArrayAttr(totals));
  return success();
}

/// Slice: the whole source passes in its order; the elements inside the
/// slice go on, the rest is dropped (Split and Slice along any axis).
LogicalResult GraphBuilder::lowerSlice(tensor::ExtractSliceOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  Location loc = op.getLoc();
  RankedTensorType source = op.getSourceType();
  FailureOr<std::pair<Value, Order>> taken =
      take(op.getSource(), requiredOrder(required, result), loc);
  if (failed(taken))
    return failure();
  Order order = taken->second;
  Type elem = source.getElementType();
  dfg::ProcessOp proc = newProcess("slice", dfg::KernelKind::Slice,
                                   {dfg::InputType::get(elem), dfg::OutputType::get(elem)}, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    buildSlice(b, loc, proc.getArgument(0), proc.getArgument(1), source, op.getStaticOffsets(),
               op.getStaticSizes(), op.getStaticStrides(), order);
  }
  instantiate(proc, {taken->first, makeSource(result, order, loc)}, loc);
  // Elements dropped before the first one kept.
  SmallVector<int64_t> shape = llvm::to_vector(source.getShape());
  int64_t skipped = 0;
  for (unsigned d : order)
    skipped = skipped * shape[d] + op.getStaticOffsets()[d];
  setLookahead(proc, skipped + 1, source.getNumElements());
  proc->setAttr(ming::dfg::kPortElementsAttr,
                b.getDenseI64ArrayAttr({source.getNumElements(), op.getResultType().getNumElements()}));
  return success();
}

/// Pad as a process: where a reader does not slide a window over the padded
/// tensor (a Pad before a Gemm, an elementwise op or the output), the padding
/// is inserted into the stream; the source streams in the same order.
LogicalResult GraphBuilder::lowerPad(tensor::PadOp op) {
  ming::crash::Scope scope(op, "lowering");
  Value result = op.getResult();
  if (!streamUses(result))
    return success();
  Location loc = op.getLoc();
  TypedAttr value = padValue(op);
  if (!value)
    return op.emitError("convert-linalg-to-dfg: tensor.pad must pad with a constant");
  RankedTensorType source = op.getSourceType();
  FailureOr<std::pair<Value, Order>> taken =
      take(op.getSource(), requiredOrder(required, result), loc);
  if (failed(taken))
    return failure();
  Order order = taken->second;
  Type elem = source.getElementType();
  dfg::ProcessOp proc = newProcess("pad", dfg::KernelKind::Pad,
                                   {dfg::InputType::get(elem), dfg::OutputType::get(elem)}, loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&proc.getBody().front());
    buildPad(b, loc, proc.getArgument(0), proc.getArgument(1), source, op.getResultType(),
             op.getStaticLow(), value, order);
  }
  instantiate(proc, {taken->first, makeSource(result, order, loc)}, loc);
  setLookahead(proc, 1, source.getNumElements());
  proc->setAttr(ming::dfg::kPortElementsAttr,
                b.getDenseI64ArrayAttr({source.getNumElements(), op.getResultType().getNumElements()}));
  return success();
}

LogicalResult GraphBuilder::lowerReturn(func::ReturnOp ret) {
  unsigned numInputs = func.getNumArguments();
  for (auto [j, v] : llvm::enumerate(ret.getOperands())) {
    FailureOr<std::pair<Value, Order>> taken = take(v, std::nullopt, ret.getLoc());
    if (failed(taken))
      return failure();
    Value mem = graph.getBody().front().getArgument(numInputs + j);
    Type elem = getElementTypeOrSelf(v.getType());
    dfg::ProcessOp proc = newProcess("store", dfg::KernelKind::Store,
                                     {dfg::InputType::get(elem), mem.getType()}, ret.getLoc());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&proc.getBody().front());
      buildStore(b, ret.getLoc(), proc.getArgument(0), proc.getArgument(1), taken->second);
    }
    instantiate(proc, {taken->first, mem}, ret.getLoc());
  }
  return success();
}

/// Fork FIFOs. When the paths leaving a fork meet again (a residual add),
/// the fork may only run ahead on one branch as far as that branch's FIFO
/// holds, while the other branch's processes fill their line and row
/// buffers before they produce. So branch i holds, on top of 2, what any
/// other branch j can lag: the buffers of every process reachable from j
/// (an upper bound of the path up to the join), in the forked tensor's
/// elements, and never more than the whole tensor. Straight channels keep
/// depth 2: without reconvergence a full FIFO only stalls, never deadlocks.
void GraphBuilder::setLookahead(dfg::ProcessOp proc, int64_t lookahead, int64_t inputElements) {
  proc->setAttr(ming::dfg::kLookaheadAttr, b.getI64IntegerAttr(lookahead));
  proc->setAttr(ming::dfg::kInputElementsAttr, b.getI64IntegerAttr(inputElements));
}

LogicalResult GraphBuilder::run() {
  SymbolTable table(module);
  symbols = &table;
  Location loc = func.getLoc();

  // The graph: memory for each input, then for each result.
  SmallVector<Type> memories;
  for (Type t : llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes())) {
    auto tensor = cast<RankedTensorType>(t);
    memories.push_back(MemRefType::get(tensor.getShape(), tensor.getElementType()));
  }
  b.setInsertionPointToEnd(module.getBody());
  std::string name = func.getSymName().str();
  graph = dfg::GraphOp::create(b, loc, name + ".graph",
                               FunctionType::get(b.getContext(), memories, {}), nullptr, nullptr);
  graph->setAttr("ming.num_inputs", b.getI64IntegerAttr(func.getNumArguments()));
  Block *gblock = new Block();
  graph.getBody().push_back(gblock);
  for (Type t : memories)
    gblock->addArgument(t, loc);
  gb.setInsertionPointToStart(gblock);

  // A pad is folded into the windows reading it when every reader slides a
  // window over it; else it is a process of its own.
  for (auto pad : func.getBody().front().getOps<tensor::PadOp>()) {
    bool folded = !pad.getResult().use_empty();
    for (OpOperand &use : pad.getResult().getUses()) {
      auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
      FailureOr<KernelInfo> info =
          generic ? ming::analyzeKernel(generic) : FailureOr<KernelInfo>(failure());
      folded &= succeeded(info) && info->kind == KernelClass::SlidingWindow &&
                info->windows.front().operand == use.getOperandNumber();
      if (!folded)
        break;
      // The line buffer pads the axes it slides over only (a Pad on the
      // batch or the channels is a process of its own).
      llvm::SmallDenseSet<unsigned> sliding;
      for (const WindowAccess &w : info->windows)
        if (w.operand == use.getOperandNumber())
          sliding.insert(w.result);
      for (auto [d, lo] : llvm::enumerate(pad.getStaticLow()))
        folded &= sliding.contains(d) || (lo == 0 && pad.getStaticHigh()[d] == 0);
    }
    if (!folded) {
      if (llvm::any_of(llvm::concat<const int64_t>(pad.getStaticLow(), pad.getStaticHigh()),
                       [](int64_t p) { return p < 0 || ShapedType::isDynamic(p); }))
        return pad.emitError("convert-linalg-to-dfg: tensor.pad needs static, non-negative "
                             "padding");
      padProcesses.insert(pad);
    }
  }

  // Sliding windows fix the order of the streams they read.
  for (auto op : func.getBody().front().getOps<linalg::GenericOp>()) {
    FailureOr<KernelInfo> info = ming::analyzeKernel(op);
    if (failed(info) || info->kind != KernelClass::SlidingWindow || info->windows.size() != 2)
      continue;
    Value v = op.getDpsInputs()[info->windows.front().operand];
    if (auto pad = v.getDefiningOp<tensor::PadOp>(); pad && !padProcesses.count(pad))
      v = pad.getSource();
    FailureOr<Order> order = windowInputOrder(op, *info);
    if (succeeded(order))
      required.try_emplace(v, *order);
    // Operands read per output element (an accumulator initialised by a
    // bias broadcast) follow the window's pixel-major output order.
    for (OpOperand &use : op->getOpOperands()) {
      if (use.getOperandNumber() == info->windows.front().operand ||
          !isa<RankedTensorType>(use.get().getType()))
        continue;
      FailureOr<Order> side =
          windowSideInputOrder(op, *info, op.getMatchingIndexingMap(&use));
      if (succeeded(side) && *side != identityOrder(side->size()))
        required.try_emplace(use.get(), *side);
    }
  }

  // A required order reaches through reshapes that only add or drop unit
  // dimensions, so the producer streams in it directly.
  SmallVector<std::pair<Value, Order>> pending(required.begin(), required.end());
  while (!pending.empty()) {
    auto [v, order] = pending.pop_back_val();
    Operation *def = v.getDefiningOp();
    // Concat and slice keep the rank: their inputs stream in the same order.
    if (isa_and_nonnull<tensor::ConcatOp, tensor::ExtractSliceOp>(def) ||
        (isa_and_nonnull<tensor::PadOp>(def) && padProcesses.count(def))) {
      for (Value in : def->getOperands())
        if (isa<RankedTensorType>(in.getType()) && required.try_emplace(in, order).second)
          pending.emplace_back(in, order);
      continue;
    }
    if (!isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      continue;
    Value src = def->getOperand(0);
    auto from = cast<RankedTensorType>(v.getType()).getShape();
    auto to = cast<RankedTensorType>(src.getType()).getShape();
    std::optional<Order> srcOrder;
    if (auto map = unitReshapeMap(from, to))
      srcOrder = reshapeOrder(from, to, order, *map);
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      srcOrder = coarsenOrder(order, from, expand.getReassociationIndices());
    else
      srcOrder = refineOrder(order, cast<tensor::CollapseShapeOp>(def).getReassociationIndices());
    if (srcOrder && required.try_emplace(src, *srcOrder).second)
      pending.emplace_back(src, *srcOrder);
  }

  for (Operation &op : func.getBody().front()) {
    LogicalResult r = success();
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      r = lowerGeneric(generic);
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      r = lowerAlias(&op, collapse.getSrc(), collapse.getResult());
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      r = lowerAlias(&op, expand.getSrc(), expand.getResult());
    else if (auto concat = dyn_cast<tensor::ConcatOp>(op))
      r = lowerConcat(concat);
    else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      r = lowerSlice(slice);
    else if (auto pad = dyn_cast<tensor::PadOp>(op); pad && padProcesses.count(pad))
      r = lowerPad(pad);
    else if (auto ret = dyn_cast<func::ReturnOp>(op))
      r = lowerReturn(ret);
    if (failed(r))
      return failure();
  }

  // Fork FIFOs once the whole graph is known (one lane each; the DSE resizes
  // them for the lanes and pipelines it chooses).
  ming::dse::sizeForkFifos(graph);

  // The graph takes the function's name, as a C identifier: it names the
  // HLS top function, its files and its Tcl project.
  std::string ident = cIdentifier(name, table);
  if (ident != name)
    func.emitRemark("convert-linalg-to-dfg: '")
        << name << "' is not a C identifier; the design is named '" << ident << "'";
  func.erase();
  graph.setSymName(ident);
  return success();
}

struct ConvertLinalgToDfg : ming::impl::ConvertLinalgToDfgBase<ConvertLinalgToDfg> {
  using ConvertLinalgToDfgBase::ConvertLinalgToDfgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> func = theFunction(module, top);
    if (failed(func) || failed(normalise(*func))) {
      signalPassFailure();
      return;
    }
    GraphBuilder builder(module, *func);
    if (failed(builder.run()))
      signalPassFailure();
  }
};

} // namespace
