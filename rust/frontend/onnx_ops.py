"""The ONNX operators ming compiles (README.md, "Operators"), checked before
import: a model with any other is refused here, naming each operator and its
nodes, instead of failing later on the linalg it would become.

Each entry was compiled with --hls and compared with onnxruntime in C
simulation (test/onnx, test/models, test/tflite).
"""
from onnx_util import fail, links

# Layers and activations, with their quantised forms.
COMPUTE = {
    "Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Gemm", "MatMul",
    "BatchNormalization", "Relu", "Clip", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Sigmoid",
    "Tanh", "HardSigmoid", "HardSwish", "ThresholdedRelu", "Shrink", "Softmax", "LogSoftmax",
    "Add", "Sub", "Mul", "Div", "Max", "Min", "Sum", "Mean", "Abs", "Neg", "Exp", "Log", "Sqrt",
    "Floor", "Ceil", "Round", "Sign", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceSum",
    "ReduceL2", "Concat", "Split", "Slice", "Pad", "Resize", "Upsample", "Tile",
    "Greater", "Less", "GreaterOrEqual", "LessOrEqual", "Equal", "Not", "And", "Or", "Where",
    "Reciprocal", "DepthToSpace", "SpaceToDepth", "Pow",
    "QuantizeLinear", "DequantizeLinear",
}
# Activations built on erf and log1p (std::erf, std::log1p in the C++);
# between a DequantizeLinear and QuantizeLinear, `ming-quantize-integer`
# evaluates them, as every elementwise activation, into a 256-entry table.
COMPUTE |= {"Softplus", "Gelu", "Erf", "Mish"}
# tf2onnx leaves TFLite's GELU as TFL_GELU; prepare_onnx writes its formula
# in ONNX operators.
TFLITE_REWRITTEN = {"TFL_GELU"}
# Reshapes and renames of the stream, and arithmetic on shapes and constants
# that the importer folds away (PyTorch's Shape-Gather-Concat-Reshape flatten).
STRUCTURE = {
    "Flatten", "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Identity", "Dropout", "Constant",
    "ConstantOfShape", "Shape", "Cast", "Expand",
}


def _constant_producers(graph):
    """Names of values known at compile time: initializers, Constant and
    Shape outputs (static shapes), and what only such values feed."""
    known = {t.name for t in graph.initializer}
    for node in graph.node:
        if node.op_type in ("Constant", "Shape") or (
                node.input and all(i in known or not i for i in node.input)):
            known.update(node.output)
    return known


def check_operators(model):
    """Refuses a model with an operator outside the list (exit status 1)."""
    graph = model.graph
    known = _constant_producers(graph)
    _, consumers = links(graph)
    outputs = {v.name for v in graph.output}

    outside = {}
    for node in graph.node:
        domain = node.domain if node.domain not in ("", "ai.onnx") else ""
        op = node.op_type if not domain else f"{domain}.{node.op_type}"
        ok = not domain and node.op_type in COMPUTE | STRUCTURE | TFLITE_REWRITTEN
        # Gather only on values known at compile time (shapes, constants): a
        # gather of streamed data reads it at computed addresses.
        if not domain and node.op_type == "Gather":
            ok = bool(node.input) and node.input[0] in known
        # MaxPool's Indices: the importer reads the input at computed addresses.
        if not domain and node.op_type == "MaxPool" and len(node.output) > 1 and node.output[1] \
                and (node.output[1] in outputs or consumers.get(node.output[1])):
            ok, op = False, "MaxPool with its Indices output read"
        if not ok and node.op_type.startswith("TFL_"):
            op = f"{op} (TFLite's {node.op_type[4:]}, which tf2onnx leaves unconverted)"
        if not ok:
            outside.setdefault(op, []).append(node.name or "?")
    if not outside:
        return
    named = ", ".join(
        f"{op} (node{'s' if len(nodes) > 1 else ''} "
        + ", ".join(f"'{n}'" for n in nodes[:3]) + (f" and {len(nodes) - 3} more" if len(nodes) > 3 else "")
        + ")" for op, nodes in sorted(outside.items()))
    supported = ", ".join(sorted(COMPUTE | STRUCTURE | {"Gather"}))
    fail(f"unsupported ONNX operator{'s' if len(outside) > 1 else ''} {named}. ming compiles these "
         f"ONNX operators: {supported} (Gather of constants and shapes only) (README.md, 'Operators')")
