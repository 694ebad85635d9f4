// The conversions of ming's pipeline, one per source -> target pair
// (ARCHITECTURE.md stages 3 and 5).
#ifndef MING_CONVERSION_PASSES_TD
#define MING_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToDfg : Pass<"convert-linalg-to-dfg", "mlir::ModuleOp"> {
  let summary = "Turn a function of linalg ops on tensors into a streaming dataflow graph";
  let description = [{
    The one `func.func` of the module (or the one named by `top`) becomes a
    `dfg.graph` of the same name (made a C identifier: other characters
    become `_`, a leading digit or a C++ keyword gets a prefix or suffix)
    whose memref arguments are the function's inputs followed by its results
    (`ming.num_inputs` says how many are inputs). Every linalg op becomes a
    `dfg.process` classified by the kernel analysis:

    * sliding window: a line buffer of (K_eff - 1) rows of the padded input
      width and a K_eff x K_eff window register, where K_eff = d * (K - 1) + 1;
      stride, dilation and the padding of a folded `tensor.pad` are honoured
      by iterating over the virtually padded image;
    * a convolution (a window that several output channels read; not a
      depthwise convolution or a pool) whose window size is a multiple of its
      output channels (or at least as large, where a pixel needs 2,048 MACs
      or more) is split where enough pixels complete no window, unless
      `gather-windows=false`:
      a window process with the line buffer pushes each complete window, and
      a regular reduction contracts the windows with the weights, so the MACs
      run only at the positions that produce outputs;
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
    accumulator initialised by `linalg.fill` starts from the fill value. A
    generic that only broadcasts (or permutes) a constant, such as a bias
    over a feature map, is not a process: its readers read the constant's
    ROM in place, through the broadcast's indexing maps.
  }];
  let options = [
    Option<"top", "top", "std::string", /*default=*/"\"\"",
           "The function to compile when the module defines several (the others "
           "are dropped); by default the module's only function">,
    Option<"gatherWindows", "gather-windows", "bool", /*default=*/"true",
           "Split a convolution (a window reused across output channels) into a "
           "process that gathers its windows and a contraction over them">
  ];
  let dependentDialects = ["ming::dfg::DfgDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def ConvertDfgToEmitHLS : Pass<"convert-dfg-to-emithls", "mlir::ModuleOp"> {
  let summary = "Lower a dataflow graph to emitHLS, one HLS function per process";
  let description = [{
    Every `dfg.process` becomes an `emitHLS.func` of the same name with
    `INLINE off`: channel ends become `hls::stream` arguments, memref ports
    array arguments. The body maps one-to-one: `scf.for` (constant bounds)
    becomes `emitHLS.for`, `scf.if` `emitHLS.if`; loop-carried values and if
    results live in `emitHLS.var`s (an index value in an i64 variable);
    `memref.alloca` becomes a local array (rank 0: a variable);
    `memref.load`/`store` array accesses; `memref.get_global` of a constant
    global a `rom` array declared once at the top of the function;
    `dfg.pull`/`push` stream reads and writes; arith and math ops stay.
    Directives (the `ming` dialect's, checked by its verifier):
    `#ming.loop<ii = N>` on a loop gives PIPELINE II=N, `unroll = N` UNROLL
    (0: full), `label` the loop label (made unique in the function);
    `#ming.partition<complete = [...], cyclic = [dim, factor, ...]>` on a
    buffer or global one ARRAY_PARTITION per dimension.

    The `dfg.graph` becomes the top function (attributes `ming.top` and
    `ming.num_inputs`): per memory argument an `m_axi` interface (bundle
    `gmem<i>`, depth = its number of elements, `max_widen_bitwidth` =
    `axi-bits` when given) and an `s_axilite` one, then
    `s_axilite return`, `DATAFLOW`, one stream per channel with its depth
    (`ming.name = "<producer>_to_<consumer>"`) and one call per instance,
    producers before consumers. Processes come first in the module, the top
    last; the globals are removed.

    Unsupported input (other ops in a process, non-constant loop bounds,
    dynamic shapes, channels with more than one lane, feedback cycles, not
    exactly one graph) fails with an error located at the offending op.
  }];
  let options = [
    Option<"axiBits", "axi-bits", "int64_t", /*default=*/"0",
           "Data bits per cycle of the board's memory ports: each m_axi "
           "interface may widen to this (max_widen_bitwidth); 0 leaves the "
           "width to Vitis">
  ];
  let dependentDialects = ["ming::emithls::EmitHLSDialect", "mlir::arith::ArithDialect"];
}

#endif
