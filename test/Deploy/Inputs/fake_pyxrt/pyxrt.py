"""A test double of XRT's Python binding (pyxrt) for driver.py on Alveo
cards: the only piece that cannot be real without the card. Buffer objects
are byte arrays; running the kernel runs the project's C simulation on them
(inputs to data/in<i>.bin, the testbench binary of `make csim`, data/out<j>.bin
back), with the kernel's arguments in the order the driver passes them."""
import json
import os
import subprocess

PROJECT = os.environ["FAKE_PYNQ_PROJECT"]


class xclBOSyncDirection:
    XCL_BO_SYNC_BO_TO_DEVICE = "to device"
    XCL_BO_SYNC_BO_FROM_DEVICE = "from device"


class xclbin:
    def __init__(self, path):
        assert os.path.exists(path), path
        self.path = path


class device:
    def __init__(self, index):
        self.index = index

    def load_xclbin(self, image):
        return "uuid:" + image.path


class bo:
    normal = 0

    def __init__(self, dev, size, flags, group):
        self.data = bytearray(size)
        self.group = group

    def write(self, data, offset):
        self.data[offset:offset + len(data)] = data

    def read(self, size, offset):
        return bytes(self.data[offset:offset + size])

    def sync(self, direction):
        pass

    def size(self):
        return len(self.data)


class _run:
    def wait(self):
        return 0


class kernel:
    def __init__(self, dev, uuid, name):
        self.name = name
        self.ports = json.load(open(os.path.join(PROJECT, "report.json")))["ports"]

    def group_id(self, i):
        return i

    def __call__(self, *bos):
        assert len(bos) == len(self.ports)
        data = os.path.join(PROJECT, "data")
        ins = [b for b, p in zip(bos, self.ports) if p["direction"] == "in"]
        outs = [b for b, p in zip(bos, self.ports) if p["direction"] == "out"]
        for i, b in enumerate(ins):
            open(os.path.join(data, f"in{i}.bin"), "wb").write(bytes(b.data))
        subprocess.run([os.path.join(PROJECT, "build", self.name + "_csim")], cwd=PROJECT, check=True, capture_output=True)
        for j, b in enumerate(outs):
            raw = open(os.path.join(data, f"out{j}.bin"), "rb").read()
            assert len(raw) == len(b.data), (len(raw), len(b.data))
            b.data[:] = raw
        return _run()
