#!/usr/bin/env python3
"""The Python API end to end on an ONNX model, as a notebook uses it:
compile, report, C simulation on a numpy input compared with onnxruntime,
graph, write, and ming's diagnostics as MingError.

    api_onnx.py MODEL.onnx WORKDIR
"""
import os
import sys

import numpy as np
import onnxruntime as ort

import ming

model, work = sys.argv[1], sys.argv[2]
design = ming.compile(model, board="kv260", out=os.path.join(work, "prj"), clock_mhz=250)
print(repr(design).split(" at ")[0])
report = design.report
print(f"report: top {report['top']}, board {report['board']['name']} at {report['board']['clock_mhz']} MHz, "
      f"dse {report['dse']['status']}")
print("inputs: " + ", ".join(f"{p['name']} {p['shape']} {p['dtype']}" for p in design.inputs))
print("outputs: " + ", ".join(f"{p['name']} {p['shape']} {p['dtype']}" for p in design.outputs))

session = ort.InferenceSession(model)
feeds, xs = {}, []
rng = np.random.default_rng(7)
for meta, port in zip(session.get_inputs(), design.inputs):
    x = rng.uniform(-1, 1, size=port["shape"]).astype(np.float32)
    feeds[meta.name] = x
    xs.append(x)
want = session.run(None, feeds)[0]
got = design.csim(*xs)
err = float(np.max(np.abs(got - want)))
ok = np.all(np.abs(got - want) <= 1e-5 * np.abs(want) + 1e-6)
print(f"csim: {got.dtype} {list(got.shape)}, max error {err:.2e} against onnxruntime: {'PASS' if ok else 'FAIL'}")
# A second input through the same design gives that input's answer.
x2 = [x[::-1].copy() for x in xs]
want2 = session.run(None, {m.name: x for m, x in zip(session.get_inputs(), x2)})[0]
print("csim again: " + ("PASS" if np.allclose(design.csim(*x2), want2, rtol=1e-5, atol=1e-6) else "FAIL"))

svg = design.graph
print("graph: " + ("none (no Graphviz)" if svg is None else os.path.basename(svg) + (" exists" if os.path.exists(svg) else " missing")))
copy = design.write(os.path.join(work, "copy"))
print("write: " + ("report.json" if os.path.exists(os.path.join(copy, "report.json")) else "missing") + ", "
      + ("no build/" if not os.path.exists(os.path.join(copy, "build")) else "build/ copied"))
print("write in place: " + ("same path" if design.write() == design.path else "moved"))

try:
    design.csim(np.zeros(5))
except ValueError as e:
    print(f"ValueError: {e}")
try:
    ming.compile(model, out=os.path.join(work, "bad"), nonsense=1)
except TypeError as e:
    print(f"TypeError: {e}")
try:
    ming.compile(model, out=os.path.join(work, "tight"), dsp=0, bram=0)
except ming.MingError as e:
    print(f"MingError (status {e.returncode}): {[l for l in e.message.splitlines() if ': error: ' in l][0]}")
try:
    ming.compile(os.path.join(work, "missing.onnx"), out=os.path.join(work, "none"))
except ming.MingError as e:
    print(f"MingError (status {e.returncode}): {[l for l in e.message.splitlines() if ': error: ' in l][0]}")
