"""Rewrites of sliding-window and padding operators whose attributes the
importer lowers differently from onnxruntime (the reference users compare
against). Each takes the model with inferred shapes, rewrites in place and
returns whether it changed anything; the caller re-infers shapes and calls
again until nothing changes.

- Pools with auto_pad SAME_*, ceil_mode or dilations (and AveragePools with
  any padding) get onnxruntime's geometry made explicit: crops as Slice,
  padding as Pad (-FLT_MAX for MaxPool, the value onnxruntime starts from;
  zeros for AveragePool), then a pool without padding whose windows fit
  exactly. An AveragePool becomes a window sum times a constant per output
  position, the divisors onnxruntime uses (probed by running it on this one
  pool, and checked on random data).
- Conv with auto_pad SAME_* whose padding onnxruntime computes as negative
  (strides above the kernel) crops with a Slice first.
- Pad with mode 'reflect', 'edge' or 'wrap' becomes Slices around the input
  and a Concat per axis, negative pads cropping first (the importer fails on
  negative pads, padded batch axes and wrap, or writes insert_slice).
- A constant Pad with negative pads becomes Slice, then Pad: the importer
  would fold the crop into a following convolution's padding as if it
  removed padding, not data.
(ConvTranspose: onnx_transposed.py.)
"""
import math

from onnx_util import (Emitter, attr, fail, need, say, set_attrs, set_nodes, value_shapes, value_types,
                       where)

FLT_LOWEST = -3.4028234663852886e38


def c_div(a, b):
    """C++ integer division (truncates toward zero), as onnxruntime computes."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def pool_axis(n, k, s, d, head, tail, auto_pad, ceil):
    """(pad_head, pad_tail, out, numerator) of one pool axis as onnxruntime
    computes them. SAME pads are sized for the undilated kernel there."""
    if auto_pad == "VALID":
        head = tail = 0
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        needed = (c_div(n + s - 1, s) - 1) * s + k - n
        head = c_div(needed + 1, 2) if auto_pad == "SAME_LOWER" else c_div(needed, 2)
        tail = needed - head
    num = n + head + tail - d * (k - 1) - 1
    out = c_div(num, s) + 1
    if ceil:
        out = math.ceil(num / s) + 1
        if (out - 1) * s >= n + head:
            out -= 1
    return head, tail, out, num


def fit(n, head, out, k, s, d):
    """(crop_begin, crop_end, pad_begin, pad_end) so that a pool without
    padding reads exactly the windows that start at -head."""
    end = (out - 1) * s + d * (k - 1) + 1 - n - head
    return max(0, -head), max(0, -end), max(0, head), max(0, end)


def pool_needs_rewrite(node, auto_pad, dilations, pads, nums):
    """Whether the importer's lowering may differ from onnxruntime: SAME and
    ceil_mode geometry, windows larger than the input, padding an average
    counts or a dilated window can fall into entirely. A rewritten pool (no
    padding, floor mode, windows inside) needs none."""
    if auto_pad in ("SAME_UPPER", "SAME_LOWER") or attr(node, "ceil_mode", 0) or min(nums) < 0:
        return True
    if auto_pad == "VALID" or not any(pads):
        return False
    return node.op_type == "AveragePool" or any(d != 1 for d in dilations)


def canonical_pools(model):
    """MaxPool and AveragePool whose windows the importer may place or count
    differently from onnxruntime (pool_needs_rewrite) become Slice (crops),
    Pad (the least value for MaxPool, zeros for AveragePool) and a pool
    without padding whose windows fit exactly, plus for AveragePool a Mul by
    kernel size / onnxruntime's divisor per output position. One pool per
    call; a pool whose output would be empty is refused."""
    import numpy as np
    from onnx import TensorProto, helper
    graph = model.graph
    shapes = value_shapes(graph)
    types = value_types(graph)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 17)
    nodes, changed = [], False
    for node in graph.node:
        # One pool per call: the shapes inferred after it are onnxruntime's.
        if changed or node.op_type not in ("MaxPool", "AveragePool") or node.input[0] not in shapes \
                or len(node.output) > 1:
            nodes.append(node)
            continue
        x = shapes[node.input[0]]
        kernel = attr(node, "kernel_shape", None)
        n = len(kernel)
        strides = attr(node, "strides", None) or [1] * n
        dilations = attr(node, "dilations", None) or [1] * n
        pads = list(attr(node, "pads", None) or [0] * (2 * n))
        auto_pad = attr(node, "auto_pad", "NOTSET") or "NOTSET"
        ceil = bool(attr(node, "ceil_mode", 0))
        spatial = x[-n:]
        axes = [pool_axis(spatial[i], kernel[i], strides[i], dilations[i], pads[i], pads[n + i], auto_pad, ceil)
                for i in range(n)]
        for i, (head, tail, out, _) in enumerate(axes):
            if out < 1:
                fail(f"{where(node)}: kernel_shape {kernel[i]} with dilations {dilations[i]} spans "
                     f"{dilations[i] * (kernel[i] - 1) + 1} cells on spatial axis {i}, more than the "
                     f"{spatial[i] + head + tail} of the padded input; the output would be empty")
        if not pool_needs_rewrite(node, auto_pad, dilations, pads, [a[3] for a in axes]):
            nodes.append(node)
            continue
        elem = types.get(node.input[0], TensorProto.FLOAT)
        if elem not in (TensorProto.FLOAT, TensorProto.INT8, TensorProto.UINT8) \
                or node.op_type == "AveragePool" and elem != TensorProto.FLOAT:
            nodes.append(node)
            continue
        heads = [a[0] for a in axes]
        outs = [a[2] for a in axes]
        # The cells a window may read: onnxruntime's dilated averages also stop
        # at in + pad_tail where that padding is negative (SAME, stride above
        # the kernel); which of the two it does is checked on it.
        sizes = list(spatial)
        scale = None
        if node.op_type == "AveragePool":
            tried = [sizes]
            if any(a[1] < 0 for a in axes):
                tried.append([spatial[i] + min(0, axes[i][1]) for i in range(n)])
            for sizes in tried:
                scale = average_scale(node, opset, model.ir_version, spatial, sizes, heads, outs, kernel, strides,
                                      dilations, last=sizes is tried[-1])
                if scale is not None:
                    break
        fits = [fit(sizes[i], heads[i], outs[i], kernel[i], strides[i], dilations[i]) for i in range(n)]
        lead = len(x) - n
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_exact")
        v = node.input[0]
        if any(f[0] or f[1] or sizes[i] != spatial[i] for i, f in enumerate(fits)):
            v = e.slice(v, [f[0] for f in fits], [sizes[i] - fits[i][1] for i in range(n)],
                        list(range(lead, lead + n)))
        if any(f[2] or f[3] for f in fits):
            # MaxPool pads with the least value of the type, which onnxruntime starts from.
            dtype = helper.tensor_dtype_to_np_dtype(elem)
            lowest = FLT_LOWEST if elem == TensorProto.FLOAT else int(np.iinfo(dtype).min)
            value = lowest if node.op_type == "MaxPool" else 0
            full = [0] * lead + [f[2] for f in fits] + [0] * lead + [f[3] for f in fits]
            v = e.node("Pad", [v, e.const(full), e.const(value, dtype)], mode="constant")
        out_name = node.output[0]
        node.input[0] = v
        extra = {"count_include_pad": 1} if node.op_type == "AveragePool" else {}
        set_attrs(node, ("kernel_shape", "strides", "dilations", "storage_order"), **extra)
        nodes.append(node)
        why = []
        if auto_pad != "NOTSET":
            why.append(f"auto_pad={auto_pad}")
        if ceil:
            why.append("ceil_mode=1")
        if any(d != 1 for d in dilations):
            why.append(f"dilations={dilations}")
        if any(pads) and auto_pad == "NOTSET":
            why.append(f"pads={pads}")
        if min(a[3] for a in axes) < 0:
            why.append(f"kernel_shape={kernel} beyond the padded input")
        if scale is not None:
            factor = scale * float(np.prod(kernel))
            if not np.allclose(factor, 1.0, rtol=1e-7, atol=0):
                node.output[0] = e.fresh("mean")
                e.node("Mul", [node.output[0], e.const(factor.reshape([1] * lead + outs), "float32")], out_name)
        say("remark", f"{where(node)} with {', '.join(why)}: computed with onnxruntime's windows made explicit "
                      f"(pads before, {'kernel sums scaled by its divisors' if scale is not None else 'then max'})")
        changed = True
    if changed:
        set_nodes(graph, nodes)
    return changed


def average_scale(node, opset, ir_version, spatial, sizes, heads, outs, kernel, strides, dilations, last):
    """Per output position, the factor onnxruntime multiplies the window sum
    by (1 / its divisor), the windows reading the first `sizes` cells of each
    axis. Probed on this pool alone: ones give taps / divisor, and a random
    input checks that onnxruntime sums exactly those windows (else None, or
    a refusal when `last`)."""
    import numpy as np
    from onnx import TensorProto, helper
    ort = need("onnxruntime", "onnxruntime", "An AveragePool with padding, ceil_mode or dilations")
    n = len(spatial)
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    graph = helper.make_graph([helper.make_node("AveragePool", ["x"], ["y"], **attrs)], "probe",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1] + spatial)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    probe = helper.make_model(graph, opset_imports=[helper.make_opsetid("", max(opset, 7))])
    probe.ir_version = min(ir_version or 8, 10)
    rng = np.random.default_rng(0)
    x = np.stack([np.ones(spatial, np.float32), rng.uniform(-1, 1, spatial).astype(np.float32)])[:, None]
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    try:
        y = ort.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"]).run(
            None, {"x": x})[0][:, 0]
    except Exception as ex:
        fail(f"{where(node)}: onnxruntime cannot run it ({str(ex).splitlines()[0]})")
    if list(y.shape[1:]) != outs:
        fail(f"{where(node)}: onnxruntime gives an output of {list(y.shape[1:])} cells, not {outs}")
    # Window sums over zero padding: count of cells inside the input, and the sum.
    fits = [fit(sizes[i], heads[i], outs[i], kernel[i], strides[i], dilations[i]) for i in range(n)]
    window = tuple(slice(f[0], sizes[i] - f[1]) for i, f in enumerate(fits))
    pad = [(f[2], f[3]) for f in fits]
    sums = []
    for img in x[:, 0]:
        xp = np.pad(img[window].astype(np.float64), pad)
        total = np.zeros(outs)
        for offset in np.ndindex(*kernel):
            total += xp[tuple(slice(o * d, o * d + (m - 1) * s + 1, s)
                              for o, d, m, s in zip(offset, dilations, outs, strides))]
        sums.append(total)
    count, total = sums
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(count > 0, y[0] / np.where(count > 0, count, 1), y[0])
    got = total * scale
    if not np.allclose(got, y[1], rtol=1e-4, atol=1e-5, equal_nan=True):
        if not last:
            return None
        fail(f"{where(node)}: onnxruntime averages other cells than the windows of the ONNX specification "
             f"here (attributes {sorted(attrs)}); ming does not reproduce that")
    return scale.astype(np.float64)


def conv_same_pads(model):
    """Conv with auto_pad SAME_*: where onnxruntime's padding is negative
    (strides above the kernel), the input is cropped by a Slice and the
    padding made explicit."""
    graph = model.graph
    shapes = value_shapes(graph)
    inits = {t.name: list(t.dims) for t in graph.initializer}
    nodes, changed = [], False
    for node in graph.node:
        auto_pad = attr(node, "auto_pad", "NOTSET")
        if node.op_type != "Conv" or auto_pad not in ("SAME_UPPER", "SAME_LOWER") or node.input[0] not in shapes:
            nodes.append(node)
            continue
        x = shapes[node.input[0]]
        w = shapes.get(node.input[1]) or inits.get(node.input[1])
        kernel = attr(node, "kernel_shape", None) or (w[2:] if w else None)
        if not kernel:
            nodes.append(node)
            continue
        n = len(kernel)
        strides = attr(node, "strides", None) or [1] * n
        dilations = attr(node, "dilations", None) or [1] * n
        if any(d != 1 for d in dilations):
            nodes.append(node)
            continue
        heads, tails = [], []
        for size, k, s in zip(x[-n:], kernel, strides):
            target = c_div(size + s - 1, s)
            needed = (target - 1) * s + k - size
            # onnxruntime's check, truncating (num / s + 1) as a double.
            if int((size + 2 * needed - k) / s + 1) < target:
                needed += 1
            head = c_div(needed + 1, 2) if auto_pad == "SAME_LOWER" else c_div(needed, 2)
            heads.append(head)
            tails.append(needed - head)
        if min(heads + tails) >= 0:
            nodes.append(node)
            continue
        lead = len(x) - n
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_same")
        node.input[0] = e.slice(node.input[0], [max(0, -h) for h in heads],
                                [size - max(0, -t) for size, t in zip(x[-n:], tails)], list(range(lead, lead + n)))
        set_attrs(node, ("kernel_shape", "strides", "dilations", "group"),
                  pads=[max(0, h) for h in heads] + [max(0, t) for t in tails])
        nodes.append(node)
        say("remark", f"{where(node)} with auto_pad={auto_pad}: onnxruntime's padding {heads + tails} is "
                      f"negative; the input is cropped by a Slice first")
        changed = True
    if changed:
        set_nodes(graph, nodes)
    return changed


def static_pads(node, inits, shapes):
    """(pads, input shape) of a Pad whose pads are a constant covering every
    axis of an input of known shape (no `axes` input), else None."""
    import numpy as np
    from onnx import numpy_helper
    if len(node.input) < 2 or node.input[1] not in inits or node.input[0] not in shapes \
            or (len(node.input) > 3 and node.input[3]):
        return None
    pads = numpy_helper.to_array(inits[node.input[1]]).astype(np.int64).tolist()
    shape = list(shapes[node.input[0]])
    return (pads, shape) if len(pads) == 2 * len(shape) else None


def runs(indices):
    """Consecutive ascending indices merged into [lo, hi) ranges, in order."""
    out = []
    for k in indices:
        if out and out[-1][1] == k:
            out[-1][1] = k + 1
        else:
            out.append([k, k + 1])
    return out


def mirror_pads_as_concats(model):
    """Pad with mode 'reflect', 'edge' or 'wrap' (constant pads) becomes, axis
    by axis, a Concat of Slices around the input (mirrored for reflect, the
    border cell repeated for edge, the far end for wrap); negative pads crop
    first."""
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes = value_shapes(graph)
    nodes, changed = [], False
    for node in graph.node:
        mode = attr(node, "mode", "constant")
        if node.op_type != "Pad" or mode not in ("reflect", "edge", "wrap"):
            nodes.append(node)
            continue
        static = static_pads(node, inits, shapes)
        if static is None:
            if mode == "wrap":  # the importer loops forever on it
                fail(f"{where(node)} with mode='wrap' is supported with constant pads on all axes of an input "
                     f"of known shape only")
            nodes.append(node)
            continue
        pads, shape = static
        rank = len(shape)
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_" + mode)
        x = node.input[0]
        for axis in range(rank):
            b, t = pads[axis], pads[rank + axis]
            if b < 0 or t < 0:
                if max(0, -b) + max(0, -t) >= shape[axis]:
                    fail(f"{where(node)}: its negative pads remove all of axis {axis}")
                x = e.slice(x, [max(0, -b)], [shape[axis] - max(0, -t)], [axis])
                shape[axis] -= max(0, -b) + max(0, -t)
                b, t = max(0, b), max(0, t)
            if b == 0 and t == 0:
                continue
            size = shape[axis]
            if mode == "reflect":
                if b >= size or t >= size:
                    fail(f"{where(node)} with mode='reflect' pads axis {axis} by more than its size less one")
                before = [k for k in range(b, 0, -1)]
                after = [size - 1 - k for k in range(1, t + 1)]
            elif mode == "wrap":
                before = [(k - b) % size for k in range(b)]
                after = [k % size for k in range(t)]
            else:
                before, after = [0] * b, [size - 1] * t
            parts = [e.slice(x, [lo], [hi], [axis]) for lo, hi in runs(before)] + [x] + \
                    [e.slice(x, [lo], [hi], [axis]) for lo, hi in runs(after)]
            x = e.node("Concat", parts, axis=axis)
            shape[axis] += b + t
        e.node("Identity", [x], node.output[0])
        say("remark", f"{where(node)} with mode='{mode}' becomes slices and concats")
        changed = True
    if changed:
        set_nodes(graph, nodes)
    return changed


def crops_as_slices(model):
    """Constant-mode Pad nodes with negative pads become Slice (the crop) and
    a Pad of the non-negative pads."""
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    shapes = value_shapes(graph)
    nodes, changed = [], False
    for node in graph.node:
        static = static_pads(node, inits, shapes) \
            if node.op_type == "Pad" and attr(node, "mode", "constant") == "constant" else None
        if static is None or min(static[0]) >= 0:
            nodes.append(node)
            continue
        pads, shape = static
        rank = len(shape)
        starts = [max(0, -p) for p in pads[:rank]]
        ends = [d - max(0, -p) for d, p in zip(shape, pads[rank:])]
        if any(t <= b for b, t in zip(starts, ends)):
            fail(f"{where(node)}: its negative pads remove a whole axis")
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_crop")
        node.input[0] = e.slice(node.input[0], starts, ends, list(range(rank)))
        node.input[1] = e.const([max(0, p) for p in pads])
        nodes.append(node)
        say("remark", f"{where(node)}: its negative pads crop with a Slice first")
        changed = True
    if changed:
        set_nodes(graph, nodes)
        used = {i for n in graph.node for i in n.input} | {v.name for v in graph.output}
        kept = [t for t in graph.initializer if t.name in used or t.name not in inits]
        del graph.initializer[:]
        graph.initializer.extend(kept)
    return changed
