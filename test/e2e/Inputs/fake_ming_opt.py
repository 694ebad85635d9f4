#!/usr/bin/env python3
"""A stand-in for `ming-opt KERNEL --hls DIR` that tests scripts/e2e.py itself.
It writes a project whose `make csim` copies data/ref<j>.bin to data/out<j>.bin
(a perfect design) and prints PASS, or misbehaves as --mode says:
  loopback  outputs equal the references, testbench prints PASS
  corrupt   one element of out0 changed, testbench still prints PASS (e2e must
            catch it with its own comparison)
  tbfail    testbench prints FAIL and exits 1
  noout     testbench prints PASS but writes no outputs
  error     ming-opt itself fails with a diagnostic"""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("kernel")
ap.add_argument("--hls", required=True)
ap.add_argument("--mode", default="loopback")
a = ap.parse_args()
if a.mode == "error":
    print(f"{a.kernel}:1:1: error: fake ming-opt: unsupported kernel", file=sys.stderr)
    sys.exit(1)
os.makedirs(os.path.join(a.hls, "data"), exist_ok=True)
with open(os.path.join(a.hls, "csim.py"), "w") as f:
    f.write(f"""import glob, os, sys
mode = {a.mode!r}
os.chdir(os.path.dirname(os.path.abspath(__file__)))
if mode == "tbfail":
    print("FAIL: 3 mismatches")
    sys.exit(1)
for ref in sorted(glob.glob("data/ref*.bin")):
    out = ref.replace("ref", "out")
    b = bytearray(open(ref, "rb").read())
    if mode == "corrupt" and out.endswith("out0.bin"):
        b[len(b) // 2] ^= 0x01
    if mode != "noout":
        open(out, "wb").write(b)
print("PASS")
""")
with open(os.path.join(a.hls, "Makefile"), "w") as f:
    f.write(f"csim:\n\t{sys.executable} csim.py\n")
