"""Writes two small TFLite CNNs into DIR: cnn_float.tflite (float) and
cnn_int8.tflite (full-integer int8, int8 input and output), from one Keras
model with fixed random weights (conv 3x3 + ReLU, depthwise 3x3 stride 2 +
ReLU6, 1x1 conv, global average pool, dense, softmax); and the same model
as ONNX straight from Keras, cnn_keras.onnx: tf2onnx.convert.from_keras,
which replaced keras2onnx, at opset 9 as keras2onnx wrote (an NHWC input
transposed, Clip with attributes, Squeeze and MatMul).

    make_keras.py DIR
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def model():
    tf.keras.utils.set_random_seed(7)
    x = tf.keras.Input((12, 12, 3), batch_size=1, name="input")
    y = tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu")(x)
    y = tf.keras.layers.DepthwiseConv2D(3, strides=2, padding="same")(y)
    y = tf.keras.layers.ReLU(6.0)(y)
    y = tf.keras.layers.Conv2D(8, 1)(y)
    y = tf.keras.layers.GlobalAveragePooling2D()(y)
    y = tf.keras.layers.Dense(5)(y)
    y = tf.keras.layers.Softmax()(y)
    return tf.keras.Model(x, y)


def main(out):
    os.makedirs(out, exist_ok=True)
    m = model()
    conv = tf.lite.TFLiteConverter.from_keras_model(m)
    with open(os.path.join(out, "cnn_float.tflite"), "wb") as f:
        f.write(conv.convert())
    rng = np.random.default_rng(3)

    def calibration():
        for _ in range(16):
            yield [rng.uniform(-1, 1, (1, 12, 12, 3)).astype(np.float32)]
    conv = tf.lite.TFLiteConverter.from_keras_model(m)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = calibration
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    with open(os.path.join(out, "cnn_int8.tflite"), "wb") as f:
        f.write(conv.convert())
    import tf2onnx  # noqa: E402  (only this file needs it)
    spec = (tf.TensorSpec((1, 12, 12, 3), tf.float32, name="input"),)
    tf2onnx.convert.from_keras(m, input_signature=spec, opset=9,
                               output_path=os.path.join(out, "cnn_keras.onnx"))


if __name__ == "__main__":
    main(sys.argv[1])
