"""Helpers shared by the ONNX preparation scripts (prepare_onnx.py and
onnx_windows.py): what they say to the user, and reading a graph."""
import sys


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


def attr(node, name, default):
    from onnx import helper
    for a in node.attribute:
        if a.name == name:
            v = helper.get_attribute_value(a)
            return v.decode() if isinstance(v, bytes) else v
    return default


def set_attrs(node, keep, **new):
    """Keeps the attributes named in `keep`, then adds `new`."""
    from onnx import helper
    kept = [a for a in node.attribute if a.name in keep]
    del node.attribute[:]
    node.attribute.extend(kept)
    for name, value in new.items():
        node.attribute.append(helper.make_attribute(name, value))


def set_nodes(graph, nodes):
    """Makes `nodes` (a rewrite's new list, in order) the graph's nodes."""
    del graph.node[:]
    graph.node.extend(nodes)


def value_shapes(graph):
    """Static shapes known for the graph's values (inputs, inferred, outputs)."""
    shapes = {}
    for v in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = v.type.tensor_type.shape.dim
        if dims and all(d.HasField("dim_value") and d.dim_value > 0 for d in dims):
            shapes[v.name] = [d.dim_value for d in dims]
    return shapes


def value_types(graph):
    """ONNX element types (TensorProto enums) known for the graph's values."""
    return {v.name: v.type.tensor_type.elem_type for v in list(graph.input) + list(graph.value_info)
            + list(graph.output) if v.type.tensor_type.elem_type}


def links(graph):
    """The node producing each value, and the nodes reading it."""
    producer = {o: n for n in graph.node for o in n.output}
    consumers = {}
    for n in graph.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    return producer, consumers


def facts(graph):
    """What a rewrite reads of `graph`: its initialisers by name, its values'
    static shapes, and each value's producer and readers (links)."""
    producer, consumers = links(graph)
    return {t.name: t for t in graph.initializer}, value_shapes(graph), producer, consumers


def where(node):
    return f"ONNX operator {node.op_type} (node '{node.name or '?'}')"


class Emitter:
    """Appends new nodes and int64 constants under one name stem."""

    def __init__(self, graph, nodes, stem):
        self.graph, self.nodes, self.stem, self.count = graph, nodes, stem, 0

    def fresh(self, what="v"):
        self.count += 1
        return f"{self.stem}_{what}{self.count}"

    def const(self, values, dtype="int64"):
        import numpy as np
        from onnx import numpy_helper
        name = self.fresh("c")
        self.graph.initializer.append(numpy_helper.from_array(np.asarray(values, dtype=dtype), name))
        return name

    def node(self, op, inputs, output=None, **attrs):
        from onnx import helper
        output = output or self.fresh()
        self.nodes.append(helper.make_node(op, inputs, [output], name=self.fresh(op.lower()), **attrs))
        return output

    def slice(self, x, starts, ends, axes):
        return self.node("Slice", [x, self.const(starts), self.const(ends), self.const(axes)])
