"""Brings a model to the ONNX the importer reads: ming-opt runs this with the
front end's Python (the checkout's .venv) before iree-import-onnx.

    python prepare_onnx.py MODEL OUT.onnx [--shape NAME=1x3x32x32 ...]

- A .tflite model is converted with tf2onnx (TensorFlow Lite flatbuffers have
  no MLIR importer that works with a current TensorFlow; tf2onnx keeps int8
  tensors, per-channel scales and the model's NHWC interface).
- Opsets before 17 are upgraded with onnx's version converter: the importer's
  lowering of Softmax, Flatten, BatchNormalization ... follows opset 13+.
- Symbolic dimensions are fixed: by --shape when given, else a symbolic
  leading (batch) dimension becomes 1. Any other symbolic dimension is an error.
- A ceil_mode pool whose last window would start in the end padding drops
  that window (onnxruntime and PyTorch do; the importer's lowering keeps it
  and pools padding only): its end padding is trimmed to where the last kept
  window ends, so both read the same windows.
- A ceil_mode AveragePool whose last window reaches past the padded input
  divides, in onnxruntime, by the cells inside the (padded) input only; the
  importer's counts differ. It becomes a window sum over explicit zero padding
  times a constant of kernel size / onnxruntime's count per position.
- Pad with mode 'reflect' becomes one-wide Slices mirrored around the input
  and a Concat per axis (the importer fails on it or writes insert_slice).
- A constant Pad with negative pads (a crop) becomes Slice, then Pad with the
  positive ones: the importer would fold the crop into a following
  convolution's padding as if it removed padding, not data.
- Resize (Upsample) nearest by integer factors becomes Reshape-Expand-Reshape:
  every input element repeated, which streams with a row buffer; the
  importer's lowering of Resize gathers by computed index, which cannot.

Everything said to the user goes to stderr as `remark:` or `error:` lines;
exit status 0 on success, 1 on a model we refuse (with the reason), 2 when a
Python package is missing (the message names it and how to install it).
"""
import os
import sys

TARGET_OPSET = 17
NEWEST_OPSET = 21


def say(kind, msg):
    print(f"{kind}: {msg}", file=sys.stderr)


def fail(msg, status=1):
    say("error", msg)
    sys.exit(status)


def need(module, package, why):
    try:
        return __import__(module)
    except ImportError:
        fail(f"{why} needs the Python package '{package}' (install it with scripts/setup.sh, "
             f"or '.venv/bin/pip install {package}')", 2)


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


def refuse_known_unsupported(model, src):
    """Operators the importer cannot take are refused here, by their ONNX name
    and node, before it runs: Pad with mode 'wrap' sends iree-import-onnx into
    an endless loop."""
    from onnx import helper
    for node in model.graph.node:
        if node.op_type == "Pad":
            modes = [helper.get_attribute_value(a) for a in node.attribute if a.name == "mode"]
            mode = modes[0].decode() if modes and isinstance(modes[0], bytes) else (modes[0] if modes else "constant")
            if mode == "wrap":
                fail(f"ONNX operator Pad (node '{node.name or '?'}') with mode='wrap' is not supported; "
                     f"ming pads with mode='constant', 'reflect' or 'edge' as the importer lowers them")


def attr(node, name, default):
    from onnx import helper
    for a in node.attribute:
        if a.name == name:
            v = helper.get_attribute_value(a)
            return v.decode() if isinstance(v, bytes) else v
    return default


def value_shapes(graph):
    """Static shapes known for the graph's values (inputs, inferred, outputs)."""
    shapes = {}
    for v in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = v.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") and d.dim_value > 0 for d in dims):
            shapes[v.name] = [d.dim_value for d in dims]
    return shapes


def pool_geometry(node, shapes):
    """(input shape, kernel, strides, dilations, explicit pads) of a pool
    whose input shape is known, else None; pads are all zero when absent."""
    x = shapes.get(node.input[0])
    kernel = attr(node, "kernel_shape", None)
    if not x or not kernel:
        return None
    n = len(kernel)
    return (x, kernel, attr(node, "strides", None) or [1] * n, attr(node, "dilations", None) or [1] * n,
            list(attr(node, "pads", None) or [0] * (2 * n)))


def trim_ceil_mode_pools(model):
    """Returns whether a pool changed. In ceil mode, a last window starting at
    or past the end of the input plus the begin padding is dropped
    ((out - 1) * stride >= in + pad_begin, as onnxruntime computes it);
    ONNX shape inference and the importer keep it. On such an axis the end
    padding is cut to where the last kept window ends (less than the model's
    own, so an average that counts padding counts the same cells)."""
    from onnx import helper
    shapes = value_shapes(model.graph)
    changed = False
    for node in model.graph.node:
        if node.op_type not in ("MaxPool", "AveragePool") or not attr(node, "ceil_mode", 0):
            continue
        if attr(node, "auto_pad", "NOTSET") not in ("NOTSET", ""):
            continue
        geometry = pool_geometry(node, shapes)
        if not geometry:
            continue
        x, kernel, strides, dilations, pads = geometry
        n = len(kernel)
        spatial = x[-n:]
        new_pads, drops = list(pads), False
        for i in range(n):
            eff = dilations[i] * (kernel[i] - 1) + 1
            span = spatial[i] + pads[i] + pads[n + i] - eff
            out = -(-span // strides[i]) + 1
            if out <= 1 or (out - 1) * strides[i] < spatial[i] + pads[i]:
                continue
            # The kept windows end at `end` cells into the end padding; with
            # that padding, ceil mode yields exactly them.
            end = (out - 2) * strides[i] + eff - spatial[i] - pads[i]
            if end < 0:
                break
            new_pads[n + i] = end
            drops = True
        else:
            if not drops:
                continue
            keep = [a for a in node.attribute if a.name != "pads"]
            del node.attribute[:]
            node.attribute.extend(keep)
            node.attribute.append(helper.make_attribute("pads", new_pads))
            say("remark", f"ONNX operator {node.op_type} (node '{node.name or '?'}'): ceil_mode drops a last "
                          f"window that starts in the padding, as onnxruntime does (pads {pads} -> {new_pads})")
            changed = True
    return changed


def exact_ceil_averages(model):
    """Returns whether a pool changed. A ceil_mode AveragePool whose last window
    overhangs the padded input divides, in onnxruntime, by the cells of the
    window inside the padded input (count_include_pad=1) or inside the input
    (0); the importer's counts differ. Such a pool (dilation 1) becomes
    Pad(zeros, its pads plus the overhang) -> AveragePool(floor mode, no pads,
    counting padding: the window sum / K) -> Mul by a constant of K / count per
    output position, the counts worked out here as onnxruntime's."""
    import numpy as np
    from onnx import helper, numpy_helper
    shapes = value_shapes(model.graph)
    nodes, changed = [], False
    for node in model.graph.node:
        nodes.append(node)
        if node.op_type != "AveragePool" or not attr(node, "ceil_mode", 0) \
                or attr(node, "auto_pad", "NOTSET") not in ("NOTSET", "", "VALID"):
            continue
        geometry = pool_geometry(node, shapes)
        if not geometry:
            continue
        x, kernel, strides, dilations, pads = geometry
        n = len(kernel)
        if any(d != 1 for d in dilations):
            continue
        if attr(node, "auto_pad", "NOTSET") == "VALID":
            pads = [0] * (2 * n)
        include = bool(attr(node, "count_include_pad", 0))
        spatial = x[-n:]
        outs, extra = [], []
        for i in range(n):
            padded = spatial[i] + pads[i] + pads[n + i]
            out = -(-(padded - kernel[i]) // strides[i]) + 1
            if out > 1 and (out - 1) * strides[i] >= spatial[i] + pads[i]:
                out -= 1
            outs.append(out)
            extra.append(max(0, (out - 1) * strides[i] + kernel[i] - padded))
        if not any(extra):
            continue
        # Cells of each window onnxruntime divides by, per axis, then the product.
        counts = None
        for i in range(n):
            lo, hi = (-pads[i], spatial[i] + pads[n + i]) if include else (0, spatial[i])
            c = np.array([min(o * strides[i] - pads[i] + kernel[i], hi) - max(o * strides[i] - pads[i], lo)
                          for o in range(outs[i])], dtype=np.float64)
            counts = c if counts is None else np.multiply.outer(counts, c)
        scale = (float(np.prod(kernel)) / counts).astype(np.float32)
        scale = scale.reshape([1] * (len(x) - n) + outs)
        stem = (node.name or node.output[0]) + "_exact"
        lead = len(x) - n
        full = [0] * lead + pads[:n] + [0] * lead + [p + e for p, e in zip(pads[n:], extra)]
        model.graph.initializer.append(numpy_helper.from_array(np.array(full, dtype=np.int64), stem + "_pads"))
        model.graph.initializer.append(numpy_helper.from_array(scale, stem + "_scale"))
        nodes.insert(len(nodes) - 1, helper.make_node("Pad", [node.input[0], stem + "_pads"], [stem + "_padded"],
                                                      name=stem + "_pad", mode="constant"))
        out_name = node.output[0]
        node.input[0] = stem + "_padded"
        node.output[0] = stem + "_mean"
        keep = [a for a in node.attribute if a.name in ("kernel_shape", "strides")]
        del node.attribute[:]
        node.attribute.extend(keep)
        node.attribute.append(helper.make_attribute("count_include_pad", 1))
        nodes.append(helper.make_node("Mul", [stem + "_mean", stem + "_scale"], [out_name], name=stem + "_count"))
        say("remark", f"ONNX operator AveragePool (node '{node.name or '?'}'): its ceil_mode window overhangs "
                      f"the input; it is computed as a window sum over explicit padding, scaled per position by "
                      f"onnxruntime's counts")
        changed = True
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return changed


def reflect_as_concats(model):
    """Pad with mode 'reflect' (constant pads) becomes, axis by axis, a Concat
    of one-wide Slices mirrored around the input: slices and concats stream,
    while the importer's lowering of reflect fails or writes insert_slice.
    Negative pads crop first. Returns whether one changed."""
    import numpy as np
    from onnx import helper, numpy_helper
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes = value_shapes(graph)
    nodes, changed = [], False
    for node in graph.node:
        if node.op_type != "Pad" or attr(node, "mode", "constant") != "reflect" \
                or len(node.input) < 2 or node.input[1] not in inits or node.input[0] not in shapes \
                or (len(node.input) > 3 and node.input[3]):
            nodes.append(node)
            continue
        pads = numpy_helper.to_array(inits[node.input[1]]).astype(np.int64).tolist()
        shape = list(shapes[node.input[0]])
        rank = len(shape)
        if len(pads) != 2 * rank:
            nodes.append(node)
            continue
        stem = (node.name or node.output[0]) + "_reflect"
        count = [0]

        def const(values):
            count[0] += 1
            name = f"{stem}_c{count[0]}"
            graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
            return name

        def fresh():
            count[0] += 1
            return f"{stem}_v{count[0]}"

        def slice_axis(x, axis, begin, end):
            out = fresh()
            nodes.append(helper.make_node("Slice", [x, const([begin]), const([end]), const([axis])], [out],
                                          name=out))
            return out

        x = node.input[0]
        for axis in range(rank):
            b, e = pads[axis], pads[rank + axis]
            if b < 0 or e < 0:
                x = slice_axis(x, axis, max(0, -b), shape[axis] - max(0, -e))
                shape[axis] -= max(0, -b) + max(0, -e)
                b, e = max(0, b), max(0, e)
            if b == 0 and e == 0:
                continue
            if b >= shape[axis] or e >= shape[axis]:
                fail(f"ONNX operator Pad (node '{node.name or '?'}') with mode='reflect' pads axis {axis} by more "
                     f"than its size less one")
            parts = [slice_axis(x, axis, k, k + 1) for k in range(b, 0, -1)] + [x] + \
                    [slice_axis(x, axis, shape[axis] - 1 - k, shape[axis] - k) for k in range(1, e + 1)]
            out = fresh()
            nodes.append(helper.make_node("Concat", parts, [out], name=out, axis=axis))
            x = out
            shape[axis] += b + e
        nodes.append(helper.make_node("Identity", [x], [node.output[0]], name=stem + "_out"))
        say("remark", f"ONNX operator Pad (node '{node.name or '?'}') with mode='reflect' becomes slices and concats")
        changed = True
    if changed:
        del graph.node[:]
        graph.node.extend(nodes)
    return changed


def crops_as_slices(model):
    """Constant-mode Pad nodes with negative pads become Slice (the crop) and a
    Pad of the non-negative pads. Returns whether one changed."""
    import numpy as np
    from onnx import helper, numpy_helper
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes = value_shapes(graph)
    nodes, changed = [], False
    for node in graph.node:
        nodes.append(node)
        if node.op_type != "Pad" or attr(node, "mode", "constant") != "constant":
            continue
        if len(node.input) < 2 or node.input[1] not in inits or node.input[0] not in shapes:
            continue
        if len(node.input) > 3 and node.input[3]:
            continue  # explicit axes: left to the importer
        pads = numpy_helper.to_array(inits[node.input[1]]).astype(np.int64).tolist()
        shape = shapes[node.input[0]]
        rank = len(shape)
        if len(pads) != 2 * rank or min(pads) >= 0:
            continue
        starts = [max(0, -p) for p in pads[:rank]]
        ends = [d - max(0, -p) for d, p in zip(shape, pads[rank:])]
        if any(e <= b for b, e in zip(starts, ends)):
            continue
        stem = (node.name or node.output[0]) + "_crop"
        def const(name, values):
            graph.initializer.append(numpy_helper.from_array(np.array(values, dtype=np.int64), name))
            return name
        crop = helper.make_node("Slice", [node.input[0], const(stem + "_starts", starts),
                                          const(stem + "_ends", ends)], [stem], name=stem)
        nodes.insert(len(nodes) - 1, crop)
        node.input[0] = stem
        node.input[1] = const(stem + "_pads", [max(0, p) for p in pads])
        say("remark", f"ONNX operator Pad (node '{node.name or '?'}'): its negative pads crop with a Slice first")
        changed = True
    del graph.node[:]
    graph.node.extend(nodes)
    if changed:
        used = {i for n in graph.node for i in n.input} | {v.name for v in graph.output}
        kept = [t for t in graph.initializer if t.name in used or t.name not in inits]
        del graph.initializer[:]
        graph.initializer.extend(kept)
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
                 f"by integer factors")
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
        axes = attr(node, "axes", None)
        axes = [a % rank for a in axes] if axes else list(range(rank))
        names = list(node.input) + [""] * 4
        scales_name = names[2] if node.op_type == "Resize" else names[1]
        sizes_name = names[3] if node.op_type == "Resize" else ""
        factors = [1] * rank
        if sizes_name:
            if sizes_name not in inits:
                fail(f"{where}: its sizes must be a constant")
            sizes = numpy_helper.to_array(inits[sizes_name]).tolist()
            for a, n in zip(axes, sizes):
                if n % shape[a]:
                    fail(f"{where}: output size {n} on axis {a} is not a multiple of the input's {shape[a]}")
                factors[a] = n // shape[a]
        elif scales_name:
            if scales_name not in inits:
                fail(f"{where}: its scales must be a constant")
            scales = numpy_helper.to_array(inits[scales_name]).tolist()
            for a, f in zip(axes, scales):
                if f < 1 or f != int(f):
                    fail(f"{where}: scale {f} on axis {a} is not a whole number; ming upsamples by integer factors")
                factors[a] = int(f)
        else:
            fail(f"{where} gives neither scales nor sizes")
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
    del graph.node[:]
    graph.node.extend(nodes)
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

    refuse_known_unsupported(model, src)

    initializers = {t.name for t in model.graph.initializer}
    inputs = [v for v in model.graph.input if v.name not in initializers]
    for name in shapes:
        if name not in [v.name for v in inputs]:
            fail(f"--input-shape names '{name}', but the model's inputs are "
                 + ", ".join(f"'{v.name}'" for v in inputs))
    changed = False
    for v in inputs:
        dims = v.type.tensor_type.shape.dim
        if v.name in shapes:
            want = shapes[v.name]
            if len(want) != len(dims):
                fail(f"--input-shape gives '{v.name}' {len(want)} dimensions; the model gives it {len(dims)}")
            for d, n in zip(dims, want):
                if d.HasField("dim_value") and d.dim_value not in (0, n):
                    fail(f"--input-shape {v.name}={'x'.join(map(str, want))} contradicts the model's "
                         f"fixed dimension {d.dim_value}")
                d.ClearField("dim_param")
                d.dim_value = n
            changed = True
            continue
        for k, d in enumerate(dims):
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
                if not (d.HasField("dim_value") and d.dim_value > 0):
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

    if reflect_as_concats(model):
        model = reinfer(model)
    if crops_as_slices(model):
        model = reinfer(model)
    if trim_ceil_mode_pools(model):
        model = reinfer(model)
    if exact_ceil_averages(model):
        model = reinfer(model)
    if any(n.op_type in ("Resize", "Upsample") for n in model.graph.node):
        model = resize_as_repeat(model)
    onnx.save(model, dst)


if __name__ == "__main__":
    main(sys.argv[1:])
