#!/usr/bin/env python3
"""The BENCHMARKS.md table: every paper kernel at 32x32 and 224x224 on kv260, and conv_relu
32x32 under DSP caps, compiled by `ming-opt --hls` side by side in one run.

    .venv/bin/python bench/run.py [--ming-opt PATH] [--out DIR] [--quick]

For each design it reads OUT/report.json (the DSE's estimate of ming's design and of the
Vanilla baseline, both from the same cost model) and prints, per kernel and size:
cycles, DSP, BRAM18K of ming and of the baseline; speedup = baseline cycles / cycles;
E_DSP = speedup / (DSP / baseline DSP); DSP busy = MACs / (cycles x DSP used); budget =
(MACs / DSP limit) / cycles; compile time of the whole flow and of the ILP; ILP status.
MACs are counted from the kernel itself (trip counts of every reduction with a multiply,
from ming's kernel analysis). Only ratios are stable on a shared 2-core machine.

A second table sets the cycle-level simulation (rust/sim, docs/simulator.md) next to the
model: simulated cycles of the design as written (minimised FIFOs), with the DSE's FIFO
depths and with unbounded FIFOs, the FIFO bits and BRAM18K before and after minimisation,
and the seconds the simulator took (minimisation included).

The DSE's targets are checked and listed at the end (never a test: a miss is printed,
the exit status stays 0 unless a compile fails).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
E2E = os.path.join(ROOT, "test", "e2e")
sys.path.insert(0, os.path.join(E2E, "Inputs"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))


def kernels(tmp, quick):
    """(label, size, path) of every benchmark kernel; 224 variants are generated here."""
    import gen_kernels as G
    out = [("conv_relu", 32, os.path.join(E2E, "conv_relu_i8.mlir")),
           ("cascade_conv", 32, os.path.join(E2E, "cascade_conv_i8.mlir")),
           ("residual_block", 32, os.path.join(E2E, "residual_block_i8.mlir")),
           ("linear", 0, os.path.join(E2E, "linear_i8.mlir")),
           ("feed_forward", 0, os.path.join(E2E, "feed_forward_i8.mlir"))]
    if not quick:
        big = {"conv_relu": lambda: G.kernel_conv_relu_i8(224),
               "cascade_conv": lambda: G.kernel_cascade_conv_i8(224),
               "residual_block": lambda: G.kernel_residual_block_i8(224)}
        for name, make in big.items():
            path = os.path.join(tmp, f"{name}_224.mlir")
            with open(path, "w") as f:
                f.write(make())
            out.insert([o[0] for o in out].index(name) + 1, (name, 224, path))
    return out


def macs(ming_opt, path):
    """Multiply-accumulates of the kernel: for each linalg op with a multiply in its payload
    and a reduction, the product of its loop trip counts (ming's kernel analysis remarks)."""
    r = subprocess.run([*ming_opt, path, "--linalg-generalize-named-ops", "--ming-test-kernel-analysis",
                        "--mlir-print-op-on-diagnostic=false", "-o", os.devnull],
                       capture_output=True, text=True)
    total = 0
    for line in r.stderr.splitlines():
        if "remark: kernel:" not in line or "regular_reduction" not in line and "sliding_window" not in line:
            continue
        trips = re.search(r"trips=\[([0-9, ]+)\]", line)
        ops = re.search(r"ops=\[([^\]]*)\]", line)
        if trips and ops and ("arith.muli" in ops.group(1) or "arith.mulf" in ops.group(1)):
            n = 1
            for t in trips.group(1).split(","):
                n *= int(t)
            total += n
    return total


def compile_one(ming_opt, path, out, extra):
    t0 = time.perf_counter()
    r = subprocess.run([*ming_opt, path, "--hls", out, *extra], capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if r.returncode != 0:
        return None, seconds, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f), seconds, ""


def fmt(v, digits=0):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}" if digits else f"{v:.3g}"
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    ap.add_argument("--out", help="keep the generated projects here")
    ap.add_argument("--quick", action="store_true", help="32x32 only")
    args = ap.parse_args()
    ming_opt = args.ming_opt.split()
    tmp = tempfile.mkdtemp(prefix="ming-bench-")
    work = args.out or tmp
    os.makedirs(work, exist_ok=True)
    runs = [(label, size, path, []) for label, size, path in kernels(tmp, args.quick)]
    conv32 = os.path.join(E2E, "conv_relu_i8.mlir")
    runs += [("conv_relu", 32, conv32, ["--dsp", str(cap)]) for cap in (250, 50)]

    header = ("| kernel | size | MACs | DSP limit | cycles | DSP | BRAM | base cycles | base DSP | base BRAM "
              "| speedup | E_DSP | DSP busy | budget | compile s | ILP s | ILP |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    misses, failed = [], 0
    results = {}
    for label, size, path, extra in runs:
        tag = f"{label}_{size or ''}{'_' + '_'.join(extra).replace('--', '') if extra else ''}"
        report, seconds, err = compile_one(ming_opt, path, os.path.join(work, tag), extra)
        if report is None:
            failed += 1
            print(f"| {label} | {size or '-'} | {' '.join(extra) or 'kv260'} | compile failed: {err} |")
            continue
        total, base = report.get("total", {}), report.get("baseline", {})
        limit = report.get("board", {}).get("dsp")
        dse = report.get("dse", {})
        cyc, dsp, bram = total.get("cycles"), total.get("dsp"), total.get("bram18k")
        bcyc, bdsp, bbram = base.get("cycles"), base.get("dsp"), base.get("bram18k")
        n = macs(ming_opt, path)
        speed = bcyc / cyc if cyc and bcyc else None
        edsp = speed / (dsp / bdsp) if speed and dsp and bdsp else None
        busy = n / (cyc * dsp) if cyc and dsp else None
        budget = (n / limit) / cyc if cyc and limit else None
        results[(label, size, tuple(extra))] = dict(cycles=cyc, dsp=dsp, bram=bram, busy=busy, limit=limit,
                                                    status=dse.get("status"), seconds=seconds,
                                                    sim=report.get("simulation") or {},
                                                    simulated=total.get("simulated_cycles"))
        print(f"| {label} | {size or '-'} | {n} | {limit} | {fmt(cyc)} | {fmt(dsp)} | {fmt(bram)} | {fmt(bcyc)} "
              f"| {fmt(bdsp)} | {fmt(bbram)} | {fmt(speed, 1)} | {fmt(edsp, 2)} | {fmt(busy, 2)} "
              f"| {fmt(budget, 2)} | {seconds:.2f} | {fmt(dse.get('seconds'), 2)} | {dse.get('status', '-')} |")

    print()
    sim_header = ("| kernel | size | extra | model cycles | simulated | sim / model | DSE depths | unbounded "
                  "| FIFO bits | FIFO BRAM | simulations | sim s |")
    print(sim_header)
    print("|" + "---|" * (sim_header.count("|") - 1))
    for (label, size, extra), r in results.items():
        sim, m = r["sim"], (r["sim"].get("fifo_minimization") or {})
        ratio = r["simulated"] / r["cycles"] if r["simulated"] and r["cycles"] else None
        bits = f"{m['bits_before']} -> {m['bits_after']}" if m else "-"
        bram = f"{m['bram18k_before']} -> {m['bram18k_after']}" if m else "-"
        print(f"| {label} | {size or '-'} | {' '.join(extra) or '-'} | {fmt(r['cycles'])} | {fmt(r['simulated'])} "
              f"| {fmt(ratio, 2)} | {fmt(sim.get('dse_depth_cycles'))} | {fmt(m.get('unbounded_cycles'))} | {bits} "
              f"| {bram} | {fmt(m.get('simulations'))} | {fmt(sim.get('seconds'), 3)} |")

    # The DSE's targets, reported (not asserted).
    for key, r in results.items():
        label, size, extra = key
        name = f"{label} {size or ''} {' '.join(extra)}".strip()
        if r["status"] != "optimal":
            misses.append(f"{name}: ILP status {r['status']}")
        if r["dsp"] is not None and r["limit"] is not None and r["dsp"] > r["limit"]:
            misses.append(f"{name}: {r['dsp']} DSP over the limit {r['limit']}")
        if r["seconds"] > 2.0:
            misses.append(f"{name}: compile {r['seconds']:.2f} s > 2 s")
        if label in ("linear", "feed_forward") and (r["busy"] or 0) < 0.8:
            misses.append(f"{name}: DSP busy {fmt(r['busy'], 2)} < 0.8")
    c32 = results.get(("conv_relu", 32, ()))
    if c32 and c32["cycles"] and c32["cycles"] >= 32 * 32:
        misses.append(f"conv_relu 32: {c32['cycles']} cycles, not above one output pixel per cycle")
    for label in ("conv_relu", "cascade_conv", "residual_block"):
        a, b = results.get((label, 32, ())), results.get((label, 224, ()))
        if a and b and a["bram"] is not None and b["bram"] is not None and b["bram"] > a["bram"] * 224 / 32:
            misses.append(f"{label}: BRAM {a['bram']} at 32 -> {b['bram']} at 224")
    print()
    print("targets: all met" if not misses else "targets missed:\n  " + "\n  ".join(misses))
    if not args.out:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
