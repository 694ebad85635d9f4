#!/usr/bin/env python3
"""The cost model against the cycle-level simulator: one table of the design's
cycles as each counts them, on every test/e2e/*.mlir kernel and every ONNX
model of test/onnx/gen_models.py (kv260, no flags, as the e2e tests run them)
and on the MLPerf Tiny models of ../shared/models on kv260 and zcu104.

  .venv/bin/python bench/agreement.py [--ming-opt PATH] [--models DIR]
                                      [--boards kv260,zcu104] [--only SUBSTRING]
                                      [--out DIR] [--jobs N] [--limit PCT]
                                      [--per-process]

Each row is `ming-opt INPUT --hls OUT [--board B]`, read back from report.json:
`total.cycles` (the cost model's dataflow latency of the chosen design) and
`total.simulated_cycles` (the simulator, minimised FIFOs), the ratio sim/model
and the signed difference relative to the simulator. Rows where either figure
exceeds the other by more than --limit percent (default 10) are marked and
make the exit status 1.
--per-process prints, for each marked row, every process's model cycles, and
its first output and finish in the graph as the model and the simulator
place them, with its simulated busy, starved and blocked cycles.
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLPERF = ["ad_autoencoder_int8", "ad_autoencoder_float", "ic_resnet8_int8",
          "ic_resnet8_float", "kws_dscnn_int8", "kws_dscnn_hybrid"]


def run(ming, inp, board, out, timeout):
    cmd = [ming, inp, "--hls", out]
    if board:
        cmd += ["--board", board]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout} s"
    if p.returncode != 0:
        lines = (p.stderr + p.stdout).strip().splitlines()
        errs = [ln for ln in lines if "error" in ln] or lines or [f"exit {p.returncode}"]
        return None, errs[0][:120]
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f), None


def per_process(rep):
    sim = {p["name"]: p for p in rep["simulation"]["processes"]}
    rows = []
    for n in rep["nodes"]:
        s = sim.get(n["name"], {})
        rows.append(f"    {n['name']:<24} model cycles {n['cycles']:>8}"
                    f" first {n.get('first_output_at', '-'):>8} finish {n.get('finish_at', '-'):>8}"
                    f" | sim first {s.get('first_output') or '-':>8} finish {s.get('finish', '-'):>8}"
                    f" busy {s.get('busy', '-'):>8}"
                    f" starved {s.get('starved', '-'):>8} blocked {s.get('blocked', '-'):>8}")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models", "mlperf-tiny"))
    ap.add_argument("--boards", default="kv260,zcu104", help="boards for the models (e2e: kv260)")
    ap.add_argument("--only", default="", help="only rows whose name contains this")
    ap.add_argument("--out", default="/tmp/ming-agreement", help="where the projects go")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=float, default=10.0, help="percent")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--per-process", action="store_true")
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()

    jobs = []
    for f in sorted(glob.glob(os.path.join(ROOT, "test", "e2e", "*.mlir"))):
        jobs.append((os.path.basename(f)[:-5], "kv260", f, None))
    # The ONNX e2e models, written where the projects go.
    onnx_dir = os.path.join(a.out, "onnx")
    gen = os.path.join(ROOT, "test", "onnx", "gen_models.py")
    names = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import gen_models; "
                            "print(' '.join(sorted(gen_models.MODELS)))", os.path.dirname(gen)],
                           capture_output=True, text=True).stdout.split()
    names = [n for n in names if a.only in n]
    if names:
        os.makedirs(onnx_dir, exist_ok=True)
        subprocess.run([sys.executable, gen, onnx_dir, *names], capture_output=True, text=True)
    for n in names:
        jobs.append((n, "kv260", os.path.join(onnx_dir, n + ".onnx"), None))
    for m in MLPERF:
        f = os.path.join(a.models, m + ".tflite")
        if os.path.exists(f):
            for b in a.boards.split(","):
                jobs.append((m, b, f, b))
    jobs = [j for j in jobs if a.only in j[0]]
    os.makedirs(a.out, exist_ok=True)

    def one(j):
        name, board, f, flag = j
        out = os.path.join(a.out, f"{name}-{board}")
        rep, err = run(a.ming_opt, f, flag, out, a.timeout)
        return j, rep, err

    rows = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for (name, board, _, _), rep, err in ex.map(one, jobs):
            if rep is None:
                rows.append({"name": name, "board": board, "error": err})
                print(f"{name:<28} {board:<7} {err}", flush=True)
                continue
            model, sim = rep["total"]["cycles"], rep["total"].get("simulated_cycles")
            ratio = sim / model if model and sim else None
            diff = 100.0 * (model - sim) / sim if sim else None
            bad = ratio is not None and max(ratio, 1 / ratio) > 1 + a.limit / 100
            rows.append({"name": name, "board": board, "model": model, "sim": sim,
                         "ratio": ratio, "diff_pct": diff, "over": bad})
            print(f"{name:<28} {board:<7} model {model:>9} sim {sim:>9} sim/model {ratio:6.3f}"
                  f" model-sim {diff:+6.1f}%{'  <-- over' if bad else ''}", flush=True)
            if bad and a.per_process:
                print("\n".join(per_process(rep)), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    over = [r for r in rows if r.get("over")]
    print(f"{len(rows)} rows, {len(over)} over {a.limit}%, "
          f"{sum(1 for r in rows if 'error' in r)} not built")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
