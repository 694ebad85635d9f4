// convert-dfg-to-emithls (td/ming/Conversion/Passes.td): lowers a dataflow
// graph to emitHLS, the IR that prints one-to-one as Vitis HLS C++.
//
//   dfg.process  -> emitHLS.func with INLINE off; ports become streams and
//                   arrays; the body (scf, memref, arith, math, pull/push) is
//                   rebuilt op by op with an IRMapping.
//   lanes = L    -> a channel of L > 1 lanes is ONE stream of packed words
//                   (hls::vector<T, L>): each such port keeps a word and a
//                   lane (a counter, or the innermost loop's iteration mod L),
//                   so the round-robin pulls and pushes of an unchanged body
//                   move one word per L elements. L must divide the number
//                   of elements on the channel.
//   dfg.graph    -> the top emitHLS.func: AXI interfaces, DATAFLOW, one
//                   hls::stream per channel, one call per instance in
//                   producer -> consumer order.
//   memref.global constants (weights) become `rom` arrays inside the
//   functions that read them, so the module ends up holding only functions.
//
// Anything outside that contract is rejected with a located error; the pass
// never builds IR that the emitHLS verifiers would have to reject.
//
// This file holds the pass; the lowering is split by concern, sharing
// Lowering.h: Types.cpp (arrays, streams, signatures), Process.cpp (process
// bodies: scalar ops, variables, control flow), Memory.cpp (buffers, ROMs,
// partitions), Lanes.cpp (pulls, pushes and the lanes of packed words) and
// Graph.cpp (the top function).
#include "Lowering.h"

#include "ming/Conversion/Passes.h"

namespace ming {
#define GEN_PASS_DEF_CONVERTDFGTOEMITHLS
#include "ming/Conversion/Passes.h.inc"
} // namespace ming

using namespace mlir;
using namespace ming;
using namespace ming::tohls;

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertDfgToEmitHLS : ming::impl::ConvertDfgToEmitHLSBase<ConvertDfgToEmitHLS> {
  using ConvertDfgToEmitHLSBase::ConvertDfgToEmitHLSBase;

  void runOnOperation() override {
    if (axiBits != 0 && (axiBits < 8 || axiBits > 1024 || !llvm::isPowerOf2_64(axiBits))) {
      emitError(getOperation().getLoc())
          << "convert-dfg-to-emithls: axi-bits must be 0 or a power of two from 8 to 1024, got "
          << static_cast<int64_t>(axiBits);
      return signalPassFailure();
    }
    if (failed(convert(getOperation(), axiBits)))
      signalPassFailure();
  }

  static LogicalResult convert(ModuleOp module, int64_t axiBits) {
    llvm::StringMap<memref::GlobalOp> globals;
    llvm::StringMap<dfg::ProcessOp> processByName;
    SmallVector<dfg::ProcessOp> processes;
    SmallVector<dfg::GraphOp> graphs;
    for (Operation &op : *module.getBody()) {
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        globals[global.getSymName()] = global;
      else if (auto process = dyn_cast<dfg::ProcessOp>(op)) {
        processes.push_back(process);
        processByName[process.getSymName()] = process;
      }
      else if (auto graph = dyn_cast<dfg::GraphOp>(op))
        graphs.push_back(graph);
      else
        return op.emitOpError("is not supported at module level; the module must hold "
                              "memref.global constants, dfg.process ops and one dfg.graph");
    }
    if (graphs.empty())
      return module.emitOpError("holds no dfg.graph; exactly one is needed for the top function");
    if (graphs.size() > 1)
      return graphs[1].emitOpError("is a second dfg.graph; exactly one is supported (the top "
                                   "function), the first is @")
             << graphs[0].getSymName();

    // New functions go after the old ops, processes first and the top last;
    // the dfg ops and globals are erased once everything is built.
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    for (dfg::ProcessOp process : processes)
      if (failed(ProcessLowering(globals).lower(process, b)))
        return failure();
    if (failed(lowerGraph(graphs[0], b, processByName, axiBits)))
      return failure();

    graphs[0]->erase();
    for (dfg::ProcessOp process : processes)
      process->erase();
    for (auto &entry : globals)
      entry.second->erase();
    return success();
  }
};
} // namespace
