#!/usr/bin/env python3
"""Estimation time against image size: the cost model must not grow with trip counts.

  .venv/bin/python bench/estimate.py [--out DIR] [--ming-opt PATH] [--baseline PATH]
                                     [--timeout S] [--only NAME]

Each row is one pooling window (ONNX MaxPool, opset 19, written with
onnx.helper) on a large image and on a small one. Both models are imported and
lowered to dfg once (`ming-opt M.onnx -o M.mlir`, then
`--linalg-generalize-named-ops --convert-linalg-to-dfg --canonicalize --cse`);
what is timed is `ming-opt M.dfg.mlir --dse -o /dev/null`: parsing, the cost
model of every candidate configuration of every process (first/last-event
searches included) and the ILP. The same window gives the same process body
whatever the image, so the two times should be about equal; --baseline times
another build too (e.g. one from before the searches were closed form). A
run past --timeout seconds shows as `>S`.

Rows:
  dil-window  kernel 6x8, dilations 2, strides 2, pads 1,2,1,2: 1000x1000 vs 32x32
  pool31      kernel 31x31, strides 8, 4 channels: 512x512 vs 32x32
  issue       kernel 60x80, dilations 10, strides 10, pads 10,20,10,20 (a
              591x791 window): 1000x1000 vs 571x751, the smallest image it
              fits (it does not fit 32x32); the window register alone is
              467,489 elements, written out in the IR, so this row measures the
              window's size, equal on both sides
Timings on a shared 2-core machine are only comparable as ratios.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ROWS = {
    "dil-window": (dict(kernel_shape=[6, 8], dilations=[2, 2], strides=[2, 2], pads=[1, 2, 1, 2]),
                   [1, 1, 1000, 1000], [1, 1, 32, 32]),
    "pool31": (dict(kernel_shape=[31, 31], strides=[8, 8]), [1, 4, 512, 512], [1, 4, 32, 32]),
    "issue": (dict(kernel_shape=[60, 80], dilations=[10, 10], strides=[10, 10], pads=[10, 20, 10, 20]),
              [1, 1, 1000, 1000], [1, 1, 571, 751]),
}


def write_model(path, attrs, shape):
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph([helper.make_node("MaxPool", ["x"], ["y"], **attrs)], "pool", [x], [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    m.ir_version = 9
    m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    onnx.save(m, path)


def run(cmd, timeout=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        sys.exit(f"estimate.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")


def lower(ming, work, name, attrs, shape):
    onnx_path = os.path.join(work, f"{name}.onnx")
    write_model(onnx_path, attrs, shape)
    linalg = os.path.join(work, f"{name}.mlir")
    dfg = os.path.join(work, f"{name}.dfg.mlir")
    run([ming, onnx_path, "-o", linalg])
    run([ming, linalg, "--linalg-generalize-named-ops", "--convert-linalg-to-dfg", "--canonicalize", "--cse",
         "-o", dfg])
    return dfg


def timed_dse(ming, dfg, timeout):
    t0 = time.time()
    try:
        run([ming, dfg, "--dse", "-o", os.devnull], timeout=timeout)
    except subprocess.TimeoutExpired:
        return f">{timeout:g}"
    return f"{time.time() - t0:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="keep the models here (default: a temporary directory)")
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    ap.add_argument("--baseline", help="another ming-opt to time on the same dfg modules")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--only", choices=sorted(ROWS), action="append")
    a = ap.parse_args()
    work = a.out or tempfile.mkdtemp(prefix="ming-bench-estimate-")
    os.makedirs(work, exist_ok=True)
    cols = ["row", "window", "large", "--dse s", "small", "--dse s"]
    if a.baseline:
        cols += ["baseline large s", "baseline small s"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for name, (attrs, large, small) in ROWS.items():
        if a.only and name not in a.only:
            continue
        window = ", ".join(f"{k} {'x'.join(map(str, v))}" for k, v in attrs.items())
        d_large = lower(a.ming_opt, work, f"{name}_large", attrs, large)
        d_small = lower(a.ming_opt, work, f"{name}_small", attrs, small)
        cells = [name, window, "x".join(map(str, large[2:])), timed_dse(a.ming_opt, d_large, a.timeout),
                 "x".join(map(str, small[2:])), timed_dse(a.ming_opt, d_small, a.timeout)]
        if a.baseline:
            cells += [timed_dse(a.baseline, d_large, a.timeout), timed_dse(a.baseline, d_small, a.timeout)]
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
