#!/usr/bin/env python3
"""Writes the end-to-end kernels of test/e2e/ (checked in; re-run only to change them):
  .venv/bin/python test/e2e/Inputs/gen_kernels.py [--check] [OUTDIR]     (default: test/e2e)
With --check, every written kernel is also run by scripts/mlir_reference.py on e2e.py's
seed-0 inputs and compared with a numpy model built alongside the MLIR text.

Every kernel is one func.func on tensors in the style of IREE's importers:
tensor.pad + named linalg ops + linalg.generic requantisation, weights as dense
constants (small ones as literals, big ones as dense_resource blobs). Integer kernels
follow shared/BENCHMARKS.md: i8 data and weights, i32 accumulation, per-tensor
requantisation (acc + bias) * M >> S clamped to [-128, 127] (ReLU: clamp low 0).
Weights are small (|w| <= 8) and M below 128 so that every i32 intermediate stays
far below 2^31 (checked here with numpy on extreme inputs). Weights are deterministic
(fixed seeds)."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
RUN = "// RUN: %python %root/scripts/e2e.py %s --work %t"


def e2e_inputs(args):
    """The inputs scripts/e2e.py makes with --seed 0."""
    import e2e
    import mlir_reference as R

    class Sig:
        pass
    sig = Sig()
    sig.args = [R.TensorType(tt(s, e)) for s, e in args]
    return e2e.make_inputs(sig, 0)


def wide(a):
    return a.astype(np.float64) if a.dtype.kind == "f" else a.astype(np.int64)


def bcast(b, rank, dim):
    shape = [1] * rank
    shape[dim] = b.size
    return b.reshape(shape)


def np_conv_nchw(x, w, stride=1, dil=1):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - dil * (kh - 1) - 1) // stride + 1
    ow = (wd - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, f, oh, ow), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dil: i * dil + stride * (oh - 1) + 1: stride,
                      j * dil: j * dil + stride * (ow - 1) + 1: stride]
            out = out + np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out


def tt(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def flit(v):
    return np.format_float_positional(np.float32(v), unique=True, trim="0")


def literal(a, elem):
    def rec(x):
        if x.ndim == 0:
            return flit(x) if elem == "f32" else str(int(x))
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return f"dense<{rec(a)}>"


class K:
    """Builds one kernel function as text."""

    def __init__(self, name, args, seed):
        self.name, self.args = name, args  # args: [(shape, elem)]
        self.rng = np.random.default_rng(seed)
        self.body, self.maps, self.blobs = [], {}, []
        self.n = 0
        # numpy model of the kernel on e2e.py's inputs for seed 0 (int64 / float64 values)
        self.inputs = e2e_inputs(args)
        self.v = {f"%arg{i}": wide(a) for i, a in enumerate(self.inputs)}

    def fresh(self, hint):
        self.n += 1
        return f"%{hint}{self.n}"

    def emit(self, line):
        self.body.append("  " + line)

    def amap(self, name, text):
        self.maps[name] = text
        return f"#{name}"

    # ---- weights
    def weights_i8(self, shape, lim=8):
        return self.rng.integers(-lim, lim + 1, size=shape).astype(np.int8)

    def weights_f32(self, shape, fan_in):
        return (self.rng.uniform(-1, 1, size=shape) / np.sqrt(fan_in)).astype(np.float32)

    def const(self, a, elem, hint="w", resource=False):
        v = self.fresh(hint)
        t = tt(a.shape, elem)
        if resource:
            key = f"{self.name}_{v[1:]}"
            self.blobs.append((key, "0x04000000" + np.ascontiguousarray(a).tobytes().hex().upper()))
            self.emit(f"{v} = arith.constant dense_resource<{key}> : {t}")
        else:
            self.emit(f"{v} = arith.constant {literal(a, elem)} : {t}")
        self.v[v] = wide(a)
        return v

    def scalar(self, value, elem):
        v = self.fresh("c")
        lit = flit(value) if elem == "f32" else str(value)
        self.emit(f"{v} = arith.constant {lit} : {elem}")
        self.v[v] = value
        return v

    # ---- ops
    def init(self, shape, elem, zero=0):
        e = self.fresh("empty")
        self.emit(f"{e} = tensor.empty() : {tt(shape, elem)}")
        self.v[e] = np.zeros(shape)
        if zero is None:
            return e
        z = self.scalar(zero, elem)
        f = self.fresh("init")
        self.emit(f"{f} = linalg.fill ins({z} : {elem}) outs({e} : {tt(shape, elem)}) -> {tt(shape, elem)}")
        self.v[f] = np.full(shape, zero)
        return f

    def pad(self, x, shape, elem, p, nhwc=False):
        if p == 0:
            return x, shape
        z = self.scalar(0, elem)
        if nhwc:
            lo, out = f"[0, {p}, {p}, 0]", (shape[0], shape[1] + 2 * p, shape[2] + 2 * p, shape[3])
        else:
            lo, out = f"[0, 0, {p}, {p}]", (shape[0], shape[1], shape[2] + 2 * p, shape[3] + 2 * p)
        v = self.fresh("padded")
        self.emit(f"{v} = tensor.pad {x} low{lo} high{lo} {{")
        self.emit("^bb0(%i: index, %j: index, %k: index, %l: index):")
        self.emit(f"  tensor.yield {z} : {elem}")
        self.emit(f"}} : {tt(shape, elem)} to {tt(out, elem)}")
        pads = ((0, 0), (p, p), (p, p), (0, 0)) if nhwc else ((0, 0), (0, 0), (p, p), (p, p))
        self.v[v] = np.pad(self.v[x], pads)
        return v, out

    def conv(self, x, shape, elem, w, wshape, acc, pad=1, stride=1, dil=1):
        """tensor.pad + linalg.conv_2d_nchw_fchw; returns (value, shape)."""
        xp, ps = self.pad(x, shape, elem, pad)
        f, _, kh, kw = wshape
        oh = (ps[2] - dil * (kh - 1) - 1) // stride + 1
        ow = (ps[3] - dil * (kw - 1) - 1) // stride + 1
        os_ = (ps[0], f, oh, ow)
        init = self.init(os_, acc, 0.0 if acc == "f32" else 0)
        v = self.fresh("conv")
        self.emit(f"{v} = linalg.conv_2d_nchw_fchw {{dilations = dense<{dil}> : tensor<2xi64>, "
                  f"strides = dense<{stride}> : tensor<2xi64>}}")
        self.emit(f"    ins({xp}, {w} : {tt(ps, elem)}, {tt(wshape, elem)}) outs({init} : {tt(os_, acc)}) "
                  f"-> {tt(os_, acc)}")
        self.v[v] = np_conv_nchw(self.v[xp], self.v[w], stride, dil)
        return v, os_

    def generic(self, ins, out_shape, out_elem, maps, body, iters=None, hint="y", model=None):
        """ins: [(value, shape, elem, map)]; body: lines using %a0.. for inputs; yields %r."""
        rank = len(out_shape)
        idm = self.amap(f"id{rank}", "affine_map<(" + ", ".join(f"d{i}" for i in range(rank)) + ") -> ("
                        + ", ".join(f"d{i}" for i in range(rank)) + ")>")
        e = self.init(out_shape, out_elem, None)
        iters = iters or ["parallel"] * rank
        v = self.fresh(hint)
        ms = ", ".join(maps + [idm])
        its = ", ".join(f'"{i}"' for i in iters)
        self.emit(f"{v} = linalg.generic {{indexing_maps = [{ms}], iterator_types = [{its}]}}")
        self.emit(f"    ins({', '.join(i[0] for i in ins)} : {', '.join(tt(i[1], i[2]) for i in ins)}) "
                  f"outs({e} : {tt(out_shape, out_elem)}) {{")
        bb = ", ".join(f"%a{k}: {i[2]}" for k, i in enumerate(ins)) + f", %out: {out_elem}"
        self.emit(f"^bb0({bb}):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"  linalg.yield %r : {out_elem}")
        self.emit(f"}} -> {tt(out_shape, out_elem)}")
        self.v[v] = model(*[self.v[i[0]] for i in ins])
        return v

    def requant(self, acc, shape, bias, m, s, lo, hi, bias_dim=1):
        """(acc + bias[c]) * m >> s, clamp [lo, hi], to i8. bias_dim: which dim is c."""
        rank = len(shape)
        ds = ", ".join(f"d{i}" for i in range(rank))
        bm = self.amap(f"bias{rank}_{bias_dim}", f"affine_map<({ds}) -> (d{bias_dim})>")
        idm = self.amap(f"id{rank}", f"affine_map<({ds}) -> ({ds})>")
        return self.generic(
            [(acc, shape, "i32", idm), (bias, (shape[bias_dim],), "i32", bm)], shape, "i8", [idm, bm],
            [f"%m = arith.constant {m} : i32", f"%s = arith.constant {s} : i32",
             f"%lo = arith.constant {lo} : i32", f"%hi = arith.constant {hi} : i32",
             "%0 = arith.addi %a0, %a1 : i32", "%1 = arith.muli %0, %m : i32",
             "%2 = arith.shrsi %1, %s : i32", "%3 = arith.maxsi %2, %lo : i32",
             "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"], hint="q",
            model=lambda a, b: np.clip((a + bcast(b, rank, bias_dim)) * m >> s, lo, hi))

    def bias_f32(self, x, shape, bias, relu, bias_dim=1):
        rank = len(shape)
        ds = ", ".join(f"d{i}" for i in range(rank))
        bm = self.amap(f"bias{rank}_{bias_dim}", f"affine_map<({ds}) -> (d{bias_dim})>")
        idm = self.amap(f"id{rank}", f"affine_map<({ds}) -> ({ds})>")
        body = ["%r = arith.addf %a0, %a1 : f32"]
        if relu:
            body = ["%z = arith.constant 0.0 : f32", "%0 = arith.addf %a0, %a1 : f32",
                    "%r = arith.maximumf %0, %z : f32"]
        return self.generic([(x, shape, "f32", idm), (bias, (shape[bias_dim],), "f32", bm)],
                            shape, "f32", [idm, bm], body, hint="b",
                            model=lambda a, b: (np.maximum if relu else lambda t, _: t)(a + bcast(b, rank, bias_dim), 0.0))

    def matmul(self, a, ashape, b, bshape, elem, acc):
        out = (ashape[0], bshape[1])
        init = self.init(out, acc, 0.0 if acc == "f32" else 0)
        v = self.fresh("mm")
        self.emit(f"{v} = linalg.matmul ins({a}, {b} : {tt(ashape, elem)}, {tt(bshape, elem)}) "
                  f"outs({init} : {tt(out, acc)}) -> {tt(out, acc)}")
        self.v[v] = self.v[a] @ self.v[b]
        return v, out

    def text(self, results, header):
        K.last = self
        self.model = [self.v[r] for r, _, _ in results]
        sig = ", ".join(f"%arg{i}: {tt(s, e)}" for i, (s, e) in enumerate(self.args))
        res = ", ".join(tt(s, e) for _, s, e in results)
        lines = [f"// {l}" if l else "//" for l in header.strip().splitlines()]
        lines += [f"#{k} = {v}" for k, v in self.maps.items()]
        lines.append(f"func.func @{self.name}({sig}) -> {res if len(results) == 1 else '(' + res + ')'} {{")
        lines += self.body
        lines.append("  return " + ", ".join(r for r, _, _ in results) + " : " + res)
        lines.append("}")
        if self.blobs:
            lines += ["", "{-#", "  dialect_resources: {", "    builtin: {"]
            lines += [f'      {k}: "{v}"' + ("," if i + 1 < len(self.blobs) else "")
                      for i, (k, v) in enumerate(self.blobs)]
            lines += ["    }", "  }", "#-}"]
        return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ integer layers
def check_range(what, acc_bound, m):
    # bound of |(acc + bias) * m| must be far from 2^31
    assert acc_bound * m < 2 ** 28, (what, acc_bound, m)


def conv_layer_i8(k, x, shape, cin, cout, relu, in_rms=74, s=12, **conv_kw):
    w = k.weights_i8((cout, cin, 3, 3))
    wv = k.const(w, "i8")
    b = k.rng.integers(-256, 257, size=cout).astype(np.int32)
    bv = k.const(b, "i32", "bias")
    acc, oshape = k.conv(x, shape, "i8", wv, w.shape, "i32", **conv_kw)
    bound = int(np.abs(w.astype(np.int64)).reshape(cout, -1).sum(1).max()) * 128 + 256
    fan = cin * 9
    # output std ~ 40 for inputs of RMS in_rms (74: uniform i8; about 27 after a requantised ReLU)
    m = max(1, min(127, int(round(40 * 2 ** s / (np.sqrt(fan) * in_rms * 4.9)))))
    check_range(k.name, bound, m)
    return k.requant(acc, oshape, bv, m, s, 0 if relu else -128, 127), oshape


def kernel_conv_relu_i8(size):
    k = K("conv_relu", [((1, 3, size, size), "i8")], 1)
    y, ys = conv_layer_i8(k, "%arg0", (1, 3, size, size), 3, 8, True)
    return k.text([(y, ys, "i8")], f"""
conv_relu (shared/BENCHMARKS.md), int8, H=W={size}: conv 3->8 3x3 pad 1, requant + ReLU.""")


def kernel_cascade_conv_i8(size=32):
    k = K("cascade_conv", [((1, 3, size, size), "i8")], 2)
    x, s = "%arg0", (1, 3, size, size)
    for cin, rms in ((3, 74), (8, 27), (8, 27)):
        x, s = conv_layer_i8(k, x, s, cin, 8, True, in_rms=rms)
    return k.text([(x, s, "i8")], f"""
cascade_conv (shared/BENCHMARKS.md), int8, H=W={size}: three conv 3x3 pad 1 (3->8, 8->8, 8->8),
each requantised with ReLU.""")


def kernel_residual_block_i8(size=32):
    k = K("residual_block", [((1, 8, size, size), "i8")], 3)
    s = (1, 8, size, size)
    h, _ = conv_layer_i8(k, "%arg0", s, 8, 8, True)
    h, _ = conv_layer_i8(k, h, s, 8, 8, False, in_rms=27)
    idm = k.amap("id4", "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
    y = k.generic([(h, s, "i8", idm), ("%arg0", s, "i8", idm)], s, "i8", [idm, idm],
                  ["%lo = arith.constant 0 : i32", "%hi = arith.constant 127 : i32",
                   "%0 = arith.extsi %a0 : i8 to i32", "%1 = arith.extsi %a1 : i8 to i32",
                   "%2 = arith.addi %0, %1 : i32", "%3 = arith.maxsi %2, %lo : i32",
                   "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"], hint="res",
                  model=lambda a, b: np.clip(a + b, 0, 127))
    return k.text([(y, s, "i8")], f"""
residual_block (shared/BENCHMARKS.md), int8, H=W={size}: conv 8->8 + requant/ReLU, conv 8->8 +
requant, add the block's input (used twice: conv path and skip), ReLU, clamp to i8.""")


def linear_i8(k, x, xs, n, relu, resource=True, in_rms=74):
    w = k.weights_i8((xs[1], n))
    wv = k.const(w, "i8", resource=resource)
    b = k.rng.integers(-256, 257, size=n).astype(np.int32)
    bv = k.const(b, "i32", "bias")
    acc, s = k.matmul(x, xs, wv, w.shape, "i8", "i32")
    sh = 12
    m = max(1, min(127, int(round(40 * 2 ** sh / (np.sqrt(xs[1]) * in_rms * 4.9)))))
    check_range(k.name, int(np.abs(w.astype(np.int64)).sum(0).max()) * 128 + 256, m)
    return k.requant(acc, s, bv, m, sh, 0 if relu else -128, 127, bias_dim=1), s


def kernel_linear_i8():
    k = K("linear", [((512, 128), "i8")], 4)
    y, s = linear_i8(k, "%arg0", (512, 128), 128, False)
    return k.text([(y, s, "i8")], """
linear (shared/BENCHMARKS.md), int8: X[512x128] * W[128x128] + b, requantised to i8.
W is a dense_resource blob, as IREE's importer writes weights.""")


def kernel_feed_forward_i8():
    k = K("feed_forward", [((512, 128), "i8")], 5)
    h, hs = linear_i8(k, "%arg0", (512, 128), 256, True)
    y, ys = linear_i8(k, h, hs, 128, False, in_rms=27)
    return k.text([(y, ys, "i8")], """
feed_forward (shared/BENCHMARKS.md), int8: Linear 128->256 + ReLU, Linear 256->128 on X[512x128],
each requantised to i8. Weights are dense_resource blobs.""")


# ------------------------------------------------------------------ f32 layers
def conv_layer_f32(k, x, shape, cin, cout, relu, resource=False, **kw):
    w = k.weights_f32((cout, cin, 3, 3), cin * 9)
    wv = k.const(w, "f32", resource=resource)
    b = k.weights_f32((cout,), 4)
    bv = k.const(b, "f32", "bias")
    acc, s = k.conv(x, shape, "f32", wv, w.shape, "f32", **kw)
    return k.bias_f32(acc, s, bv, relu), s


def kernel_conv_relu_f32():
    k = K("conv_relu_f32", [((1, 3, 32, 32), "f32")], 11)
    y, s = conv_layer_f32(k, "%arg0", (1, 3, 32, 32), 3, 8, True)
    return k.text([(y, s, "f32")], "conv_relu in f32, H=W=32: conv 3->8 3x3 pad 1, bias + ReLU.")


def kernel_cascade_conv_f32():
    k = K("cascade_conv_f32", [((1, 3, 32, 32), "f32")], 12)
    x, s = "%arg0", (1, 3, 32, 32)
    for cin in (3, 8, 8):
        x, s = conv_layer_f32(k, x, s, cin, 8, True)
    return k.text([(x, s, "f32")], "cascade_conv in f32, H=W=32: three conv 3x3 pad 1 + bias + ReLU.")


def kernel_residual_block_f32():
    k = K("residual_block_f32", [((1, 8, 32, 32), "f32")], 13)
    s = (1, 8, 32, 32)
    h, _ = conv_layer_f32(k, "%arg0", s, 8, 8, True, resource=True)
    h, _ = conv_layer_f32(k, h, s, 8, 8, False, resource=True)
    idm = k.amap("id4", "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
    y = k.generic([(h, s, "f32", idm), ("%arg0", s, "f32", idm)], s, "f32", [idm, idm],
                  ["%z = arith.constant 0.0 : f32", "%0 = arith.addf %a0, %a1 : f32",
                   "%r = arith.maximumf %0, %z : f32"], hint="res", model=lambda a, b: np.maximum(a + b, 0.0))
    return k.text([(y, s, "f32")], """
residual_block in f32, H=W=32: conv 8->8 + bias + ReLU, conv 8->8 + bias, add the input, ReLU.
Conv weights are dense_resource blobs.""")


def linear_f32(k, x, xs, n, relu):
    w = k.weights_f32((xs[1], n), xs[1])
    wv = k.const(w, "f32", resource=True)
    b = k.weights_f32((n,), 4)
    bv = k.const(b, "f32", "bias")
    acc, s = k.matmul(x, xs, wv, w.shape, "f32", "f32")
    return k.bias_f32(acc, s, bv, relu), s


def kernel_linear_f32():
    k = K("linear_f32", [((512, 128), "f32")], 14)
    y, s = linear_f32(k, "%arg0", (512, 128), 128, False)
    return k.text([(y, s, "f32")], "linear in f32: X[512x128] * W[128x128] + b (W a dense_resource blob).")


def kernel_feed_forward_f32():
    k = K("feed_forward_f32", [((512, 128), "f32")], 15)
    h, hs = linear_f32(k, "%arg0", (512, 128), 256, True)
    y, ys = linear_f32(k, h, hs, 128, False)
    return k.text([(y, ys, "f32")], "feed_forward in f32: Linear 128->256 + ReLU, Linear 256->128 on X[512x128].")


# ------------------------------------------------------------------ one per kernel class / op
def kernel_conv_stride2():
    k = K("conv_stride2", [((1, 3, 32, 32), "i8")], 21)
    y, s = conv_layer_i8(k, "%arg0", (1, 3, 32, 32), 3, 8, True, stride=2)
    return k.text([(y, s, "i8")], "conv 3->8 3x3, padding 1, stride 2 (32x32 -> 16x16), int8 requant + ReLU.")


def kernel_conv_dilation2():
    k = K("conv_dilation2", [((1, 4, 32, 32), "f32")], 22)
    y, s = conv_layer_f32(k, "%arg0", (1, 4, 32, 32), 4, 4, False, pad=2, dil=2)
    return k.text([(y, s, "f32")], "conv 4->4 3x3, padding 2, dilation 2 (32x32 -> 32x32), f32 + bias.")


def kernel_depthwise():
    k = K("depthwise_conv", [((1, 8, 32, 32), "i8")], 23)
    w = k.weights_i8((8, 3, 3))
    wv = k.const(w, "i8")
    xp, ps = k.pad("%arg0", (1, 8, 32, 32), "i8", 1)
    s = (1, 8, 32, 32)
    init = k.init(s, "i32", 0)
    k.emit("%dw = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, "
           "strides = dense<1> : tensor<2xi64>}")
    k.emit(f"    ins({xp}, {wv} : {tt(ps, 'i8')}, tensor<8x3x3xi8>) outs({init} : {tt(s, 'i32')}) -> {tt(s, 'i32')}")
    xa, wa = k.v[xp], k.v[wv]
    k.v["%dw"] = sum(xa[:, :, i:i + 32, j:j + 32] * wa[None, :, i, j, None, None] for i in range(3) for j in range(3))
    b = k.const(k.rng.integers(-64, 65, size=8).astype(np.int32), "i32", "bias")
    y = k.requant("%dw", s, b, 38, 10, -128, 127)
    return k.text([(y, s, "i8")], "depthwise_conv_2d_nchw_chw, 8 channels, 3x3, padding 1, int8 requant.")


def pool(k, op, x, xs, elem, acc, kk, st, init_val):
    os_ = (xs[0], xs[1], (xs[2] - kk) // st + 1, (xs[3] - kk) // st + 1)
    init = k.init(os_, acc, init_val)
    win = k.fresh("win")
    k.emit(f"{win} = tensor.empty() : tensor<{kk}x{kk}x{elem}>")
    v = k.fresh("pool")
    k.emit(f"{v} = linalg.{op} {{dilations = dense<1> : tensor<2xi64>, strides = dense<{st}> : tensor<2xi64>}}")
    k.emit(f"    ins({x}, {win} : {tt(xs, elem)}, tensor<{kk}x{kk}x{elem}>) outs({init} : {tt(os_, acc)}) "
           f"-> {tt(os_, acc)}")
    xa = k.v[x]
    wins = [xa[:, :, i:i + st * (os_[2] - 1) + 1:st, j:j + st * (os_[3] - 1) + 1:st] for i in range(kk) for j in range(kk)]
    k.v[v] = np.max(np.stack(wins), 0) if op.endswith("max") else np.sum(np.stack(wins), 0)
    return v, os_


def kernel_maxpool():
    k = K("maxpool", [((1, 8, 32, 32), "i8")], 24)
    y, s = pool(k, "pooling_nchw_max", "%arg0", (1, 8, 32, 32), "i8", "i8", 2, 2, -128)
    return k.text([(y, s, "i8")], "pooling_nchw_max 2x2 stride 2 on int8 (32x32 -> 16x16).")


def kernel_sumpool():
    k = K("sumpool", [((1, 8, 32, 32), "f32")], 25)
    y, s = pool(k, "pooling_nchw_sum", "%arg0", (1, 8, 32, 32), "f32", "f32", 3, 1, 0.0)
    return k.text([(y, s, "f32")], "pooling_nchw_sum 3x3 stride 1, no padding, f32 (32x32 -> 30x30).")


def kernel_conv_nhwc():
    k = K("conv_nhwc", [((1, 32, 32, 3), "i8")], 26)
    w = k.weights_i8((3, 3, 3, 8))
    wv = k.const(w, "i8")
    xp, ps = k.pad("%arg0", (1, 32, 32, 3), "i8", 1, nhwc=True)
    s = (1, 32, 32, 8)
    init = k.init(s, "i32", 0)
    k.emit("%c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}")
    k.emit(f"    ins({xp}, {wv} : {tt(ps, 'i8')}, {tt(w.shape, 'i8')}) outs({init} : {tt(s, 'i32')}) -> {tt(s, 'i32')}")
    k.v["%c"] = np_conv_nchw(k.v[xp].transpose(0, 3, 1, 2), k.v[wv].transpose(3, 2, 0, 1)).transpose(0, 2, 3, 1)
    b = k.const(k.rng.integers(-256, 257, size=8).astype(np.int32), "i32", "bias")
    y = k.requant("%c", s, b, 21, 10, 0, 127, bias_dim=3)
    return k.text([(y, s, "i8")], "conv_2d_nhwc_hwcf 3->8 3x3, padding 1, int8 requant + ReLU (bias on the last dim).")


def kernel_matmul():
    k = K("matmul", [((64, 96), "f32")], 27)
    w = k.weights_f32((96, 48), 96)
    wv = k.const(w, "f32")
    y, s = k.matmul("%arg0", (64, 96), wv, (96, 48), "f32", "f32")
    return k.text([(y, s, "f32")], "linalg.matmul f32: X[64x96] * W[96x48].")


def kernel_batch_matmul():
    k = K("batch_matmul", [((4, 32, 48), "i8"), ((4, 48, 16), "i8")], 28)
    s = (4, 32, 16)
    init = k.init(s, "i32", 0)
    k.emit(f"%bmm = linalg.batch_matmul ins(%arg0, %arg1 : tensor<4x32x48xi8>, tensor<4x48x16xi8>) "
           f"outs({init} : {tt(s, 'i32')}) -> {tt(s, 'i32')}")
    k.v["%bmm"] = k.v["%arg0"] @ k.v["%arg1"]
    return k.text([("%bmm", s, "i32")], "linalg.batch_matmul of two int8 inputs, i32 results: [4x32x48] * [4x48x16].")


def kernel_add():
    k = K("add", [((1, 8, 32, 32), "i8"), ((1, 8, 32, 32), "i8")], 29)
    s = (1, 8, 32, 32)
    idm = k.amap("id4", "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
    y = k.generic([("%arg0", s, "i8", idm), ("%arg1", s, "i8", idm)], s, "i8", [idm, idm],
                  ["%lo = arith.constant -128 : i32", "%hi = arith.constant 127 : i32",
                   "%0 = arith.extsi %a0 : i8 to i32", "%1 = arith.extsi %a1 : i8 to i32",
                   "%2 = arith.addi %0, %1 : i32", "%3 = arith.maxsi %2, %lo : i32",
                   "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"], hint="sum",
                  model=lambda a, b: np.clip(a + b, -128, 127))
    return k.text([(y, s, "i8")], "elementwise saturating add of two int8 inputs (a linalg.generic).")


def kernel_broadcast():
    k = K("bias_broadcast", [((1, 8, 32, 32), "f32")], 30)
    s = (1, 8, 32, 32)
    b = k.const(k.weights_f32((8,), 1), "f32", "bias")
    e = k.init(s, "f32", None)
    k.emit(f"%bb = linalg.broadcast ins({b} : tensor<8xf32>) outs({e} : {tt(s, 'f32')}) dimensions = [0, 2, 3]")
    e2 = k.init(s, "f32", None)
    k.emit(f"%y = linalg.add ins(%arg0, %bb : {tt(s, 'f32')}, {tt(s, 'f32')}) outs({e2} : {tt(s, 'f32')}) "
           f"-> {tt(s, 'f32')}")
    k.v["%y"] = k.v["%arg0"] + k.v[b][None, :, None, None]
    return k.text([("%y", s, "f32")], "bias add as IREE's importers write it: linalg.broadcast of a bias[8] over N,H,W, then linalg.add.")


def kernel_transpose():
    k = K("transpose", [((1, 8, 32, 32), "i8")], 31)
    e = k.init((1, 32, 32, 8), "i8", None)
    k.emit(f"%t = linalg.transpose ins(%arg0 : tensor<1x8x32x32xi8>) outs({e} : tensor<1x32x32x8xi8>) "
           "permutation = [0, 2, 3, 1]")
    k.v["%t"] = k.v["%arg0"].transpose(0, 2, 3, 1)
    return k.text([("%t", (1, 32, 32, 8), "i8")], "linalg.transpose NCHW -> NHWC, int8.")


def kernel_flatten_matmul():
    k = K("flatten_matmul", [((1, 8, 8, 8), "i8")], 32)
    k.emit("%flat = tensor.collapse_shape %arg0 [[0], [1, 2, 3]] : tensor<1x8x8x8xi8> into tensor<1x512xi8>")
    k.v["%flat"] = k.v["%arg0"].reshape(1, 512)
    w = k.weights_i8((512, 10))
    wv = k.const(w, "i8", resource=True)
    y, s = k.matmul("%flat", (1, 512), wv, (512, 10), "i8", "i32")
    return k.text([(y, s, "i32")], "flatten (tensor.collapse_shape 1x8x8x8 -> 1x512) feeding a matmul with W[512x10], int8 -> i32.")


def kernel_upsample():
    k = K("upsample_nearest", [((1, 8, 16, 16), "i8")], 33)
    s = (1, 8, 32, 32)
    m_in = k.amap("up2", "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 2, d3 floordiv 2)>")
    y = k.generic([("%arg0", (1, 8, 16, 16), "i8", m_in)], s, "i8", [m_in], ["%r = arith.addi %a0, %a0 : i8"],
                  hint="up", model=lambda a: (2 * a.repeat(2, axis=2).repeat(2, axis=3) + 128) % 256 - 128)
    return k.text([(y, s, "i8")], """
nearest-neighbour 2x upsampling (16x16 -> 32x32) as a linalg.generic whose input map uses floordiv:
none of the three kernel classes (not an identity/broadcast, no reduction, no window). The
payload doubles the value (wrapping i8 add).""")


KERNELS = {
    "conv_relu_i8": lambda: kernel_conv_relu_i8(32),
    "conv_relu_i8_224": lambda: kernel_conv_relu_i8(224),
    "cascade_conv_i8": kernel_cascade_conv_i8,
    "residual_block_i8": kernel_residual_block_i8,
    "linear_i8": kernel_linear_i8,
    "feed_forward_i8": kernel_feed_forward_i8,
    "conv_relu_f32": kernel_conv_relu_f32,
    "cascade_conv_f32": kernel_cascade_conv_f32,
    "residual_block_f32": kernel_residual_block_f32,
    "linear_f32": kernel_linear_f32,
    "feed_forward_f32": kernel_feed_forward_f32,
    "conv_stride2": kernel_conv_stride2,
    "conv_dilation2": kernel_conv_dilation2,
    "depthwise_conv": kernel_depthwise,
    "maxpool": kernel_maxpool,
    "sumpool": kernel_sumpool,
    "conv_nhwc": kernel_conv_nhwc,
    "matmul": kernel_matmul,
    "batch_matmul": kernel_batch_matmul,
    "add": kernel_add,
    "bias_broadcast": kernel_broadcast,
    "transpose": kernel_transpose,
    "flatten_matmul": kernel_flatten_matmul,
    "upsample_nearest": kernel_upsample,
}

SLOW = {"conv_relu_i8_224"}


def check(name, path, k):
    """The MLIR reference of the written kernel against the numpy model built with it."""
    import mlir_reference as R
    got = R.reference(R.parse_kernel(path), k.inputs)
    bad = 0
    for j, (g, want) in enumerate(zip(got, k.model)):
        if g.dtype.kind == "f":
            err = np.abs(g.astype(np.float64) - want)
            nbad = int(np.count_nonzero(err > 1e-4 * np.abs(want) + 1e-5))
        else:
            assert np.abs(want).max() < 2 ** 31
            err = np.abs(g.astype(np.int64) - want)
            nbad = int(np.count_nonzero(err))
        print(f"{name}: out{j} {g.dtype} {g.shape}: numpy model vs mlir-runner max|err| {err.max():.3g}, "
              f"{nbad} mismatches")
        bad += nbad
    return bad


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    do_check = "--check" in sys.argv[1:]
    out = args[0] if args else os.path.dirname(HERE)
    os.makedirs(out, exist_ok=True)
    failed = 0
    for name, fn in KERNELS.items():
        text = fn()
        head = RUN + "\n"
        if name in SLOW:
            head = "// REQUIRES: slow\n" + head
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(head + text)
        print(f"wrote {name}.mlir")
        if do_check:
            failed += check(name, os.path.join(out, name + ".mlir"), K.last) != 0
            checked_in = os.path.join(os.path.dirname(HERE), name + ".mlir")
            if os.path.abspath(out) != os.path.dirname(HERE):
                with open(checked_in) as f:
                    same = f.read() == head + text
                print(f"{name}: {'same as' if same else 'DIFFERS FROM'} the checked-in {name}.mlir")
                failed += not same
    if do_check:
        print("all kernels match their numpy models" if not failed else f"{failed} kernel(s) differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
