#!/usr/bin/env python3
"""Compile time of a model with about 1 MB of weights.

  .venv/bin/python bench/weights.py [--out DIR] [--ming-opt PATH]

Builds test/onnx's big_gemm (Gemm 256->1024, f32: 1 MiB of weights; --board zcu104,
whose BRAM holds it), then times:
  - ming-opt big_gemm.onnx --hls (import, flow, translation, project)
  - g++ of big_gemm_weights.cpp alone (the ROM initialisers, compiled once)
  - the whole `make csim` build from clean (kernel + testbench + weights object)
  - the rebuild after a change to the kernel (the weights object is reused)
and prints the file sizes. Timings on a shared machine are only comparable as ratios.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, **kw):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"weights.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="keep the work here (default: a temporary directory)")
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    a = ap.parse_args()
    work = a.out or tempfile.mkdtemp(prefix="ming-bench-weights-")
    os.makedirs(work, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "test", "onnx", "gen_models.py"), work, "big_gemm"],
                   check=True, capture_output=True)
    model = os.path.join(work, "big_gemm.onnx")
    prj = os.path.join(work, "prj")
    shutil.rmtree(prj, ignore_errors=True)
    rows = []
    rows.append(("ming-opt --hls (zcu104)", timed([a.ming_opt, model, "--hls", prj, "--board", "zcu104"])))
    weights = os.path.join(prj, "big_gemm_weights.cpp")
    kernel = os.path.join(prj, "big_gemm.cpp")
    rows.append(("g++ -O2 -c big_gemm_weights.cpp", timed(
        ["g++", "-std=c++17", "-O2", "-Iinclude", "-c", "big_gemm_weights.cpp", "-o", "/dev/null"], cwd=prj)))
    rows.append(("make csim build, clean", timed(["make", "-C", prj, "build/big_gemm_csim", "CXXFLAGS_EXTRA=-Werror"])))
    os.utime(kernel)
    rows.append(("make csim build, kernel changed", timed(["make", "-C", prj, "build/big_gemm_csim"])))
    rows.append(("csim run", timed(["make", "-C", prj, "csim"])))
    print(f"model: {os.path.getsize(model) / 2**20:.2f} MiB ONNX ({model})")
    print(f"big_gemm_weights.cpp {os.path.getsize(weights) / 2**20:.2f} MiB, big_gemm.cpp {os.path.getsize(kernel) / 1024:.1f} KiB")
    for name, t in rows:
        print(f"  {name:34s} {t:6.2f} s")
    if not a.out:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
