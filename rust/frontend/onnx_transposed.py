"""ConvTranspose as the convolutions the rest of the front end streams.

A transposed convolution with stride s scatters each input element into a
window of its output. Gathered instead, output o is a stride-1 convolution
of the input with zeros inserted between its elements, by the kernel
flipped and its channel axes swapped: every output reads a whole window, so
it streams as any convolution does, but all but one in s^r of its products
are by an inserted zero (r the spatial axes).

Polyphase: the outputs o = s q + a of one phase a read the input at q plus
fixed offsets, through every s-th tap of the flipped kernel (those k with
a + k - head a multiple of s). So with unit dilations and a kernel of at
least the stride on every axis, each of the s^r phases is a stride-1
convolution of the input itself (cropped or padded to its offsets), and the
phases' outputs are interleaved into the output (DepthToSpace's
Reshape-Transpose-Reshape), the end cropped. Float, each phase is a Conv by
its own taps and a Concat joins them: the multiplies of the scatter, no
more. Quantised, one Conv computes every phase's channels, quantised as the
whole output, and the interleaving moves its int8 values: the same
integers (_polyphase says why the two forms, and why one group only).
Grouped, dilated ConvTransposes, and ones with a kernel smaller than the
stride (a phase without taps), keep the zeros.
"""
import math

from onnx_util import Emitter, attr, facts, fail, say, set_attrs, set_nodes, where


def _transposed_geometry(node, spatial, kernel):
    """Per spatial axis: stride, dilation, and the padding at the start and end
    of the zero-inserted input (negative: a crop), for the output onnxruntime
    gives: the explicit pads; or the specification's split of the padding
    that output_shape or auto_pad asks for (SAME_UPPER's odd one at the end,
    otherwise at the start), taken as 0 where it would be negative, as
    onnxruntime does; an output_shape beyond that is filled at the end."""
    r = len(spatial)
    strides = list(attr(node, "strides", [1] * r))
    dilations = list(attr(node, "dilations", [1] * r))
    extra = list(attr(node, "output_padding", [0] * r))
    pads = list(attr(node, "pads", [0] * (2 * r)))
    auto_pad = attr(node, "auto_pad", "NOTSET")
    wanted = attr(node, "output_shape", None)
    heads, tails = [], []
    for i in range(r):
        reach = (kernel[i] - 1) * dilations[i]
        inserted = strides[i] * (spatial[i] - 1) + 1
        full = inserted + reach + extra[i]
        if wanted or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            total = max(0, full - (list(wanted)[-r:][i] if wanted else spatial[i] * strides[i]))
            start = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            out = list(wanted)[-r:][i] if wanted else full - total
        else:
            start, out = pads[i], full - pads[i] - pads[r + i]
        heads.append(reach - start)
        tails.append(out - inserted - (reach - start) + reach)
    return strides, dilations, heads, tails


def _transposed_weights(graph, node, inits, producer, consumers, groups):
    """The Conv kernel of a ConvTranspose's [C, M/g, k...] kernel: [M, C/g, k...]
    flipped along every spatial axis. A kernel behind a DequantizeLinear (a
    quantised model) is rewritten under it, its per-channel axis moving to 0:
    scale j of axis 1 serves output channel j of every group, so the M scales
    are the M/g repeated once per group."""
    import numpy as np
    from onnx import numpy_helper
    name = node.input[1]
    dq = producer.get(name)
    dq = dq if dq is not None and dq.op_type == "DequantizeLinear" else None
    source = dq.input[0] if dq is not None else name
    if source not in inits or len(consumers.get(name, [])) != 1 or (
            dq is not None and len(consumers.get(source, [])) != 1):
        fail(f"{where(node)}: its kernel is not a constant of its own; ming compiles ConvTranspose as a "
             f"convolution with the kernel flipped, which needs it")
    w = numpy_helper.to_array(inits[source])
    c, mg = w.shape[0], w.shape[1]
    rest = w.shape[2:]
    flipped = w.reshape((groups, c // groups, mg) + rest)
    flipped = np.swapaxes(flipped, 1, 2).reshape((groups * mg, c // groups) + rest)
    flipped = np.ascontiguousarray(flipped[(slice(None), slice(None)) + (slice(None, None, -1),) * len(rest)])
    inits[source].CopyFrom(numpy_helper.from_array(flipped, source))
    if dq is not None:
        scale = inits.get(dq.input[1])
        per_channel = scale is not None and numpy_helper.to_array(scale).size > 1
        if per_channel and attr(dq, "axis", 1) != 1:
            fail(f"{where(node)}: its kernel's scales are per channel along axis {attr(dq, 'axis', 1)}; "
                 f"ming compiles ConvTranspose's per-channel scales along axis 1, its output channels")
        if per_channel:
            for k in range(1, len(dq.input)):
                t = numpy_helper.to_array(inits[dq.input[k]])
                name = dq.input[k] + "_per_output"
                graph.initializer.append(numpy_helper.from_array(np.tile(t, groups), name))
                inits[name] = graph.initializer[-1]
                dq.input[k] = name
            set_attrs(dq, (), axis=0)



def _phases(n, k, s, head, out):
    """Per phase a of one axis (outputs s q + a, q < ceil(out / s)): the
    first tap of the flipped kernel it reads, the input index its first
    output reads through that tap, and its taps; None when a phase reads no
    tap or no input at all."""
    count = -(-out // s)
    phases = []
    for a in range(s):
        first = (head - a) % s
        taps = len(range(first, k, s))
        offset = (a + first - head) // s
        if taps == 0 or offset >= n or offset + count + taps - 1 <= 0:
            return None
        phases.append((first, offset, taps))
    return phases


def _polyphase(graph, inits, producer, dq, node, e, x, shape, kernel, strides, heads, outs, quantised):
    """Emits the phases of `node` (its kernel already flipped, behind the
    DequantizeLinear `dq` when it has one; on input `x` of `shape`, the
    zero-inserted input's padding `heads`, output sizes `outs`) and their
    interleaving into node's output. Float, a Conv per phase with its own
    taps (_phase_convs); quantised as `quantised` (a QuantizeLinear, else
    None), one Conv whose output channels are every phase's. Returns the
    DequantizeLinears of constants that no node reads any more, or None,
    emitting nothing, when a phase reads no tap or a quantised bias is no
    constant.
    Why two forms: the phases of a Conv each need a Concat, which walks
    their channels a loop per phase and pixel, and one Conv multiplies by
    the zeros around the taps of a phase that has fewer than the widest
    (PyTorch's k4 s2 p1: 3x3 windows for 2x2 taps). In float the multiplies
    dominate: test/onnx/decoder_convt (two such layers, 32-16-8 channels) on
    the kv260 takes 24,918 cycles with the zeros inserted, 8,779 by phase
    Convs, about 16,100 by one. At int8 rates the Concat does: 4,886,
    about 6,170 and 3,328.
    Why dense ones only: a grouped (depthwise) one multiplies once per tap
    and output, so the zeros cost less than moving the phases: the
    bilinear Resize of test/onnx/upsample_bilinear (2 channels) takes 878
    cycles with the zeros, about 1,400 in either form."""
    import itertools

    import numpy as np
    from onnx import numpy_helper
    spatial = shape[2:]
    axes = [_phases(n, k, s, h, o) for n, k, s, h, o in zip(spatial, kernel, strides, heads, outs)]
    if any(a is None for a in axes):
        return None
    r, n_ = len(spatial), shape[0]
    counts = [-(-o // s) for o, s in zip(outs, strides)]
    w = numpy_helper.to_array(inits[dq.input[0] if dq is not None else node.input[1]])
    m, c = w.shape[0], w.shape[1]
    bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
    if quantised is None:
        # The bias is added once, after the interleaving: in each phase it
        # would be one stream (the phases' biases are one constant) forked to
        # every phase, which ties the phases to each other's pace.
        y = _phase_convs(graph, w, dq, e, x, shape, axes, strides, counts)
        y = _interleave(e, y, None if bias else node.output[0], n_, m, strides, counts, outs, None)
        if bias:
            e.node("Add", [y, e.node("Reshape", [bias, e.const([1, m] + [1] * r)])], node.output[0])
        return [dq] if dq is not None else []
    dqb = producer.get(bias) if bias else None
    dqb = dqb if dqb is not None and dqb.op_type == "DequantizeLinear" else None
    if bias and (dqb.input[0] if dqb is not None else bias) not in inits:
        return None
    # One window for every phase: per axis from the least offset a phase
    # reads to the greatest, each phase's taps at its own place in it and
    # zeros around them (they cost multiplies where a phase has fewer taps).
    low = [min(off for _, off, _ in a) for a in axes]
    size = [max(off + t for _, off, t in a) - lo for a, lo in zip(axes, low)]
    phases = list(itertools.product(*axes))
    # Output channel (phase, channel).
    wc = np.zeros((len(phases), m, c) + tuple(size), w.dtype)
    for k, phase in enumerate(phases):
        at = tuple(slice(off - lo, off - lo + t) for (_, off, t), lo in zip(phase, low))
        wc[(k, slice(None), slice(None)) + at] = _taps(w, phase, strides)
    wc = wc.reshape((m * len(phases), c) + tuple(size))

    def per_output(name):
        """A constant per output channel (M values, or one for all) for the
        Conv's M x phases outputs."""
        t = numpy_helper.to_array(inits[name])
        out = e.fresh("c")
        t = np.broadcast_to(t.reshape(1, -1), (len(phases), m))
        graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(t).reshape(-1), out))
        return out

    def dequantized(values, dequantize):
        """`values` behind a copy of `dequantize` whose scale and zero point,
        when per channel, are per output channel too (both 1-D, as ONNX
        asks)."""
        params = list(dequantize.input[1:])
        if numpy_helper.to_array(inits[params[0]]).ndim == 0:
            return e.node("DequantizeLinear", [values] + params)
        return e.node("DequantizeLinear", [values] + [per_output(i) if i else i for i in params], axis=0)

    weights = e.fresh("w")
    graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(wc), weights))
    if dq is not None:
        weights = dequantized(weights, dq)
    inputs = [None, weights]
    if bias:
        inputs.append(dequantized(per_output(dqb.input[0]), dqb) if dqb is not None else per_output(bias))
    # The input cropped or padded to the window's reach.
    reach = [lo + q + k - 1 for lo, q, k in zip(low, counts, size)]
    starts, stops = [max(0, lo) for lo in low], [min(n, end) for n, end in zip(spatial, reach)]
    if starts != [0] * r or stops != list(spatial):
        x = e.slice(x, starts, stops, list(range(2, 2 + r)))
    inputs[0] = x
    pads = [max(0, -lo) for lo in low] + [max(0, end - n) for n, end in zip(spatial, reach)]
    y = e.node("Conv", inputs, kernel_shape=size, strides=[1] * r, pads=pads, dilations=[1] * r)
    y = e.node("QuantizeLinear", [y] + list(quantised.input[1:]))
    _interleave(e, y, node.output[0], n_, m, strides, counts, outs, quantised)
    return [n for n in (dq, dqb) if n is not None]


def _taps(w, phase, strides):
    """The taps of the flipped kernel `w` that `phase` reads (_phases)."""
    return w[(slice(None), slice(None)) + tuple(slice(f, None, s) for (f, _, _), s in zip(phase, strides))]


def _phase_convs(graph, w, dq, e, x, shape, axes, strides, counts):
    """One stride-1 Conv per phase, by its taps of the flipped kernel `w`
    (behind a copy of `dq` when there is one) and without the bias, on the
    input cropped or padded to the phase's offsets; the phases concatenated
    along the channels, phase by phase."""
    import itertools

    import numpy as np
    from onnx import numpy_helper
    spatial, r = shape[2:], len(shape) - 2
    phases = []
    for phase in itertools.product(*axes):
        starts = [max(0, off) for _, off, _ in phase]
        stops = [min(n, off + q + t - 1) for n, (_, off, t), q in zip(spatial, phase, counts)]
        xa = x
        if starts != [0] * r or stops != list(spatial):
            xa = e.slice(x, starts, stops, list(range(2, 2 + r)))
        pads = [max(0, -off) for _, off, _ in phase] + [
            max(0, off + q + t - 1 - n) for n, (_, off, t), q in zip(spatial, phase, counts)]
        wa = e.fresh("w")
        graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(_taps(w, phase, strides)), wa))
        if dq is not None:
            wa = e.node("DequantizeLinear", [wa] + list(dq.input[1:]), axis=attr(dq, "axis", 1))
        phases.append(e.node("Conv", [xa, wa], kernel_shape=[t for _, _, t in phase], strides=[1] * r,
                             pads=pads, dilations=[1] * r))
    return e.node("Concat", phases, axis=1)


def _interleave(e, y, out, n_, m, strides, counts, outs, quantised):
    """The phases' outputs `y`, [N, s1 s2 M, Q1, Q2] with its channels in
    (phase, channel) order, interleaved into `out` (a fresh value if None):
    [N, s1, s2, M, Q1, Q2] -> [N, M, Q1, s1, Q2, s2] -> [N, M, Q1 s1, Q2 s2]
    (1-D likewise), the end cropped. Quantised (`quantised` the QuantizeLinear that read the
    ConvTranspose), `y` holds int8 values, the moves run on them, and that
    QuantizeLinear takes them back unchanged."""
    r = len(strides)
    y = e.node("Reshape", [y, e.const([n_] + list(strides) + [m] + counts)])
    perm = [0, 1 + r] + [i for a in range(r) for i in (2 + r + a, 1 + a)]
    y = e.node("Transpose", [y], perm=perm)
    full = [q * s for q, s in zip(counts, strides)]
    cropped = full != list(outs)
    last = out if quantised is None else None
    y = e.node("Reshape", [y, e.const([n_, m] + full)], None if cropped else last)
    if cropped:
        y = e.node("Slice", [y, e.const([0] * r), e.const(list(outs)), e.const(list(range(2, 2 + r)))], last)
    if quantised is not None:
        y = e.node("DequantizeLinear", [y] + list(quantised.input[1:]), out)
    return y


def transposed_convs_as_convs(model):
    """ConvTranspose (1-D and 2-D, strides, dilations, pads, output_padding,
    output_shape, auto_pad, groups) becomes its phases' stride-1 Convs and
    their interleaving where it can (module doc), else zero insertion, Pad
    or Slice, and a stride-1 Conv with the flipped kernel."""
    graph = model.graph
    inits, shapes, producer, consumers = facts(graph)
    nodes, dead, changed = [], set(), False
    for node in list(graph.node):
        if node.op_type != "ConvTranspose":
            nodes.append(node)
            continue
        shape = shapes.get(node.input[0])
        if not shape or len(shape) not in (3, 4):
            fail(f"{where(node)}: ming compiles 1-D and 2-D ConvTranspose with a known input shape")
        n_, c = shape[0], shape[1]
        spatial = shape[2:]
        r = len(spatial)
        groups = attr(node, "group", 1)
        weights = shapes.get(node.input[1]) or (list(inits[node.input[1]].dims)
                                                if node.input[1] in inits else None)
        if not weights:
            fail(f"{where(node)}: the shape of its kernel is not known")
        kernel = list(attr(node, "kernel_shape", weights[2:]))
        strides, dilations, heads, tails = _transposed_geometry(node, spatial, kernel)
        _transposed_weights(graph, node, inits, producer, consumers, groups)
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_transposed")
        x = node.input[0]
        outs = [s * (n - 1) + 1 + h + t - (k - 1) * d
                for n, s, h, t, k, d in zip(spatial, strides, heads, tails, kernel, dilations)]
        dq = producer.get(node.input[1])
        dq = dq if dq is not None and dq.op_type == "DequantizeLinear" else None
        readers = consumers.get(node.output[0], [])
        q = readers[0] if len(readers) == 1 and readers[0].op_type == "QuantizeLinear" else None
        # Quantised as a whole tensor, or not at all: a QuantizeLinear per
        # channel keeps the inserted zeros (the phases' form is float then).
        per_tensor = q is not None and q.input[1] in inits and list(inits[q.input[1]].dims) in ([], [1])
        quantised = any(r.op_type == "QuantizeLinear" for r in readers)
        q = q if per_tensor else None
        unread = None
        if (groups == 1 and any(s > 1 for s in strides) and all(d == 1 for d in dilations) and min(outs) > 0
                and (q is not None or not quantised)):
            unread = _polyphase(graph, inits, producer, dq, node, e, x, shape, kernel, strides, heads, outs, q)
        if unread is not None:
            # Constants read by this node alone (_transposed_weights and the
            # bias check make sure).
            dead.update(id(n) for n in unread if len(consumers.get(n.output[0], [])) == 1)
            form = "stride-1 convolutions" if q is None else "the output channels of a stride-1 convolution"
            say("remark", f"{where(node)}: its {math.prod(strides)} phases become {form} of its input, "
                          f"interleaved")
            changed = True
            continue
        if any(s > 1 for s in strides):
            # [N, C, H, 1, W, 1] padded to [N, C, H, sh, W, sw]: each element
            # followed by its zeros, the last ones cropped below.
            split = [n_, c] + [d for n in spatial for d in (n, 1)]
            x = e.node("Reshape", [x, e.const(split)])
            ends = [0, 0] + [d for s in strides for d in (0, s - 1)]
            x = e.node("Pad", [x, e.const([0] * len(split) + ends)])
            x = e.node("Reshape", [x, e.const([n_, c] + [n * s for n, s in zip(spatial, strides)])])
            tails = [t - (s - 1) for t, s in zip(tails, strides)]
        sizes = [n * s for n, s in zip(spatial, strides)]
        if min(heads + tails) < 0:
            starts = [max(0, -h) for h in heads]
            stops = [n - max(0, -t) for n, t in zip(sizes, tails)]
            if any(b >= t for b, t in zip(starts, stops)):
                fail(f"{where(node)}: its pads remove the whole output")
            x = e.slice(x, starts, stops, list(range(2, 2 + r)))
        if max(heads + tails) > 0:
            pads = [0, 0] + [max(0, h) for h in heads] + [0, 0] + [max(0, t) for t in tails]
            x = e.node("Pad", [x, e.const(pads)])
        inputs = [x, node.input[1]] + ([node.input[2]] if len(node.input) > 2 and node.input[2] else [])
        e.node("Conv", inputs, node.output[0], kernel_shape=kernel, dilations=dilations, group=groups,
               strides=[1] * r, pads=[0] * (2 * r))
        changed = True
    if changed:
        set_nodes(graph, [n for n in nodes if id(n) not in dead])
    return changed
