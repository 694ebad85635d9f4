"""Bilinear upsampling as a convolution the rest of the front end streams.

Resize with mode 'linear' by integer factors s on the spatial axes, with the
half_pixel coordinates PyTorch (align_corners=False), Keras and TFLite
(half_pixel_centers) write, samples input x = (o + 1/2) / s - 1/2 for output
o, clamped to the input: output o is a fixed weighting of the two input
elements around x. That is a transposed convolution with stride s of the
input with its borders repeated once (Pad edge), one channel at a time
(group = C), by the triangle kernel of width 2s (2s - 1 for odd s), whose
result is cropped by the ConvTranspose's pads; transposed_convs_as_convs
(onnx_transposed.py) then makes it a stride-1 Conv. The importer's own lowering
of Resize gathers by computed index, which cannot stream.
"""
import functools

from onnx_util import Emitter, attr, fail, links, set_nodes, value_shapes, value_types


def resize_factors(node, shape, inits, where):
    """The whole factor of a Resize (or Upsample) per axis of `shape`, from
    its constant sizes or scales; refused by name where one is not whole."""
    from onnx import numpy_helper
    names = list(node.input) + [""] * 4
    scales_name = names[2] if node.op_type == "Resize" else names[1]
    sizes_name = names[3] if node.op_type == "Resize" else ""
    rank = len(shape)
    axes = attr(node, "axes", None)
    axes = [a % rank for a in axes] if axes else list(range(rank))
    factors = [1] * rank
    if sizes_name:
        if sizes_name not in inits:
            fail(f"{where}: its sizes must be a constant")
        for a, n in zip(axes, numpy_helper.to_array(inits[sizes_name]).tolist()):
            if n % shape[a]:
                fail(f"{where}: output size {n} on axis {a} is not a multiple of the input's {shape[a]}")
            factors[a] = n // shape[a]
    elif scales_name:
        if scales_name not in inits:
            fail(f"{where}: its scales must be a constant")
        for a, f in zip(axes, numpy_helper.to_array(inits[scales_name]).tolist()):
            if f < 1 or f != int(f):
                fail(f"{where}: scale {f} on axis {a} is not a whole number; ming upsamples by integer factors")
            factors[a] = int(f)
    else:
        fail(f"{where} gives neither scales nor sizes")
    return factors


def _kernel(s):
    """The 1-D weights and the crop at each end for factor s (derivation in
    the module's doc: output o reads the padded input at (o + pad) / s)."""
    if s == 1:
        return [1.0], 0, 0
    if s % 2 == 0:
        return [1 - abs(t + 0.5 - s) / s for t in range(2 * s)], 3 * s // 2, 3 * s // 2
    crop = (3 * s - 1) // 2
    return [1 - abs(t - (s - 1)) / s for t in range(2 * s - 1)], crop, crop


def linear_resizes_as_transposed_convs(model):
    """Every Resize with mode 'linear' becomes Pad(edge) -> ConvTranspose, or
    is refused by name where it is not bilinear upsampling by whole factors
    with half_pixel coordinates."""
    import numpy as np
    from onnx import TensorProto, numpy_helper
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes, types = value_shapes(graph), value_types(graph)
    producer, _ = links(graph)
    nodes, changed = [], False
    for node in graph.node:
        if node.op_type != "Resize" or attr(node, "mode", "nearest") != "linear":
            nodes.append(node)
            continue
        where = f"ONNX operator Resize (node '{node.name or '?'}') with mode='linear'"
        coord = attr(node, "coordinate_transformation_mode", "half_pixel")
        if coord not in ("half_pixel", "pytorch_half_pixel"):
            fail(f"{where} and coordinate_transformation_mode='{coord}' is not supported; ming upsamples "
                 f"bilinearly with half_pixel coordinates (PyTorch's align_corners=False)")
        if attr(node, "antialias", 0):
            fail(f"{where} and antialias=1 is not supported")
        x = node.input[0]
        if types.get(x, TensorProto.FLOAT) != TensorProto.FLOAT:
            fail(f"{where} on a tensor other than float32 is not supported")
        # Quantised, the runtimes interpolate on integers with their own
        # rounding (TFLite's fixed-point weights); in float, as here, 14 of
        # 240 int8 outputs of a Keras model came out a step off.
        if x in producer and producer[x].op_type == "DequantizeLinear":
            fail(f"{where} on quantised values is not supported: ming interpolates in float, and the "
                 f"runtimes' integer kernels round otherwise; the float model compiles")
        if x not in shapes or len(shapes[x]) not in (3, 4):
            fail(f"{where}: its input must be a 1-D or 2-D feature map (N, C, spatial) of known shape")
        shape = shapes[x]
        factors = resize_factors(node, shape, inits, where)
        if factors[:2] != [1, 1]:
            fail(f"{where} scales the batch or channel axis; ming resizes spatial axes only")
        channels = shape[1]
        kernels = [_kernel(s) for s in factors[2:]]
        # The separable kernel, the same for every channel: [C, 1, k...].
        weight = functools.reduce(np.multiply.outer, [np.array(w) for w, _, _ in kernels])
        weight = np.broadcast_to(weight, [channels, 1] + list(weight.shape)).astype(np.float32)
        e = Emitter(graph, nodes, (node.name or node.output[0])[:40] + "_bilinear")
        edge = [0, 0] + [1 if s > 1 else 0 for s in factors[2:]]
        padded = e.node("Pad", [x, e.const(edge + edge)], mode="edge")
        kname = e.fresh("kernel")
        graph.initializer.append(numpy_helper.from_array(weight, kname))
        e.node("ConvTranspose", [padded, kname], node.output[0], group=channels,
               strides=factors[2:], pads=[k[1] for k in kernels] + [k[2] for k in kernels])
        changed = True
    if changed:
        set_nodes(graph, nodes)
    return changed
