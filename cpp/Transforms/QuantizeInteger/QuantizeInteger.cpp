// ming-quantize-integer: QDQ fake-quant float linalg (as IREE imports ONNX
// models quantised by onnxruntime's quantize_static) -> integer linalg: i8
// activations and weights, i32 accumulation, zero points folded into the
// accumulator's initial value, requantisation by integer multiplier and shift.
// See td/ming/Transforms/Passes.td for the contract.
//
// Vocabulary (all linalg.generic with identity maps on their main operand):
//   dequantize D:  i8/i32 -> f32, body [extsi; subi zp;] sitofp; mulf scale
//   quantize   Q:  f32 -> i8, body divf scale; roundeven; addf zp; max; min; fptosi
// Every Q whose input is not a function argument is an anchor: what computes
// its input is rebuilt on integers before it and the anchor's result is
// replaced; the float ops left without uses are erased.
//
// The pass is split by concern: QDQ.h/.cpp match the QDQ vocabulary,
// Requantise.h holds the integer requantisation arithmetic, Rewriter.h/.cpp
// the rewrites of each kind of layer; this file moves quantizes before data
// movement and drives the rewrite.
#include "QDQ.h"
#include "Rewriter.h"

#include "ming/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <map>
#include <tuple>

namespace ming {
#define GEN_PASS_DEF_QUANTIZEINTEGER
#include "ming/Transforms/Passes.h.inc"
} // namespace ming

using namespace mlir;
using namespace ming::quant;

namespace {

/// A generic that only moves data: one input, all loops parallel, the payload
/// yields the input element (a transpose, a broadcast).
bool isCopy(linalg::GenericOp g) {
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops())
    return false;
  Block *body = g.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return body->getOperations().size() == 1 && yield.getOperand(0) == body->getArgument(0);
}

/// `q` applied to `x` (same element types, x's shape): a clone of its payload.
Value quantizeLike(IRRewriter &rewriter, linalg::GenericOp q, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Type elem = elementTypeOf(q.getResult(0));
  Location loc = q.getLoc();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), elem);
  AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  auto g = linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()}, ValueRange{x},
                                     ValueRange{init}, ArrayRef<AffineMap>{id, id}, iters);
  rewriter.cloneRegionBefore(q.getRegion(), g.getRegion(), g.getRegion().end());
  return g.getResult(0);
}

/// A quantize of a concat or a slice is the concat or slice of quantizes (the
/// same elementwise map before and after moving data), so the integer rewrite
/// reaches the layers that compute their inputs (SqueezeNet's fire modules,
/// ShuffleNet's split). One quantize per sliced source, shared by its slices.
void quantizeBeforeDataMovement(func::FuncOp func) {
  IRRewriter rewriter(func.getContext());
  std::map<std::pair<Operation *, std::tuple<double, int64_t, int64_t, int64_t>>, Value> sourceQ;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<std::pair<linalg::GenericOp, Quant>> quants;
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        quants.push_back({g, *q});
    });
    for (auto &[g, q] : quants) {
      Value in = g.getDpsInputOperand(0)->get();
      Operation *def = in.getDefiningOp();
      if (!def || !in.hasOneUse())
        continue;
      rewriter.setInsertionPoint(g);
      if (auto concat = dyn_cast<tensor::ConcatOp>(def)) {
        SmallVector<Value> parts;
        for (Value x : concat.getInputs())
          parts.push_back(quantizeLike(rewriter, g, x));
        Value c = tensor::ConcatOp::create(rewriter, concat.getLoc(), concat.getDim(), parts);
        rewriter.replaceOp(g, c);
        rewriter.eraseOp(concat);
        changed = true;
      } else if (auto move = dyn_cast<linalg::GenericOp>(def); move && isCopy(move)) {
        // A transpose or broadcast: the same copy of the quantized input.
        Value qx = quantizeLike(rewriter, g, move.getDpsInputOperand(0)->get());
        auto type = cast<RankedTensorType>(move.getResult(0).getType());
        Value init = tensor::EmptyOp::create(rewriter, move.getLoc(), type.getShape(),
                                             elementTypeOf(g.getResult(0)));
        auto copy = linalg::GenericOp::create(
            rewriter, move.getLoc(), TypeRange{init.getType()}, ValueRange{qx}, ValueRange{init},
            move.getIndexingMapsArray(), move.getIteratorTypesArray(),
            [](OpBuilder &b, Location loc, ValueRange args) {
              linalg::YieldOp::create(b, loc, args[0]);
            });
        rewriter.replaceOp(g, copy.getResult(0));
        rewriter.eraseOp(move);
        changed = true;
      } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(def)) {
        Value src = slice.getSource();
        auto key = std::make_pair(src.getDefiningOp() ? src.getDefiningOp() : slice.getOperation(),
                                  std::make_tuple(q.scale, q.zp, q.lo, q.hi));
        Value qsrc;
        if (src.getDefiningOp() && sourceQ.count(key)) {
          qsrc = sourceQ[key];
        } else {
          OpBuilder::InsertionGuard guard(rewriter);
          if (Operation *d = src.getDefiningOp())
            rewriter.setInsertionPointAfter(d);
          else
            rewriter.setInsertionPointToStart(&func.getBody().front());
          qsrc = quantizeLike(rewriter, g, src);
          if (src.getDefiningOp())
            sourceQ[key] = qsrc;
        }
        auto type = cast<RankedTensorType>(g.getResult(0).getType());
        Value r = tensor::ExtractSliceOp::create(rewriter, slice.getLoc(), type, qsrc,
                                                 slice.getMixedOffsets(), slice.getMixedSizes(),
                                                 slice.getMixedStrides());
        rewriter.replaceOp(g, r);
        rewriter.eraseOp(slice);
        changed = true;
      }
    }
  }
}

bool isFloatTensor(Type t) {
  auto s = dyn_cast<ShapedType>(t);
  return s && isa<FloatType>(s.getElementType());
}

struct QuantizeInteger : ming::impl::QuantizeIntegerBase<QuantizeInteger> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (rounding != "onnx" && rounding != "tflite") {
      func.emitError() << "ming-quantize-integer: rounding is 'onnx' or 'tflite', not '" << rounding << "'";
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::GenericOp, Quant>> anchors;
    bool any = false;
    // QUInt8 activations become int8 ones first; where a reader of their
    // bytes is not understood, none is re-encoded and the float path stays.
    bool signedAll = signUnsignedQuantizes(func);
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        any = true;
      if (!signedAll && g.getNumResults() == 1 && isa<IntegerType>(elementTypeOf(g.getResult(0))))
        if (cast<linalg::YieldOp>(g.getBody()->getTerminator()).getOperand(0).getDefiningOp<arith::FPToUIOp>()) {
          InFlightDiagnostic diag = strict ? g.emitError() : g.emitWarning();
          diag << "unsigned (QUInt8) quantize: a reader of its bytes is not a dequantize or a move, "
                  "not rewritten on integers, the float path stays";
          if (strict)
            signalPassFailure();
        }
    });
    if (!any)
      return;
    // Named ops (convolutions, matmuls, pooling, fills, broadcasts) as
    // generics: one matcher for all of them.
    IRRewriter rewriter(func.getContext());
    SmallVector<linalg::LinalgOp> named;
    func.walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    quantizeBeforeDataMovement(func);
    func.walk([&](linalg::GenericOp g) {
      if (auto q = matchQuant(g))
        if (!isa<BlockArgument>(g.getDpsInputOperand(0)->get()))
          anchors.push_back({g, *q});
    });
    Rewriter rw(func);
    rw.rounding = rounding == "tflite" ? Rounding::Tflite : Rounding::Onnx;
    bool failedAny = false;
    for (auto &[qop, q] : anchors) {
      std::optional<Value> v = rw.rewriteAnchor(qop, q);
      if (v) {
        qop.getResult(0).replaceAllUsesWith(*v);
        continue;
      }
      failedAny = true;
      InFlightDiagnostic diag = strict ? qop.emitError() : qop.emitWarning();
      diag << "quantize kept in float: cannot rewrite its input on integers ("
           << (rw.why.empty() ? std::string("unsupported") : rw.why) << ")";
    }
    // Erase what the rewrite left without uses, innermost first.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<Operation *> dead;
      func.walk<WalkOrder::PostOrder>([&](Operation *op) {
        if (op != func && op->getParentOp() == func && isOpTriviallyDead(op))
          dead.push_back(op);
      });
      for (Operation *op : llvm::reverse(dead)) {
        op->erase();
        changed = true;
      }
    }
    // Float left between the input quantizes and the output dequantizes.
    func.walk([&](linalg::LinalgOp op) {
      bool floatOut = llvm::any_of(op->getResultTypes(), isFloatTensor);
      bool floatIn = llvm::any_of(op.getDpsInputs(), [](Value v) { return isFloatTensor(v.getType()); });
      if (!floatOut && !floatIn)
        return;
      auto g = dyn_cast<linalg::GenericOp>(op.getOperation());
      bool inputQuantize = g && matchQuant(g) && isa<BlockArgument>(g.getDpsInputOperand(0)->get());
      bool outputDequantize = g && matchDequant(g.getResult(0)) &&
                              llvm::all_of(g->getUsers(), [](Operation *u) { return isa<func::ReturnOp>(u); });
      bool shapeCarrier = g && !floatOut; // e.g. a pooling window: only its shape is read
      if (g && !floatOut && floatIn) {
        // Integer result from float inputs: only a window operand may be float.
        shapeCarrier = llvm::all_of(g.getDpsInputOperands(), [&](OpOperand *o) {
          return !isFloatTensor(o->get().getType()) || !g.payloadUsesValueFromOperand(o);
        });
      }
      if (inputQuantize || outputDequantize || shapeCarrier)
        return;
      if (!failedAny || strict)
        op->emitWarning("float arithmetic stays in the quantised datapath");
    });
    if (failedAny && strict)
      signalPassFailure();
  }
};

} // namespace
