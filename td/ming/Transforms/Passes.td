// Every pass of ming, registered in ming-opt and in the mlir-opt plugin.
#ifndef MING_TRANSFORMS_PASSES_TD
#define MING_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def Dse : Pass<"ming-dse", "mlir::ModuleOp"> {
  let summary = "Choose unroll factors, IIs, pipelines and lanes for a dfg.graph (stage 4)";
  let description = [{
    The design-space exploration (docs/cost-model.md): for every process
    instance of the module's graph (the one marked `ming.top` when there are
    several) the cost model lists candidate configurations (unroll factors
    dividing the trip counts, requested IIs, pipeline positions, lanes per
    port) and keeps the Pareto-optimal ones; an integer linear program picks
    one per instance so that lanes agree on every channel and the DSPs and
    BRAM18Ks fit `dsp` and `bram`, minimising the graph's dataflow latency
    (or the paper's sum of stage latencies). The choice is written back as
    directives (`#ming.loop`, `#ming.partition` cyclic banks, `ming.uram` on
    the buffers it puts in UltraRAM, lanes in the channel and port types),
    FIFO depths, and the figures (`#ming.estimate`
    on the processes, `#ming.loop_estimate` on their pipelines, `#ming.design`
    on the graph).

    The ILP is HiGHS, solved by the process that runs the pass: ming-opt
    registers it. A plugin loaded into mlir-opt has no solver; there
    `choice` gives the candidate index of every instance (in the order of the
    graph's body), which is also how a test pins a choice.
  }];
  let options = [
    Option<"dsp", "dsp", "int64_t", /*default=*/"-1", "DSP48E2 slices available (required)">,
    Option<"bram", "bram", "int64_t", /*default=*/"-1", "BRAM18K blocks available (required)">,
    Option<"uram", "uram", "int64_t", /*default=*/"0",
           "UltraRAMs (URAM288) the buffers may take instead of BRAM">,
    Option<"objective", "objective", "std::string", /*default=*/"\"dataflow\"",
           "What to minimise: dataflow (the graph's latency) or sum (the paper's Eq. 1)">,
    Option<"maxLanes", "max-lanes", "int64_t", /*default=*/"64",
           "Most lanes offered on any channel">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0",
           "Seconds the solver may spend per solve (0: until proven optimal)">,
    Option<"lpIterations", "lp-iterations", "int64_t", /*default=*/"0",
           "LP iterations the solver may spend per solve: stops at the same design on every machine (0: no limit)">,
    Option<"packInt8", "pack-int8", "bool", /*default=*/"true",
           "Also offer processes with their int8 multiplies packed two per DSP (ming-pack-int8)">,
    ListOption<"choice", "choice", "int64_t",
               "The candidate index of every instance; no solver runs">,
    Option<"target", "target", "std::string", /*default=*/"",
           "A JSON target description for the cost model (default: built in)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect"];
}

def QuantizeInteger : Pass<"ming-quantize-integer", "mlir::func::FuncOp"> {
  let summary = "Turn QDQ fake-quant float arithmetic into integer hardware";
  let description = [{
    ONNX models quantised in QDQ form (QuantizeLinear/DequantizeLinear around
    float ops) arrive from IREE as float linalg: a quantize is a
    `linalg.generic` f32 -> i8 (`divf`, `roundeven`, `addf zp`, clamp,
    `fptosi`), a dequantize one i8/i32 -> f32 (`[extsi, subi zp,] sitofp,
    mulf scale`, the scale a scalar or a per-channel constant). Every quantize
    whose input is not a function argument is an anchor; what computes its
    input is rewritten on integers:

    * conv / depthwise conv / matmul (any generic `out += a * b`) of a
      dequantised activation and a dequantised constant i8 weight, with an
      optional bias (broadcast init or a following add, a dequantised i32
      constant): an i8 x i8 -> i32 contraction whose init is the bias minus
      `zp_in * sum(w)` per output channel (the activation's padding is its
      zero point), then a requantisation `clamp(round(acc * m / 2^s) +
      zp_out)` in i64 with per-channel integer multipliers `m < 2^31` and one
      shift `s`, rounding half to even as onnxruntime's QuantizeLinear:
      `(p + 2^(s-1) - 1 + ((p >> s) & 1)) >> s` (onnxruntime rounds the float
      value: the two differ by at most one step, where float rounding lands
      on the other side of a tie);
    * the sum of two dequantised tensors (residual add): both rescaled by
      integer multipliers to a common shift, same rounding; the product of
      two (Mul by a quantised constant): likewise;
    * sum pooling divided by a constant (AveragePool): i32 sum, requantised;
    * a quantize of a tensor that is a dequantised one with the same scale
      and zero point (through pads, reshapes and max pooling, which are
      carried out on the i8 values): the i8 tensor itself.
    * an elementwise function of one i8 quantised tensor (Sigmoid, Tanh,
      HardSwish, HardSigmoid, Elu, LeakyRelu, Softplus, Gelu, Exp, a division
      by a constant: generics with identity maps, float results or integer
      masks between them, whose only operand that is not a constant is,
      through one another, that tensor; the clamps before the quantize
      included): a lookup table. The dequantize, the payloads and
      the quantize's own payload are evaluated at compile time for each of
      the 256 input values, op by op in the payloads' order and precision
      (the evaluator of ming-fold-constants), and the layer becomes
      `tensor.extract %table[index_cast(x) + 128]` in a generic over x, the
      table an `arith.constant dense<...> : tensor<256xi8>` captured from
      above: exact, no float, no multiplier. A payload op the evaluator does
      not know, or a function without an integer value at some input (NaN),
      keeps the float path with a warning that names it. A constant operand
      that varies along one dimension (PRelu's slope per channel, a dense
      constant or the dequantize of one) gives one row of 256 per index of
      that dimension, read at `linalg.index * 256 + x + 128`.
    * softmax over the last axis of an i8 quantised tensor (IREE's max
      reduction, x - max, exp, sum reduction, exp / sum): the max on the i8
      values; exp(scale * (q - max)), q - max in [-255, 0], a 256-entry i32
      table of `round(2^F exp(scale * d))` read at `q - max + 255` (F = 30 -
      ceil(log2 n) for a row of n, so the i32 sum stays below 2^30); the
      sum on i32; the output `roundeven(e * m / (sum << k)) + zp_out`,
      clamped, with `m / 2^k` the output's 1 / scale (m < 2^31), by an
      unsigned i64 division whose remainder rounds half to even. Off the
      float result only where that lies within about n 2^-F steps of a
      rounding tie. A softmax over another axis keeps the float path with a
      warning.

    QUInt8 activations (a quantize ending in `fptoui`, clamp [0, 255]) are
    re-encoded first: `u - 128` is the signed quantize with the zero point
    moved by 128, so the quantize becomes one, and every reader of its bytes
    (through pads, reshapes, slices, concats, transposes: a dequantize's
    `extui`/`uitofp`, a pad's value) is changed to match. If any reader is
    neither (the bytes are a result of the function), nothing is re-encoded
    and the unsigned quantizes keep the float path with a warning.

    Average pooling and means sum the i8 values in i32 and divide by the
    cells each output counts: one number, or, where the padding is not
    counted (the front end's pool over zero padding times a constant n /
    count per position), a count per position read from a constant of i8
    (i16 past 127). The references round differently: with
    `rounding=onnx` (the default) the quotient is onnxruntime's, `S * s_in /
    (count * s_out)` rounded half to even (a multiplier per count); with
    `rounding=tflite` (the driver's choice for .tflite input) it is TFLite's
    integer kernel, the raw sum (zero point included) over the count rounded
    half away from zero, computed exactly as `(|raw| + count / 2) *
    ceil(2^s / count) >> s` with `2^s` above the reach times the count.
    TFLite's form applies where its kernel would (input and output encoded
    alike, the divisor the window's size); elsewhere the first. With
    `rounding=tflite` a LeakyRelu's table (a function that is the identity
    above 0 and a constant slope below) holds what TFLite's default kernels
    (XNNPACK) compute: `((q - zp) M + 128) >> 8 + zp_out`, M each side's
    scale rounded to 8 fraction bits.

    ReLU and Clip need nothing when the quantiser already folds them into
    its output clamp; where they stand between the arithmetic and the
    quantize (tf2onnx's int8 TFLite), quantising being monotone,
    `Q(clamp(y, a, b)) = clamp(Q(y), Q(a), Q(b))` narrows the
    requantisation's bounds. The model's interface stays: the quantize of a function argument
    and the dequantize of a result stay float; between them the datapath is
    integer. A quantize that cannot be rewritten keeps its float path with a
    warning at it (an error with `strict`). Functions without quantize ops
    are left alone.
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail when float arithmetic would stay in the datapath">,
    Option<"rounding", "rounding", "std::string", /*default=*/"\"onnx\"",
           "Whose rounding averages and LeakyRelu follow: 'onnx' (onnxruntime's float "
           "arithmetic, half to even) or 'tflite' (TFLite's kernels: an average's raw sum / "
           "count half away from zero, LeakyRelu's 8-bit fixed-point multiply)">
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def PackInt8 : Pass<"ming-pack-int8", "mlir::ModuleOp"> {
  let summary = "Two int8 multiplies sharing an operand in one DSP48E2 (AMD WP486)";
  let description = [{
    In every `dfg.process`, the outermost loops whose consecutive iterations
    multiply one sign-extended i8 value by different ones (a layer's output
    channels: the weight depends on the channel, the activation does not)
    are stepped by two, the two iterations run side by side, what does not
    depend on the iteration computed once, and each pair `x * wa`, `x * wb`
    becomes one 27x8-bit multiply `P = ((wa << 18) + wb) * x` whose low 18
    bits are `x * wb` and whose bits above are `x * wa` less one when
    `x * wb` is negative. Exact for every i8 value. A loop is taken when its
    bounds are constant, its trip count even, it carries no values, it does
    not store or allocate, and its pulls (each port once, before any push)
    and its one push stand directly in its body: both iterations' pulls then
    come before the first one's push (a convolution's bias, pulled per output
    channel, is read one element ahead). A remark names each packed loop. The DSE (`ming-dse`) offers the
    packed process as candidates and applies this rewrite when it picks one.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def MarkFloatSums : Pass<"ming-mark-float-sums", "mlir::ModuleOp"> {
  let summary = "Allow the float sums of the dfg processes to be added as trees";
  let description = [{
    Marks `ming.reassociate` on every loop of a float sum in a `dfg.process`:
    a loop with one float `iter_args` value used only by `acc + term` (or to
    start a nested loop that continues the sum and whose result it yields).
    The cost model then times such a sum, where it runs unrolled inside a
    pipeline, as a balanced tree of ceil(log2(n + 1)) adds instead of n in
    series, and `ming-float-trees` writes it so after the DSE. Run by
    `ming-opt --reassociate-float`: the order of float additions changes the
    rounding, so the result is no longer the source order's bit for bit.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def FloatTrees : Pass<"ming-float-trees", "mlir::ModuleOp"> {
  let summary = "Write the marked float sums unrolled in pipelines as balanced trees";
  let description = [{
    Every float sum marked `ming.reassociate` (ming-mark-float-sums) that runs
    inside a pipelined loop, and so unrolled, with constant trip counts: its
    terms are stored, in the loops' iteration order, into a register array
    (`#ming.partition<complete = [1]>`) of n + 1 elements, its start value
    last; then one loop per level s = 1, 2, 4, ... adds element i + s into
    element i for every multiple i of 2s; element 0 is the sum. The adds
    form the tree the cost model timed, in the C++ and so in its C
    simulation, which computes what the hardware computes. Sums elsewhere
    (a pipelined loop's own accumulation) keep their order.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def FoldConstants : Pass<"ming-fold-constants", "mlir::func::FuncOp"> {
  let summary = "Compute at compile time what the model computes from constants only";
  let description = [{
    Models compute part of their weights at run time: ONNX Gemm's transposed
    weight is a `linalg.transpose` of a constant, a weight-only quantised
    model dequantises i8 weights (`sitofp`, `mulf` by a per-channel scale), a
    BatchNorm not folded by the exporter is arithmetic on per-channel
    constants. Streamed, each becomes a process that sends the same numbers
    on every inference, often through a full reorder buffer. This pass
    evaluates every `linalg.generic` whose inputs are all constants (dense
    or dense_resource, fills, splats) and whose payload uses arith and math
    scalar ops, in the generic's own iteration order (so floating-point
    reductions give what the generic gives), and replaces it with a dense
    constant; reshapes of constants fold too. A generic that would grow the
    data (a bias broadcast over a feature map) is left alone: its small
    constant and the broadcast cost less than the ROM it would become, and
    convert-linalg-to-dfg has its readers read the small constant in place.
    Folds needing more than 2^26 scalar evaluations are left alone.
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "Ops computed at compile time">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

#endif
