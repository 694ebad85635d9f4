// QUInt8 activations (onnxruntime quantize_static's default) re-encoded as
// int8 before ming-quantize-integer rewrites anything: an unsigned quantize
// clamp(round(x / s) + zp, 0, 255) stores u, and s8 = u - 128 is exactly
// clamp(round(x / s) + (zp - 128), -128, 127), a signed quantize with the zero
// point moved by 128. Every reader of the bytes is changed to match (a
// dequantize's extui/uitofp, a pad's value), so the rest of the pass sees
// only the signed vocabulary of QDQ.h. i8 is signless: no type changes, only
// the meaning of the bits.
//
// A uint8 model input (an argument a dequantize widens with extui) is
// re-encoded at the interface by one elementwise process, u xor 0x80; the
// model's interface stays uint8.
//
// All or nothing per function: if any reader of an unsigned tensor is not
// understood (a function result, an integer op that is not a widening), no
// quantize is re-encoded and the caller keeps its warning.
#include "QDQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/SetVector.h"

namespace ming::quant {

/// The fptoui of a generic f32 -> i8 whose body ends in a clamp and fptoui
/// (an unsigned quantize), else null.
static arith::FPToUIOp unsignedQuantize(linalg::GenericOp g) {
  if (g.getNumResults() != 1 || g.getNumDpsInputs() != 1 || !isElementwise(g))
    return nullptr;
  auto out = dyn_cast<IntegerType>(elementTypeOf(g.getResult(0)));
  if (!out || out.getWidth() != 8 || !isa<FloatType>(elementTypeOf(g.getDpsInputOperand(0)->get())))
    return nullptr;
  return cast<linalg::YieldOp>(g.getBody()->getTerminator()).getOperand(0).getDefiningOp<arith::FPToUIOp>();
}

/// Ops that only move bytes: the unsigned encoding passes through them.
static bool movesOnly(Operation *op) {
  if (isa<tensor::PadOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ExtractSliceOp,
          tensor::ConcatOp, tensor::CastOp, linalg::TransposeOp, linalg::BroadcastOp>(op))
    return true;
  auto g = dyn_cast<linalg::GenericOp>(op);
  if (!g || g.getNumResults() != 1)
    return false;
  auto arg = dyn_cast<BlockArgument>(cast<linalg::YieldOp>(g.getBody()->getTerminator()).getOperand(0));
  return arg && arg.getOwner() == g.getBody() && arg.getArgNumber() < g.getNumDpsInputs();
}

static bool isI8Tensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isInteger(8);
}

/// A pad of an unsigned tensor pads with a constant byte; false otherwise.
static bool padsWithConstant(tensor::PadOp pad) {
  auto yield = cast<tensor::YieldOp>(pad.getRegion().front().getTerminator());
  return static_cast<bool>(scalarConstant(yield.getValue()));
}

/// Whether every use of the block argument widens it as unsigned.
static bool readAsUnsigned(BlockArgument arg) {
  return llvm::all_of(arg.getUsers(), [](Operation *u) { return isa<arith::ExtUIOp, arith::UIToFPOp>(u); });
}

static Value constantLike(OpBuilder &b, Location loc, Type type, double v) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, FloatAttr::get(f, v));
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, static_cast<int64_t>(v)));
}

/// clamp(r + zp, lo, hi) with fptoui -> clamp(r + zp - 128, lo - 128, hi - 128)
/// with fptosi.
static void signQuantize(arith::FPToUIOp toU) {
  OpBuilder b(toU);
  Location loc = toU.getLoc();
  Value v = toU.getIn();
  SmallVector<Operation *> clamps;
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<arith::MinimumFOp, arith::MinNumFOp, arith::MaximumFOp, arith::MaxNumFOp>(op))
      break;
    clamps.push_back(op);
    v = scalarConstant(op->getOperand(1)) ? op->getOperand(0) : op->getOperand(1);
  }
  // The zero point's add (a constant on either side) takes the shift;
  // without one, an add of -128 is inserted after the rounding.
  Type f = v.getType();
  Value rounded = v;
  double shift = -128;
  auto add = v.getDefiningOp<arith::AddFOp>();
  if (add) {
    if (std::optional<double> zp = scalarConstant(add.getRhs())) {
      rounded = add.getLhs();
      shift += *zp;
    } else if (std::optional<double> zp = scalarConstant(add.getLhs())) {
      rounded = add.getRhs();
      shift += *zp;
    }
  }
  if (rounded == v)
    b.setInsertionPointAfterValue(v);
  else
    b.setInsertionPoint(add);
  Value root = arith::AddFOp::create(b, loc, rounded, constantLike(b, loc, f, shift));
  // Rebuild the clamps innermost first on the shifted value.
  for (Operation *op : llvm::reverse(clamps)) {
    b.setInsertionPoint(op);
    bool rhsConst = static_cast<bool>(scalarConstant(op->getOperand(1)));
    double c = *scalarConstant(op->getOperand(rhsConst ? 1 : 0));
    Value k = constantLike(b, loc, f, c - 128);
    Operation *n = b.create(op->getLoc(), op->getName().getIdentifier(), {root, k}, {f});
    root = n->getResult(0);
  }
  b.setInsertionPoint(toU);
  Value s = arith::FPToSIOp::create(b, loc, toU.getType(), root);
  toU.getResult().replaceAllUsesWith(s);
  toU.erase();
  // The unsigned chain is dead now, outermost first.
  for (Operation *op : clamps)
    op->erase();
  if (add && add->use_empty())
    add.erase();
}

/// Readers of the bytes: u = s + 128 after the re-encoding. A widening
/// followed by `subi zp` becomes `subi (zp - 128)` of the signed widening, the
/// form matchDequant reads.
static void signReads(BlockArgument arg) {
  for (Operation *u : llvm::make_early_inc_range(arg.getUsers())) {
    OpBuilder b(u);
    Location loc = u->getLoc();
    if (auto ext = dyn_cast<arith::ExtUIOp>(u)) {
      Type wide = ext.getType();
      Value s = arith::ExtSIOp::create(b, loc, wide, arg);
      auto sub = ext->hasOneUse() ? dyn_cast<arith::SubIOp>(*ext->user_begin()) : nullptr;
      std::optional<double> zp = sub && sub.getLhs() == ext.getResult() ? scalarConstant(sub.getRhs()) : std::nullopt;
      if (zp) {
        b.setInsertionPoint(sub);
        Value n = arith::SubIOp::create(b, loc, s, constantLike(b, loc, wide, *zp - 128));
        sub.getResult().replaceAllUsesWith(n);
        sub.erase();
        ext.erase();
        continue;
      }
      ext.getResult().replaceAllUsesWith(arith::AddIOp::create(b, loc, s, constantLike(b, loc, wide, 128)));
      ext.erase();
      continue;
    }
    auto toF = cast<arith::UIToFPOp>(u);
    Type i32 = b.getI32Type();
    Value s = arith::ExtSIOp::create(b, loc, i32, arg);
    Value shifted = arith::SubIOp::create(b, loc, s, constantLike(b, loc, i32, -128));
    toF.getResult().replaceAllUsesWith(arith::SIToFPOp::create(b, loc, toF.getType(), shifted));
    toF.erase();
  }
}

/// A uint8 model input: an i8 argument that some generic reads as unsigned.
static bool readAsUnsignedSomewhere(BlockArgument arg) {
  return isI8Tensor(arg) && llvm::any_of(arg.getUses(), [](OpOperand &use) {
           auto g = dyn_cast<linalg::GenericOp>(use.getOwner());
           return g && !g.isDpsInit(&use) && !g.getMatchingBlockArgument(&use).use_empty() &&
                  readAsUnsigned(g.getMatchingBlockArgument(&use));
         });
}

/// Replaces the uses of the uint8 argument `arg` by its bytes re-encoded,
/// u xor 0x80 = u - 128 as int8: one elementwise process at the interface.
static Value flipAtEntry(func::FuncOp func, BlockArgument arg) {
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  Location loc = arg.getLoc();
  auto type = cast<RankedTensorType>(arg.getType());
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iters(type.getRank(), utils::IteratorType::parallel);
  auto flip = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{arg}, ValueRange{empty}, ArrayRef<AffineMap>{id, id}, iters,
      [](OpBuilder &nb, Location l, ValueRange args) {
        Value top = arith::ConstantOp::create(nb, l, nb.getIntegerAttr(nb.getI8Type(), -128));
        linalg::YieldOp::create(nb, l, arith::XOrIOp::create(nb, l, args[0], top).getResult());
      });
  arg.replaceAllUsesExcept(flip.getResult(0), flip);
  return flip.getResult(0);
}

bool signUnsignedQuantizes(func::FuncOp func) {
  SmallVector<std::pair<linalg::GenericOp, arith::FPToUIOp>> quantizes;
  func.walk([&](linalg::GenericOp g) {
    if (auto toU = unsignedQuantize(g))
      quantizes.push_back({g, toU});
  });
  SmallVector<BlockArgument> inputs;
  for (BlockArgument arg : func.getArguments())
    if (readAsUnsignedSomewhere(arg))
      inputs.push_back(arg);
  if (quantizes.empty() && inputs.empty())
    return true;
  // The unsigned tensors: the quantizes' results, the uint8 inputs, and what
  // byte movement makes of them.
  llvm::SetVector<Value> bytes;
  for (auto &[g, toU] : quantizes)
    bytes.insert(g.getResult(0));
  for (BlockArgument arg : inputs)
    bytes.insert(arg);
  SmallVector<std::pair<linalg::GenericOp, BlockArgument>> reads;
  SmallVector<tensor::PadOp> pads;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (OpOperand &use : bytes[i].getUses()) {
      Operation *user = use.getOwner();
      if (movesOnly(user)) {
        // Every byte operand of the mover must be unsigned too (checked below).
        if (auto pad = dyn_cast<tensor::PadOp>(user)) {
          if (!padsWithConstant(pad))
            return false;
          if (!llvm::is_contained(pads, pad))
            pads.push_back(pad);
        }
        for (Value r : user->getResults())
          bytes.insert(r);
        continue;
      }
      auto g = dyn_cast<linalg::GenericOp>(user);
      if (!g || g.isDpsInit(&use))
        return false;
      BlockArgument arg = g.getMatchingBlockArgument(&use);
      if (!readAsUnsigned(arg))
        return false;
      reads.push_back({g, arg});
    }
  }
  // A mover mixing unsigned and other bytes would need both encodings.
  for (Value v : bytes)
    if (Operation *def = v.getDefiningOp(); def && movesOnly(def))
      for (OpOperand &o : def->getOpOperands()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(def);
        if (dps && dps.isDpsInit(&o))
          continue;
        if (isI8Tensor(o.get()) && !bytes.contains(o.get()))
          return false;
      }
  for (auto &[g, toU] : quantizes)
    signQuantize(toU);
  for (BlockArgument arg : inputs)
    flipAtEntry(func, arg);
  for (auto &[g, arg] : reads)
    signReads(arg);
  for (tensor::PadOp pad : pads) {
    auto yield = cast<tensor::YieldOp>(pad.getRegion().front().getTerminator());
    OpBuilder b(yield);
    double c = *scalarConstant(yield.getValue());
    // The padding byte u becomes u - 128, wrapped to the signless i8 pattern.
    int64_t s = static_cast<int64_t>(static_cast<int8_t>(static_cast<uint8_t>(static_cast<int64_t>(c)) ^ 0x80));
    yield->setOperand(0, constantLike(b, yield.getLoc(), yield.getValue().getType(), static_cast<double>(s)));
  }
  return true;
}

} // namespace ming::quant
