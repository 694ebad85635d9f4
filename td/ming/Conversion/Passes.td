// The conversions of ming's pipeline, one per source -> target pair
// (ARCHITECTURE.md stages 3 and 5).
#ifndef MING_CONVERSION_PASSES_TD
#define MING_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToDfg : Pass<"convert-linalg-to-dfg", "mlir::ModuleOp"> {
  let summary = "Turn a function of linalg ops on tensors into a streaming dataflow graph";
  let description = [{
    The one `func.func` of the module becomes a `dfg.graph` of the same name
    whose memref arguments are the function's inputs followed by its results
    (`ming.num_inputs` says how many are inputs). Every linalg op becomes a
    `dfg.process` classified by the kernel analysis:

    * sliding window: a line buffer of (K_eff - 1) rows of the padded input
      width and a K_eff x K_eff window register, where K_eff = d * (K - 1) + 1;
      stride, dilation and the padding of a folded `tensor.pad` are honoured
      by iterating over the virtually padded image;
    * regular reduction and pure parallel: the loop nest of the output with
      the reduction innermost; a streamed operand that is reused across an
      outer loop it does not depend on is buffered (a row buffer for a
      matmul), all others are pulled once per use;
    * graph inputs are read from memory by a `load` process and results are
      written back by a `store` process; a value with several consumers goes
      through a `fork` process.

    Streams carry tensors in a fixed element order per channel: batch first,
    then the two window (spatial) dimensions, then the rest, for every tensor
    that touches a sliding window; row-major otherwise. Weights become
    `memref.global` constants read by the process that uses them; an
    accumulator initialised by `linalg.fill` starts from the fill value.
  }];
  let dependentDialects = ["ming::dfg::DfgDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def ConvertDfgToEmitHLS : Pass<"convert-dfg-to-emithls", "mlir::ModuleOp"> {
  let summary = "Lower a dataflow graph to emitHLS, one HLS function per process";
  let description = [{
    Every `dfg.process` becomes an `emitHLS.func` with `INLINE off`; the
    `dfg.graph` becomes the top function with `DATAFLOW`, one `hls::stream`
    per channel with its depth, one call per instance in producer-consumer
    order, and `m_axi` + `s_axilite` interfaces for its memory arguments.
    Process bodies (scf, memref, arith, math) map one-to-one to emitHLS:
    loops marked `ming.pipeline_ii` get a PIPELINE pragma, `ming.unroll` an
    UNROLL pragma, buffers marked `ming.partition_complete_dims` an
    ARRAY_PARTITION complete per listed dimension.
  }];
  let dependentDialects = ["ming::emithls::EmitHLSDialect"];
}

#endif
