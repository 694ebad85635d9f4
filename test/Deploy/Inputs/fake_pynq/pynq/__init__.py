"""A test double of PYNQ for driver.py: the only piece of the deployment
chain that cannot be real on a machine without the board.

`allocate` gives numpy arrays with a fake physical address, `Overlay(bit)`
checks that the .bit has its .hwh next to it and offers the kernel as
`<top>_0`, an IP whose AXI-lite registers behave like the ones Vitis HLS
generates: the driver writes each argument's buffer address (low and high
word) at the offsets of the exported register map (<top>_hw.h, else the
standard layout), then ap_start. The kernel itself is the project's C
simulation: on ap_start the IP writes the input buffers to data/in<i>.bin,
runs the testbench binary built by `make csim` and copies data/out<j>.bin
into the output buffers, then reports ap_done. So the driver's buffer
layout (dtype, shape, byte order, which buffer is which argument, the
register offsets) meets the real kernel's numbers.
"""
import os
import re
import subprocess

import numpy as np

PROJECT = os.environ["FAKE_PYNQ_PROJECT"]
_buffers = {}
_next = [0x7000_0000_0000]
log = []


class PynqBuffer(np.ndarray):
    def flush(self):
        log.append(("flush", self.device_address))

    def invalidate(self):
        log.append(("invalidate", self.device_address))


def allocate(shape, dtype):
    buf = np.zeros(shape, dtype=dtype).view(PynqBuffer)
    buf.device_address = _next[0]
    _next[0] += 0x1_0000_0000  # above 4 GiB: the high address word matters
    _buffers[buf.device_address] = buf
    return buf


def register_layout(top, nargs):
    """Offsets of the address registers: the exported map when there is one."""
    offsets = {f"arg{i}": 0x10 + 12 * i for i in range(nargs)}
    hw = os.path.join(PROJECT, "deploy", top + "_hw.h")
    if os.path.exists(hw):
        for m in re.finditer(r"_ADDR_(\w+?)_DATA\s+0x([0-9a-fA-F]+)", open(hw).read()):
            offsets[m.group(1).lower()] = int(m.group(2), 16)
    return offsets


class KernelIP:
    def __init__(self, top):
        import json
        self.top = top
        self.ports = json.load(open(os.path.join(PROJECT, "report.json")))["ports"]
        self.regs = {}
        self.done = False
        self.starts = 0

    def write(self, offset, value):
        assert 0 <= value < 2**32, f"register writes are 32-bit, got {value:#x} at {offset:#x}"
        self.regs[offset] = value
        if offset == 0 and value & 1:
            self.run()

    def read(self, offset):
        if offset == 0:
            return (2 if self.done else 0) | 4
        return self.regs.get(offset, 0)

    def run(self):
        self.starts += 1
        offsets = register_layout(self.top, len(self.ports))
        data = os.path.join(PROJECT, "data")
        arrays = []
        for p in self.ports:
            o = offsets[p["name"]]
            address = self.regs[o] | self.regs[o + 4] << 32
            buf = _buffers[address]
            assert buf.dtype == np.dtype(p["dtype"]) and list(buf.shape) == p["shape"], (p, buf.dtype, buf.shape)
            arrays.append((p, buf))
        i = 0
        for p, buf in arrays:
            if p["direction"] == "in":
                np.asarray(buf).astype(np.dtype(p["dtype"]).newbyteorder("<")).tofile(os.path.join(data, f"in{i}.bin"))
                i += 1
        exe = os.path.join(PROJECT, "build", self.top + "_csim")
        subprocess.run([exe], cwd=PROJECT, check=True, capture_output=True)
        j = 0
        for p, buf in arrays:
            if p["direction"] == "out":
                raw = np.fromfile(os.path.join(data, f"out{j}.bin"), dtype=np.dtype(p["dtype"]).newbyteorder("<"))
                buf[...] = raw.reshape(buf.shape)
                j += 1
        self.done = True


class Overlay:
    def __init__(self, bitfile):
        assert os.path.exists(bitfile), bitfile
        assert os.path.exists(os.path.splitext(bitfile)[0] + ".hwh"), "PYNQ needs the .hwh next to the .bit"
        top = os.path.splitext(os.path.basename(bitfile))[0]
        setattr(self, top + "_0", KernelIP(top))
