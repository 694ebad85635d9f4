"""BatchNormalization folded into the convolution or Gemm before it: the
scale and shift become the layer's weights and bias, computed here once, so
the design has no per-channel float layer for them.

    W'[m] = W[m] * s[m],  b'[m] = (b[m] - mean[m]) * s[m] + beta[m],
    s = gamma / sqrt(var + epsilon)

A normalisation whose input another node also reads, or whose layer's
weights are not constants, stays a per-channel scale and shift.
"""
import numpy as np
from onnx import numpy_helper

from onnx_util import attr, links, say


def _consts(graph):
    return {t.name: t for t in graph.initializer}


def _folded(name, values, graph, taken):
    n, k = f"{name}_bn", 0
    while n in taken:
        k += 1
        n = f"{name}_bn{k}"
    taken.add(n)
    graph.initializer.append(numpy_helper.from_array(values, n))
    return n


def fold_batch_norms(model):
    """Folds one BatchNormalization into its Conv or Gemm; True if it did."""
    graph = model.graph
    consts = _consts(graph)
    producer, consumers = links(graph)
    outputs = {v.name for v in graph.output}
    taken = {t.name for t in graph.initializer} | {o for n in graph.node for o in n.output}
    for bn in graph.node:
        if bn.op_type != "BatchNormalization" or len(bn.output) != 1 or attr(bn, "training_mode", 0):
            continue
        if len(bn.input) != 5 or not all(i in consts for i in bn.input[1:]):
            continue
        x = bn.input[0]
        layer = producer.get(x)
        if layer is None or len(consumers.get(x, [])) != 1 or x in outputs:
            continue
        gamma, beta, mean, var = (numpy_helper.to_array(consts[i]).astype(np.float64) for i in bn.input[1:])
        s = gamma / np.sqrt(var + attr(bn, "epsilon", 1e-5))
        if layer.op_type == "Conv" and len(layer.input) >= 2 and layer.input[1] in consts:
            w = numpy_helper.to_array(consts[layer.input[1]]).astype(np.float64)
            b = (numpy_helper.to_array(consts[layer.input[2]]).astype(np.float64)
                 if len(layer.input) > 2 and layer.input[2] else np.zeros(w.shape[0]))
            if s.shape != (w.shape[0],) or (len(layer.input) > 2 and layer.input[2] and layer.input[2] not in consts):
                continue
            w2 = w * s.reshape((-1,) + (1,) * (w.ndim - 1))
        elif (layer.op_type == "Gemm" and len(layer.input) >= 2 and layer.input[1] in consts
              and attr(layer, "alpha", 1.0) == 1.0 and attr(layer, "beta", 1.0) == 1.0
              and (len(layer.input) < 3 or not layer.input[2] or layer.input[2] in consts)):
            w = numpy_helper.to_array(consts[layer.input[1]]).astype(np.float64)
            trans = attr(layer, "transB", 0)
            n_out = w.shape[0] if trans else w.shape[1]
            b = (np.broadcast_to(numpy_helper.to_array(consts[layer.input[2]]).astype(np.float64), (n_out,))
                 if len(layer.input) > 2 and layer.input[2] else np.zeros(n_out))
            if s.shape != (n_out,):
                continue
            w2 = w * (s[:, None] if trans else s[None, :])
        else:
            continue
        b2 = (b - mean) * s + beta
        dtype = numpy_helper.to_array(consts[layer.input[1]]).dtype
        inputs = list(layer.input[:1]) + [_folded(layer.input[1], w2.astype(dtype), graph, taken),
                                          _folded(f"{layer.name or 'layer'}_bias", b2.astype(dtype), graph, taken)]
        del layer.input[:]
        layer.input.extend(inputs)
        layer.output[0] = bn.output[0]
        say("remark", f"ONNX operator BatchNormalization (node '{bn.name or '?'}') folded into "
                      f"{layer.op_type} (node '{layer.name or '?'}')")
        graph.node.remove(bn)
        return True
    return False
