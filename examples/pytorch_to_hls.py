#!/usr/bin/env python3
"""The PyTorch path: a torch.nn.Module -> ONNX (torch.onnx.export) -> ming-opt --hls.

  .venv/bin/python examples/pytorch_to_hls.py [--out DIR] [--ming-opt PATH]

1. builds a small CNN in PyTorch (conv 3->8 3x3 pad 1, ReLU, max pool 2x2,
   conv 8->8 3x3 pad 1, ReLU) with seeded weights, batch 1, 3x32x32, f32;
2. exports it with torch.onnx.export (opset 17, static shapes) to DIR/tiny_cnn.onnx;
3. compiles and checks it exactly like any ONNX model: scripts/e2e_onnx.py runs
   `ming-opt DIR/tiny_cnn.onnx --hls DIR/check/prj`, `make csim` and compares with
   onnxruntime (the project is kept).

PyTorch is not in scripts/requirements.txt (it is large). Without it the script
says so and exits 0 (skipped); `.venv/bin/pip install torch` enables it.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "pytorch"), help="work directory (default out/pytorch)")
    ap.add_argument("--ming-opt", default=os.path.join(ROOT, "target", "release", "ming-opt"))
    a = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("pytorch_to_hls.py: skipped: PyTorch is not installed (.venv/bin/pip install torch to run this example)")
        return 0

    class TinyCnn(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.pool = torch.nn.MaxPool2d(2)
            self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)

        def forward(self, x):
            x = self.pool(torch.relu(self.conv1(x)))
            return torch.relu(self.conv2(x))

    torch.manual_seed(0)
    model = TinyCnn().eval()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "tiny_cnn.onnx")
    example = torch.rand(1, 3, 32, 32) * 2 - 1
    kwargs = dict(input_names=["x"], output_names=["y"], opset_version=17)
    try:
        # The TorchScript exporter keeps shapes static and needs no onnxscript.
        torch.onnx.export(model, (example,), path, dynamo=False, **kwargs)
    except TypeError:  # releases before the `dynamo` argument
        torch.onnx.export(model, (example,), path, **kwargs)
    print(f"pytorch_to_hls.py: exported {path}")
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "e2e_onnx.py"), path,
           "--work", os.path.join(a.out, "check"), "--keep", "--ming-opt", a.ming_opt]
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
