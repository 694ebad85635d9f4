#!/usr/bin/env python3
"""Writes the bundled example, examples/conv_relu.onnx, with onnx.helper:
conv 3->8 3x3 (pad 1, bias) + ReLU on a 1x3x32x32 f32 image (the paper's Conv+ReLU
kernel in float), weights uniform in +-1/sqrt(27) from a fixed seed.

  .venv/bin/python examples/conv_relu.py [OUT.onnx]     (default: next to this script)

The .onnx is checked in (1 KB); running this again gives the same bytes.
scripts/run-example.sh compiles it: ming-opt examples/conv_relu.onnx --hls out/conv_relu
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model():
    rng = np.random.default_rng(2024)
    bound = 1.0 / np.sqrt(3 * 3 * 3)
    w = rng.uniform(-bound, bound, size=(8, 3, 3, 3)).astype(np.float32)
    b = rng.uniform(-bound, bound, size=(8,)).astype(np.float32)
    conv = helper.make_node("Conv", ["x", "w", "b"], ["conv"], name="conv",
                            kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    relu = helper.make_node("Relu", ["conv"], ["y"], name="relu")
    graph = helper.make_graph(
        [conv, relu], "conv_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 32, 32])],
        initializer=[numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="ming examples/conv_relu.py")
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    return m


def main(argv):
    out = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_relu.onnx")
    with open(out, "wb") as f:
        f.write(model().SerializeToString())
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
