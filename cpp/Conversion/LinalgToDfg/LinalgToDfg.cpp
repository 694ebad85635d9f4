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
//
// This file holds the pass and the graph builder's walk over the function
// (Graph.h). The input checks and rewrites before it are in Normalise.cpp
// and LiftWindows.cpp, the streams between processes in Streams.cpp, the
// lowering of each op in Lowerings.cpp, the process bodies in Bodies.cpp
// and Window.cpp.
#include "Graph.h"
#include "Normalise.h"
#include "Orders.h"

#include "ming/Analysis/KernelAnalysis.h"
#include "ming/Conversion/Passes.h"
#include "ming/DSE/FifoDepths.h"
#include "ming/Directives/Directives.h"

#include "llvm/ADT/StringSet.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTLINALGTODFG
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;

namespace ming::lowering {
namespace {

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

} // namespace

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
  graph->setAttr(directives::kNumInputs, b.getI64IntegerAttr(func.getNumArguments()));
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

  // A contraction over gathered windows streams its output pixel-major, as
  // the window it replaces would: its operands read per output element (the
  // bias) come in that order too, not through a reorder.
  for (auto op : func.getBody().front().getOps<linalg::GenericOp>())
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto gather = in->get().getDefiningOp<linalg::GenericOp>();
      if (!gather || !gather->hasAttr(kWindowTaps))
        continue;
      SmallVector<unsigned> pixels = gatheredPixelDims(gather);
      AffineMap lead = op.getMatchingIndexingMap(in);
      for (OpOperand &use : op->getOpOperands()) {
        AffineMap m = op.getMatchingIndexingMap(&use);
        bool perPixel = llvm::any_of(pixels, [&](unsigned p) {
          return llvm::is_contained(m.getResults(), lead.getResult(p));
        });
        if (&use == in || !perPixel || !isa<RankedTensorType>(use.get().getType()))
          continue;
        Order order = followOrder(lead, identityOrder(lead.getNumResults()), m);
        if (use.getOperandNumber() >= op.getNumDpsInputs())
          required.try_emplace(op->getResult(0), order);
        if (order != identityOrder(order.size()))
          required.try_emplace(use.get(), order);
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

} // namespace ming::lowering

namespace {

using namespace ming::lowering;

struct ConvertLinalgToDfg : ming::impl::ConvertLinalgToDfgBase<ConvertLinalgToDfg> {
  using ConvertLinalgToDfgBase::ConvertLinalgToDfgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> func = theFunction(module, top);
    if (failed(func) || failed(normalise(*func, gatherWindows))) {
      signalPassFailure();
      return;
    }
    GraphBuilder builder(module, *func);
    if (failed(builder.run()))
      signalPassFailure();
  }
};

} // namespace
