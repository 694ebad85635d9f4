#!/usr/bin/env python3
"""A generated project's C simulation with Xilinx's headers in place of ming's.

    vendor_csim.py --headers AP_TYPES --work DIR -- INPUT [ming-opt options]

1. `ming-opt INPUT --hls DIR/prj [options]`, then `make csim` with the
   project's own headers (threads, bounded FIFOs): its outputs become
   data/ref*.bin.
2. A stand-in for a Vitis install, DIR/vitis/include: Xilinx's ap_int.h,
   ap_fixed.h and the rest from AP_TYPES, and as hls_stream.h their stream
   model with Vitis's depth parameter (vitis_stream_depth.h). Then
   `make clean csim XILINX_HLS=DIR/vitis`, exactly as a user with Vitis
   installed runs it: the Makefile puts that folder first, ming_dataflow.h
   sees a stream that is not ming's and calls the processes one after the
   other (producer order) on unbounded FIFOs, ap types are Xilinx's. The
   testbench compares with step 1 bit for bit (floats within its tolerance).

3. With --tcl-stub: run_hls.tcl in tclsh with Vitis HLS's commands stubbed
   (test/Deploy/Inputs/vitis_hls_stub.tcl), whose csim_design compiles the
   files the script adds, with their -cflags, after XILINX_HLS/include, and
   runs the testbench in the csim build folder with the data copied there,
   as Vitis does: it must PASS against the same references.

Prints one line per step; exit status 0 only when both pass, the vendor run
never read an empty stream (which would mean a consumer ran before its
producer) and left no data behind.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def vitis_stand_in(headers, root):
    inc = os.path.join(root, "include")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(inc)
    for name in os.listdir(headers):
        target = "xilinx_hls_stream.h" if name == "hls_stream.h" else name
        os.symlink(os.path.join(headers, name), os.path.join(inc, target))
    shutil.copy(os.path.join(HERE, "vitis_stream_depth.h"), os.path.join(inc, "hls_stream.h"))
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--headers", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--tcl-stub")
    ap.add_argument("ming_opt", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = [a for a in args.ming_opt if a != "--"]
    prj = os.path.join(args.work, "prj")
    os.makedirs(args.work, exist_ok=True)
    status, log = run(["ming-opt", cmd[0], "--hls", prj] + cmd[1:])
    if status != 0:
        print(f"ming-opt failed ({status}):\n{log}")
        return 1
    status, log = run(["make", "-s", "-C", prj, "csim", "CXXFLAGS_EXTRA=-Werror"])
    if status != 0:
        print(f"csim with ming's headers failed ({status}):\n{log}")
        return 1
    data = os.path.join(prj, "data")
    outs = sorted(f for f in os.listdir(data) if f.startswith("out"))
    for f in outs:
        os.replace(os.path.join(data, f), os.path.join(data, "ref" + f[3:]))
    print(f"ming headers: {len(outs)} output(s)")

    vitis = vitis_stand_in(os.path.abspath(args.headers), os.path.join(args.work, "vitis"))
    # ap_fixed.h too: it must coexist with the kernel's ap_int.h, as in Vitis.
    status, log = run(["make", "-s", "-C", prj, "clean", "csim", f"XILINX_HLS={vitis}", "CXXFLAGS_EXTRA=-include ap_fixed.h"])
    verdict = [line for line in log.splitlines() if line.startswith(("PASS", "FAIL"))]
    print("xilinx headers: " + (verdict[-1] if verdict else f"no verdict (exit {status})"))
    problems = [line for line in log.splitlines() if "Hls::stream" in line]
    for line in problems[:5]:
        print("vendor stream: " + line.strip())
    if status != 0 or not verdict or problems:
        print(log)
        return 1
    if args.tcl_stub:
        with open(os.path.join(prj, "report.json")) as f:
            import json
            report = json.load(f)
        part, mhz = report["board"]["part"], report["board"]["clock_mhz"]
        period = ("%.3f" % (1000.0 / mhz)).rstrip("0").rstrip(".")
        status, log = run(["tclsh", args.tcl_stub, os.path.join(prj, "run_hls.tcl"), f"top={report['top']}", f"part={part}",
                           f"period={period}", "flow=vivado", "csim=1", "--", "csim"], env=dict(os.environ, XILINX_HLS=vitis))
        verdict = [line for line in log.splitlines() if line.startswith(("PASS", "FAIL"))]
        print("run_hls.tcl csim: " + (verdict[-1] if verdict else f"no verdict (exit {status})"))
        if status != 0 or not verdict or "Hls::stream" in log:
            print(log)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
