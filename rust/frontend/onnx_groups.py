"""Quantised grouped convolutions become one convolution per group.

The importer writes a grouped Conv as a convolution over [group, channel]
axes, whose weights and output carry two channel axes; ming-quantize-integer
turns contractions with one output-channel axis into integers, so a grouped
Conv between a DequantizeLinear and a QuantizeLinear would keep its
quantize in float. Here its input's channels are sliced per group (on the
int8 values, before their DequantizeLinear, where it has one), each group
convolves with its slice of the kernel, scales and bias, is quantised as the
whole output is, and the groups are concatenated: the same integers, each
step of which the pass rewrites. A quantised depthwise convolution with a multiplier m
(Keras' DepthwiseConv2D(depth_multiplier=m)) has its int8 input channels
repeated m times instead, and is then depthwise with one output per input
channel, which the pass takes. Float grouped and depthwise convolutions
stay as they are (they stream as one process).
"""
from onnx_util import Emitter, attr, facts, say, set_attrs, set_nodes, where


def _scalar(inits, name):
    t = inits.get(name)
    return t is not None and list(t.dims) in ([], [1])


def _split_dequantize(graph, inits, dq, groups, e):
    """The DequantizeLinear of a constant, one per group along axis 0."""
    import numpy as np
    from onnx import numpy_helper
    values = numpy_helper.to_array(inits[dq.input[0]])
    per_channel = any(not _scalar(inits, i) for i in dq.input[1:] if i)
    out = []
    for k in range(groups):
        part = slice(k * values.shape[0] // groups, (k + 1) * values.shape[0] // groups)
        names = [e.fresh("c")]
        graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(values[part]), names[0]))
        for i in dq.input[1:]:
            t = numpy_helper.to_array(inits[i]) if i else None
            if t is None or not per_channel or t.size == 1:
                names.append(i)
                continue
            names.append(e.fresh("c"))
            graph.initializer.append(numpy_helper.from_array(np.ascontiguousarray(t[part]), names[-1]))
        out.append(e.node("DequantizeLinear", names, axis=0) if per_channel else
                   e.node("DequantizeLinear", names))
    return out


def groups_as_convs(model):
    """Each quantised grouped Conv becomes a Conv per group and a Concat, a
    quantised depthwise one with a multiplier a repeat and a depthwise Conv;
    returns whether any did."""
    graph = model.graph
    inits, shapes, producer, consumers = facts(graph)
    nodes, dead, changed = [], set(), False
    for node in list(graph.node):
        groups = attr(node, "group", 1) if node.op_type == "Conv" else 1
        dqx = producer.get(node.input[0]) if groups > 1 else None
        dqw = producer.get(node.input[1]) if groups > 1 else None
        bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
        dqb = producer.get(bias) if bias else None
        readers = consumers.get(node.output[0], [])
        q = readers[0] if len(readers) == 1 else None
        weights = inits.get(dqw.input[0]) if dqw is not None and dqw.op_type == "DequantizeLinear" else None
        # Sliced under the input's DequantizeLinear when it has one; else the
        # slice reads the float value, which ming-quantize-integer follows
        # through moves (pads, reshapes, slices) to a DequantizeLinear.
        under = dqx is not None and dqx.op_type == "DequantizeLinear" and _scalar(inits, dqx.input[1])
        if (weights is None or q is None or q.op_type != "QuantizeLinear"
                or not _scalar(inits, q.input[1])
                or (bias and not (dqb is not None and dqb.op_type == "DequantizeLinear"
                                  and dqb.input[0] in inits))
                or (not _scalar(inits, dqw.input[1]) and attr(dqw, "axis", 1) != 0)):
            nodes.append(node)
            continue
        if weights.dims[1] == 1:
            # Depthwise: the pass takes one output per input channel as it
            # is; with a multiplier m, each int8 input channel is repeated m
            # times first, and the same kernel is then depthwise.
            shape = shapes.get(dqx.input[0]) if under else None
            multiplier = weights.dims[0] // groups
            if multiplier == 1 or not shape:
                nodes.append(node)
                continue
            e = Emitter(graph, nodes, (node.name or node.output[0]) + "_repeat")
            n_, c, spatial = shape[0], shape[1], list(shape[2:])
            x = e.node("Reshape", [dqx.input[0], e.const([n_, c, 1] + spatial)])
            x = e.node("Expand", [x, e.const([n_, c, multiplier] + spatial)])
            x = e.node("Reshape", [x, e.const([n_, c * multiplier] + spatial)])
            node.input[0] = e.node("DequantizeLinear", [x] + list(dqx.input[1:]))
            set_attrs(node, [a.name for a in node.attribute if a.name != "group"], group=c * multiplier)
            nodes.append(node)
            say("remark", f"{where(node)}: quantised depthwise with a multiplier of {multiplier}: its input "
                          f"channels are repeated, then each convolves alone, on integers")
            changed = True
            continue
        e = Emitter(graph, nodes, (node.name or node.output[0]) + "_group")
        channels = weights.dims[1] * groups
        kernels = _split_dequantize(graph, inits, dqw, groups, e)
        biases = _split_dequantize(graph, inits, dqb, groups, e) if bias else [None] * groups
        keep = {a.name: a for a in node.attribute if a.name != "group"}
        outs = []
        for k in range(groups):
            x = e.slice(dqx.input[0] if under else node.input[0], [k * channels // groups],
                        [(k + 1) * channels // groups], [1])
            if under:
                x = e.node("DequantizeLinear", [x] + list(dqx.input[1:]))
            y = e.node("Conv", [x, kernels[k]] + ([biases[k]] if bias else []))
            nodes[-1].attribute.extend(keep.values())
            y = e.node("QuantizeLinear", [y] + list(q.input[1:]))
            outs.append(e.node("DequantizeLinear", [y] + list(q.input[1:])))
        e.node("Concat", outs, node.output[0], axis=1)
        dead.update(id(n) for n in (dqw, dqb) if n is not None and len(consumers[n.output[0]]) == 1)
        say("remark", f"{where(node)}: quantised with {groups} groups, it becomes {groups} convolutions "
                      f"and a Concat, each group on integers")
        changed = True
    if changed:
        set_nodes(graph, [n for n in nodes if id(n) not in dead])
    return changed
