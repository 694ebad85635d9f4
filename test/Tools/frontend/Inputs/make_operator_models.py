"""Writes the models of onnx-operators.test into DIR: einsum_topk.onnx (two
operators ming does not compile), gather_data.onnx (a Gather of streamed
data), torch_flatten.onnx (a Gather of a shape, as PyTorch flattens),
float_activations.onnx (Gelu, its tanh form, Erf, Softplus, Mish and Pow
in float), gelu_qdq.onnx (Gelu between QDQ pairs),
elementwise.onnx (one output per elementwise or reducing operator of the
list that no other test compiles), gemm_bn.onnx (a BatchNormalization after
a transposed Gemm, and one after a MatMul, which stays), convt.onnx and
convt1d.onnx and convt_sizes.onnx (ConvTranspose, 2-D and 1-D, sized by
pads, output_shape or auto_pad), convt_dw.onnx (a depthwise 2x upsampling
ConvTranspose), gconv.onnx (a grouped Conv), dwconv2.onnx
(a depthwise Conv with a multiplier of 2).

    make_operator_models.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh


def value(name, shape, elem=T.FLOAT):
    return h.make_tensor_value_info(name, elem, shape)


def save(graph, path, opset=17):
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 9 if opset >= 19 else 8
    onnx.save(m, path)


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    save(h.make_graph(
        [h.make_node("Relu", ["x"], ["r"], name="relu"),
         h.make_node("Einsum", ["r", "r"], ["m"], equation="ij,jk->ik", name="mix"),
         h.make_node("TopK", ["m", "k"], ["v", "i"], name="best")],
        "einsum_topk", [value("x", [4, 4])], [value("v", [4, 2])],
        [h.make_tensor("k", T.INT64, [1], [2])]), os.path.join(out, "einsum_topk.onnx"))
    save(h.make_graph(
        [h.make_node("Gather", ["x", "i"], ["y"], axis=0, name="lookup")],
        "gather_data", [value("x", [4, 16])], [value("y", [2, 16])],
        [h.make_tensor("i", T.INT64, [2], [3, 1])]), os.path.join(out, "gather_data.onnx"))
    w = nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w")
    wf = nh.from_array(rng.uniform(-0.5, 0.5, (144, 5)).astype(np.float32), "wf")
    save(h.make_graph(
        [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         h.make_node("Shape", ["c"], ["s"], name="shape"),
         h.make_node("Gather", ["s", "zero"], ["n"], axis=0, name="batch"),
         h.make_node("Unsqueeze", ["n", "axes"], ["n1"], name="unsqueeze"),
         h.make_node("Concat", ["n1", "minus_one"], ["shp"], axis=0, name="cat"),
         h.make_node("Reshape", ["c", "shp"], ["f"], name="flatten"),
         h.make_node("MatMul", ["f", "wf"], ["y"], name="fc")],
        "torch_flatten", [value("x", [1, 3, 6, 6])], [value("y", [1, 5])],
        [w, wf, nh.from_array(np.array(0, np.int64), "zero"),
         nh.from_array(np.array([0], np.int64), "axes"),
         nh.from_array(np.array([-1], np.int64), "minus_one")]),
        os.path.join(out, "torch_flatten.onnx"), opset=13)
    # The activations on erf, log1p and pow in float, one output each, behind
    # a convolution (so that their inputs spread over a few units): Pow by 3
    # is x * x * x, by 0.5 std::pow (NaN on the negative inputs, as
    # onnxruntime's).
    acts = [("Gelu", [], {}), ("Gelu", [], {"approximate": "tanh"}), ("Erf", [], {}), ("Softplus", [], {}),
            ("Mish", [], {}), ("Pow", ["three"], {}), ("Pow", ["half"], {})]
    save(h.make_graph(
        [h.make_node("Conv", ["x", "wc"], ["c"], pads=[1, 1, 1, 1], name="conv")]
        + [h.make_node(op, ["c"] + extra, [f"y{i}"], name=f"act{i}", **kw) for i, (op, extra, kw) in enumerate(acts)],
        "float_activations", [value("x", [1, 4, 6, 6])], [value(f"y{i}", [1, 4, 6, 6]) for i in range(len(acts))],
        [nh.from_array(rng.uniform(-0.6, 0.6, (4, 4, 3, 3)).astype(np.float32), "wc"),
         nh.from_array(np.array(3.0, np.float32), "three"), nh.from_array(np.array(0.5, np.float32), "half")]),
        os.path.join(out, "float_activations.onnx"), opset=20)
    scales = [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(3, np.int8), "z"),
              nh.from_array(np.array(0.04, np.float32), "so"), nh.from_array(np.array(-20, np.int8), "zo")]
    save(h.make_graph(
        [h.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="q_in"),
         h.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"], name="dq_in"),
         h.make_node("Gelu", ["xd"], ["a"], name="act"),
         h.make_node("QuantizeLinear", ["a", "so", "zo"], ["aq"], name="q_out"),
         h.make_node("DequantizeLinear", ["aq", "so", "zo"], ["y"], name="dq_out")],
        "gelu_qdq", [value("x", [1, 4, 6, 6])], [value("y", [1, 4, 6, 6])], scales),
        os.path.join(out, "gelu_qdq.onnx"), opset=20)
    elementwise(out, rng)
    bn = [nh.from_array(v.astype(np.float32), n) for v, n in (
        (rng.uniform(0.5, 2, 6), "gamma"), (rng.uniform(-1, 1, 6), "beta"),
        (rng.uniform(-1, 1, 6), "mean"), (rng.uniform(0.1, 2, 6), "var"))]
    save(h.make_graph(
        [h.make_node("Gemm", ["x", "wt", "bias"], ["g"], transB=1, name="fc"),
         h.make_node("BatchNormalization", ["g", "gamma", "beta", "mean", "var"], ["n"], name="bn_fc"),
         h.make_node("MatMul", ["n", "w2"], ["m"], name="mm"),
         h.make_node("BatchNormalization", ["m", "gamma", "beta", "mean", "var"], ["y"], name="bn_mm")],
        "gemm_bn", [value("x", [1, 5])], [value("y", [1, 6])],
        [nh.from_array(rng.uniform(-1, 1, (6, 5)).astype(np.float32), "wt"),
         nh.from_array(rng.uniform(-1, 1, 6).astype(np.float32), "bias"),
         nh.from_array(rng.uniform(-1, 1, (6, 6)).astype(np.float32), "w2")] + bn),
        os.path.join(out, "gemm_bn.onnx"))
    # Tile repeats a feature map along channels and width (tf2onnx writes
    # Keras' UpSampling2D with unequal factors as Reshape, Tile, Reshape).
    save(h.make_graph(
        [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         h.make_node("Tile", ["c", "reps"], ["y"], name="tile")],
        "tile", [value("x", [1, 3, 4, 5])], [value("y", [1, 8, 4, 15])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w"),
         nh.from_array(np.array([1, 2, 1, 3], np.int64), "reps")]),
        os.path.join(out, "tile.onnx"))
    # Comparisons, logic and Where (tf2onnx's form of Keras' SELU and
    # thresholded ReLU), and Reciprocal (LayerNormalization's 1 / sqrt).
    k = nh.from_array(np.array(0.1, np.float32), "k")
    save(h.make_graph(
        [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         h.make_node("Abs", ["c"], ["a"], name="abs"),
         h.make_node("Add", ["a", "k"], ["a1"], name="add"),
         h.make_node("Reciprocal", ["a1"], ["r"], name="recip"),
         h.make_node("Greater", ["c", "k"], ["g"], name="gt"),
         h.make_node("Less", ["c", "k"], ["l"], name="lt"),
         h.make_node("GreaterOrEqual", ["c", "k"], ["ge"], name="ge"),
         h.make_node("LessOrEqual", ["c", "k"], ["le"], name="le"),
         h.make_node("Or", ["g", "l"], ["o"], name="or"),
         h.make_node("And", ["ge", "le"], ["an"], name="and"),
         h.make_node("Not", ["an"], ["na"], name="not"),
         h.make_node("Equal", ["o", "na"], ["eq"], name="eq"),
         h.make_node("Where", ["eq", "r", "c"], ["y"], name="where")],
        "compare", [value("x", [1, 3, 6, 6])], [value("y", [1, 4, 6, 6])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w"), k]),
        os.path.join(out, "compare.onnx"))
    # DepthToSpace in both modes and SpaceToDepth (YOLO's reorg, pixel
    # shuffle), as the Reshape-Transpose-Reshape the specification defines.
    save(h.make_graph(
        [h.make_node("Conv", ["x", "w8"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         h.make_node("DepthToSpace", ["c"], ["d"], blocksize=2, mode="DCR", name="d2s_dcr"),
         h.make_node("DepthToSpace", ["c"], ["e"], blocksize=2, mode="CRD", name="d2s_crd"),
         h.make_node("Add", ["d", "e"], ["f"], name="add"),
         h.make_node("SpaceToDepth", ["f"], ["y"], blocksize=2, name="s2d")],
        "blocks", [value("x", [1, 3, 4, 6])], [value("y", [1, 8, 4, 6])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (8, 3, 3, 3)).astype(np.float32), "w8")]),
        os.path.join(out, "blocks.onnx"))
    # ConvTranspose: PyTorch's 2x upsampling (k3 s2 p1 output_padding 1),
    # then two groups with a non-square kernel, per-axis strides, a dilation
    # and uneven pads (one more than (k-1)d: a crop).
    save(h.make_graph(
        [h.make_node("ConvTranspose", ["x", "t1", "b1"], ["a"], kernel_shape=[3, 3], strides=[2, 2],
                     pads=[1, 1, 1, 1], output_padding=[1, 1], name="up2"),
         h.make_node("Relu", ["a"], ["r"], name="relu"),
         h.make_node("ConvTranspose", ["r", "t2"], ["y"], kernel_shape=[2, 3], strides=[1, 2],
                     dilations=[2, 1], pads=[0, 3, 1, 0], group=2, name="grouped")],
        "convt", [value("x", [1, 3, 5, 6])], [value("y", [1, 6, 11, 22])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (3, 4, 3, 3)).astype(np.float32), "t1"),
         nh.from_array(rng.uniform(-0.5, 0.5, (4,)).astype(np.float32), "b1"),
         nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 2, 3)).astype(np.float32), "t2")]),
        os.path.join(out, "convt.onnx"))
    # 1-D ConvTranspose with auto_pad SAME_UPPER at stride 2 (output 2n).
    save(h.make_graph(
        [h.make_node("ConvTranspose", ["x", "t"], ["y"], kernel_shape=[4], strides=[2],
                     auto_pad="SAME_UPPER", name="up1d")],
        "convt1d", [value("x", [1, 4, 7])], [value("y", [1, 2, 14])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (4, 2, 4)).astype(np.float32), "t")]),
        os.path.join(out, "convt1d.onnx"))
    # ConvTranspose sized by output_shape (the odd padding at the start), by
    # SAME_LOWER, and by SAME_UPPER where the padding would be negative
    # (onnxruntime takes 0: 19 outputs, not 20).
    save(h.make_graph(
        [h.make_node("ConvTranspose", ["x", "s1"], ["a"], kernel_shape=[3], strides=[2], output_shape=[10],
                     name="sized"),
         h.make_node("ConvTranspose", ["a", "s2"], ["b"], kernel_shape=[2], auto_pad="SAME_LOWER", name="lower"),
         h.make_node("ConvTranspose", ["b", "s3"], ["y"], kernel_shape=[1], strides=[2], dilations=[2],
                     auto_pad="SAME_UPPER", name="upper")],
        "convt_sizes", [value("x", [1, 2, 5])], [value("y", [1, 2, 19])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (2, 3, 3)).astype(np.float32), "s1"),
         nh.from_array(rng.uniform(-0.5, 0.5, (3, 2, 2)).astype(np.float32), "s2"),
         nh.from_array(rng.uniform(-0.5, 0.5, (2, 2, 1)).astype(np.float32), "s3")]),
        os.path.join(out, "convt_sizes.onnx"))
    # A depthwise ConvTranspose, PyTorch's learned 2x upsampling (k4 s2 p1),
    # with a bias: grouped, it keeps the inserted zeros.
    save(h.make_graph(
        [h.make_node("ConvTranspose", ["x", "d", "db"], ["y"], kernel_shape=[4, 4], strides=[2, 2],
                     pads=[1, 1, 1, 1], group=4, name="dwup")],
        "convt_dw", [value("x", [1, 4, 5, 6])], [value("y", [1, 4, 10, 12])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (4, 1, 4, 4)).astype(np.float32), "d"),
         nh.from_array(rng.uniform(-0.5, 0.5, (4,)).astype(np.float32), "db")]),
        os.path.join(out, "convt_dw.onnx"))
    # A depthwise convolution with a multiplier of 2 (Keras'
    # DepthwiseConv2D(depth_multiplier=2)) and ReLU.
    save(h.make_graph(
        [h.make_node("Conv", ["x", "wd", "bd"], ["c"], pads=[1, 1, 1, 1], group=3, name="depthwise2"),
         h.make_node("Relu", ["c"], ["y"], name="relu")],
        "dwconv2", [value("x", [1, 3, 6, 6])], [value("y", [1, 6, 6, 6])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (6, 1, 3, 3)).astype(np.float32), "wd"),
         nh.from_array(rng.uniform(-0.5, 0.5, (6,)).astype(np.float32), "bd")]),
        os.path.join(out, "dwconv2.onnx"))
    # A grouped convolution (3 groups of 2 channels, stride 2, bias) and ReLU.
    save(h.make_graph(
        [h.make_node("Conv", ["x", "wg", "bg"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2], group=3, name="grouped"),
         h.make_node("Relu", ["c"], ["y"], name="relu")],
        "gconv", [value("x", [1, 6, 8, 8])], [value("y", [1, 9, 4, 4])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (9, 2, 3, 3)).astype(np.float32), "wg"),
         nh.from_array(rng.uniform(-0.5, 0.5, (9,)).astype(np.float32), "bg")]),
        os.path.join(out, "gconv.onnx"))
    # A fixed batch of 4 images.
    save(h.make_graph(
        [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
         h.make_node("Relu", ["c"], ["y"], name="relu")],
        "batch4", [value("x", [4, 3, 6, 6])], [value("y", [4, 4, 6, 6])],
        [nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w")]),
        os.path.join(out, "batch4.onnx"))


def elementwise(out, rng):
    w = nh.from_array(rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32), "w")
    k = nh.from_array(np.array([0.1], np.float32), "k")
    axes = nh.from_array(np.array([2, 3], np.int64), "axes")
    unary = ["Celu", "ThresholdedRelu", "Shrink", "Abs", "Neg", "Exp", "Floor", "Ceil", "Round", "Sign"]
    binary = ["Max", "Min", "Sum", "Mean"]
    reduce = ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceL2"]
    nodes = [h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv")]
    outs = []
    for op in unary + binary + reduce:
        name = op.lower()
        ins = ["c"] + (["k"] if op in binary else ["axes"] if op in reduce else [])
        nodes.append(h.make_node(op, ins, [name], name=name))
        outs.append(value(name, [1, 4, 1, 1] if op in reduce else [1, 4, 6, 6]))
    save(h.make_graph(nodes, "elementwise", [value("x", [1, 3, 6, 6])], outs, [w, k, axes]),
         os.path.join(out, "elementwise.onnx"), opset=18)


if __name__ == "__main__":
    main(sys.argv[1])
