#!/usr/bin/env python3
"""Attribute-space differential fuzzing of ming against onnxruntime.

  onnx_fuzz.py gen --seed S --index I -o MODEL.onnx     write one case's model
  onnx_fuzz.py run --seed S --count N [--start I] --work DIR [--timeout 60]
                   [--ming-opt CMD] [--save-failures DIR] [--json FILE] [--quiet]

random_graphs.py draws graphs from what ming already lowers; this script draws
what ONNX exporters write. A case is one operator or a chain of two or three,
built with onnx.helper at opset 19 (f32), with attributes drawn from the whole
space the ONNX specification allows:

  Conv         1-D and 2-D, grouped and depthwise, kernels up to the input's
               size, strides (also larger than the kernel), dilations,
               explicit asymmetric pads or auto_pad SAME_UPPER / SAME_LOWER /
               VALID, with or without bias
  MaxPool      the same window attributes, plus ceil_mode
  AveragePool  the same, plus ceil_mode and count_include_pad
  GlobalMaxPool, GlobalAveragePool, Flatten
  Pad          constant / reflect / edge / wrap, asymmetric, also on N and C,
               negative pads (crops)
  Gemm         transA, transB, alpha, beta, bias of every broadcastable shape
  elementwise  Relu, LeakyRelu, Clip, Sigmoid, Tanh, Abs, Neg, Add, Sub, Mul,
               Div, Max, Min (with broadcast constants)

Sizes are small, odd and prime ones included; the batch is sometimes 2 or 3.
A drawn model that the ONNX checker, shape inference or onnxruntime refuses is
not a case: the generator draws again (deterministically). Case I of seed S is
always the same model (numpy's PCG64 seeded with [S, I]); about one case in
eight also gets tight --dsp/--bram limits.

`run` does, per case: onnxruntime on deterministic inputs; `ming-opt M.onnx
--hls DIR/prj` (limit --timeout s); `make csim` (limit --timeout s); compare
every output (|out - ref| <= 1e-5 |ref| + 1e-6). Each case ends as one of

  EQUAL      csim output equal to onnxruntime within the tolerance
  REJECTED   ming-opt exit 1 with a located `error:` message and no project
             folder; listed by the message's first line with numbers and
             paths blanked, and marked when the message names no ONNX
             operator of the model (the importer's linalg is what failed)
  OVER       ming-opt exit 1 with "no design of ... fits ...": over the
             board's (or the given) DSP/BRAM18K limits, the resource named
  FAIL       anything else: a crash (signal, exit 70 = internal error, panic),
             a hang (timeout), exit 1 without a located message, a project
             that does not compile, a deadlock, a wrong number

The summary prints the counts; the exit status is 0 only without FAIL.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPSET = 19
F32 = 1  # TensorProto.FLOAT

ELEMENTWISE_UNARY = ["Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "Abs", "Neg"]
ELEMENTWISE_BINARY = ["Add", "Sub", "Mul", "Div", "Max", "Min"]


class Case:
    """One model under construction: nodes, initialisers, a readable summary."""

    def __init__(self, rng):
        self.rng = rng
        self.nodes, self.inits, self.parts = [], [], []
        self.count = 0

    def name(self, stem):
        self.count += 1
        return f"{stem}{self.count}"

    def const(self, array, stem="w"):
        from onnx import numpy_helper
        n = self.name(stem)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def weights(self, shape, fan_in):
        bound = 1.0 / np.sqrt(max(1, fan_in))
        return self.rng.uniform(-bound, bound, size=shape).astype(np.float32)

    def node(self, op, inputs, desc, **attrs):
        from onnx import helper
        out = self.name("t")
        # The node's name carries the operator so that any location IREE
        # keeps from it names the ONNX op.
        self.nodes.append(helper.make_node(op, inputs, [out], name=f"{op}_{self.count}", **attrs))
        self.parts.append(desc)
        return out


def pick(rng, items, p=None):
    return items[int(rng.choice(len(items), p=p))]


def window_attrs(rng, spatial, op):
    """kernel_shape, strides, dilations, pads / auto_pad (and a text) for a
    window over `spatial` sizes; kernels may cover the whole input."""
    d = len(spatial)
    kernel, strides, dil = [], [], []
    for s in spatial:
        r = rng.random()
        if r < 0.1:
            k = s                                   # as large as the input
        else:
            k = int(rng.integers(1, min(s, 7) + 1))
        kernel.append(k)
        strides.append(int(pick(rng, [1, 1, 2, 3, 4, 5])))
        dil.append(int(pick(rng, [1, 1, 1, 2, 3])))
    attrs = {"kernel_shape": kernel}
    if rng.random() < 0.8:
        attrs["strides"] = strides
    if op != "MaxPool" or rng.random() < 0.9:
        if rng.random() < 0.7 or any(x > 1 for x in dil):
            attrs["dilations"] = dil
    keff = [x * (k - 1) + 1 for x, k in zip(attrs.get("dilations", [1] * d), kernel)]
    mode = pick(rng, ["NOTSET", "NOTSET", "NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"])
    if mode == "NOTSET":
        if rng.random() < 0.75:
            # Pooling pads must stay below the kernel in onnxruntime; keep
            # them below the effective window for all ops.
            hi = [max(1, min(e, k if op != "Conv" else e)) for e, k in zip(keff, kernel)]
            lo_p = [int(rng.integers(0, h)) for h in hi]
            hi_p = [int(rng.integers(0, h)) for h in hi]
            attrs["pads"] = lo_p + hi_p
    else:
        attrs["auto_pad"] = mode
    if op in ("MaxPool", "AveragePool") and rng.random() < 0.4:
        attrs["ceil_mode"] = 1
    if op == "AveragePool" and rng.random() < 0.5:
        attrs["count_include_pad"] = 1
    text = ",".join(f"{k}={v}" for k, v in attrs.items())
    return attrs, text


def add_conv(c, x, shape):
    rng = c.rng
    n, cin, spatial = shape[0], shape[1], shape[2:]
    kind = pick(rng, ["plain", "plain", "grouped", "depthwise"])
    if kind == "depthwise":
        group, cout = cin, cin * int(pick(rng, [1, 1, 2]))
    elif kind == "grouped":
        divs = [g for g in range(2, cin + 1) if cin % g == 0]
        group = int(pick(rng, divs)) if divs else 1
        cout = group * int(pick(rng, [1, 2, 3]))
    else:
        group, cout = 1, int(pick(rng, [1, 2, 3, 4, 5, 8]))
    attrs, text = window_attrs(rng, spatial, "Conv")
    if group > 1:
        attrs["group"] = group
    w = c.const(c.weights([cout, cin // group] + attrs["kernel_shape"], cin // group * int(np.prod(attrs["kernel_shape"]))))
    ins = [x, w]
    if rng.random() < 0.6:
        ins.append(c.const(c.weights([cout], cin), "b"))
    return c.node("Conv", ins, f"Conv{len(spatial)}d(cout={cout},group={group},{text},bias={len(ins) == 3})", **attrs)


def add_pool(c, x, shape, op):
    attrs, text = window_attrs(c.rng, shape[2:], op)
    return c.node(op, [x], f"{op}({text})", **attrs)


def add_pad(c, x, shape):
    rng = c.rng
    r = len(shape)
    mode = pick(rng, ["constant", "constant", "constant", "reflect", "edge", "wrap"])
    pads = [0] * (2 * r)
    for i in range(r):
        if i < 2 and rng.random() < 0.85:
            continue                     # mostly spatial pads, sometimes N or C
        for side in (0, 1):
            v = int(pick(rng, [0, 0, 1, 1, 2, 3]))
            if rng.random() < 0.08 and shape[i] > 2:
                v = -1                   # a crop
            if mode == "reflect":
                v = min(v, shape[i] - 1)
            pads[side * r + i] = v
    ins = [x, c.const(np.array(pads, dtype=np.int64), "p")]
    text = f"mode={mode},pads={pads}"
    if mode == "constant" and rng.random() < 0.5:
        v = float(pick(rng, [0.0, 0.5, -1.0]))
        ins.append(c.const(np.array(v, dtype=np.float32), "v"))
        text += f",value={v}"
    return c.node("Pad", ins, f"Pad({text})", mode=mode)


def add_gemm(c, x, shape):
    rng = c.rng
    m, k = shape
    nout = int(pick(rng, [1, 3, 4, 7, 8, 16]))
    attrs = {}
    if rng.random() < 0.2:
        attrs["transA"] = 1
        m, k = k, m
    trans_b = rng.random() < 0.6
    if trans_b:
        attrs["transB"] = 1
    alpha = float(pick(rng, [1.0, 1.0, 0.5, 2.0]))
    beta = float(pick(rng, [1.0, 1.0, 0.5, 0.0]))
    if alpha != 1.0:
        attrs["alpha"] = alpha
    if beta != 1.0:
        attrs["beta"] = beta
    w = c.weights([nout, k] if trans_b else [k, nout], k)
    ins = [x, c.const(w)]
    bias = pick(rng, ["none", "n", "1n", "mn", "scalar"])
    if bias != "none":
        bshape = {"n": [nout], "1n": [1, nout], "mn": [m, nout], "scalar": []}[bias]
        ins.append(c.const(c.weights(bshape, k), "b"))
    text = "".join(f"{a}={v}," for a, v in attrs.items())
    return c.node("Gemm", ins, f"Gemm(n={nout},{text}bias={bias})", **attrs)


def add_elementwise(c, x, shape):
    rng = c.rng
    if rng.random() < 0.55:
        op = pick(rng, ELEMENTWISE_UNARY)
        attrs, ins = {}, [x]
        if op == "LeakyRelu":
            attrs["alpha"] = float(pick(rng, [0.01, 0.1, 0.5]))
        if op == "Clip":
            lo, hi = sorted(float(v) for v in rng.uniform(-1, 1, size=2))
            ins += [c.const(np.array(lo, dtype=np.float32), "lo"), c.const(np.array(hi, dtype=np.float32), "hi")]
        return c.node(op, ins, op, **attrs)
    op = pick(rng, ELEMENTWISE_BINARY)
    form = pick(rng, ["scalar", "channel", "full", "self"])
    if form == "self":
        return c.node(op, [x, x], f"{op}(x,x)") if op != "Div" else c.node("Add", [x, x], "Add(x,x)")
    if form == "scalar":
        bshape = []
    elif form == "channel" and len(shape) >= 3:
        bshape = [shape[1]] + [1] * (len(shape) - 2)
    else:
        bshape = list(shape[1:])
    b = rng.uniform(0.5, 1.5, size=bshape) * pick(rng, [1.0, -1.0])
    return c.node(op, [x, c.const(b.astype(np.float32), "k")], f"{op}({form})")


def next_ops(shape):
    r = len(shape)
    if r == 2:
        return ["Gemm", "elementwise"]
    ops = ["Conv", "MaxPool", "AveragePool", "Global", "Pad", "elementwise"]
    if r == 4 and shape[2] * shape[3] * shape[1] <= 512:
        ops.append("Flatten")
    return ops


def infer(c, inp, out):
    """The model with output `out`, checked and shape-inferred, or None."""
    import onnx
    from onnx import helper
    graph = helper.make_graph(c.nodes, "fuzz", [inp], [helper.make_tensor_value_info(out, F32, None)], c.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="onnx_fuzz")
    model.ir_version = 9
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
        t = inferred.graph.output[0].type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in t.shape.dim]
        if not dims or any(d <= 0 for d in dims):
            return None, None
        del model.graph.output[:]
        model.graph.output.append(helper.make_tensor_value_info(out, F32, dims))
        onnx.checker.check_model(model, full_check=True)
    except Exception:
        return None, None
    return model, dims


def draw_input(rng):
    r = pick(rng, [4, 4, 4, 3, 2], p=[0.3, 0.25, 0.15, 0.2, 0.1])
    n = int(pick(rng, [1, 1, 1, 1, 2, 3]))
    sizes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16]
    if r == 2:
        return [int(pick(rng, [1, 2, 3, 5, 8])), int(pick(rng, [1, 3, 4, 7, 8, 16, 17]))]
    c = int(pick(rng, [1, 2, 3, 4, 5, 6, 8]))
    return [n, c] + [int(pick(rng, sizes)) for _ in range(r - 2)]


def generate(seed, index):
    """(model, text) of case `index`: the first valid draw of its generator."""
    from onnx import helper
    rng = np.random.default_rng([seed, index])
    for _ in range(200):
        c = Case(rng)
        shape = draw_input(rng)
        inp = helper.make_tensor_value_info("x", F32, shape)
        x, model, ok = "x", None, True
        length = int(pick(rng, [1, 1, 2, 3]))
        for _ in range(length):
            op = pick(rng, next_ops(shape))
            if op == "Conv":
                y = add_conv(c, x, shape)
            elif op in ("MaxPool", "AveragePool"):
                y = add_pool(c, x, shape, op)
            elif op == "Global":
                g = pick(rng, ["GlobalMaxPool", "GlobalAveragePool"])
                y = c.node(g, [x], g)
            elif op == "Pad":
                y = add_pad(c, x, shape)
            elif op == "Flatten":
                y = c.node("Flatten", [x], "Flatten", axis=1)
            elif op == "Gemm":
                y = add_gemm(c, x, shape)
            else:
                y = add_elementwise(c, x, shape)
            model, dims = infer(c, inp, y)
            if model is None or int(np.prod(dims)) > 4096:
                ok = False
                break
            x, shape = y, dims
        if not ok:
            continue
        if not runs_in_onnxruntime(model, rng):
            continue
        text = f"x{list(draw_shape(model))} -> " + " -> ".join(c.parts)
        return model, text
    raise RuntimeError(f"case {index} of seed {seed}: no valid model in 200 draws")


def draw_shape(model):
    t = model.graph.input[0].type.tensor_type
    return [d.dim_value for d in t.shape.dim]


def runs_in_onnxruntime(model, rng):
    """onnxruntime runs the model and agrees with ONNX's shape inference on the
    output's shape (they differ for some ceil_mode + auto_pad pools: no
    reference then)."""
    try:
        out = run_reference(model.SerializeToString(), [np.zeros(draw_shape(model), dtype=np.float32)])[0]
    except Exception:
        return False
    declared = [d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    return list(out.shape) == declared


def run_reference(model_bytes, ins):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 4
    sess = ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": ins[0]})


def limits(seed, index):
    """Extra ming-opt arguments: tight resource limits for about one case in eight."""
    rng = np.random.default_rng([seed, index, 1])
    if rng.random() < 0.125:
        return ["--dsp", str(int(pick(rng, [0, 1, 4, 16]))), "--bram", str(int(pick(rng, [0, 1, 288])))]
    return []


def signature(msg):
    """The message's first error line with paths, numbers and names blanked."""
    line = next((l for l in msg.splitlines() if "error:" in l), msg.strip().splitlines()[0] if msg.strip() else "")
    line = line.split("error:", 1)[-1].strip()
    line = re.sub(r"(/[\w.+-]+)+", "PATH", line)
    line = re.sub(r"'%[\w#]+'", "'%V'", line)
    line = re.sub(r"\b\d+\b", "N", line)
    return line[:140]


def group_processes(pgid):
    """(pid, comm, CPU seconds incl. waited-for children) of a process group."""
    tick = os.sysconf("SC_CLK_TCK")
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                text = f.read()
            comm = text[text.index("(") + 1:text.rindex(")")]
            fields = text.rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            cpu = sum(int(x) for x in fields[11:15]) / tick
            out.append((int(pid), comm, cpu))
        except (OSError, ValueError, IndexError):
            pass
    return out


def run_bounded(cmd, timeout):
    """subprocess.run in its own process group. A hang is `timeout` seconds of
    CPU time used by the group (the machine is shared: wall time under load
    says little), or 5 x `timeout` of wall time; the whole group is then
    killed, since ming-opt's importers (iree-opt) would outlive it."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    start = time.time()
    while True:
        try:
            out, err = p.communicate(timeout=0.5)
            return subprocess.CompletedProcess(cmd, p.returncode, out, err)
        except subprocess.TimeoutExpired:
            pass
        procs = group_processes(p.pid)
        if sum(cpu for _, _, cpu in procs) > timeout or time.time() - start > 5 * timeout:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            e = subprocess.TimeoutExpired(cmd, timeout)
            e.running = sorted({comm for _, comm, _ in procs})
            raise e


def run_case(seed, index, work, ming, timeout):
    """(verdict, detail, text): verdict EQUAL / REJECTED / OVER / FAIL."""
    model, text = generate(seed, index)
    d = os.path.join(work, f"c{index}")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, "model.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    ops = {n.op_type for n in model.graph.node}
    shape = draw_shape(model)
    x = np.random.default_rng([seed, index, 2]).uniform(-1, 1, size=shape).astype(np.float32)
    ref = np.ascontiguousarray(run_reference(model.SerializeToString(), [x])[0]).astype(np.float32)

    prj = os.path.join(d, "prj")
    extra = limits(seed, index)
    cmd = shlex.split(ming) + [path, "--hls", prj] + extra
    try:
        p = run_bounded(cmd, timeout)
    except subprocess.TimeoutExpired as e:
        running = ", ".join(getattr(e, "running", [])) or "?"
        return "FAIL", f"hang: ming-opt still running after {timeout} s (processes: {running})", text, extra
    msg = (p.stderr or "") + (p.stdout or "")
    # A failed import keeps its scratch directory for the user; not here.
    for kept in re.findall(r"kept in (/\S+?ming-import-[\w-]+)", msg):
        shutil.rmtree(kept, ignore_errors=True)
    if p.returncode != 0:
        if p.returncode != 1:
            kind = f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}"
            return "FAIL", f"crash ({kind}): {signature(msg)}", text, extra
        if os.path.exists(prj):
            return "FAIL", "exit 1 but a project folder was written", text, extra
        if re.search(r"no design of .* fits", msg):
            if not re.search(r"DSP|BRAM", msg):
                return "FAIL", f"over limits without the resource named: {signature(msg)}", text, extra
            return "OVER", signature(msg), text, extra
        if "error:" not in msg:
            return "FAIL", f"exit 1 without an error message: {msg.strip()[:200]}", text, extra
        if "deadlocks in simulation" in msg:  # a valid model's design must not
            return "FAIL", f"deadlock: {signature(msg)}", text, extra
        located = re.search(r"(^|\n)\S+:\d+:\d+: error:|loc\(|error: .*(at|in) ", msg) or "ming-opt: error:" not in msg
        named = any(re.search(rf"\b{op}\b", msg, re.I) for op in ops)
        note = ("" if named else " [no ONNX op named]") + ("" if located else " [no location]")
        return "REJECTED", signature(msg) + note, text, extra
    if not os.path.isdir(prj):
        return "FAIL", "exit 0 without a project folder", text, extra
    data = os.path.join(prj, "data")
    os.makedirs(data, exist_ok=True)
    for f in os.listdir(data):
        if re.fullmatch(r"(in|out|ref)\d+\.bin", f):
            os.remove(os.path.join(data, f))
    x.tofile(os.path.join(data, "in0.bin"))
    ref.tofile(os.path.join(data, "ref0.bin"))
    try:
        # -O1: the designs are tiny, compile time dominates.
        s = run_bounded(["make", "-C", prj, "csim", "CXXFLAGS_EXTRA=-Werror -O1"], timeout)
    except subprocess.TimeoutExpired:
        return "FAIL", f"hang: csim still running after {timeout} s", text, extra
    out_path = os.path.join(data, "out0.bin")
    if not os.path.exists(out_path):
        tail = "\n".join(((s.stdout or "") + (s.stderr or "")).strip().splitlines()[-5:])
        return "FAIL", f"csim exit {s.returncode}, no output: {tail}", text, extra
    out = np.fromfile(out_path, dtype=np.float32)
    if out.size != ref.size:
        return "FAIL", f"wrong size: {out.size} elements, onnxruntime {ref.size}", text, extra
    o, r = out.astype(np.float64), ref.reshape(-1).astype(np.float64)
    bad = ~(np.abs(o - r) <= 1e-5 * np.abs(r) + 1e-6)
    if bad.any():
        i = int(np.argwhere(bad)[0][0])
        return "FAIL", (f"wrong number: {int(bad.sum())}/{r.size} differ, first at flat index {i}: "
                        f"got {o[i]!r}, onnxruntime {r[i]!r}"), text, extra
    if s.returncode != 0:
        return "FAIL", f"csim exit {s.returncode} with equal outputs", text, extra
    shutil.rmtree(d, ignore_errors=True)
    return "EQUAL", "", text, extra


def default_ming():
    built = os.path.join(ROOT, "target", "release", "ming-opt")
    return built if os.access(built, os.X_OK) else "ming-opt"


def cmd_run(a):
    os.makedirs(a.work, exist_ok=True)
    counts = {"EQUAL": 0, "REJECTED": 0, "OVER": 0, "FAIL": 0}
    cats, failures, results = {}, [], []
    t_start = time.time()
    for index in range(a.start, a.start + a.count):
        t0 = time.time()
        try:
            verdict, detail, text, extra = run_case(a.seed, index, a.work, a.ming_opt, a.timeout)
        except Exception as e:  # the harness itself must not hide a case
            verdict, detail, text, extra = "FAIL", f"harness: {type(e).__name__}: {e}", "?", []
        counts[verdict] += 1
        if verdict in ("REJECTED", "OVER"):
            cats[f"{verdict}: {detail}"] = cats.get(f"{verdict}: {detail}", 0) + 1
        lim = " " + " ".join(extra) if extra else ""
        line = f"case {index}: {verdict:8} {text}{lim}" + (f"\n    {detail}" if verdict != "EQUAL" else "")
        results.append({"index": index, "verdict": verdict, "detail": detail, "case": text, "args": extra,
                        "seconds": round(time.time() - t0, 2)})
        if verdict == "FAIL":
            failures.append(line)
            if a.save_failures:
                os.makedirs(a.save_failures, exist_ok=True)
                src = os.path.join(a.work, f"c{index}", "model.onnx")
                if os.path.exists(src):
                    shutil.copy(src, os.path.join(a.save_failures, f"s{a.seed}_c{index}.onnx"))
        if not a.quiet or verdict == "FAIL":
            print(line, flush=True)
    took = time.time() - t_start
    n = sum(counts.values())
    print(f"\nonnx-fuzz: seed {a.seed}, cases {a.start}..{a.start + n - 1}: {n} cases in {took:.0f} s")
    print("  " + ", ".join(f"{k.lower()} {v}" for k, v in counts.items()))
    for k, v in sorted(cats.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {v:5}  {k}")
    if failures:
        print("failures:\n" + "\n".join(failures))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"seed": a.seed, "counts": counts, "categories": cats, "seconds": took, "cases": results},
                      f, indent=1)
    return 1 if counts["FAIL"] else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--index", type=int, required=True)
    g.add_argument("-o", "--output", required=True)
    r = sub.add_parser("run")
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("--work", required=True)
    r.add_argument("--timeout", type=float, default=60, help="seconds for ming-opt and for csim (default 60)")
    r.add_argument("--ming-opt", default=default_ming(), help="ming-opt command (default: this checkout's build)")
    r.add_argument("--save-failures", help="copy each failing model there")
    r.add_argument("--json", help="write every case's verdict there")
    r.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    a = ap.parse_args(argv)
    if a.cmd == "gen":
        model, text = generate(a.seed, a.index)
        with open(a.output, "wb") as f:
            f.write(model.SerializeToString())
        print(text)
        return 0
    return cmd_run(a)


if __name__ == "__main__":
    sys.exit(main())
