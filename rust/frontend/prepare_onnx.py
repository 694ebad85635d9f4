"""Brings a model to the ONNX the importer reads: ming-opt runs this with the
front end's Python (the checkout's .venv) before iree-import-onnx.

    python prepare_onnx.py MODEL OUT.onnx [--shape NAME=1x3x32x32 ...]

- A .tflite model is converted with tf2onnx (TensorFlow Lite flatbuffers have
  no MLIR importer that works with a current TensorFlow; tf2onnx keeps int8
  tensors, per-channel scales and the model's NHWC interface).
- Opsets before 17 are upgraded with onnx's version converter: the importer's
  lowering of Softmax, Flatten, BatchNormalization ... follows opset 13+.
- Operators outside the list ming compiles (onnx_ops.py) are refused by
  name, with their nodes.
- A BatchNormalization after a Conv or Gemm with constant weights is folded
  into them (onnx_fold.py).
- Symbolic dimensions are fixed: by --shape when given, else a symbolic
  leading (batch) dimension becomes 1. Any other symbolic dimension is an error.
  --shape may also change a fixed batch (the first dimension), no other.
- Sliding windows and pads whose attributes the importer lowers differently
  from onnxruntime (SAME, ceil_mode and dilated pools, negative or edge and
  reflect pads) are rewritten by onnx_windows.py, which says how.
- Resize (Upsample) nearest by integer factors becomes Reshape-Expand-Reshape:
  every input element repeated, which streams with a row buffer; the
  importer's lowering of Resize gathers by computed index, which cannot.
  Bilinear Resize by integer factors (half_pixel) becomes an edge Pad and a
  per-channel ConvTranspose (onnx_resize.py).
- ConvTranspose becomes a stride-1 Conv per phase of its stride and their
  interleaving, or zero insertion and a stride-1 Conv with the flipped
  kernel (onnx_transposed.py).
- A quantised grouped Conv becomes a Conv per group and a Concat
  (onnx_groups.py), which ming-quantize-integer turns into integers.
- Reciprocal becomes Div(1, x) (the importer asserts x != 0 in its payload).
- DepthToSpace and SpaceToDepth become the Reshape-Transpose-Reshape the
  ONNX specification defines them by.

Everything said to the user goes to stderr as `remark:` or `error:` lines;
exit status 0 on success, 1 on a model we refuse (with the reason), 2 when a
Python package is missing (the message names it and how to install it).
"""
import os
import sys

from onnx_fold import fold_batch_norms
from onnx_groups import groups_as_convs
from onnx_ops import check_operators
from onnx_resize import linear_resizes_as_transposed_convs, resize_factors
from onnx_transposed import transposed_convs_as_convs
from onnx_util import Emitter, attr, fail, need, say, set_nodes, value_shapes, value_types, where
from onnx_windows import canonical_pools, conv_same_pads, crops_as_slices, mirror_pads_as_concats

TARGET_OPSET = 17
NEWEST_OPSET = 21


def parse_shapes(args):
    shapes = {}
    for a in args:
        name, sep, dims = a.rpartition("=")
        if not sep or not name:
            fail(f"--input-shape '{a}': expected NAME=D0xD1x..., e.g. input=1x3x32x32")
        try:
            shape = [int(d) for d in dims.lower().split("x")]
        except ValueError:
            fail(f"--input-shape '{a}': dimensions must be positive integers separated by 'x'")
        if any(d <= 0 for d in shape):
            fail(f"--input-shape '{a}': dimensions must be positive")
        shapes[name] = shape
    return shapes


def from_tflite(path, scratch):
    need("tensorflow", "tensorflow-cpu", "TFLite input")
    need("tf2onnx", "tf2onnx", "TFLite input")
    import tf2onnx
    out = os.path.join(scratch, "tflite.onnx")
    # tf2onnx logs at INFO on stdout/stderr; only its errors matter here.
    import logging
    logging.getLogger("tf2onnx").setLevel(logging.ERROR)
    try:
        tf2onnx.convert.from_tflite(path, opset=TARGET_OPSET, output_path=out)
    except Exception as e:  # tf2onnx raises bare exceptions for unsupported TFLite ops
        fail(f"tf2onnx cannot convert '{path}': {e}")
    say("remark", f"'{path}' converted from TensorFlow Lite with tf2onnx (opset {TARGET_OPSET})")
    return out


def gelus_as_onnx(model):
    """TFLite's GELU, which tf2onnx leaves as TFL_GELU, becomes the function
    it computes in ONNX operators: x/2 (1 + erf(x / sqrt 2)), or with
    approximate=1, x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). So does
    ONNX's Gelu with approximate="tanh": the importer writes its sqrt(2/pi)
    as 0.797724 (0.7978846), 3e-6 off in the results. Between a dequantize
    and a quantize either becomes one table."""
    import math
    nodes, changed = [], False
    for node in model.graph.node:
        tanh_gelu = node.op_type == "Gelu" and node.domain in ("", "ai.onnx") and \
            attr(node, "approximate", "none") == "tanh"
        if node.op_type != "TFL_GELU" and not tanh_gelu:
            nodes.append(node)
            continue
        e = Emitter(model.graph, nodes, (node.name or node.output[0])[:40] + "_gelu")
        x = node.input[0]
        k = lambda v: e.const([v], "float32")  # noqa: E731
        if tanh_gelu or attr(node, "approximate", 0):
            cube = e.node("Mul", [e.node("Mul", [x, x]), x])
            inner = e.node("Add", [x, e.node("Mul", [cube, k(0.044715)])])
            t = e.node("Tanh", [e.node("Mul", [inner, k(math.sqrt(2 / math.pi))])])
        else:
            t = e.node("Erf", [e.node("Mul", [x, k(1 / math.sqrt(2))])])
        half = e.node("Mul", [x, k(0.5)])
        e.node("Mul", [half, e.node("Add", [t, k(1.0)])], node.output[0])
        changed = True
    if changed:
        set_nodes(model.graph, nodes)
    return changed


def reciprocals_as_divisions(model):
    """Reciprocal(x) becomes Div(1, x): the importer writes Reciprocal with
    an assert that x is not 0 (cf.assert, which a process cannot hold);
    ONNX's 1 / 0 is infinity either way."""
    from onnx import TensorProto
    types = value_types(model.graph)
    nodes, changed = [], False
    for node in model.graph.node:
        if node.op_type != "Reciprocal" or types.get(node.input[0], TensorProto.FLOAT) not in (
                TensorProto.FLOAT, TensorProto.DOUBLE):
            nodes.append(node)
            continue
        dtype = "float64" if types.get(node.input[0]) == TensorProto.DOUBLE else "float32"
        e = Emitter(model.graph, nodes, (node.name or node.output[0]) + "_div")
        e.node("Div", [e.const(1.0, dtype), node.input[0]], node.output[0])
        changed = True
    if changed:
        set_nodes(model.graph, nodes)
    return changed


def blocks_as_transposes(model):
    """DepthToSpace (DCR and CRD) and SpaceToDepth become the Reshape,
    Transpose, Reshape the ONNX specification defines them by, which stream
    as a channel shuffle does (YOLO's reorg layer, pixel-shuffle
    upsampling). Their input's shape must be known."""
    shapes = value_shapes(model.graph)
    nodes, changed = [], False
    for node in model.graph.node:
        if node.op_type not in ("DepthToSpace", "SpaceToDepth"):
            nodes.append(node)
            continue
        shape = shapes.get(node.input[0])
        if not shape or len(shape) != 4 or any(not isinstance(d, int) or d <= 0 for d in shape):
            fail(f"{where(node)}: the shape of its input is not known; ming rewrites it as Reshape, "
                 f"Transpose, Reshape, which needs it")
        n, c, hh, ww = shape
        k = attr(node, "blocksize", 0)
        e = Emitter(model.graph, nodes, (node.name or node.output[0]) + "_blocks")
        if node.op_type == "SpaceToDepth":
            if hh % k or ww % k:
                fail(f"{where(node)}: blocksize {k} does not divide its {hh}x{ww} input")
            split, perm, out = [n, c, hh // k, k, ww // k, k], [0, 3, 5, 1, 2, 4], [n, c * k * k, hh // k, ww // k]
        else:
            if c % (k * k):
                fail(f"{where(node)}: blocksize {k} squared does not divide its {c} channels")
            crd = attr(node, "mode", "DCR") == "CRD"
            split = [n, c // (k * k), k, k, hh, ww] if crd else [n, k, k, c // (k * k), hh, ww]
            perm = [0, 1, 4, 2, 5, 3] if crd else [0, 3, 4, 1, 5, 2]
            out = [n, c // (k * k), hh * k, ww * k]
        v = e.node("Reshape", [node.input[0], e.const(split)])
        v = e.node("Transpose", [v], perm=perm)
        e.node("Reshape", [v, e.const(out)], node.output[0])
        changed = True
    if changed:
        set_nodes(model.graph, nodes)
    return changed


def resize_as_repeat(model):
    """Resize with mode 'nearest' by integer factors on the spatial axes,
    where nearest sampling picks input element floor(x / factor) (the
    coordinate modes half_pixel, pytorch_half_pixel with rounding, asymmetric
    with floor), becomes Reshape [.., H, 1, W, 1] -> Expand [.., H, fh, W, fw]
    -> Reshape [.., H*fh, W*fw]. Any other Resize is refused by name."""
    import numpy as np
    from onnx import helper, numpy_helper
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes = value_shapes(graph)
    nodes, resize_inputs = [], set()
    for node in graph.node:
        if node.op_type not in ("Resize", "Upsample"):
            nodes.append(node)
            continue
        where = f"ONNX operator {node.op_type} (node '{node.name or '?'}')"
        resize_inputs.update(node.input[1:])
        mode = attr(node, "mode", "nearest")
        if mode != "nearest":
            fail(f"{where} with mode='{mode}' is not supported; ming streams Resize with mode='nearest' "
                 f"or 'linear' by integer factors")
        coord = attr(node, "coordinate_transformation_mode", "half_pixel" if node.op_type == "Resize" else "asymmetric")
        rounding = attr(node, "nearest_mode", "round_prefer_floor" if node.op_type == "Resize" else "floor")
        floor_ok = (coord in ("half_pixel", "pytorch_half_pixel") and rounding in ("round_prefer_floor", "round_prefer_ceil")) \
            or (coord == "asymmetric" and rounding == "floor")
        if not floor_ok:
            fail(f"{where} with coordinate_transformation_mode='{coord}' and nearest_mode='{rounding}' is not "
                 f"supported; ming repeats elements (half_pixel with rounding, or asymmetric with floor)")
        x = node.input[0]
        if x not in shapes:
            fail(f"{where}: the shape of its input '{x}' is not known after shape inference")
        shape = shapes[x]
        rank = len(shape)
        factors = resize_factors(node, shape, inits, where)
        if factors[:2] != [1, 1] and rank > 2:
            fail(f"{where} scales the batch or channel axis; ming resizes spatial axes only")
        stem = (node.name or node.output[0]) + "_repeat"
        fine, wide, out = [], [], []
        for d, f in zip(shape, factors):
            if f == 1:
                fine.append(d); wide.append(d)
            else:
                fine += [d, 1]; wide += [d, f]
            out.append(d * f)
        def const(name, values):
            graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
            return name
        nodes.append(helper.make_node("Reshape", [x, const(stem + "_fine", fine)], [stem + "_r"], name=stem + "_reshape"))
        nodes.append(helper.make_node("Expand", [stem + "_r", const(stem + "_wide", wide)], [stem + "_e"], name=stem + "_expand"))
        nodes.append(helper.make_node("Reshape", [stem + "_e", const(stem + "_out", out)], [node.output[0]], name=stem + "_merge"))
        say("remark", f"{where}: nearest upsampling by {'x'.join(map(str, factors[2:] or factors))} streams as a repeat")
    set_nodes(graph, nodes)
    # The scales, sizes and roi constants nobody reads any more.
    used = {i for n in graph.node for i in n.input} | {v.name for v in graph.output}
    dead = {t.name for t in graph.initializer if t.name in resize_inputs and t.name not in used}
    kept = [t for t in graph.initializer if t.name not in dead]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    inputs = [v for v in graph.input if v.name not in dead]
    del graph.input[:]
    graph.input.extend(inputs)
    return model


def main(argv):
    if len(argv) < 2:
        fail("usage: prepare_onnx.py MODEL OUT.onnx [--shape NAME=SHAPE ...] [--tflite]")
    src, dst = argv[0], argv[1]
    rest = argv[2:]
    shape_args, tflite = [], False
    i = 0
    while i < len(rest):
        if rest[i] == "--shape" and i + 1 < len(rest):
            shape_args.append(rest[i + 1])
            i += 2
        elif rest[i] == "--tflite":
            tflite = True
            i += 1
        else:
            fail(f"unknown argument '{rest[i]}'")
    shapes = parse_shapes(shape_args)
    onnx = need("onnx", "onnx", "ONNX input")
    if tflite:
        src = from_tflite(src, os.path.dirname(os.path.abspath(dst)))
    try:
        model = onnx.load(src)
    except Exception as e:
        fail(f"'{src}' is not a readable ONNX model: {e}")

    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        fail(f"'{src}' imports no version of the default ONNX operator set")
    if opset > NEWEST_OPSET:
        fail(f"'{src}' uses ONNX opset {opset}; ming reads opsets 7 to {NEWEST_OPSET}")
    if opset < TARGET_OPSET:
        from onnx import version_converter
        try:
            model = version_converter.convert_version(model, TARGET_OPSET)
        except Exception as e:
            fail(f"'{src}' uses ONNX opset {opset}, and onnx's version converter cannot bring it "
                 f"to opset {TARGET_OPSET}: {e}")
        say("remark", f"'{src}' upgraded from ONNX opset {opset} to {TARGET_OPSET}")
    check_operators(model)
    gelus_as_onnx(model)

    initializers = {t.name for t in model.graph.initializer}
    inputs = [v for v in model.graph.input if v.name not in initializers]
    for name in shapes:
        if name not in [v.name for v in inputs]:
            fail(f"--input-shape names '{name}', but the model's inputs are "
                 + ", ".join(f"'{v.name}'" for v in inputs))
    changed = rebatched = False
    for v in inputs:
        dims = v.type.tensor_type.shape.dim
        if v.name in shapes:
            want = shapes[v.name]
            if len(want) != len(dims):
                fail(f"--input-shape gives '{v.name}' {len(want)} dimensions; the model gives it {len(dims)}")
            for k, (d, n) in enumerate(zip(dims, want)):
                if d.HasField("dim_value") and d.dim_value not in (0, n):
                    # The batch is the one fixed dimension a design may change.
                    if k > 0:
                        fail(f"--input-shape {v.name}={'x'.join(map(str, want))} contradicts the model's "
                             f"fixed dimension {d.dim_value}")
                    say("remark", f"input '{v.name}' has a fixed batch of {d.dim_value}: the design is for "
                                  f"batch {n} (--input-shape)")
                    rebatched = True
                d.ClearField("dim_param")
                d.dim_value = n
            changed = True
            continue
        for k, d in enumerate(dims):
            # A fixed batch stays the model's (a rank-2 input's first
            # dimension is as often a matrix's rows); the option changes it.
            if k == 0 and len(dims) >= 3 and d.HasField("dim_value") and d.dim_value > 1:
                rest = "x".join(str(e.dim_value) if e.HasField("dim_value") else "D" for e in dims[1:])
                say("remark", f"input '{v.name}' has a fixed batch of {d.dim_value}: the design streams "
                              f"{d.dim_value} images per call (--input-shape {v.name}=1x{rest} makes it one)")
            if d.HasField("dim_value") and d.dim_value > 0:
                continue
            label = d.dim_param or "?"
            if k == 0:
                say("remark", f"input '{v.name}' has a symbolic batch dimension '{label}': the design is "
                              f"for batch 1 (--input-shape {v.name}=... sets another shape)")
                d.ClearField("dim_param")
                d.dim_value = 1
                changed = True
            else:
                fail(f"input '{v.name}' has a symbolic dimension '{label}' at position {k}; give its "
                     f"shape with --input-shape {v.name}=D0xD1x...")
    if changed:
        # Shapes inferred from the old symbolic ones would contradict the new.
        del model.graph.value_info[:]
        for v in model.graph.output:
            for d in v.type.tensor_type.shape.dim:
                if rebatched or not (d.HasField("dim_value") and d.dim_value > 0):
                    d.ClearField("dim_param")
                    d.ClearField("dim_value")
    try:
        model = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    except Exception as e:
        say("warning", f"ONNX shape inference failed ({e}); the importer infers shapes itself")
    def reinfer(model):
        # Shapes inferred before a rewrite are wrong from there on.
        del model.graph.value_info[:]
        for v in model.graph.output:
            for d in v.type.tensor_type.shape.dim:
                d.ClearField("dim_param")
                d.ClearField("dim_value")
        try:
            return onnx.shape_inference.infer_shapes(model, strict_mode=False)
        except Exception as e:
            say("warning", f"ONNX shape inference failed ({e}); the importer infers shapes itself")
            return model

    for rewrite in (linear_resizes_as_transposed_convs, transposed_convs_as_convs, fold_batch_norms,
                    mirror_pads_as_concats, crops_as_slices, conv_same_pads, canonical_pools, blocks_as_transposes,
                    reciprocals_as_divisions, groups_as_convs):
        while rewrite(model):
            model = reinfer(model)
    if any(n.op_type in ("Resize", "Upsample") for n in model.graph.node):
        model = resize_as_repeat(model)
    onnx.save(model, dst)


if __name__ == "__main__":
    main(sys.argv[1:])
