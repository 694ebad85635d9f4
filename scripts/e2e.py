#!/usr/bin/env python3
"""End-to-end check of one kernel through ming's whole flow.

  e2e.py KERNEL.mlir --work DIR [--ming-opt PATH] [--seed N] [--exact] [--keep] [--reference-kernel REF.mlir]

Steps (each failure names its step, command and output, and exits non-zero):
  1. parse the kernel's func.func signature (tensor args and results)
  2. make deterministic inputs (integers uniform over the full i8 range, floats
     uniform in [-1, 1)) and write them to DIR/in<i>.bin
  3. compute the reference outputs by running the ORIGINAL linalg with upstream
     MLIR (scripts/mlir_reference.py: mlir-opt-22 lowering + mlir-runner); with
     --reference-kernel, that linalg instead (for input ming-opt lowers itself,
     e.g. TOSA, whose linalg form mlir-opt-22 made)
  4. ming-opt KERNEL.mlir --hls DIR/prj
  5. copy inputs and references to DIR/prj/data/in<i>.bin and ref<j>.bin
  6. make -C DIR/prj csim CXXFLAGS_EXTRA=-Werror (the testbench prints PASS/FAIL)
  7. compare DIR/prj/data/out<j>.bin with the references here as well: exact for
     integers, |out-ref| <= 1e-5*|ref| + 1e-6 for floats (bit for bit with --exact)
Without --keep, the HLS project is deleted after a PASS; it is always kept on failure.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlir_reference as R  # noqa: E402

RTOL, ATOL = 1e-5, 1e-6
TAIL_LINES = 60


class StepFailure(Exception):
    def __init__(self, step, message, output=""):
        super().__init__(message)
        self.step, self.message, self.output = step, message, output


def tail(text, n=TAIL_LINES):
    lines = text.rstrip().splitlines()
    if len(lines) > n:
        lines = [f"... ({len(lines) - n} lines before)"] + lines[-n:]
    return "\n".join(lines)


def run_step(step, cmd, timeout, cwd=None):
    shown = " ".join(shlex.quote(c) for c in cmd)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except FileNotFoundError:
        raise StepFailure(step, f"command not found: {cmd[0]}\n  command: {shown}")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        raise StepFailure(step, f"timed out after {timeout} s\n  command: {shown}", out + err)
    out = "\n".join(x.rstrip("\n") for x in (p.stdout, p.stderr) if x and x.strip())
    if p.returncode != 0:
        raise StepFailure(step, f"exit status {p.returncode}\n  command: {shown}", out)
    return out


def make_inputs(kernel, seed):
    """Deterministic inputs: integers uniform over the full i8 range (whatever their
    width, so wider integer inputs stay far from overflow), floats uniform [-1, 1)."""
    rng = np.random.default_rng(seed)
    ins = []
    for t in kernel.args:
        if t.elem.startswith("i"):
            a = rng.integers(-128, 128, size=t.shape, dtype=np.int64)
        else:
            a = rng.uniform(-1.0, 1.0, size=t.shape)
        ins.append(a.astype(t.dtype))
    return ins


def compare(out, ref, exact=False):
    """(max error, mismatch count, first mismatch index or None); `exact`:
    floats must equal the reference bit for bit."""
    if ref.dtype.kind == "f" and exact:
        o, r = out.astype(np.float64), ref.astype(np.float64)
        bits = np.dtype(f"u{ref.dtype.itemsize}")
        bad = out.astype(ref.dtype).view(bits) != ref.view(bits)
        err = np.abs(o - r)
        maxerr = float(np.nanmax(err)) if err.size and not np.all(np.isnan(err)) else 0.0
    elif ref.dtype.kind == "f":
        o, r = out.astype(np.float64), ref.astype(np.float64)
        err = np.abs(o - r)
        bad = ~(err <= RTOL * np.abs(r) + ATOL)  # NaN counts as a mismatch
        maxerr = float(np.nanmax(err)) if err.size and not np.all(np.isnan(err)) else 0.0
        if np.isnan(err).any():
            maxerr = float("nan")
    else:
        err = np.abs(out.astype(np.int64) - ref.astype(np.int64))
        bad = err != 0
        maxerr = int(err.max()) if err.size else 0
    n = int(np.count_nonzero(bad))
    first = tuple(int(i) for i in np.argwhere(bad)[0]) if n else None
    return maxerr, n, first


# The steps every end-to-end check shares (e2e_onnx.py uses them too).

def build_project(cmd, prj, timeout):
    """Step 'ming-opt --hls': runs `cmd`, which must write the project `prj`."""
    run_step("ming-opt --hls", cmd, timeout)
    if not os.path.isdir(prj):
        raise StepFailure("ming-opt --hls", f"exited 0 but wrote no project folder {prj}")


def stage_data(prj, ins, refs):
    """Step 'project data': the inputs and the references the testbench checks
    (`refs`: (j, array) pairs) replace any in prj/data; returns that folder."""
    data = os.path.join(prj, "data")
    os.makedirs(data, exist_ok=True)
    for f in os.listdir(data):
        if re.fullmatch(r"(in|out|ref)\d+\.bin", f):
            os.remove(os.path.join(data, f))
    for i, x in enumerate(ins):
        x.tofile(os.path.join(data, f"in{i}.bin"))
    for j, r in refs:
        r.tofile(os.path.join(data, f"ref{j}.bin"))
    return data


def run_csim(prj, timeout, need_pass=True):
    """Step 'make csim' with -Werror; the testbench's FAIL is a failure, and so
    is a missing PASS when it had references to check."""
    csim = run_step("make csim", ["make", "-C", prj, "csim", "CXXFLAGS_EXTRA=-Werror"], timeout)
    verdicts = re.findall(r"\b(PASS|FAIL)\b", csim)
    if "FAIL" in verdicts:
        raise StepFailure("make csim", "the testbench printed FAIL but make exited 0", csim)
    if need_pass and "PASS" not in verdicts:
        raise StepFailure("make csim", "the testbench did not print PASS", csim)
    return csim


def read_output(data, j, dtype, shape, text):
    """out<j>.bin of the testbench as an array, or why it cannot be read."""
    path = os.path.join(data, f"out{j}.bin")
    if not os.path.exists(path):
        return None, f"out{j}.bin: missing (the testbench wrote no output {j})"
    size, need = os.path.getsize(path), int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    if size != need:
        return None, f"out{j}.bin: {size} bytes, {text} needs {need}"
    return np.fromfile(path, dtype=dtype).reshape(shape), None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel", help="linalg-on-tensors MLIR file with one func.func")
    ap.add_argument("--work", required=True, help="work directory (created; DIR/prj is the HLS project)")
    ap.add_argument("--ming-opt", default="ming-opt",
                    help="ming-opt command (default: ming-opt from PATH); may carry extra arguments")
    ap.add_argument("--seed", type=int, default=0, help="seed of the input generator (default 0)")
    ap.add_argument("--exact", action="store_true",
                    help="floats must match the reference bit for bit (a design that keeps the "
                         "kernel's order of operations)")
    ap.add_argument("--keep", action="store_true", help="keep the HLS project after a PASS")
    ap.add_argument("--reference-kernel", help="linalg MLIR the reference runs (default: KERNEL)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per step (default 1800)")
    a = ap.parse_args(argv)

    name = os.path.basename(a.kernel)
    work = os.path.abspath(a.work)
    prj = os.path.join(work, "prj")
    times = {}
    step = "setup"
    try:
        os.makedirs(work, exist_ok=True)
        if os.path.exists(prj):
            shutil.rmtree(prj)

        step = "parse kernel"
        t0 = time.time()
        try:
            kernel = R.parse_kernel(a.reference_kernel or a.kernel)
        except R.ReferenceError as e:
            raise StepFailure(step, str(e))
        print(f"e2e: {name}: {kernel.signature()}", flush=True)

        step = "inputs"
        ins = make_inputs(kernel, a.seed)
        for i, x in enumerate(ins):
            x.tofile(os.path.join(work, f"in{i}.bin"))

        step = "reference (mlir-runner)"
        try:
            refs = R.reference(kernel, ins, keep_dir=os.path.join(work, "reference"))
        except R.ReferenceError as e:
            raise StepFailure(step, str(e))
        for j, r in enumerate(refs):
            r.tofile(os.path.join(work, f"ref{j}.bin"))
        times["reference"] = time.time() - t0

        step = "ming-opt --hls"
        t0 = time.time()
        cmd = shlex.split(a.ming_opt)
        cmd[0] = shutil.which(cmd[0]) or cmd[0]
        cmd += [os.path.abspath(a.kernel), "--hls", prj]
        build_project(cmd, prj, a.timeout)
        times["ming-opt"] = time.time() - t0

        step = "project data"
        data = stage_data(prj, ins, enumerate(refs))

        step = "make csim"
        t0 = time.time()
        run_csim(prj, a.timeout)
        times["csim"] = time.time() - t0

        step = "compare outputs"
        lines, failures = [], []
        for j, (t, r) in enumerate(zip(kernel.results, refs)):
            out, why = read_output(data, j, t.dtype, t.shape, t.text)
            if why:
                failures.append(why)
                continue
            maxerr, nbad, first = compare(out, r, a.exact)
            lines.append(f"  out{j} {t.text}: max error {maxerr}, mismatches {nbad}/{t.size}")
            if nbad:
                failures.append(f"out{j}: {nbad} of {t.size} elements differ, first at index {list(first)}: "
                                f"got {out[first].item()!r}, reference {r[first].item()!r}")
        extra = sorted(f for f in os.listdir(data)
                       if re.fullmatch(r"out\d+\.bin", f) and int(f[3:-4]) >= len(refs))
        if extra:
            failures.append(f"unexpected output files {', '.join(extra)} (the kernel has {len(refs)} results)")
        if lines:
            print("\n".join(lines), flush=True)
        if failures:
            raise StepFailure(step, "\n  ".join(failures), "")
    except StepFailure as e:
        sys.stdout.flush()
        print(f"e2e: {name}: FAIL at step '{e.step}': {e.message}", file=sys.stderr)
        if e.output.strip():
            print(f"--- output of '{e.step}' ---\n{tail(e.output)}\n---", file=sys.stderr)
        print(f"e2e: work directory kept: {work}", file=sys.stderr)
        return 1
    except Exception as e:  # a bug here must still say where it happened
        print(f"e2e: {name}: FAIL at step '{step}': internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2

    shapes = ", ".join(t.text for t in kernel.args) + " -> " + ", ".join(t.text for t in kernel.results)
    took = ", ".join(f"{k} {v:.1f}s" for k, v in times.items())
    print(f"e2e: {name}: PASS  ({shapes}; seed {a.seed}; {took})")
    if not a.keep:
        shutil.rmtree(prj, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
