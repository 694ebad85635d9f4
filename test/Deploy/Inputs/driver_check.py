#!/usr/bin/env python3
"""Runs a generated driver.py against a test double of the board runtime
(fake_pynq/ for PYNQ, fake_pyxrt/ for XRT: the only piece that cannot be
real here) whose kernel is the project's C simulation.

    driver_check.py PROJECT pynq|xrt

PROJECT has been built with `make csim` on its deterministic inputs, and
its data/out<j>.bin moved to data/expect<j>.bin. Checks, printing one line
each: the driver's own deterministic inputs are the testbench's (its outputs
equal expect<j>.bin byte for byte), outputs are numpy arrays of the
argument's dtype and shape, a wrong input size is a ValueError, and the
command line (`driver.py --bench 3`) writes data/out<j>.bin and prints the
latency.
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
prj, runtime = sys.argv[1], sys.argv[2]
os.environ["FAKE_PYNQ_PROJECT"] = prj
fake = os.path.join(HERE, "fake_pynq" if runtime == "pynq" else "fake_pyxrt")
sys.path[:0] = [fake, prj]

import json  # noqa: E402

top = json.load(open(os.path.join(prj, "report.json")))["top"]
os.makedirs(os.path.join(prj, "deploy"), exist_ok=True)
# What `make bitstream` / `make xclbin` would have left in deploy/.
for ext in ([".bit", ".hwh"] if runtime == "pynq" else [".xclbin"]):
    open(os.path.join(prj, "deploy", top + ext), "w").write("fake\n")

import driver  # noqa: E402

xs = [driver.deterministic(p, i + 1) for i, p in enumerate(driver.inputs())]
acc = driver.Accelerator()
ys = acc(*xs)
for j, (y, port) in enumerate(zip(ys, driver.outputs())):
    want = np.fromfile(os.path.join(prj, "data", f"expect{j}.bin"), dtype=np.dtype(port[3]).newbyteorder("<"))
    assert isinstance(y, np.ndarray) and y.dtype == np.dtype(port[3]) and y.shape == tuple(port[2]), (y.dtype, y.shape)
    same = y.tobytes() == want.astype(port[3]).tobytes()
    print(f"module: out{j} {port[4]} {'equal to' if same else 'DIFFERS from'} the C simulation ({y.nbytes} bytes)")
# The same accelerator again, inputs given as plain lists of another dtype.
ys2 = acc(*[x.astype(np.float64).tolist() for x in xs])
print("module: second run " + ("equal" if all(a.tobytes() == b.tobytes() for a, b in zip(ys, ys2)) else "DIFFERENT"))
try:
    acc(*[np.zeros(3) for _ in xs])
    print("module: a wrong input size was accepted")
except ValueError as e:
    print(f"module: ValueError: {e}")

for j in range(len(ys)):
    os.remove(os.path.join(prj, "data", f"out{j}.bin")) if os.path.exists(os.path.join(prj, "data", f"out{j}.bin")) else None
for i in range(len(xs)):
    p = os.path.join(prj, "data", f"in{i}.bin")
    if os.path.exists(p):
        os.remove(p)
env = dict(os.environ, PYTHONPATH=fake)
run = subprocess.run([sys.executable, os.path.join(prj, "driver.py"), "--bench", "3"], capture_output=True, text=True, env=env)
print(run.stdout.strip())
if run.returncode != 0:
    print(run.stderr)
    sys.exit(1)
for j, port in enumerate(driver.outputs()):
    got = open(os.path.join(prj, "data", f"out{j}.bin"), "rb").read()
    want = open(os.path.join(prj, "data", f"expect{j}.bin"), "rb").read()
    print(f"cli: out{j}.bin {'equal to' if got == want else 'DIFFERS from'} the C simulation")
