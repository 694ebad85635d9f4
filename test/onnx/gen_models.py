#!/usr/bin/env python3
"""Builds the ONNX models of the end-to-end tests with onnx.helper (seeded weights).

  gen_models.py OUTDIR [NAME ...]      write OUTDIR/<name>.onnx (all models by default)
  gen_models.py --list                 the model names, one per line
  gen_models.py --quantize IN OUT      IN (an ONNX file, e.g. a PyTorch export)
                                       quantised to int8 QDQ, weights per channel

The models are generated when the tests run (nothing binary is checked in); the
same name always gives the same bytes. f32 models (float data and weights):

  conv_relu        conv 3->8 3x3 pad 1 + bias, ReLU, 32x32        (paper kernel)
  cascade_conv     (conv 3x3 pad 1, ReLU) x3: 3->8->8->8, 32x32   (paper kernel)
  residual_block   conv 8->8, ReLU, conv 8->8, + input, ReLU, 32x32 (paper kernel)
  linear           X[512x128] * W[128x128] + b (Gemm)              (paper kernel)
  feed_forward     Gemm 128->256, ReLU, Gemm 256->128 on X[512x128] (paper kernel)
  depthwise_sep    depthwise 3x3 (group = C = 8) + pointwise 1x1 8->16, ReLU, 16x16
  strided_pool     conv 3->8 3x3 stride 2 pad 1, ReLU, MaxPool 2x2, 32x32
  avgpool          conv 3->8 3x3 pad 1, ReLU, AveragePool 2x2, 16x16
  lenet            conv 1->6 5x5, ReLU, MaxPool, conv 6->16 5x5, ReLU, MaxPool,
                   Flatten, Gemm 256->120, ReLU, Gemm 120->84, ReLU, Gemm 84->10, 28x28
  clip_relu6       conv 3->8 3x3 pad 1, Clip(0, 6), 16x16
  conv_sigmoid     conv 3->8 3x3 pad 1, Sigmoid, 16x16
  conv_hardswish   conv 3->8 3x3 pad 1, x2, HardSwish, conv 8->4 1x1, 16x16
  gemm_softmax     Gemm 16->12 on X[3x16], x6, Softmax over the last axis
  gemm_logsoftmax  the same with LogSoftmax over the last axis
  big_gemm         Gemm 256->1024 (1 MB of f32 weights) on X[4x256], for the weights file
  avgpool_dil_ceil AveragePool 2x2, dilations 2, ceil_mode 1, 4x4 (opset 19)
  avgpool_dil      AveragePool 3x3, dilations 2, 2 channels, 8x8 (opset 19)
  pool_ceil_pads   MaxPool 5x6 pads 0,2,1,4 ceil_mode 1, AveragePool 3x3/2 pads 1
                   ceil_mode 1, 5 channels, 9x9 (opset 19)
  decoder_convt    (ConvTranspose 4x4 stride 2 pad 1, ReLU) x2: 32->16->8,
                   conv 8->3 3x3, 8x8 -> 32x32

int8 QDQ models: the f32 model of the same stem quantised by onnxruntime's
quantize_static (QDQ format, int8 activations and weights, int32 bias;
calibrated on 4 seeded inputs uniform in [-1, 1)). Their interface stays f32
(QuantizeLinear at the input, DequantizeLinear at the output); ming-opt turns
the fake-quant float arithmetic between into integer hardware
(ming-quantize-integer). `_qdq`: weights per tensor, `_qdq_pc`: per channel.

  conv_relu_qdq, conv_relu_qdq_pc, cascade_conv_qdq, residual_block_qdq,
  lenet_qdq_pc, depthwise_sep_qdq_pc, strided_pool_qdq, avgpool_qdq,
  avgpool_same_qdq, clip_relu6_qdq, decoder_convt_qdq_pc

With QUInt8 activations instead (`_qdq_u8`, quantize_static's default;
weights int8 per tensor): cascade_conv_qdq_u8, residual_block_qdq_u8,
strided_pool_qdq_u8, avgpool_qdq_u8; and conv_u8_input, a uint8 model input
(raw pixels, zero point 128) read by an int8 convolution.

With their elementwise activations quantised as well (per-channel weights;
Tanh, HardSwish, HardSigmoid and Elu added to onnxruntime's defaults), each
activation a lookup table in ming: conv_sigmoid_qdq, conv_hardswish_qdq,
activations_qdq; and a Softmax on integers (a table of exponentials, an
integer sum and division): gemm_softmax_qdq, and softmax_int8 (int8 in and
out, TFLite's output scale 1/256); a LogSoftmax on integers (the same table
and sum, the row's log a table over the sum's leading bits):
gemm_logsoftmax_qdq.

QCDQ models (Brevitas's export form): `_qcdq`, the per-channel QDQ model with
float weights quantised in the graph and a Clip on the integers after every
QuantizeLinear: conv_relu_qcdq, lenet_qcdq.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
F32 = TensorProto.FLOAT


class Builder:
    """A graph under construction: nodes, initialisers, deterministic weights."""

    def __init__(self, name, seed):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits = [], []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f"{stem}{self.count}"

    def weight(self, shape, fan_in):
        """Uniform in +-1/sqrt(fan_in), so activations stay near [-1, 1]."""
        bound = 1.0 / np.sqrt(fan_in)
        w = self.rng.uniform(-bound, bound, size=shape).astype(np.float32)
        name = self.fresh("w")
        self.inits.append(numpy_helper.from_array(w, name))
        return name

    def const(self, value, name_stem="c"):
        name = self.fresh(name_stem)
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=np.float32), name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.fresh(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], name=f"{op}_{self.count}", **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, pad=None, group=1, bias=True):
        pad = k // 2 if pad is None else pad
        w = self.weight((cout, cin // group, k, k), cin // group * k * k)
        ins = [x, w]
        if bias:
            ins.append(self.weight((cout,), cin // group * k * k))
        return self.node("Conv", ins, kernel_shape=[k, k], strides=[stride, stride],
                         pads=[pad] * 4, group=group)

    def gemm(self, x, fin, fout):
        w = self.weight((fin, fout), fin)
        b = self.weight((fout,), fin)
        return self.node("Gemm", [x, w, b])

    def model(self, inputs, output, out_shape, opset=OPSET):
        if out_shape is None:
            # The shape onnxruntime computes (ONNX's shape inference differs
            # for SAME pools with dilations).
            import onnxruntime as ort
            probe = self.model(inputs, output, "unknown", opset)
            feeds = {n: np.zeros(s, np.float32) for n, s in inputs}
            sess = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
            out_shape = list(sess.run(None, feeds)[0].shape)
            del probe.graph.output[:]
            probe.graph.output.append(helper.make_tensor_value_info(output, F32, out_shape))
            return probe
        graph = helper.make_graph(
            self.nodes, self.name,
            [helper.make_tensor_value_info(n, F32, s) for n, s in inputs],
            [helper.make_tensor_value_info(output, F32, None if out_shape == "unknown" else out_shape)],
            initializer=self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="ming test/onnx/gen_models.py")
        m.ir_version = 8
        if out_shape != "unknown":
            onnx.checker.check_model(m, full_check=True)
        return m


def conv_relu():
    b = Builder("conv_relu", 1)
    y = b.node("Relu", [b.conv("x", 3, 8, 3)])
    return b.model([("x", [1, 3, 32, 32])], y, [1, 8, 32, 32])


def cascade_conv():
    b = Builder("cascade_conv", 2)
    y = "x"
    for cin in (3, 8, 8):
        y = b.node("Relu", [b.conv(y, cin, 8, 3)])
    return b.model([("x", [1, 3, 32, 32])], y, [1, 8, 32, 32])


def residual_block():
    b = Builder("residual_block", 3)
    y = b.node("Relu", [b.conv("x", 8, 8, 3)])
    y = b.conv(y, 8, 8, 3)
    y = b.node("Relu", [b.node("Add", [y, "x"])])
    return b.model([("x", [1, 8, 32, 32])], y, [1, 8, 32, 32])


def linear():
    b = Builder("linear", 4)
    y = b.gemm("x", 128, 128)
    return b.model([("x", [512, 128])], y, [512, 128])


def feed_forward():
    b = Builder("feed_forward", 5)
    y = b.node("Relu", [b.gemm("x", 128, 256)])
    y = b.gemm(y, 256, 128)
    return b.model([("x", [512, 128])], y, [512, 128])


def depthwise_sep():
    b = Builder("depthwise_sep", 6)
    y = b.conv("x", 8, 8, 3, group=8)
    y = b.node("Relu", [b.conv(y, 8, 16, 1)])
    return b.model([("x", [1, 8, 16, 16])], y, [1, 16, 16, 16])


def strided_pool():
    b = Builder("strided_pool", 7)
    y = b.node("Relu", [b.conv("x", 3, 8, 3, stride=2)])
    y = b.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    return b.model([("x", [1, 3, 32, 32])], y, [1, 8, 8, 8])


def avgpool():
    b = Builder("avgpool", 8)
    y = b.node("Relu", [b.conv("x", 3, 8, 3)])
    y = b.node("AveragePool", [y], kernel_shape=[2, 2], strides=[2, 2])
    return b.model([("x", [1, 3, 16, 16])], y, [1, 8, 8, 8])


def avgpool_same():
    # Padding the average does not count (Keras' SAME, count_include_pad=0):
    # a divisor per output position; once with explicit pads, once SAME_UPPER
    # at stride 2.
    b = Builder("avgpool_same", 61)
    y = b.node("Relu", [b.conv("x", 3, 8, 3)])
    y = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    y = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER")
    return b.model([("x", [1, 3, 10, 9])], y, [1, 8, 5, 5])


def lenet():
    b = Builder("lenet", 9)
    y = b.node("Relu", [b.conv("x", 1, 6, 5, pad=0)])
    y = b.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = b.node("Relu", [b.conv(y, 6, 16, 5, pad=0)])
    y = b.node("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = b.node("Flatten", [y], axis=1)
    y = b.node("Relu", [b.gemm(y, 256, 120)])
    y = b.node("Relu", [b.gemm(y, 120, 84)])
    y = b.gemm(y, 84, 10)
    return b.model([("x", [1, 1, 28, 28])], y, [1, 10])


def clip_relu6():
    b = Builder("clip_relu6", 10)
    # x8 so that the clamp at 6 is reached.
    y = b.conv("x", 3, 8, 3)
    y = b.node("Mul", [y, b.const(8.0)])
    y = b.node("Clip", [y, b.const(0.0, "lo"), b.const(6.0, "hi")])
    return b.model([("x", [1, 3, 16, 16])], y, [1, 8, 16, 16])


def avgpool_dil_ceil():
    # IREE divides by a pool over a constant tensor of ones (a window over a
    # constant: it crashed the window builder).
    b = Builder("avgpool_dil_ceil", 12)
    y = b.node("AveragePool", ["x"], kernel_shape=[2, 2], strides=[1, 1], dilations=[2, 2], ceil_mode=1)
    return b.model([("x", [1, 1, 4, 4])], y, [1, 1, 2, 2], opset=19)


def avgpool_dil():
    # The divisor of each output is computed with arith.ceildivsi.
    b = Builder("avgpool_dil", 13)
    y = b.node("AveragePool", ["x"], kernel_shape=[3, 3], dilations=[2, 2])
    return b.model([("x", [1, 2, 8, 8])], y, [1, 2, 4, 4], opset=19)


def pool_ceil_pads():
    # ceil_mode with pads: IREE pads twice (the pads, then the overhang of
    # the last window) with an f64 -DBL_MAX truncated to f32, and divides
    # the average by a pool of a padded constant of ones.
    b = Builder("pool_ceil_pads", 14)
    y = b.node("MaxPool", ["x"], kernel_shape=[5, 6], pads=[0, 2, 1, 4], ceil_mode=1)
    y = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
    return b.model([("x", [1, 5, 9, 9])], y, [1, 5, 4, 6], opset=19)


def big_gemm():
    b = Builder("big_gemm", 11)
    y = b.gemm("x", 256, 1024)
    return b.model([("x", [4, 256])], y, [4, 1024])


def classifier_opset11():
    """An exporter of opset 11 with a symbolic batch: Conv, BatchNormalization,
    Relu, GlobalAveragePool, Flatten, Gemm with a transposed weight, Softmax."""
    b = Builder("classifier_opset11", 12)
    y = b.conv("x", 3, 8, 3, bias=False)
    scale, shift = b.weight((8,), 1), b.weight((8,), 1)
    mean = b.const(b.rng.uniform(-0.1, 0.1, 8))
    var = b.const(b.rng.uniform(0.5, 1.5, 8))
    y = b.node("BatchNormalization", [y, scale, shift, mean, var], epsilon=1e-5)
    y = b.node("Relu", [y])
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    w, bias = b.weight((10, 8), 8), b.weight((10,), 8)
    y = b.node("Gemm", [y, w, bias], transB=1)
    y = b.node("Softmax", [y], axis=1)
    return b.model([("x", ["N", 3, 12, 12])], y, ["N", 10], opset=11)


def gap_classifier():
    """A torchvision-style head: Conv, Relu, GlobalAveragePool, Flatten and a
    Gemm with a transposed weight (transB, as PyTorch's Linear exports)."""
    b = Builder("gap_classifier", 13)
    y = b.node("Relu", [b.conv("x", 3, 8, 3)])
    y = b.node("GlobalAveragePool", [y])
    y = b.node("Flatten", [y], axis=1)
    w, bias = b.weight((10, 8), 8), b.weight((10,), 8)
    y = b.node("Gemm", [y, w, bias], transB=1)
    return b.model([("x", [1, 3, 8, 8])], y, [1, 10])


def conv1d_net():
    """1-D layers: Conv (pads 2/1, stride 2, dilation 2), LeakyRelu, MaxPool."""
    b = Builder("conv1d_net", 13)
    w = b.weight((6, 4, 3), 12)
    y = b.node("Conv", ["x", w, b.weight((6,), 12)], kernel_shape=[3], strides=[2], dilations=[2],
               pads=[2, 1])
    y = b.node("LeakyRelu", [y], alpha=0.1)
    y = b.node("MaxPool", [y], kernel_shape=[2], strides=[2])
    return b.model([("x", [1, 4, 33])], y, [1, 6, 8])


def activations():
    """The elementwise activations of common CNNs after a convolution."""
    b = Builder("activations", 14)
    y = b.conv("x", 3, 4, 3)
    y = b.node("Sigmoid", [y])
    y = b.conv(y, 4, 4, 1, pad=0)
    y = b.node("Tanh", [y])
    y = b.conv(y, 4, 4, 1, pad=0)
    y = b.node("HardSigmoid", [y], alpha=0.2, beta=0.5)
    y = b.node("Mul", [b.node("Elu", [y], alpha=1.0), b.const(3.0)])
    y = b.node("HardSwish", [y])
    return b.model([("x", [1, 3, 10, 10])], y, [1, 4, 10, 10])


def conv_sigmoid():
    b = Builder("conv_sigmoid", 41)
    y = b.node("Sigmoid", [b.conv("x", 3, 8, 3)])
    return b.model([("x", [1, 3, 16, 16])], y, [1, 8, 16, 16])


def gemm_softmax():
    """A classifier's head on three rows: Gemm 16->12, x6 (logits spread over
    several units, so exp covers much of its table), Softmax over the last axis."""
    b = Builder("gemm_softmax", 43)
    y = b.node("Mul", [b.gemm("x", 16, 12), b.const(6.0)])
    y = b.node("Softmax", [y], axis=-1)
    return b.model([("x", [3, 16])], y, [3, 12])


def gemm_logsoftmax():
    """gemm_softmax's head with LogSoftmax over the last axis (a keyword
    spotter's or a PyTorch classifier's NLL head)."""
    b = Builder("gemm_logsoftmax", 45)
    y = b.node("Mul", [b.gemm("x", 16, 12), b.const(6.0)])
    y = b.node("LogSoftmax", [y], axis=-1)
    return b.model([("x", [3, 16])], y, [3, 12])


def conv_hardswish():
    """HardSwish between two convolutions (MobileNetV3's block), x2 so that
    both of its bends are reached."""
    b = Builder("conv_hardswish", 42)
    y = b.node("Mul", [b.conv("x", 3, 8, 3), b.const(2.0)])
    y = b.node("HardSwish", [y])
    y = b.conv(y, 8, 4, 1, pad=0)
    return b.model([("x", [1, 3, 16, 16])], y, [1, 4, 16, 16])


def conv_prelu():
    """PRelu with a slope per channel between two convolutions (negative
    slopes too), x3 so that the slopes matter."""
    b = Builder("conv_prelu", 44)
    y = b.node("Mul", [b.conv("x", 3, 6, 3), b.const(3.0)])
    slope = b.const(np.array([0.1, 0.25, -0.5, 0.0, 1.5, 0.3], dtype=np.float32).reshape(6, 1, 1))
    y = b.node("PRelu", [y, slope])
    y = b.conv(y, 6, 4, 1, pad=0)
    return b.model([("x", [1, 3, 12, 12])], y, [1, 4, 12, 12])


def more_ops():
    """PRelu (per-channel slope), Selu, SiLU (x * Sigmoid(x)), Sub and Div with
    broadcast constants, GlobalAveragePool, LogSoftmax."""
    b = Builder("more_ops", 21)
    y = b.conv("x", 3, 4, 3)
    slope = b.const(np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32).reshape(4, 1, 1))
    y = b.node("Selu", [b.node("PRelu", [y, slope])])
    y = b.node("Mul", [y, b.node("Sigmoid", [y])])
    y = b.node("Sub", [y, b.const(np.array([0.5, -0.5, 0.25, 0.0], dtype=np.float32).reshape(4, 1, 1))])
    y = b.node("Div", [y, b.const(2.0)])
    y = b.node("Flatten", [b.node("GlobalAveragePool", [y])], axis=1)
    y = b.node("LogSoftmax", [y], axis=1)
    return b.model([("x", [1, 3, 8, 8])], y, [1, 4])


def fire():
    """SqueezeNet's fire module: a 1x1 squeeze, then 1x1 and 3x3 expands side
    by side, concatenated along the channels."""
    b = Builder("fire", 22)
    s = b.node("Relu", [b.conv("x", 4, 3, 1, pad=0)])
    e1 = b.node("Relu", [b.conv(s, 3, 4, 1, pad=0)])
    e3 = b.node("Relu", [b.conv(s, 3, 5, 3)])
    y = b.node("Concat", [e1, e3], axis=1)
    return b.model([("x", [1, 4, 9, 9])], y, [1, 9, 9, 9])


def shuffle():
    """ShuffleNet v2's unit: Split along the channels, one half through a
    convolution, Concat, channel shuffle (Reshape-Transpose-Reshape)."""
    b = Builder("shuffle", 23)
    c = b.conv("x", 4, 8, 3)
    split = b.fresh("split")
    b.inits.append(numpy_helper.from_array(np.array([4, 4], dtype=np.int64), split))
    p, q = b.fresh("half"), b.fresh("half")
    b.nodes.append(helper.make_node("Split", [c, split], [p, q], axis=1, name="Split_unit"))
    q = b.node("Relu", [b.conv(q, 4, 4, 1, pad=0)])
    y = b.node("Concat", [p, q], axis=1)
    s1, s2 = b.fresh("shape"), b.fresh("shape")
    b.inits.append(numpy_helper.from_array(np.array([1, 2, 4, 7, 7], dtype=np.int64), s1))
    b.inits.append(numpy_helper.from_array(np.array([1, 8, 7, 7], dtype=np.int64), s2))
    y = b.node("Reshape", [y, s1])
    y = b.node("Transpose", [y], perm=[0, 2, 1, 3, 4])
    y = b.node("Reshape", [y, s2])
    return b.model([("x", [1, 4, 7, 7])], y, [1, 8, 7, 7])


def slices():
    """Slice along the channels and, with a step, along the rows; GlobalMaxPool."""
    b = Builder("slices", 24)
    c = b.node("Relu", [b.conv("x", 3, 6, 3)])
    ints = lambda v: (lambda n: (b.inits.append(numpy_helper.from_array(np.array(v, dtype=np.int64), n)), n)[1])(b.fresh("i"))
    y = b.node("Slice", [c, ints([1, 0]), ints([5, 8]), ints([1, 2]), ints([1, 2])])
    y = b.node("GlobalMaxPool", [y])
    y = b.node("Flatten", [y], axis=1)
    return b.model([("x", [1, 3, 8, 8])], y, [1, 4])


def upsample(mode="nearest"):
    """A decoder's nearest Resize by 2 rows x 3 columns (scales) and an
    Upsample-style Resize by sizes, between convolutions."""
    b = Builder("upsample" if mode == "nearest" else f"upsample_{mode}", 25)
    y = b.node("Relu", [b.conv("x", 2, 3, 3)])
    y = b.node("Resize", [y, "", b.const([1, 1, 2, 3])], mode=mode)
    y = b.conv(y, 3, 2, 3)
    sizes = b.fresh("sizes")
    b.inits.append(numpy_helper.from_array(np.array([1, 2, 20, 18], dtype=np.int64), sizes))
    y = b.node("Resize", [y, "", "", sizes], mode=mode, coordinate_transformation_mode="asymmetric",
               nearest_mode="floor")
    return b.model([("x", [1, 2, 5, 6])], y, [1, 2, 20, 18])


def upsample_linear():
    return upsample("linear")


def upsample_bilinear():
    """A decoder's bilinear Resize by 2 rows x 3 columns (scales, half_pixel:
    PyTorch's align_corners=False), and one by 2 x 1 by sizes
    (pytorch_half_pixel), between convolutions."""
    b = Builder("upsample_bilinear", 25)
    y = b.node("Relu", [b.conv("x", 2, 3, 3)])
    y = b.node("Resize", [y, "", b.const([1, 1, 2, 3])], mode="linear")
    y = b.conv(y, 3, 2, 3)
    sizes = b.fresh("sizes")
    b.inits.append(numpy_helper.from_array(np.array([1, 2, 20, 18], dtype=np.int64), sizes))
    y = b.node("Resize", [y, "", "", sizes], mode="linear", coordinate_transformation_mode="pytorch_half_pixel")
    return b.model([("x", [1, 2, 5, 6])], y, [1, 2, 20, 18])


def decoder_convt():
    """A decoder's learned upsampling, PyTorch's ConvTranspose2d(k=4, s=2,
    p=1) twice (32 -> 16 -> 8 channels, 8x8 -> 32x32, bias on the first), and
    a 3x3 convolution to 3 channels: bench/README.md's ConvTranspose row."""
    b = Builder("decoder_convt", 26)
    y = "x"
    for cin, cout, bias in ((32, 16, True), (16, 8, False)):
        ins = [y, b.weight((cin, cout, 4, 4), cin * 4)] + ([b.weight((cout,), cin * 4)] if bias else [])
        y = b.node("Relu", [b.node("ConvTranspose", ins, kernel_shape=[4, 4], strides=[2, 2], pads=[1] * 4)])
    y = b.conv(y, 8, 3, 3)
    return b.model([("x", [1, 32, 8, 8])], y, [1, 3, 32, 32])


def pool_ceil_drop():
    """ceil_mode windows as onnxruntime reads them: a MaxPool whose last
    window would start in the end padding (dropped), then an AveragePool that
    counts padding and whose last window overhangs it (divided by the cells
    inside the padded input only)."""
    b = Builder("pool_ceil_drop", 26)
    y = b.node("MaxPool", [b.conv("x", 2, 3, 3)], kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 2, 2], ceil_mode=1)
    y = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
               ceil_mode=1, count_include_pad=1)
    return b.model([("x", [1, 2, 7, 7])], y, [1, 3, 3, 3])


def pad_crop_conv():
    """A Pad with negative pads (a crop) before a padded convolution: the crop
    removes data, the convolution's padding adds zeros (found by onnx_fuzz.py:
    the importer merged the two into one smaller padding)."""
    b = Builder("pad_crop_conv", 27)
    pads = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([0, 0, -1, 2, 0, 0, 1, -1], dtype=np.int64), pads))
    y = b.node("Pad", ["x", pads], mode="constant")
    y = b.conv(y, 2, 3, 3)
    return b.model([("x", [1, 2, 9, 6])], y, [1, 3, 9, 7])


def pad_edge():
    """Pad with mode edge, twice, which the importer writes as slices and
    concats of the input (a fork feeding one concat several times)."""
    b = Builder("pad_edge", 28)
    pads = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([0, 0, 3, 3, 0, 0, 0, 3], dtype=np.int64), pads))
    y = b.node("Pad", [b.node("Relu", ["x"]), pads], mode="edge")
    pads2 = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([0, 0, 1, 2, 0, 0, 2, 1], dtype=np.int64), pads2))
    y = b.node("Pad", [y, pads2], mode="edge")
    return b.model([("x", [1, 2, 9, 8])], y, [1, 2, 15, 17])


def pad_reflect():
    """Pad with mode reflect (PyTorch's ReflectionPad2d) before a convolution:
    the front end writes it as mirrored one-wide slices and concats."""
    b = Builder("pad_reflect", 32)
    pads = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([0, 0, 1, 3, 0, 0, 2, 1], dtype=np.int64), pads))
    y = b.node("Pad", ["x", pads], mode="reflect")
    y = b.conv(y, 2, 3, 3, pad=0)
    return b.model([("x", [1, 2, 7, 9])], y, [1, 3, 8, 11])


def pad_plain():
    """A constant Pad no window reads (on channels and rows, value -1), before
    a Flatten and a Gemm: a pad process inserts the padding into the stream."""
    b = Builder("pad_plain", 29)
    pads = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([0, 1, 2, 0, 0, 0, 1, 1], dtype=np.int64), pads))
    y = b.node("Pad", [b.node("Relu", [b.conv("x", 2, 3, 3)]), pads, b.const(-1.0)], mode="constant")
    y = b.node("Flatten", [y], axis=1)
    y = b.node("Gemm", [y, b.weight((4 * 9 * 7, 5), 4 * 9 * 7)])
    return b.model([("x", [1, 2, 6, 6])], y, [1, 5])


def avgpool_ceil_overhang():
    """ceil_mode AveragePools whose last window overhangs the input: with
    auto_pad VALID (strides larger than the kernel on one axis), and counting
    padding (onnxruntime divides by the cells inside the padded input)."""
    b = Builder("avgpool_ceil_overhang", 30)
    y = b.node("AveragePool", [b.conv("x", 2, 3, 3)], kernel_shape=[3, 2], strides=[3, 3],
               auto_pad="VALID", ceil_mode=1)
    y = b.node("AveragePool", [b.node("Relu", [y])], kernel_shape=[3, 1], strides=[2, 1],
               pads=[1, 0, 1, 0], ceil_mode=1, count_include_pad=1)
    return b.model([("x", [1, 2, 11, 8])], y, [1, 3, 3, 3])


def pad_batch_pool():
    """A Pad on the batch and channel axes (value 0.5) before a MaxPool: the
    line buffer pads only the axes it slides over, so this pad is a process
    (found by onnx_fuzz.py: folded into the window, it deadlocked)."""
    b = Builder("pad_batch_pool", 31)
    pads = b.fresh("pads")
    b.inits.append(numpy_helper.from_array(np.array([1, 0, 1, 0, 0, 2, 0, 1], dtype=np.int64), pads))
    y = b.node("Pad", ["x", pads, b.const(0.5)], mode="constant")
    y = b.node("MaxPool", [y], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    return b.model([("x", [1, 2, 6, 5])], y, [2, 4, 7, 6])


def pool_same_dilated():
    """Pools whose windows onnxruntime places differently from the importer:
    auto_pad SAME with dilations and ceil_mode (SAME pads sized for the
    undilated kernel), SAME with strides above the kernel (negative padding:
    a crop), a window larger than the input, and a dilated window wholly in
    the padding (onnxruntime's -FLT_MAX). Output shape as onnxruntime's."""
    b = Builder("pool_same_dilated", 41)
    y = b.node("MaxPool", ["x"], kernel_shape=[2, 3], strides=[2, 3], dilations=[3, 1], auto_pad="SAME_LOWER",
               ceil_mode=1)
    y = b.node("AveragePool", [y], kernel_shape=[3, 2], strides=[1, 5], dilations=[2, 3], auto_pad="SAME_UPPER")
    z = b.node("AveragePool", ["x"], kernel_shape=[1, 2], strides=[4, 5], auto_pad="SAME_UPPER",
               count_include_pad=1)
    z = b.node("MaxPool", [z], kernel_shape=[4, 2], dilations=[1, 3], pads=[2, 0, 3, 1], ceil_mode=1)
    w = b.node("AveragePool", ["x"], kernel_shape=[10, 3], strides=[2, 2], ceil_mode=1, count_include_pad=1)
    w = b.node("MaxPool", [w], kernel_shape=[1, 2], strides=[1, 4], dilations=[1, 6], pads=[0, 1, 0, 0],
               ceil_mode=1)
    flat = [b.node("Flatten", [v]) for v in (y, z, w)]
    out = b.node("Concat", flat, axis=1)
    return b.model([("x", [1, 2, 9, 11])], out, None, opset=19)


def conv_same_stride():
    """Conv with auto_pad SAME_UPPER and SAME_LOWER and strides above the
    kernel: onnxruntime's padding is negative there (the first window starts
    inside the input)."""
    b = Builder("conv_same_stride", 43)
    w = b.weight((4, 3, 1, 1), 3)
    y = b.node("Conv", ["x", w], kernel_shape=[1, 1], strides=[6, 6], auto_pad="SAME_UPPER")
    y = b.node("Relu", [y])
    w2 = b.weight((4, 4, 2, 1), 8)
    y = b.node("Conv", [y, w2, b.weight((4,), 8)], kernel_shape=[2, 1], strides=[1, 3], auto_pad="SAME_LOWER")
    return b.model([("x", [1, 3, 10, 13])], y, None)


def conv_same_depthwise():
    """A depthwise Conv with auto_pad SAME_LOWER, stride 5 over 4 rows: the
    padding onnxruntime first computes (-3) yields no output row, so it adds
    one (-2), and its first window starts at row 0."""
    b = Builder("conv_same_depthwise", 53)
    w = b.weight((5, 1, 1, 3), 3)
    y = b.node("Conv", ["x", w, b.weight((5,), 3)], kernel_shape=[1, 3], strides=[5, 3], group=5,
               auto_pad="SAME_LOWER")
    return b.model([("x", [1, 5, 4, 9])], y, None)


def pad_wrap_edge():
    """Pad with mode wrap (also past the input's size) and edge with negative
    pads and a padded batch axis: slices and concats of the input."""
    b = Builder("pad_wrap_edge", 47)
    def pads(values):
        name = b.fresh("pads")
        b.inits.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
        return name
    y = b.node("Pad", ["x", pads([0, 0, 2, 6, 0, 0, -1, 1])], mode="wrap")
    y = b.node("Pad", [b.node("Relu", [y]), pads([1, 0, -1, 2, 0, 0, 1, -2])], mode="edge")
    return b.model([("x", [1, 2, 5, 4])], y, None, opset=19)


MODELS = {f.__name__: f for f in (conv_relu, cascade_conv, residual_block, linear, feed_forward,
                                  depthwise_sep, strided_pool, avgpool, avgpool_same, lenet, clip_relu6, big_gemm,
                                  classifier_opset11, gap_classifier, conv1d_net, activations, conv_sigmoid,
                                  conv_hardswish, conv_prelu, gemm_softmax, gemm_logsoftmax, more_ops,
                                  avgpool_dil_ceil, avgpool_dil, pool_ceil_pads, fire, shuffle,
                                  slices, upsample, upsample_linear, upsample_bilinear, decoder_convt, pool_ceil_drop,
                                  pad_crop_conv, pad_edge, pad_plain, avgpool_ceil_overhang,
                                  pad_batch_pool, pad_reflect, pool_same_dilated,
                                  conv_same_stride, conv_same_depthwise, pad_wrap_edge)}


def quantized(stem, per_channel, activations=(), unsigned=False):
    """The f32 model `stem` quantised to int8 QDQ by onnxruntime; `activations`
    are quantised too beyond its defaults (which leave Tanh, HardSwish, Elu
    and HardSigmoid in float); `unsigned`: QUInt8 activations, the default of
    quantize_static."""
    m = quantize_model(MODELS[stem](), per_channel, activations, unsigned)
    m.graph.name = f"{stem}_qdq{'_u8' if unsigned else ''}"
    m.producer_name = "ming test/onnx/gen_models.py (onnxruntime quantize_static)"
    onnx.checker.check_model(m, full_check=True)
    return m


def quantize_model(model, per_channel, activations=(), unsigned=False):
    """`model` quantised by onnxruntime's quantize_static (QDQ, int8 weights),
    calibrated on 4 seeded inputs uniform in [-1, 1)."""
    import logging
    import tempfile
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.registry import QDQRegistry, QLinearOpsRegistry

    class Inputs(CalibrationDataReader):
        def __init__(self, model):
            rng = np.random.default_rng(1234)
            feeds = []
            for _ in range(4):
                feed = {}
                for v in model.graph.input:
                    shape = [d.dim_value for d in v.type.tensor_type.shape.dim]
                    feed[v.name] = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
                feeds.append(feed)
            self.feeds = iter(feeds)

        def get_next(self):
            return next(self.feeds, None)

    logging.getLogger().setLevel(logging.ERROR)  # quantize_static's pre-processing advice
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "f32.onnx"), os.path.join(tmp, "qdq.onnx")
        onnx.save(model, src)
        ops = sorted(set(QDQRegistry) | set(QLinearOpsRegistry) | set(activations)) if activations else None
        quantize_static(src, dst, Inputs(model), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8 if unsigned else QuantType.QInt8,
                        weight_type=QuantType.QInt8,
                        per_channel=per_channel, op_types_to_quantize=ops)
        return onnx.load(dst)


for _stem, _pc in (("conv_relu", False), ("conv_relu", True), ("cascade_conv", False),
                   ("residual_block", False), ("lenet", True), ("depthwise_sep", True),
                   ("strided_pool", False), ("avgpool", False), ("avgpool_same", False), ("clip_relu6", False),
                   ("fire", True), ("shuffle", True), ("gap_classifier", True), ("decoder_convt", True)):
    MODELS[f"{_stem}_qdq{'_pc' if _pc else ''}"] = (lambda s=_stem, p=_pc: quantized(s, p))


# QUInt8 activations (quantize_static's default), int8 weights: ming re-encodes
# the activations as int8 with the zero point moved by 128.
for _stem in ("cascade_conv", "residual_block", "strided_pool", "avgpool"):
    MODELS[f"{_stem}_qdq_u8"] = (lambda s=_stem: quantized(s, False, unsigned=True))


def qcdq(stem):
    """The QDQ model of `stem` in the QCDQ form Brevitas exports: float weights
    -> QuantizeLinear -> Clip -> DequantizeLinear, activations likewise, the
    Clip on the integers narrowing the range (weights [-127, 127], activations
    7 bits [-64, 63])."""
    m = quantized(stem, True)
    graph = m.graph
    inits = {t.name: t for t in graph.initializer}
    nodes = []
    for node in graph.node:
        if node.op_type == "DequantizeLinear" and node.input[0] in inits \
                and inits[node.input[0]].data_type == TensorProto.INT8:
            # Weights: the float values, quantised again in the graph.
            q = numpy_helper.to_array(inits[node.input[0]])
            scale = numpy_helper.to_array(inits[node.input[1]])
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            shape = [1] * q.ndim
            if scale.ndim:
                shape[axis] = -1
            name = node.input[0] + "_float"
            graph.initializer.append(numpy_helper.from_array(
                (q.astype(np.float32) * scale.reshape(shape)).astype(np.float32), name))
            qn = helper.make_node("QuantizeLinear", [name] + list(node.input[1:]), [name + "_q"],
                                  name=name + "_quant", **({"axis": axis} if scale.ndim else {}))
            nodes.append(qn)
            node.input[0] = name + "_q"
        if node.op_type == "DequantizeLinear" and node.input[0] not in inits:  # not the int32 biases
            lo, hi = (-127, 127) if node.input[0].endswith("_float_q") else (-64, 63)
            tag = node.input[0] + "_clip"
            graph.initializer.extend([numpy_helper.from_array(np.array(lo, np.int8), tag + "_lo"),
                                      numpy_helper.from_array(np.array(hi, np.int8), tag + "_hi")])
            nodes.append(helper.make_node("Clip", [node.input[0], tag + "_lo", tag + "_hi"], [tag],
                                          name=tag))
            node.input[0] = tag
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    used = {i for n in graph.node for i in n.input}
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    graph.name = f"{stem}_qcdq"
    onnx.checker.check_model(m, full_check=True)
    return m


for _stem in ("conv_relu", "lenet"):
    MODELS[f"{_stem}_qcdq"] = (lambda s=_stem: qcdq(s))

# Elementwise activations quantised too: each becomes a lookup table.
for _stem, _acts in (("conv_sigmoid", ()), ("conv_hardswish", ("HardSwish",)), ("gemm_softmax", ()),
                     ("gemm_logsoftmax", ("LogSoftmax",)), ("conv_prelu", ("PRelu",)),
                     ("activations", ("Tanh", "HardSigmoid", "Elu", "HardSwish"))):
    MODELS[f"{_stem}_qdq"] = (lambda s=_stem, a=_acts: quantized(s, True, a))


def scalar(value, dtype, name):
    """A rank-0 initializer."""
    return numpy_helper.from_array(np.array(value, dtype), name)


def hand_written(graph):
    """The model of a graph written node by node (not by Builder), checked."""
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                          producer_name="ming test/onnx/gen_models.py")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


def softmax_int8():
    """Softmax between int8 interfaces, as tf2onnx writes TFLite's int8 Softmax
    (MLPerf Tiny's last layer): int8 x[64x10] -> DequantizeLinear (0.05, 3)
    -> Softmax -> QuantizeLinear (1/256, -128) -> int8; random int8 rows span
    most of exp's table."""
    nodes = [helper.make_node("DequantizeLinear", ["x", "s", "zp"], ["xd"], name="dequantize"),
             helper.make_node("Softmax", ["xd"], ["p"], axis=-1, name="softmax"),
             helper.make_node("QuantizeLinear", ["p", "so", "zo"], ["y"], name="quantize")]
    graph = helper.make_graph(
        nodes, "softmax_int8", [helper.make_tensor_value_info("x", TensorProto.INT8, [64, 10])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [64, 10])],
        initializer=[scalar(0.05, np.float32, "s"), scalar(3, np.int8, "zp"),
                     scalar(1 / 256, np.float32, "so"), scalar(-128, np.int8, "zo")])
    return hand_written(graph)


MODELS["softmax_int8"] = softmax_int8


def conv_u8_input():
    """A uint8 model input (raw pixels): uint8 x[1x3x8x8] -> DequantizeLinear
    (0.02, 128) -> Conv 3->4 3x3 (int8 weights) -> QuantizeLinear (0.5, -3)
    -> DequantizeLinear -> f32; random bytes cover 0..255."""
    w = np.random.default_rng(45).integers(-127, 128, size=(4, 3, 3, 3)).astype(np.int8)
    nodes = [helper.make_node("DequantizeLinear", ["x", "s", "zp"], ["xd"], name="dequantize_in"),
             helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"], name="dequantize_w"),
             helper.make_node("Conv", ["xd", "wd"], ["y"], pads=[1, 1, 1, 1], name="conv"),
             helper.make_node("QuantizeLinear", ["y", "so", "zo"], ["yq"], name="quantize"),
             helper.make_node("DequantizeLinear", ["yq", "so", "zo"], ["out"], name="dequantize_out")]
    graph = helper.make_graph(
        nodes, "conv_u8_input", [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", F32, [1, 4, 8, 8])],
        initializer=[scalar(0.02, np.float32, "s"), scalar(128, np.uint8, "zp"),
                     numpy_helper.from_array(w, "w"), scalar(0.01, np.float32, "sw"),
                     scalar(0, np.int8, "zw"), scalar(0.5, np.float32, "so"), scalar(-3, np.int8, "zo")])
    return hand_written(graph)


MODELS["conv_u8_input"] = conv_u8_input


def main(argv):
    if argv[:1] == ["--list"]:
        print("\n".join(MODELS))
        return 0
    if argv[:1] == ["--quantize"] and len(argv) == 3:
        onnx.save(quantize_model(onnx.load(argv[1]), per_channel=True), argv[2])
        print(argv[2])
        return 0
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    outdir, names = argv[0], argv[1:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        print(f"gen_models.py: unknown model(s) {', '.join(unknown)} (--list names them)", file=sys.stderr)
        return 2
    os.makedirs(outdir, exist_ok=True)
    for n in names:
        path = os.path.join(outdir, f"{n}.onnx")
        data = MODELS[n]().SerializeToString()
        # Rewritten only when different, so make-style staleness checks work.
        if not os.path.exists(path) or open(path, "rb").read() != data:
            with open(path, "wb") as f:
                f.write(data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
