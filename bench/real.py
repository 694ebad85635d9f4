#!/usr/bin/env python3
"""Real networks on real boards: one table of what ming builds for the models of
../shared/models (MLPerf Tiny, int8 and float; torchvision, float and int8 QDQ),
beside the published FPGA results of the same MLPerf Tiny tasks.

  .venv/bin/python bench/real.py [--models DIR] [--boards kv260,zcu104]
                                 [--only SUBSTRING] [--ming-opt PATH]
                                 [--timeout S] [--out DIR] [--json FILE]

Every row is `ming-opt MODEL --hls OUT --board B` run once: the design's cycles
(cost model and cycle-level simulation, report.json), its latency at the
report's clock, DSP, BRAM18K and URAM, and:
- the DSP-budget ratio, MACs / (DSP limit x MACs per DSP) / cycles: the share
  of the board's multipliers the design keeps busy (1.0: every DSP does a MAC
  every cycle). MACs per DSP: 2 for int8 (two products sharing an operand
  in one DSP48E2, which ming-pack-int8 does), 1/5 for f32 (3 DSP for fmul and 2 for fadd in the
  target description, targets/vitis-ultrascale-200mhz.json);
- the transfer bound (report.json's `transfer`): the beats the busiest memory
  port of the board (128-bit HP ports on the KV260 and ZCU104) needs to move
  the input and output, a floor no design goes under, marked `(bound)` when
  the design's slowest process is a load or store;
- the chain floor: a latency no design of ming's structure goes under, and
  the DSP-budget ratio it caps (`chain_floor`, below);
- compile and ILP seconds, and the DSE's status (`optimal` or the gap left at
  the time limit, or at the work limit of a graph of more than 64 processes).
Models with float sums (f32, hybrid) get a second row, `+trees`, compiled
with --reassociate-float (their sums added as balanced trees).
A model that does not fit shows ming's refusal in the status column.
int8 torchvision variants are made here with onnxruntime's quantize_static
(QDQ, per channel, QInt8, 4 random calibration batches) and cached in --out.
Timings on a shared 2-core machine are only comparable as ratios.
"""
import argparse
import functools
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# MACs of the MLPerf Tiny models (../shared/models/README.md); the ONNX ones
# are counted from their graphs.
MLPERF_MACS = {
    "ic_resnet8": 12.50e6,
    "kws_dscnn": 2.66e6,
    "ad_autoencoder": 0.26e6,
}

# Published FPGA results on the same tasks (MLPerf Tiny results repositories).
PUBLISHED = [
    ("fpgaConvNet v1.1 closed", "ZC706, 525-564 DSP, 187-200 MHz", "ResNet-8 IC", "0.147 ms"),
    ("fpgaConvNet v1.1 closed", "ZC706", "VWW", "0.720 ms"),
    ("fpgaConvNet v1.1 closed", "ZedBoard, ~200 DSP, 111-143 MHz", "ResNet-8 IC", "0.411 ms"),
    ("fpgaConvNet v1.1 closed", "ZedBoard", "DS-CNN KWS", "0.324 ms"),
    ("hls4ml v1.0 open", "PYNQ-Z2, 100 MHz", "ResNet-8 IC (RN08)", "7.64 ms"),
    ("hls4ml v0.7 open", "PYNQ-Z2, 100 MHz", "AD autoencoder", "18.7 us"),
    ("FINN v0.7 open", "PYNQ-Z2, 100 MHz", "CNV-W1A1 (binarised)", "1.51 ms"),
    ("FINN v0.7 open", "PYNQ-Z2, 100 MHz", "KWS MLP W3A3", "17.5 us"),
]

BOARD_DSP = {"kv260": 1248, "zcu104": 1728, "zedboard": 220, "u55c": 9024}


def onnx_macs(path):
    """Multiply-accumulates of the Conv, Gemm and MatMul nodes of an ONNX model."""
    import onnx
    from onnx import shape_inference
    m = shape_inference.infer_shapes(onnx.load(path))
    shapes = {}
    for v in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        dims = [d.dim_value for d in v.type.tensor_type.shape.dim]
        shapes[v.name] = [d if d > 0 else 1 for d in dims]
    inits = {i.name: list(i.dims) for i in m.graph.initializer}
    shapes.update(inits)
    total = 0
    for n in m.graph.node:
        if n.op_type == "Conv" and n.output[0] in shapes and n.input[1] in shapes:
            out = shapes[n.output[0]]
            w = shapes[n.input[1]]  # M x C/group x kh x kw
            per = 1
            for d in w[1:]:
                per *= d
            elems = 1
            for d in out:
                elems *= d
            total += elems * per
        elif n.op_type in ("Gemm", "MatMul") and n.input[1] in shapes and n.output[0] in shapes:
            out = shapes[n.output[0]]
            b = shapes[n.input[1]]
            k = b[-1] if (n.op_type == "Gemm" and any(a.name == "transB" and a.i for a in n.attribute)) else b[-2] if len(b) >= 2 else b[0]
            elems = 1
            for d in out:
                elems *= d
            total += elems * k
    return float(total)


@functools.lru_cache(maxsize=None)
def full_reductions(path):
    """The graph as (inputs, outputs, W, dense) per operator, in topological
    order: W is the multiply-accumulates one output pixel of the operator
    costs when every output reads its whole input pixel or window
    (convolutions of one group, Gemm, MatMul, TFLite's CONV_2D and
    FULLY_CONNECTED), else 0 (depthwise and grouped convolutions read one
    channel or group of it; everything else); `dense` says whether it is a
    dense layer (Gemm, MatMul, FULLY_CONNECTED). Read once per model, for
    every board's row."""
    ops = []
    if path.endswith(".tflite"):
        import tensorflow as tf
        interp = tf.lite.Interpreter(model_path=path)
        shape = {t["index"]: [int(d) for d in t["shape"]] for t in interp.get_tensor_details()}
        for op in interp._get_ops_details():  # noqa: SLF001 - the interpreter's only op listing
            w = 0
            if op["op_name"] in ("CONV_2D", "FULLY_CONNECTED") and len(op["inputs"]) > 1:
                w = 1
                for d in shape[op["inputs"][1]]:
                    w *= d
            ops.append(([i for i in op["inputs"] if i >= 0], list(op["outputs"]), w,
                        op["op_name"] == "FULLY_CONNECTED"))
        return ops
    import onnx
    from onnx import shape_inference
    m = shape_inference.infer_shapes(onnx.load(path))
    shape = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in m.graph.value_info}
    shape.update({i.name: list(i.dims) for i in m.graph.initializer})
    for n in m.graph.node:
        w = 0
        groups = next((a.i for a in n.attribute if a.name == "group"), 1)
        if n.op_type in ("Conv", "Gemm", "MatMul") and groups == 1 and len(n.input) > 1:
            dims = shape.get(n.input[1], [])
            if dims and all(d > 0 for d in dims):
                w = 1
                for d in dims:
                    w *= d
        ops.append((list(n.input), list(n.output), w, n.op_type in ("Gemm", "MatMul")))
    return ops


def chain_floor(path, dsp, macs_per_dsp, input_beats, float_sums):
    """A floor on the latency of any design ming builds for the model, in cycles.
    A loop-nest process computes an output pixel in one pipeline iteration,
    after that iteration has pulled the pixel's window (docs/cost-model.md):
    so after the last element of its input arrives, a full-reduction layer
    still owes its last output pixel, W MACs, at most macs_per_dsp x d per
    cycle on its d DSPs, and its consumer cannot finish before it. Along any
    path of the graph the latency is then at least the input transfer plus
    sum W_i / (m d_i), and with sum d_i <= the board's DSPs that sum is least,
    by Cauchy-Schwarz, at (sum sqrt W_i)^2 / (m D). The heaviest path in
    sum sqrt W gives the floor.
    A float dense layer behind a loop nest may be an outer product, which
    takes each input as it comes and owes next to nothing after the last:
    the pair then ends no earlier than max(W_a / (m d_a), W_b / (m d_b)),
    least at (W_a + W_b) / (m (d_a + d_b)), so the pair counts as one layer
    of W_a + W_b. Every such pair is counted so (whether or not ming makes
    that layer an outer product), and the layer after it starts a new group,
    as an outer product's outputs come at its end. Only DSPs shared across
    layers could go under this floor."""
    import math
    # Per tensor: (sum of sqrt W over the closed groups, W of the open
    # group, whether a dense layer may still join the open group).
    reach = {}
    heaviest = 0.0
    for ins, outs, w, dense in full_reductions(path):
        closed, open_w, joinable = max((reach.get(i, (0.0, 0.0, False)) for i in ins),
                                       key=lambda r: r[0] + math.sqrt(r[1]), default=(0.0, 0.0, False))
        if w and dense and float_sums and joinable:
            here = (closed + math.sqrt(open_w + w), 0.0, False)
        elif w:
            here = (closed + math.sqrt(open_w), float(w), True)
        else:
            here = (closed, open_w, joinable)
        for o in outs:
            reach[o] = here
        heaviest = max(heaviest, here[0] + math.sqrt(here[1]))
    return input_beats + heaviest * heaviest / (macs_per_dsp * dsp)


def quantize(src, dst):
    import numpy as np
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    m = onnx.load(src)
    name = m.graph.input[0].name
    shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]

    class Reader(CalibrationDataReader):
        def __init__(self):
            rng = np.random.default_rng(0)
            self.data = iter([{name: rng.standard_normal(shape).astype(np.float32)} for _ in range(4)])

        def get_next(self):
            return next(self.data, None)

    quantize_static(src, dst, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)


def models(models_dir, out_dir):
    """(row name, path, precision, MACs, MLPerf task or None); an int8
    torchvision row's path is (float model, where its QDQ version goes)."""
    rows = []
    tiny = os.path.join(models_dir, "mlperf-tiny")
    for f in sorted(os.listdir(tiny)) if os.path.isdir(tiny) else []:
        if not f.endswith(".tflite"):
            continue
        stem = f[: -len(".tflite")]
        base, precision = stem.rsplit("_", 1)
        rows.append((stem, os.path.join(tiny, f), precision, MLPERF_MACS.get(base), base))
    tv = os.path.join(models_dir, "torchvision")
    for f in sorted(os.listdir(tv)) if os.path.isdir(tv) else []:
        if not f.endswith(".onnx"):
            continue
        stem = f[: -len(".onnx")]
        path = os.path.join(tv, f)
        macs = onnx_macs(path)
        rows.append((stem + "_float", path, "float", macs, None))
        # Quantised when its row runs (run_row), cached in --out.
        rows.append((stem + "_int8", (path, os.path.join(out_dir, stem + "_int8.onnx")), "int8", macs, None))
    return rows


def run_row(ming_opt, path, board, out, timeout, extra=()):
    if isinstance(path, tuple):
        src, path = path
        if not os.path.exists(path):
            try:
                quantize(src, path)
            except Exception as e:  # noqa: BLE001 - the row says why
                return {"status": f"quantize_static failed: {e}", "seconds": 0.0}
    cmd = [ming_opt, path, "--hls", out, "--board", board, *extra]
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout >{timeout:.0f} s", "seconds": timeout}
    seconds = time.time() - start
    if p.returncode != 0:
        err = [l for l in p.stderr.splitlines() if "error" in l]
        return {"status": "refused: " + (err[0].split("error: ", 1)[-1] if err else f"exit {p.returncode}"),
                "seconds": seconds}
    with open(os.path.join(out, "report.json")) as f:
        r = json.load(f)
    total = r.get("total", {})
    dse = r.get("dse", {})
    return {
        "status": dse.get("status", "?"),
        "seconds": seconds,
        "ilp_seconds": dse.get("ilp_seconds"),
        "cycles": total.get("cycles"),
        "simulated": total.get("simulated_cycles"),
        "dsp": total.get("dsp"),
        "bram18k": total.get("bram18k"),
        "uram": total.get("uram", 0),
        "clock_mhz": r.get("board", {}).get("clock_mhz", 200.0),
        "transfer_bound_cycles": r.get("transfer", {}).get("bound_cycles"),
        "transfer_bound": r.get("transfer", {}).get("transfer_bound"),
        "input_beats": max((p["beats"] for p in r.get("transfer", {}).get("ports", [])
                            if p.get("direction") == "in"), default=0),
        "model_path": path,
    }


def fmt(v, spec="{:,}"):
    return "-" if v is None else spec.format(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models"))
    ap.add_argument("--boards", default="kv260,zcu104")
    ap.add_argument("--only", default="")
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "bench-real"))
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    if not os.path.isdir(a.models):
        sys.exit(f"no models at {a.models} (../shared/models)")
    os.makedirs(a.out, exist_ok=True)
    results = []
    print("| model | board | status | cycles (model / sim) | latency | DSP | BRAM18K | URAM | DSP-budget ratio | "
          "transfer bound | chain floor (ratio cap) | compile s | ILP s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for name, path, precision, macs, task in models(a.models, a.out):
        rows.append((name, path, precision, macs, ()))
        # Models with float sums again with them added as trees.
        if precision != "int8":
            rows.append((name + " +trees", path, precision, macs, ("--reassociate-float",)))
    for name, path, precision, macs, extra in rows:
        if a.only and a.only not in name:
            continue
        for board in a.boards.split(","):
            out = os.path.join(a.out, f"{name.replace(' +', '-')}-{board}")
            r = run_row(a.ming_opt, path, board, out, a.timeout, extra)
            r.update(model=name, board=board, precision=precision, macs=macs)
            cycles = r.get("cycles")
            ratio = floor = cap = None
            per_dsp = 2.0 if precision == "int8" else 0.2
            if cycles and macs:
                ratio = macs / (BOARD_DSP[board] * per_dsp) / cycles
                floor = chain_floor(r["model_path"], BOARD_DSP[board], per_dsp, r["input_beats"],
                                    precision != "int8")
                cap = min(1.0, macs / (BOARD_DSP[board] * per_dsp) / floor)
            r["dsp_budget_ratio"] = ratio
            r["chain_floor_cycles"] = floor
            r["ratio_cap"] = cap
            chain = f"{floor:,.0f} ({cap:.2f})" if floor else "-"
            clock = r.get("clock_mhz", 200)
            bound = fmt(r.get("transfer_bound_cycles")) + (" (bound)" if r.get("transfer_bound") else "")
            latency = f"{cycles / clock:,.1f} us" if cycles else "-"
            print(f"| {name} | {board} | {r['status']} | {fmt(cycles)} / {fmt(r.get('simulated'))} | {latency} | "
                  f"{fmt(r.get('dsp'))} | {fmt(r.get('bram18k'))} | {fmt(r.get('uram'))} | {fmt(ratio, '{:.3f}')} | "
                  f"{bound} | {chain} | {r['seconds']:.1f} | {fmt(r.get('ilp_seconds'), '{:.1f}')} |", flush=True)
            results.append(r)
    print()
    print("Published FPGA results on the same MLPerf Tiny tasks:")
    print("| submitter | board | task | latency |")
    print("|---|---|---|---|")
    for row in PUBLISHED:
        print("| " + " | ".join(row) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
