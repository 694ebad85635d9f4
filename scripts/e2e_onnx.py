#!/usr/bin/env python3
"""End-to-end check of one ONNX or TFLite model through ming's whole flow,
against the model's own runtime: onnxruntime for ONNX, the TensorFlow Lite
interpreter for .tflite.

  e2e_onnx.py MODEL.onnx|MODEL.tflite --work DIR [--ming-opt PATH] [--seed N] [--keep]
              [--rtol R] [--atol A] [--int-tol N] [--ming-args '...']

Steps (each failure names its step, command and output, and exits non-zero):
  1. read the model's inputs and outputs (names, element types, static shapes)
  2. make deterministic inputs (floats uniform in [-1, 1), integers uniform over
     their type's range) and write them to DIR/in<i>.bin
  3. run the model with onnxruntime (CPU, graph optimisations off) on them:
     DIR/ref<j>.bin
  4. ming-opt MODEL.onnx --hls DIR/prj (the front end imports it with IREE)
  5. copy inputs and references to DIR/prj/data/in<i>.bin and ref<j>.bin
  6. make -C DIR/prj csim CXXFLAGS_EXTRA=-Werror (the testbench compares too)
  7. compare DIR/prj/data/out<j>.bin with the references here and print the
     max error: floats |out - ref| <= rtol*|ref| + atol (default the
     testbench's 1e-5, 1e-6), integers |out - ref| <= int-tol (default 0)
Inputs and outputs of any element type the model has are handled the same way,
so int8 QDQ models (integer or float at the boundary) run through unchanged; a
quantised design that rounds differently from onnxruntime may be given
--int-tol 1, and `--steps N` allows a float output that a DequantizeLinear
produces N of its quantisation steps (its scale) and reports the error in
steps. Without --keep the HLS project is deleted after a PASS.
"""
import argparse
import os
import shlex
import shutil
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import StepFailure, build_project, read_output, run_csim, stage_data, tail  # noqa: E402

# ONNX element types the testbench's raw files can carry (TensorProto enum -> numpy).
ONNX_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16, 6: np.int32, 7: np.int64, 11: np.float64}


class Tensor:
    def __init__(self, name, dtype, shape):
        self.name, self.dtype, self.shape = name, np.dtype(dtype), tuple(shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def text(self):
        return f"{self.name}[{'x'.join(map(str, self.shape))}]{self.dtype.name}"


def model_tensors(path):
    """The graph inputs that are not initialisers, and the outputs, in order."""
    import onnx
    m = onnx.load(path)
    inits = {i.name for i in m.graph.initializer}

    def tensor(v):
        t = v.type.tensor_type
        if t.elem_type not in ONNX_TYPES:
            raise StepFailure("read model", f"{v.name}: element type {t.elem_type} is not supported")
        shape = []
        for k, d in enumerate(t.shape.dim):
            if not d.HasField("dim_value"):
                # A symbolic batch: the design is for batch 1, as ming-opt says.
                if k == 0:
                    shape.append(1)
                    continue
                raise StepFailure("read model", f"{v.name}: dynamic dimension '{d.dim_param}'; only static shapes")
            shape.append(d.dim_value)
        return Tensor(v.name, ONNX_TYPES[t.elem_type], shape)
    ins = [tensor(v) for v in m.graph.input if v.name not in inits]
    outs = [tensor(v) for v in m.graph.output]
    return ins, outs


def output_steps(path):
    """Output name -> the scale of the DequantizeLinear producing it (per-tensor)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    steps = {}
    for n in m.graph.node:
        if n.op_type == "DequantizeLinear" and len(n.input) > 1 and n.input[1] in inits:
            scale = inits[n.input[1]]
            if scale.size == 1:
                steps[n.output[0]] = float(scale.reshape(-1)[0])
    return steps


TFLITE_TYPES = {"float32": np.float32, "int8": np.int8, "uint8": np.uint8, "int16": np.int16,
                 "int32": np.int32, "int64": np.int64, "float64": np.float64}


def tflite_interpreter(path):
    """The interpreter as it runs by default, with the XNNPACK delegate: the
    int8 arithmetic ming reproduces. TFLite's builtin kernels round a
    requantisation twice (a doubling high multiply, then a shift) and differ
    from XNNPACK by a step at some outputs (MLPerf AD int8, Keras MEAN). Known
    XNNPACK error: a SAME convolution with a 1-wide kernel along a strided
    axis (ming agrees with tf.nn.conv2d and the builtin kernels there)."""
    import tensorflow as tf
    interp = tf.lite.Interpreter(model_path=path, num_threads=1)
    interp.allocate_tensors()
    return interp


def tflite_tensors(path):
    """The TFLite model's inputs and outputs, in order (batch as the model has it)."""
    interp = tflite_interpreter(path)

    def tensor(d):
        dtype = np.dtype(d["dtype"]).name
        if dtype not in TFLITE_TYPES:
            raise StepFailure("read model", f"{d['name']}: element type {dtype} is not supported")
        return Tensor(d["name"], TFLITE_TYPES[dtype], [int(x) for x in d["shape"]])
    return [tensor(d) for d in interp.get_input_details()], [tensor(d) for d in interp.get_output_details()]


def tflite_reference(path, ins):
    interp = tflite_interpreter(path)
    for d, x in zip(interp.get_input_details(), ins):
        interp.set_tensor(d["index"], x)
    interp.invoke()
    return [interp.get_tensor(d["index"]) for d in interp.get_output_details()]


def tflite_steps(path):
    """Output name -> its quantisation scale, for float outputs of a quantised model (none here)."""
    return {}


def make_inputs(tensors, seed):
    rng = np.random.default_rng(seed)
    out = []
    for t in tensors:
        if t.dtype.kind == "f":
            a = rng.uniform(-1.0, 1.0, size=t.shape)
        else:
            info = np.iinfo(t.dtype)
            # Full range for 8-bit, the i8 range for wider types (far from overflow).
            lo, hi = (info.min, info.max) if info.bits <= 8 else (-128, 127)
            a = rng.integers(lo, hi + 1, size=t.shape, dtype=np.int64)
        out.append(a.astype(t.dtype))
    return out


def reference(path, ins_t, ins):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    return sess.run(None, {t.name: x for t, x in zip(ins_t, ins)})


def compare(out, ref, rtol, atol, itol):
    """(max error, mismatch count, first mismatch index or None)."""
    if ref.dtype.kind == "f":
        o, r = out.astype(np.float64), ref.astype(np.float64)
        # NaN where the reference has NaN, and the same infinity, are equal
        # (a square root of a negative input); any other NaN is a mismatch.
        same = (np.isnan(o) & np.isnan(r)) | (np.isinf(r) & (o == r))
        err = np.where(same, 0.0, np.abs(o - r))
        bad = ~(err <= rtol * np.abs(np.where(same, 0.0, r)) + atol)
        maxerr = float("nan") if np.isnan(err).any() else (float(err.max()) if err.size else 0.0)
    else:
        err = np.abs(out.astype(np.int64) - ref.astype(np.int64))
        bad = err > itol
        maxerr = int(err.max()) if err.size else 0
    n = int(np.count_nonzero(bad))
    first = tuple(int(i) for i in np.argwhere(bad)[0]) if n else None
    return maxerr, n, first


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="ONNX model with static shapes")
    ap.add_argument("--work", required=True, help="work directory (created; DIR/prj is the HLS project)")
    ap.add_argument("--ming-opt", default="ming-opt", help="ming-opt command (default: from PATH); may carry arguments")
    ap.add_argument("--ming-args", default="", help="extra arguments of ming-opt --hls (e.g. '--board zcu104')")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rtol", type=float, default=1e-5)
    ap.add_argument("--atol", type=float, default=1e-6)
    ap.add_argument("--int-tol", type=int, default=0, help="allowed integer difference (default 0: exact)")
    ap.add_argument("--steps", type=float, default=None,
                    help="allowed error of a dequantised float output in its quantisation steps")
    ap.add_argument("--keep", action="store_true", help="keep the HLS project after a PASS")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per step (default 1800)")
    a = ap.parse_args(argv)

    name = os.path.basename(a.model)
    model = os.path.abspath(a.model)
    work = os.path.abspath(a.work)
    prj = os.path.join(work, "prj")
    times = {}
    step = "setup"
    try:
        os.makedirs(work, exist_ok=True)
        if os.path.exists(prj):
            shutil.rmtree(prj)

        step = "read model"
        tflite = model.lower().endswith(".tflite")
        ins_t, outs_t = tflite_tensors(model) if tflite else model_tensors(model)
        runtime = "the TFLite interpreter" if tflite else "onnxruntime"
        print(f"e2e-onnx: {name}: {', '.join(t.text() for t in ins_t)} -> {', '.join(t.text() for t in outs_t)}",
              flush=True)

        steps = (tflite_steps(model) if tflite else output_steps(model)) if a.steps is not None else {}
        if a.steps is not None and not any(t.name in steps for t in outs_t):
            raise StepFailure(step, "--steps: no output is produced by a per-tensor DequantizeLinear")

        step = "inputs"
        ins = make_inputs(ins_t, a.seed)
        for i, x in enumerate(ins):
            x.tofile(os.path.join(work, f"in{i}.bin"))

        step = f"reference ({runtime})"
        t0 = time.time()
        raw = tflite_reference(model, ins) if tflite else reference(model, ins_t, ins)
        refs = [np.ascontiguousarray(r) for r in raw]
        for j, (t, r) in enumerate(zip(outs_t, refs)):
            if r.dtype != t.dtype or r.shape != t.shape:
                raise StepFailure(step, f"output {j}: {runtime} gives {r.dtype}{list(r.shape)}, "
                                        f"the model declares {t.text()}")
            r.tofile(os.path.join(work, f"ref{j}.bin"))
        times["reference"] = time.time() - t0

        step = "ming-opt --hls"
        t0 = time.time()
        cmd = shlex.split(a.ming_opt)
        cmd[0] = shutil.which(cmd[0]) or cmd[0]
        cmd += [model, "--hls", prj] + shlex.split(a.ming_args)
        build_project(cmd, prj, a.timeout)
        times["ming-opt"] = time.time() - t0

        step = "project data"
        # The testbench's own check is exact for integers and tight for
        # floats (1e-5, 1e-6); with a looser tolerance (--int-tol, --steps,
        # --rtol, --atol) only this script compares them.
        tight = a.steps is None and a.rtol <= 1e-5 and a.atol <= 1e-6
        checked = [(j, r) for j, r in enumerate(refs)
                   if (r.dtype.kind == "f" and tight) or (r.dtype.kind != "f" and a.int_tol == 0)]
        data = stage_data(prj, ins, checked)

        step = "make csim"
        t0 = time.time()
        run_csim(prj, a.timeout, need_pass=False)
        times["csim"] = time.time() - t0

        step = "compare outputs"
        lines, failures = [], []
        for j, (t, r) in enumerate(zip(outs_t, refs)):
            out, why = read_output(data, j, t.dtype, t.shape, t.text())
            if why:
                failures.append(why)
                continue
            q = steps.get(t.name)
            atol = max(a.atol, a.steps * q * (1 + 1e-6)) if q else a.atol
            maxerr, nbad, first = compare(out, r, a.rtol, atol, a.int_tol)
            shown = f"{maxerr:.3g}" if isinstance(maxerr, float) else str(maxerr)
            if q and isinstance(maxerr, float):
                shown += f" ({maxerr / q:.2f} steps of {q:.3g})"
            lines.append(f"  out{j} {t.text()}: max error {shown} vs {runtime}, mismatches {nbad}/{t.size}")
            if nbad:
                failures.append(f"out{j}: {nbad} of {t.size} elements differ, first at index {list(first)}: "
                                f"got {out[first].item()!r}, {runtime} {r[first].item()!r}")
        if lines:
            print("\n".join(lines), flush=True)
        if failures:
            raise StepFailure(step, "\n  ".join(failures), "")
    except StepFailure as e:
        sys.stdout.flush()
        print(f"e2e-onnx: {name}: FAIL at step '{e.step}': {e.message}", file=sys.stderr)
        if e.output.strip():
            print(f"--- output of '{e.step}' ---\n{tail(e.output)}\n---", file=sys.stderr)
        print(f"e2e-onnx: work directory kept: {work}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug here must still say where it happened
        print(f"e2e-onnx: {name}: FAIL at step '{step}': internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2

    took = ", ".join(f"{k} {v:.1f}s" for k, v in times.items())
    print(f"e2e-onnx: {name}: PASS  (seed {a.seed}; {took})")
    if not a.keep:
        shutil.rmtree(prj, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
