#!/usr/bin/env python3
"""The Python API on a TFLite model: a small float Keras CNN (conv 3x3 +
ReLU, NHWC 8x8x3) converted with TensorFlow's TFLiteConverter, compiled by
ming.compile (the .tflite path is passed to ming-opt unchanged), its C
simulation compared with tf.lite's interpreter.

    api_tflite.py WORKDIR
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf

import ming

work = sys.argv[1]
tf.keras.utils.set_random_seed(3)
net = tf.keras.Sequential([
    tf.keras.Input(shape=(8, 8, 3), batch_size=1),
    tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
])
path = os.path.join(work, "conv.tflite")
with open(path, "wb") as f:
    f.write(tf.lite.TFLiteConverter.from_keras_model(net).convert())

design = ming.compile(path, board="kv260", out=os.path.join(work, "prj"))
print("inputs: " + ", ".join(f"{p['shape']} {p['dtype']}" for p in design.inputs))
x = np.random.default_rng(1).uniform(-1, 1, size=(1, 8, 8, 3)).astype(np.float32)
interp = tf.lite.Interpreter(model_path=path)
interp.allocate_tensors()
interp.set_tensor(interp.get_input_details()[0]["index"], x)
interp.invoke()
want = interp.get_tensor(interp.get_output_details()[0]["index"])
got = design.csim(x.reshape(design.inputs[0]["shape"]))
ok = got.size == want.size and np.allclose(got.reshape(want.shape), want, rtol=1e-5, atol=1e-5)
print(f"tflite csim: {list(got.shape)} against tf.lite: {'PASS' if ok else 'FAIL'}")
