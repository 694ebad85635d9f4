"""Writes two small TFLite CNNs into DIR: cnn_float.tflite (float) and
cnn_int8.tflite (full-integer int8, int8 input and output), from one Keras
model with fixed random weights (conv 3x3 + ReLU, depthwise 3x3 stride 2 +
ReLU6, 1x1 conv, global average pool, dense, softmax); and the same model
as ONNX straight from Keras, cnn_keras.onnx: tf2onnx.convert.from_keras,
which replaced keras2onnx, at opset 9 as keras2onnx wrote (an NHWC input
transposed, Clip with attributes, Squeeze and MatMul). And blocks of field
CNNs as int8 TFLite (blocks()): residual_int8.tflite up to a residual add,
blocks_int8.tflite with more layers after it; layernorm_int8.tflite, a
convolution and LayerNormalization; gelu_int8.tflite and gelu_float.tflite,
GELU between convolutions; bilinear_float.tflite, a bilinear UpSampling2D
between convolutions.

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


def blocks(full):
    """Blocks of field CNNs: a 3x5 convolution at stride 1x2 with ReLU6, a
    1x1 one with HardSwish, squeeze-and-excite, a SAME 3x3 average pool
    (corners count 4 cells, edges 6), a residual add; with `full`, then
    LeakyReLU, UpSampling2D by 2x1 (tf2onnx: Tile) and a 3x3 convolution
    with Tanh."""
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(11)
    x = tf.keras.Input((12, 10, 3), batch_size=1, name="input")
    a = L.Conv2D(8, (3, 5), strides=(1, 2), padding="same")(x)
    a = L.Activation(tf.nn.relu6)(a)
    h = L.Activation("hard_swish")(L.Conv2D(8, 1)(a))
    s = L.GlobalAveragePooling2D(keepdims=True)(h)
    s = L.Conv2D(8, 1, activation="sigmoid")(s)
    h = L.Multiply()([h, s])
    p = L.AveragePooling2D(3, strides=1, padding="same")(h)
    y = L.Add()([p, a])
    if full:
        y = L.LeakyReLU(0.1)(y)
        y = L.UpSampling2D((2, 1))(y)
        y = L.Conv2D(4, 3, padding="same", activation="tanh")(y)
    return tf.keras.Model(x, y)


def layernorm():
    """A 3x3 convolution, then LayerNormalization over the channels."""
    tf.keras.utils.set_random_seed(5)
    x = tf.keras.Input((16, 16, 3), batch_size=1, name="input")
    y = tf.keras.layers.Conv2D(8, 3, padding="same")(x)
    y = tf.keras.layers.LayerNormalization()(y)
    return tf.keras.Model(x, y)


def gelu():
    """A 3x3 convolution, Keras' GELU (erf; TFLite's GELU, which tf2onnx
    leaves unconverted), a 1x1 convolution."""
    tf.keras.utils.set_random_seed(7)
    x = tf.keras.Input((8, 8, 3), batch_size=1, name="input")
    y = tf.keras.layers.Conv2D(8, 3, padding="same")(x)
    y = tf.keras.layers.Activation("gelu")(y)
    y = tf.keras.layers.Conv2D(4, 1)(y)
    return tf.keras.Model(x, y)


def bilinear():
    """A decoder step: a 3x3 convolution, Keras' bilinear UpSampling2D by 2
    (TFLite's RESIZE_BILINEAR with half_pixel_centers), a 3x3 convolution."""
    tf.keras.utils.set_random_seed(11)
    x = tf.keras.Input((6, 5, 3), batch_size=1, name="input")
    y = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")(x)
    y = tf.keras.layers.UpSampling2D((2, 2), interpolation="bilinear")(y)
    y = tf.keras.layers.Conv2D(2, 3, padding="same")(y)
    return tf.keras.Model(x, y)


def int8(m, shape):
    """`m` as a full-integer int8 TFLite model, int8 in and out."""
    rng = np.random.default_rng(3)

    def calibration():
        for _ in range(16):
            yield [rng.uniform(-1, 1, shape).astype(np.float32)]
    conv = tf.lite.TFLiteConverter.from_keras_model(m)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = calibration
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = tf.int8
    conv.inference_output_type = tf.int8
    return conv.convert()


def main(out):
    os.makedirs(out, exist_ok=True)
    m = model()
    conv = tf.lite.TFLiteConverter.from_keras_model(m)
    with open(os.path.join(out, "cnn_float.tflite"), "wb") as f:
        f.write(conv.convert())
    with open(os.path.join(out, "cnn_int8.tflite"), "wb") as f:
        f.write(int8(m, (1, 12, 12, 3)))
    for name, full in (("blocks_int8.tflite", True), ("residual_int8.tflite", False)):
        with open(os.path.join(out, name), "wb") as f:
            f.write(int8(blocks(full), (1, 12, 10, 3)))
    with open(os.path.join(out, "layernorm_int8.tflite"), "wb") as f:
        f.write(int8(layernorm(), (1, 16, 16, 3)))
    with open(os.path.join(out, "gelu_int8.tflite"), "wb") as f:
        f.write(int8(gelu(), (1, 8, 8, 3)))
    with open(os.path.join(out, "gelu_float.tflite"), "wb") as f:
        f.write(tf.lite.TFLiteConverter.from_keras_model(gelu()).convert())
    with open(os.path.join(out, "bilinear_float.tflite"), "wb") as f:
        f.write(tf.lite.TFLiteConverter.from_keras_model(bilinear()).convert())
    import tf2onnx  # noqa: E402  (only this file needs it)
    spec = (tf.TensorSpec((1, 12, 12, 3), tf.float32, name="input"),)
    tf2onnx.convert.from_keras(m, input_signature=spec, opset=9,
                               output_path=os.path.join(out, "cnn_keras.onnx"))


if __name__ == "__main__":
    main(sys.argv[1])
