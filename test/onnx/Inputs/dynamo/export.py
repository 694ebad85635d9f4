#!/usr/bin/env python3
"""Writes the ONNX models of this directory with PyTorch's dynamo-based exporter
(torch.onnx.export(..., dynamo=True): opset 20, weights as external data in
<name>.onnx.data), the way a PyTorch user gets them. They are committed so that
the tests need no PyTorch; rerun to refresh them:

  python export.py .  [model ...]     (needs torch and onnxscript)

Made with torch 2.15.0 and onnxscript 0.7.2. Each model has seeded weights and
BatchNorm statistics away from the identity, so that folding them shows.
"""
import torch, torch.nn as nn, torch.nn.functional as F, sys, os
torch.manual_seed(0)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

class MbBlock(nn.Module):
    def __init__(s):
        super().__init__()
        s.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6())
        s.dw = nn.Sequential(nn.Conv2d(16, 16, 3, 1, 1, groups=16, bias=False), nn.BatchNorm2d(16), nn.ReLU6())
        s.pw = nn.Sequential(nn.Conv2d(16, 16, 1, bias=False), nn.BatchNorm2d(16))
        s.fc = nn.Linear(16, 10)
    def forward(s, x):
        y = s.stem(x); y = y + s.pw(s.dw(y))
        y = F.adaptive_avg_pool2d(y, 1).flatten(1)
        return torch.softmax(s.fc(y), dim=-1)

class SE(nn.Module):
    def __init__(s):
        super().__init__()
        s.c = nn.Conv2d(3, 16, 3, padding=1); s.f1 = nn.Conv2d(16, 4, 1); s.f2 = nn.Conv2d(4, 16, 1)
        s.c2 = nn.Conv2d(16, 8, 1)
    def forward(s, x):
        y = F.hardswish(s.c(x))
        w = F.adaptive_avg_pool2d(y, 1)
        w = torch.sigmoid(s.f2(F.silu(s.f1(w))))
        y = y * w
        return F.leaky_relu(s.c2(y), 0.1)

class Shuffle(nn.Module):
    def __init__(s):
        super().__init__(); s.c = nn.Conv2d(4, 16, 3, padding=1); s.b = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        s.up = nn.Upsample(scale_factor=2, mode="nearest"); s.c3 = nn.Conv2d(16, 4, 1)
    def forward(s, x):
        y = torch.relu(s.c(x))
        a, b = y.chunk(2, dim=1)
        y = torch.cat([a, torch.tanh(s.b(b))], dim=1)
        n, c, h, w = y.shape
        y = y.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, c, h, w)
        y = F.avg_pool2d(y, 2)
        return s.c3(s.up(y))

class Conv1(nn.Module):
    def __init__(s):
        super().__init__(); s.c = nn.Conv1d(2, 8, 5, padding=2); s.bn = nn.BatchNorm1d(8); s.c2 = nn.Conv1d(8, 8, 3, stride=2)
    def forward(s, x):
        y = F.elu(s.bn(s.c(x)))
        y = F.max_pool1d(y, 2)
        return torch.log_softmax(s.c2(y).mean(-1), dim=-1)

def init_bn(m):
    for mod in m.modules():
        if isinstance(mod, (nn.BatchNorm2d, nn.BatchNorm1d)):
            mod.running_mean.uniform_(-0.5, 0.5); mod.running_var.uniform_(0.5, 2); mod.weight.data.uniform_(0.5, 1.5); mod.bias.data.uniform_(-0.2, 0.2)
    return m

models = {
    "mbblock": (MbBlock(), (1, 3, 32, 32)),
    "se": (SE(), (1, 3, 16, 16)),
    "shuffle": (Shuffle(), (1, 4, 16, 16)),
    "conv1d": (Conv1(), (1, 2, 64)),
}
sel = sys.argv[2:] or list(models)
for name in sel:
    m, shape = models[name]
    m = init_bn(m).eval()
    x = torch.rand(*shape) * 2 - 1
    path = os.path.join(out, name + ".onnx")
    try:
        torch.onnx.export(m, (x,), path, dynamo=True, input_names=["x"], output_names=["y"])
        print("exported", path)
    except Exception as e:
        print("FAILED", name, type(e).__name__, str(e)[:300])
