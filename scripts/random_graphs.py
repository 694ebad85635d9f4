#!/usr/bin/env python3
"""Random CNN-like linalg graphs, compiled by ming and checked against MLIR itself.

  random_graphs.py gen --seed S --index I [-o FILE]      print (or write) one graph
  random_graphs.py run --seed S --count N [--start I] --work DIR [--jobs J]
                   [--ming-opt CMD] [--save-failures DIR] [--verbose]

A graph is one func.func on tensors in the style of test/e2e (IREE's importers):
chains and DAGs of tensor.pad + linalg.conv_2d_nchw_fchw (random kernel size,
per-dimension stride, dilation and asymmetric padding), depthwise convolutions,
max/sum/average pooling (padded or not), global pooling (a regular reduction),
flatten + linalg.matmul, elementwise linalg.generic (bias broadcast, ReLU,
requantisation, residual adds), linalg.transpose, squeeze-excite (a tensor
scaled by its own channel means), forks (a value read by several layers or also
returned) and reconvergence (residual blocks, adds of two branches), batch 1 or
2, one or two inputs and results, int8 (i32 accumulation, requantised to i8) or
f32; rarely a channel tensor.concat or a tensor.extract_slice crop (constructs
ming may reject, but only with a located diagnostic). Shapes are
small so that a C simulation takes a second or two. Graph I of seed S is always
the same text (numpy's PCG64 seeded with [S, I]).

`run` does, per graph:
  1. writes it to DIR/g<I>/graph.mlir;
  2. probes the smallest resources: `ming-opt graph --dse --dsp 0 --bram 0`
     (either it fits in nothing, or the "no design of ... fits" diagnostic
     names the smallest DSP and BRAM18K limits that work);
  3. draws --dsp/--bram limits from the graph's own generator: mostly at or
     above the smallest ones, sometimes below (an infeasible pick), sometimes
     the board's defaults; for about a third of the graphs also
     --dse-max-lanes 2, 4 or 8 (channels of several parallel lanes; the probe
     of step 2 runs with it too);
  4. `ming-opt graph --dse --dsp D --bram B`: a "no design of ... fits"
     diagnostic counts as REJECTED (a located diagnostic for an unsupported
     construct too, listed apart); the limits the diagnostic names are then
     checked to work (each with the other resource unlimited);
  5. otherwise scripts/e2e.py with `ming-opt --dsp D --bram B`: mlir-runner
     on the original linalg, ming-opt --hls, make csim (-Werror), compare:
     CSIM-EQUAL or FAIL.
Anything else is a FAIL: a crash (signal, panic, LLVM ERROR, assertion), a
timeout, an error without a diagnostic, a wrong number, a deadlock, a g++
error. The summary prints generated / compiled / rejected / csim-equal /
failed and the pass rate ((csim-equal + rejected) / generated); the exit
status is 0 only when nothing failed. --save-failures copies each failing
graph there with the limits that failed, ready to become a regression test.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
E2E = os.path.join(HERE, "e2e.py")

# ---------------------------------------------------------------------------- builder


def tt(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def flit(v):
    """An f32 literal MLIR parses back to the same float."""
    v = np.float32(v)
    if np.isinf(v):
        return "0xFF800000" if v < 0 else "0x7F800000"
    s = np.format_float_scientific(v, unique=True, trim="-")
    mant, exp = s.split("e")
    return (mant if "." in mant else mant + ".0") + "e" + exp


def dense(a, elem):
    def rec(x):
        if x.ndim == 0:
            return flit(x) if elem == "f32" else str(int(x))
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return f"dense<{rec(a)}>"


def dims(rank):
    return ", ".join(f"d{i}" for i in range(rank))


def amap(rank, results):
    return f"affine_map<({dims(rank)}) -> ({results})>"


def idmap(rank):
    return amap(rank, dims(rank))


class Value:
    def __init__(self, name, shape, elem):
        self.name, self.shape, self.elem = name, tuple(shape), elem
        self.uses = 0

    @property
    def type(self):
        return tt(self.shape, self.elem)


class Graph:
    """Emits one kernel function as text; every layer helper returns a Value."""

    def __init__(self, name, rng, elem):
        self.name, self.rng, self.elem = name, rng, elem
        self.body, self.blobs, self.args, self.notes = [], [], [], []
        self.n = 0

    # ---- plumbing
    def fresh(self, hint):
        self.n += 1
        return f"%{hint}{self.n}"

    def emit(self, line):
        self.body.append("  " + line)

    def arg(self, shape, elem):
        v = Value(f"%arg{len(self.args)}", shape, elem)
        self.args.append(v)
        return v

    def use(self, *vs):
        for v in vs:
            v.uses += 1

    def const(self, a, elem, hint="w"):
        v = Value(self.fresh(hint), a.shape, elem)
        if a.size > 64 and self.rng.random() < 0.3:
            key = f"{self.name}_{v.name[1:]}"
            raw = np.ascontiguousarray(a.astype("<f4" if elem == "f32" else {"i8": "<i1", "i32": "<i4"}[elem]))
            self.blobs.append((key, "0x04000000" + raw.tobytes().hex().upper()))
            self.emit(f"{v.name} = arith.constant dense_resource<{key}> : {v.type}")
        else:
            self.emit(f"{v.name} = arith.constant {dense(a, elem)} : {v.type}")
        return v

    def scalar(self, value, elem):
        v = self.fresh("c")
        self.emit(f"{v} = arith.constant {flit(value) if elem == 'f32' else int(value)} : {elem}")
        return v

    def empty(self, shape, elem):
        v = Value(self.fresh("empty"), shape, elem)
        self.emit(f"{v.name} = tensor.empty() : {v.type}")
        return v

    def filled(self, shape, elem, value):
        e = self.empty(shape, elem)
        c = self.scalar(value, elem)
        v = Value(self.fresh("init"), shape, elem)
        self.emit(f"{v.name} = linalg.fill ins({c} : {elem}) outs({e.name} : {v.type}) -> {v.type}")
        return v

    def weights(self, shape, fan_in):
        if self.elem == "i8":
            return self.rng.integers(-8, 9, size=shape).astype(np.int8)
        return (self.rng.uniform(-1, 1, size=shape) / np.sqrt(fan_in)).astype(np.float32)

    def generic(self, ins, out_shape, out_elem, body, iters=None, init=None, hint="y"):
        """ins: [(Value, map)]; body lines read %a0.. and %out and define %r. The loops
        are those of `iters` (default: parallel over out_shape); the output takes the
        leading loops."""
        rank = len(iters) if iters else len(out_shape)
        self.use(*[v for v, _ in ins])
        init = init or self.empty(out_shape, out_elem)
        iters = iters or ["parallel"] * rank
        out_rank = len(init.shape)
        out_map = idmap(rank) if out_rank == rank else amap(rank, ", ".join(f"d{i}" for i in range(out_rank)))
        v = Value(self.fresh(hint), init.shape, out_elem)
        maps = ", ".join([m for _, m in ins] + [out_map])
        self.emit(f"{v.name} = linalg.generic {{indexing_maps = [{maps}], "
                  f"iterator_types = [{', '.join(repr(i).replace(chr(39), chr(34)) for i in iters)}]}}")
        self.emit(f"    ins({', '.join(x.name for x, _ in ins)} : {', '.join(x.type for x, _ in ins)}) "
                  f"outs({init.name} : {init.type}) {{")
        self.emit("^bb0(" + ", ".join([f"%a{k}: {x.elem}" for k, (x, _) in enumerate(ins)] + [f"%out: {out_elem}"]) + "):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"  linalg.yield %r : {out_elem}")
        self.emit(f"}} -> {v.type}")
        return v

    # ---- layers
    def pad(self, x, lo, hi, value):
        """Pads H and W (NCHW) by lo=(top, left), hi=(bottom, right)."""
        if not any(lo) and not any(hi):
            return x
        self.use(x)
        c = self.scalar(value, x.elem)
        n, ch, h, w = x.shape
        v = Value(self.fresh("padded"), (n, ch, h + lo[0] + hi[0], w + lo[1] + hi[1]), x.elem)
        self.emit(f"{v.name} = tensor.pad {x.name} low[0, 0, {lo[0]}, {lo[1]}] high[0, 0, {hi[0]}, {hi[1]}] {{")
        self.emit("^bb0(%i: index, %j: index, %k: index, %l: index):")
        self.emit(f"  tensor.yield {c} : {x.elem}")
        self.emit(f"}} : {x.type} to {v.type}")
        return v

    @staticmethod
    def out_size(size, k, stride, dil):
        return (size - dil * (k - 1) - 1) // stride + 1

    def window_attrs(self, stride, dil):
        def d(p):
            return f"dense<{p[0]}>" if p[0] == p[1] else f"dense<[{p[0]}, {p[1]}]>"
        return f"{{dilations = {d(dil)} : tensor<2xi64>, strides = {d(stride)} : tensor<2xi64>}}"

    def conv(self, x, cout, k, stride, dil, lo, hi, depthwise=False):
        """(depthwise) conv on NCHW with padding, bias, then requant (i8) or ReLU/none (f32)."""
        acc = "i32" if self.elem == "i8" else "f32"
        xp = self.pad(x, lo, hi, 0)
        n, cin, h, w = xp.shape
        oh, ow = self.out_size(h, k[0], stride[0], dil[0]), self.out_size(w, k[1], stride[1], dil[1])
        if depthwise:
            cout, wshape, fan_in = cin, (cin, k[0], k[1]), k[0] * k[1]
            op = "depthwise_conv_2d_nchw_chw"
        else:
            wshape, fan_in = (cout, cin, k[0], k[1]), cin * k[0] * k[1]
            op = "conv_2d_nchw_fchw"
        wv = self.const(self.weights(wshape, fan_in), self.elem)
        init = self.filled((n, cout, oh, ow), acc, 0)
        self.use(xp, wv)
        v = Value(self.fresh("conv"), init.shape, acc)
        self.emit(f"{v.name} = linalg.{op} {self.window_attrs(stride, dil)}")
        self.emit(f"    ins({xp.name}, {wv.name} : {xp.type}, {wv.type}) outs({init.name} : {init.type}) -> {v.type}")
        self.notes.append(f"{'dw' if depthwise else ''}conv {cin}->{cout} k{k[0]}x{k[1]} s{stride[0]},{stride[1]} "
                          f"d{dil[0]},{dil[1]} pad {lo}/{hi} -> {oh}x{ow}")
        return self.post(v, fan_in, 1)

    def post(self, acc, fan_in, bias_dim):
        """Bias + requantisation (int8) or bias + optional ReLU (f32)."""
        c = acc.shape[bias_dim]
        rank = len(acc.shape)
        relu = self.rng.random() < 0.5
        if self.elem == "i8":
            bias = self.const(self.rng.integers(-256, 257, size=c).astype(np.int32), "i32", "bias")
            sh = 12
            # accumulators have an RMS of about sqrt(fan_in) * 74 * 4.9 on uniform i8 data
            # and weights in [-8, 8]: scale that to about 40
            m = int(max(1, min(127, round(40 * 2 ** sh / (np.sqrt(fan_in) * 74 * 4.9)))))
            return self.generic(
                [(acc, idmap(rank)), (bias, amap(rank, f"d{bias_dim}"))], acc.shape, "i8",
                [f"%m = arith.constant {m} : i32", f"%s = arith.constant {sh} : i32",
                 f"%lo = arith.constant {0 if relu else -128} : i32", "%hi = arith.constant 127 : i32",
                 "%0 = arith.addi %a0, %a1 : i32", "%1 = arith.muli %0, %m : i32",
                 "%2 = arith.shrsi %1, %s : i32", "%3 = arith.maxsi %2, %lo : i32",
                 "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"], hint="q")
        bias = self.const(self.weights((c,), 4), "f32", "bias")
        body = ["%r = arith.addf %a0, %a1 : f32"]
        if relu:
            body = ["%z = arith.constant 0.0 : f32", "%0 = arith.addf %a0, %a1 : f32",
                    "%r = arith.maximumf %0, %z : f32"]
        return self.generic([(acc, idmap(rank)), (bias, amap(rank, f"d{bias_dim}"))], acc.shape, "f32", body,
                            hint="b")

    def pool(self, x, kind, k, stride, lo, hi):
        """Max pool (i8 or f32, padded with the type's lowest value) or sum pool
        (f32; int8 accumulates in i32 and is requantised)."""
        lowest = -128 if self.elem == "i8" else -np.inf
        xp = self.pad(x, lo, hi, lowest if kind == "max" else 0)
        n, c, h, w = xp.shape
        oh, ow = self.out_size(h, k[0], stride[0], 1), self.out_size(w, k[1], stride[1], 1)
        # an int8 sum pool reads i8 and accumulates in i32 (the named op extends)
        acc = "i32" if (self.elem == "i8" and kind == "sum") else self.elem
        init = self.filled((n, c, oh, ow), acc, lowest if kind == "max" else 0)
        win = self.empty(k, xp.elem)
        self.use(xp)
        v = Value(self.fresh("pool"), init.shape, acc)
        self.emit(f"{v.name} = linalg.pooling_nchw_{kind} {self.window_attrs(stride, (1, 1))}")
        self.emit(f"    ins({xp.name}, {win.name} : {xp.type}, {win.type}) outs({init.name} : {init.type}) -> {v.type}")
        self.notes.append(f"{kind}pool k{k[0]}x{k[1]} s{stride[0]},{stride[1]} pad {lo}/{hi} -> {oh}x{ow}")
        if acc == "i32":
            return self.requant_plain(v, k[0] * k[1])
        return v

    def requant_plain(self, acc, n):
        """i32 -> i8 by a shift that keeps a sum of n i8 values in range."""
        sh = int(np.ceil(np.log2(max(n, 1))))
        return self.generic([(acc, idmap(len(acc.shape)))], acc.shape, "i8",
                            [f"%s = arith.constant {sh} : i32", "%lo = arith.constant -128 : i32",
                             "%hi = arith.constant 127 : i32", "%0 = arith.shrsi %a0, %s : i32",
                             "%1 = arith.maxsi %0, %lo : i32", "%2 = arith.minsi %1, %hi : i32",
                             "%r = arith.trunci %2 : i32 to i8"], hint="q")

    def global_pool(self, x):
        """Sum over H and W (a regular reduction): NCHW -> NC."""
        n, c, h, w = x.shape
        acc = "i32" if self.elem == "i8" else "f32"
        init = self.filled((n, c), acc, 0)
        body = (["%0 = arith.extsi %a0 : i8 to i32", "%r = arith.addi %0, %out : i32"] if acc == "i32"
                else ["%r = arith.addf %a0, %out : f32"])
        v = self.generic([(x, idmap(4))], (n, c, h, w), acc, body,
                         iters=["parallel", "parallel", "reduction", "reduction"], init=init, hint="gp")
        self.notes.append(f"global sum pool {h}x{w}")
        return self.requant_plain(v, h * w) if acc == "i32" else v

    def relu(self, x):
        rank = len(x.shape)
        if x.elem == "i8":
            body = ["%z = arith.constant 0 : i8", "%r = arith.maxsi %a0, %z : i8"]
        else:
            body = ["%z = arith.constant 0.0 : f32", "%r = arith.maximumf %a0, %z : f32"]
        self.notes.append("relu")
        return self.generic([(x, idmap(rank))], x.shape, x.elem, body, hint="relu")

    def scale(self, x):
        """x * c + d per channel (broadcast constants along dim 1), f32 or saturating i8."""
        rank = len(x.shape)
        c = x.shape[1]
        if x.elem == "i8":
            mul = self.const(self.rng.integers(-3, 4, size=c).astype(np.int8), "i8", "mul")
            body = ["%lo = arith.constant -128 : i32", "%hi = arith.constant 127 : i32",
                    "%0 = arith.extsi %a0 : i8 to i32", "%1 = arith.extsi %a1 : i8 to i32",
                    "%2 = arith.muli %0, %1 : i32", "%3 = arith.maxsi %2, %lo : i32",
                    "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"]
        else:
            mul = self.const(self.rng.uniform(-2, 2, size=c).astype(np.float32), "f32", "mul")
            body = ["%d = arith.constant 0.25 : f32", "%0 = arith.mulf %a0, %a1 : f32",
                    "%r = arith.addf %0, %d : f32"]
        self.notes.append("scale")
        return self.generic([(x, idmap(rank)), (mul, amap(rank, "d1"))], x.shape, x.elem, body, hint="sc")

    def add(self, a, b):
        rank = len(a.shape)
        if a.elem == "i8":
            body = ["%lo = arith.constant -128 : i32", "%hi = arith.constant 127 : i32",
                    "%0 = arith.extsi %a0 : i8 to i32", "%1 = arith.extsi %a1 : i8 to i32",
                    "%2 = arith.addi %0, %1 : i32", "%3 = arith.maxsi %2, %lo : i32",
                    "%4 = arith.minsi %3, %hi : i32", "%r = arith.trunci %4 : i32 to i8"]
        else:
            body = ["%r = arith.addf %a0, %a1 : f32"]
        self.notes.append("add")
        return self.generic([(a, idmap(rank)), (b, idmap(rank))], a.shape, a.elem, body, hint="add")

    def flatten(self, x):
        n = x.shape[0]
        rest = int(np.prod(x.shape[1:]))
        self.use(x)
        v = Value(self.fresh("flat"), (n, rest), x.elem)
        groups = "[[0], [" + ", ".join(str(i) for i in range(1, len(x.shape))) + "]]"
        self.emit(f"{v.name} = tensor.collapse_shape {x.name} {groups} : {x.type} into {v.type}")
        self.notes.append("flatten")
        return v

    def matmul(self, x, n_out, b=None):
        m, k = x.shape
        acc = "i32" if self.elem == "i8" else "f32"
        if b is None:
            b = self.const(self.weights((k, n_out), k), self.elem)
        init = self.filled((m, b.shape[1]), acc, 0)
        self.use(x, b)
        v = Value(self.fresh("mm"), init.shape, acc)
        self.emit(f"{v.name} = linalg.matmul ins({x.name}, {b.name} : {x.type}, {b.type}) "
                  f"outs({init.name} : {init.type}) -> {v.type}")
        self.notes.append(f"matmul {m}x{k}x{b.shape[1]}")
        return self.post(v, k, 1)

    def transpose(self, x, perm):
        self.use(x)
        e = self.empty(tuple(x.shape[p] for p in perm), x.elem)
        v = Value(self.fresh("t"), e.shape, x.elem)
        self.emit(f"{v.name} = linalg.transpose ins({x.name} : {x.type}) outs({e.name} : {e.type}) "
                  f"permutation = [{', '.join(str(p) for p in perm)}]")
        self.notes.append(f"transpose {list(perm)}")
        return v

    def squeeze_excite(self, x):
        """x * broadcast(per-channel mean of x): a fork whose two paths meet again only
        after the whole tensor went through the reduction."""
        n, c, h, w = x.shape
        gp = self.global_pool(x)
        if x.elem == "i8":
            body = ["%lo = arith.constant -128 : i32", "%hi = arith.constant 127 : i32",
                    "%s = arith.constant 5 : i32",
                    "%0 = arith.extsi %a0 : i8 to i32", "%1 = arith.extsi %a1 : i8 to i32",
                    "%2 = arith.muli %0, %1 : i32", "%3 = arith.shrsi %2, %s : i32",
                    "%4 = arith.maxsi %3, %lo : i32", "%5 = arith.minsi %4, %hi : i32",
                    "%r = arith.trunci %5 : i32 to i8"]
        else:
            body = [f"%k = arith.constant {flit(1.0 / (h * w))} : f32", "%0 = arith.mulf %a1, %k : f32",
                    "%r = arith.mulf %a0, %0 : f32"]
        self.notes.append("squeeze-excite")
        return self.generic([(x, idmap(4)), (gp, amap(4, "d0, d1"))], x.shape, x.elem, body, hint="se")

    def average(self, x):
        """f32 sum pool divided by the window (an average pool without padding)."""
        k = (2, 2) if min(x.shape[2:]) >= 2 else (1, 1)
        y = self.pool(x, "sum", k, k, (0, 0), (0, 0))
        body = [f"%d = arith.constant {flit(k[0] * k[1])} : f32", "%r = arith.divf %a0, %d : f32"]
        self.notes.append("average")
        return self.generic([(y, idmap(4))], y.shape, "f32", body, hint="avg")

    def concat(self, a, b):
        """Channel concatenation (tensor.concat)."""
        self.use(a, b)
        shape = (a.shape[0], a.shape[1] + b.shape[1]) + a.shape[2:]
        v = Value(self.fresh("cat"), shape, a.elem)
        self.emit(f"{v.name} = tensor.concat dim(1) {a.name}, {b.name} : ({a.type}, {b.type}) -> {v.type}")
        self.notes.append("concat")
        return v

    def crop(self, x):
        """An interior slice of H and W (tensor.extract_slice)."""
        self.use(x)
        n, c, h, w = x.shape
        shape = (n, c, max(1, h - 2), max(1, w - 2))
        v = Value(self.fresh("crop"), shape, x.elem)
        self.emit(f"{v.name} = tensor.extract_slice {x.name}[0, 0, {min(1, h - 1)}, {min(1, w - 1)}] "
                  f"[{n}, {c}, {shape[2]}, {shape[3]}] [1, 1, 1, 1] : {x.type} to {v.type}")
        self.notes.append("crop")
        return v

    # ---- text
    def text(self, results, header):
        sig = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        res = ", ".join(r.type for r in results)
        lines = [f"// {h}" for h in header]
        lines.append(f"func.func @{self.name}({sig}) -> {res if len(results) == 1 else '(' + res + ')'} {{")
        lines += self.body
        lines.append("  return " + ", ".join(r.name for r in results) + " : " + res)
        lines.append("}")
        if self.blobs:
            lines += ["", "{-#", "  dialect_resources: {", "    builtin: {"]
            lines += [f'      {k}: "{v}"' + ("," if i + 1 < len(self.blobs) else "") for i, (k, v) in enumerate(self.blobs)]
            lines += ["    }", "  }", "#-}"]
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- random graphs


def pick(rng, options, weights=None):
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
        weights = weights / weights.sum()
    return options[rng.choice(len(options), p=weights)]


def random_conv_params(rng, h, w):
    """Kernel, stride, dilation and padding such that the output is at least 1x1."""
    for _ in range(50):
        k = (int(pick(rng, [1, 2, 3, 3, 3, 5])),) * 2 if rng.random() < 0.8 else \
            (int(pick(rng, [1, 2, 3])), int(pick(rng, [1, 2, 3])))
        stride = (1, 1) if rng.random() < 0.6 else (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        dil = (1, 1) if rng.random() < 0.75 else (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        if rng.random() < 0.5:  # "same" padding where it exists
            lo = tuple(dil[i] * (k[i] - 1) // 2 for i in range(2))
            hi = tuple(dil[i] * (k[i] - 1) - lo[i] for i in range(2))
        else:
            lo = (int(rng.integers(0, 3)), int(rng.integers(0, 3)))
            hi = (int(rng.integers(0, 3)), int(rng.integers(0, 3)))
        oh = Graph.out_size(h + lo[0] + hi[0], k[0], stride[0], dil[0])
        ow = Graph.out_size(w + lo[1] + hi[1], k[1], stride[1], dil[1])
        if oh >= 1 and ow >= 1:
            return k, stride, dil, lo, hi
    return (1, 1), (1, 1), (1, 1), (0, 0), (0, 0)


def same_conv_params(rng):
    """Stride 1, odd kernel, padding keeping H and W."""
    k = int(pick(rng, [1, 3, 3, 5]))
    d = 1 if rng.random() < 0.7 else 2
    p = d * (k - 1) // 2
    return (k, k), (1, 1), (d, d), (p, p), (p, p)


def random_pool_params(rng, h, w):
    for _ in range(50):
        k = (int(rng.integers(2, 4)),) * 2 if rng.random() < 0.8 else (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
        stride = k if rng.random() < 0.5 else (int(rng.integers(1, 3)), int(rng.integers(1, 3)))
        padded = rng.random() < 0.3
        lo = (int(rng.integers(0, 2)), int(rng.integers(0, 2))) if padded else (0, 0)
        hi = (int(rng.integers(0, 2)), int(rng.integers(0, 2))) if padded else (0, 0)
        if max(lo + hi) >= min(k):  # a window entirely in the padding makes no sense
            continue
        if Graph.out_size(h + lo[0] + hi[0], k[0], stride[0], 1) >= 1 and \
                Graph.out_size(w + lo[1] + hi[1], k[1], stride[1], 1) >= 1:
            return k, stride, lo, hi
    return (1, 1), (1, 1), (0, 0), (0, 0)


def build(seed, index):
    """Graph `index` of `seed`: (text, description, rng for the limits)."""
    rng = np.random.default_rng([seed, index])
    elem = "i8" if rng.random() < 0.55 else "f32"
    g = Graph(f"rg_{seed}_{index}", rng, elem)
    live = []  # values that may feed a layer

    def take(prefer_fresh=0.7):
        """The newest value mostly, an older one sometimes (a fork)."""
        cands = [v for v in live]
        if rng.random() < prefer_fresh or len(cands) == 1:
            return cands[-1]
        return cands[int(rng.integers(0, len(cands)))]

    if rng.random() < 0.8:  # a CNN
        kind = "cnn"
        batch = 1 if rng.random() < 0.85 else 2
        shape = (batch, int(rng.integers(1, 7)), int(rng.integers(3, 15)), int(rng.integers(3, 15)))
        live.append(g.arg(shape, elem))
        if rng.random() < 0.15:
            live.append(g.arg(shape, elem))
        layers = int(rng.integers(1, 6))
        for _ in range(layers):
            x = take()
            four = [v for v in live if len(v.shape) == 4]
            if x not in four:
                x = four[-1]
            n, c, h, w = x.shape
            op = pick(rng, ["conv", "dwconv", "pool", "residual", "relu", "scale", "add", "transpose", "se",
                            "average", "concat", "crop"],
                      [5, 1, 2, 2, 1, 1, 1, 0.5, 0.7, 0.3, 0.15, 0.1])
            if op == "average" and elem != "f32":
                op = "pool"
            if op == "concat":
                same = [v for v in four if v.shape[0] == x.shape[0] and v.shape[2:] == x.shape[2:] and v is not x]
                if not same:
                    op = "conv"
            if op == "add":
                same = [v for v in four if v.shape == x.shape and v is not x]
                if not same:
                    op = "residual"
            if op == "conv":
                k, s, d, lo, hi = random_conv_params(rng, h, w)
                y = g.conv(x, int(rng.integers(1, 9)), k, s, d, lo, hi)
            elif op == "dwconv":
                k, s, d, lo, hi = random_conv_params(rng, h, w)
                y = g.conv(x, c, k, s, d, lo, hi, depthwise=True)
            elif op == "pool":
                k, s, lo, hi = random_pool_params(rng, h, w)
                y = g.pool(x, pick(rng, ["max", "sum"], [3, 1]), k, s, lo, hi)
            elif op == "residual":  # x -> branch of 1..2 same-shape layers -> add x
                b = x
                for _ in range(int(rng.integers(1, 3))):
                    k, s, d, lo, hi = same_conv_params(rng)
                    b = g.conv(b, c, k, s, d, lo, hi, depthwise=rng.random() < 0.2)
                y = g.add(b, x) if rng.random() < 0.5 else g.add(x, b)
                if rng.random() < 0.5:
                    y = g.relu(y)
            elif op == "transpose":
                y = g.transpose(x, (0,) + tuple(int(i) + 1 for i in rng.permutation(3)))
            elif op == "se":
                y = g.squeeze_excite(x)
            elif op == "average":
                y = g.average(x)
            elif op == "concat":
                y = g.concat(x, same[int(rng.integers(0, len(same)))])
            elif op == "crop":
                y = g.crop(x)
            elif op == "relu":
                y = g.relu(x)
            elif op == "scale":
                y = g.scale(x)
            else:
                y = g.add(x, same[int(rng.integers(0, len(same)))])
            live.append(y)
        tail = rng.random()
        if tail < 0.35:  # flatten + fully connected
            x = live[-1] if len(live[-1].shape) == 4 else take()
            if int(np.prod(x.shape)) <= 1024:
                live.append(g.matmul(g.flatten(x), int(rng.integers(1, 17))))
        elif tail < 0.55:  # global pooling + fully connected
            gp = g.global_pool(live[-1])
            live.append(gp)
            if rng.random() < 0.6:
                live.append(g.matmul(gp, int(rng.integers(1, 11))))
    else:  # an MLP on a 2-D input
        kind = "mlp"
        m, k = int(rng.integers(1, 17)), int(rng.integers(1, 33))
        live.append(g.arg((m, k), elem))
        if rng.random() < 0.2:  # a second input: the right operand of a matmul
            b = g.arg((k, int(rng.integers(1, 17))), elem)
            live.append(g.matmul(live[0], 0, b=b))
        for _ in range(int(rng.integers(1, 4))):
            x = take()
            op = pick(rng, ["matmul", "residual", "relu", "add"], [4, 1, 1, 1])
            same = [v for v in live if v.shape == x.shape and v is not x]
            if op == "add" and same:
                y = g.add(x, same[int(rng.integers(0, len(same)))])
            elif op == "residual":
                y = g.add(x, g.matmul(x, x.shape[1]))
            elif op == "relu":
                y = g.relu(x)
            else:
                y = g.matmul(x, int(rng.integers(1, 33)))
            live.append(y)
    # Results: every value no layer reads (at most two; the others are added
    # into one of them or just dropped from the list of results by a final add).
    sinks = [v for v in live if v.uses == 0 and not v.name.startswith("%arg")]
    if not sinks:
        sinks = [live[-1]]
    results = sinks[-2:]
    if rng.random() < 0.15 and results[-1] is not live[-1]:
        results = [live[-1]]
    if len(results) == 1 and rng.random() < 0.1:  # also return an intermediate (a fork to the output)
        inner = [v for v in live[:-1] if not v.name.startswith("%arg") and v is not results[0]]
        if inner:
            results = [inner[int(rng.integers(0, len(inner)))], results[0]]
    desc = f"{kind} {elem}: " + "; ".join(g.notes)
    header = [f"random graph {index} of seed {seed} (scripts/random_graphs.py gen --seed {seed} --index {index})",
              desc]
    return g.text(results, header), desc, rng


def choose_limits(rng, min_dsp, min_bram):
    """(dsp, bram, expectation): mostly feasible-looking limits, sometimes below the
    smallest ones, sometimes none (the board's)."""
    r = rng.random()
    if r < 0.1:
        return None, None, "board"
    if r < 0.25 and (min_dsp > 0 or min_bram > 0):
        if min_dsp > 0 and (min_bram == 0 or rng.random() < 0.5):
            return int(rng.integers(0, min_dsp)), min_bram + int(rng.integers(0, 40)), "below"
        return min_dsp + int(rng.integers(0, 40)), int(rng.integers(0, min_bram)), "below"
    dsp = min_dsp + int(rng.integers(0, 2 + 2 * min_dsp)) if rng.random() < 0.7 else min_dsp + int(rng.integers(0, 400))
    bram = min_bram + int(rng.integers(0, 4 + min_bram)) if rng.random() < 0.7 else min_bram + int(rng.integers(0, 200))
    return dsp, bram, "above"


# ---------------------------------------------------------------------------- running

INFEASIBLE = re.compile(r"no design of '[^']*' fits (\d+) DSP and (\d+) BRAM18K; the smallest limits that work "
                        r"are (\d+) DSP and (\d+) BRAM18K")
CRASH = re.compile(r"panicked at|LLVM ERROR|Assertion|Stack dump|Segmentation fault|Aborted|UNREACHABLE")
LOCATED = re.compile(r"(^|\n)[^\n]*:\d+:\d+: error: ")


class Ming:
    def __init__(self, cmd, timeout):
        self.cmd = shlex.split(cmd)
        self.timeout = timeout

    def run(self, args):
        """(status, output); status None on a timeout."""
        try:
            p = subprocess.run(self.cmd + args, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None, ""
        return p.returncode, (p.stdout or "")[-2000:] + (p.stderr or "")

    @staticmethod
    def crashed(status, out):
        if status is None:
            return "timeout"
        if status < 0 or status >= 128 or CRASH.search(out):
            return f"crash (exit status {status})"
        return None


def limit_args(dsp, bram):
    return ([] if dsp is None else ["--dsp", str(dsp)]) + ([] if bram is None else ["--bram", str(bram)])


def run_one(a, index):
    """Runs graph `index`; returns (verdict, detail, limits) with verdict one of
    csim-equal, rejected-infeasible, rejected-unsupported, fail."""
    work = os.path.join(a.work, f"g{index}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    text, desc, rng = build(a.seed, index)
    path = os.path.join(work, "graph.mlir")
    with open(path, "w") as f:
        f.write(text)
    ming = Ming(a.ming_opt, a.timeout)
    # parallel lanes on the channels for some graphs (the DSE's default is 1)
    lanes = ["--dse-max-lanes", str(int(pick(rng, [2, 4, 8])))] if rng.random() < 0.35 else []

    def fail(what, out="", limits=None):
        return "fail", f"{what}\n{out.strip()[-3000:]}".rstrip(), limits

    # 2. the smallest limits
    status, out = ming.run([path, "--dse", *lanes, "--dsp", "0", "--bram", "0", "-o", os.devnull])
    bad = ming.crashed(status, out)
    if bad:
        return fail(f"probe (--dse --dsp 0 --bram 0): {bad}", out)
    if status == 0:
        min_dsp = min_bram = 0
    else:
        m = INFEASIBLE.search(out)
        if not m:
            if LOCATED.search(out):
                return "rejected-unsupported", out.strip().splitlines()[0], None
            return fail("probe (--dse --dsp 0 --bram 0): failed without a located diagnostic", out)
        min_dsp, min_bram = int(m.group(3)), int(m.group(4))
    # 3. limits
    dsp, bram, expect = choose_limits(rng, min_dsp, min_bram)
    limits = limit_args(dsp, bram) + lanes
    # 4. the DSE under them
    status, out = ming.run([path, "--dse", *limits, "-o", os.devnull])
    bad = ming.crashed(status, out)
    if bad:
        return fail(f"--dse {' '.join(limits)}: {bad}", out, limits)
    if status != 0:
        m = INFEASIBLE.search(out)
        if not m:
            if LOCATED.search(out):
                return "rejected-unsupported", out.strip().splitlines()[0], limits
            return fail(f"--dse {' '.join(limits)}: failed without a located diagnostic", out, limits)
        named = (int(m.group(3)), int(m.group(4)))
        if dsp is not None and bram is not None and named[0] <= dsp and named[1] <= bram:
            return fail(f"--dse {' '.join(limits)}: rejected, yet the limits it names ({named}) are within them", out,
                        limits)
        for check in (["--dsp", str(named[0]), "--bram", "1000000"], ["--dsp", "1000000", "--bram", str(named[1])]):
            s2, o2 = ming.run([path, "--dse", *check, *lanes, "-o", os.devnull])
            if s2 != 0:
                return fail(f"--dse {' '.join(limits)} named {named} as the smallest limits that work, "
                            f"but --dse {' '.join(check)} fails", o2, limits)
        return "rejected-infeasible", f"{' '.join(limits)} ({expect}; smallest {named[0]} DSP, {named[1]} BRAM18K)", \
            limits
    # 5. end to end
    cmd = [sys.executable, E2E, path, "--work", os.path.join(work, "e2e"), "--timeout", str(a.timeout),
           "--ming-opt", " ".join([a.ming_opt] + limits)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=4 * a.timeout)
    except subprocess.TimeoutExpired:
        return fail("e2e.py: timeout", "", limits)
    out = p.stdout + p.stderr
    if "FAIL at step 'ming-opt --hls'" in out:
        m = INFEASIBLE.search(out)
        if m:
            return fail(f"--dse {' '.join(limits)} found a design, --hls says none fits", out, limits)
        if LOCATED.search(out) and not CRASH.search(out):
            return "rejected-unsupported", f"--hls: {out.strip().splitlines()[-1]}", limits
    if p.returncode == 0 and ": PASS" in p.stdout:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        return "csim-equal", " ".join(limits) or "(board limits)", limits
    compiled = "FAIL at step 'ming-opt --hls'" not in out
    return ("fail-compiled" if compiled else "fail"), \
        f"e2e.py with {' '.join(limits) or 'the board limits'}\n{out.strip()[-3000:]}", limits


def save_failure(a, index, limits, detail):
    os.makedirs(a.save_failures, exist_ok=True)
    text, _, _ = build(a.seed, index)
    flags = " ".join(limits or [])
    path = os.path.join(a.save_failures, f"rg_{a.seed}_{index}.mlir")
    with open(path, "w") as f:
        f.write(f"// ming-opt flags: {flags}\n" + "".join(f"// {l}\n" for l in detail.splitlines()[:3]) + text)
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="print one graph")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--index", type=int, default=0)
    g.add_argument("-o", "--output")
    r = sub.add_parser("run", help="generate, compile, simulate and compare graphs")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--start", type=int, default=0, help="first graph index (default 0)")
    r.add_argument("--count", type=int, default=30, help="number of graphs (default 30)")
    r.add_argument("--work", required=True, help="work directory")
    r.add_argument("--ming-opt", default="ming-opt", help="ming-opt command (default: from PATH)")
    r.add_argument("--jobs", type=int, default=1, help="graphs run at once (default 1)")
    r.add_argument("--timeout", type=float, default=120, help="seconds per ming-opt run (default 120)")
    r.add_argument("--keep", action="store_true", help="keep the work folders of passing graphs")
    r.add_argument("--save-failures", help="copy failing graphs here (with their limits)")
    r.add_argument("-v", "--verbose", action="store_true", help="one line per graph")
    a = ap.parse_args(argv)

    if a.cmd == "gen":
        text, _, _ = build(a.seed, a.index)
        if a.output:
            with open(a.output, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0

    a.work = os.path.abspath(a.work)
    os.makedirs(a.work, exist_ok=True)
    w = shutil.which(shlex.split(a.ming_opt)[0])
    if w:
        a.ming_opt = " ".join([shlex.quote(w)] + shlex.split(a.ming_opt)[1:])
    t0 = time.time()
    counts = {"csim-equal": 0, "rejected-infeasible": 0, "rejected-unsupported": 0, "fail": 0, "fail-compiled": 0}
    failures, unsupported = [], []
    indices = range(a.start, a.start + a.count)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = {i: pool.submit(run_one, a, i) for i in indices}
        for i in indices:
            try:
                verdict, detail, limits = futures[i].result()
            except Exception as e:  # a bug of this script must not hide the others
                verdict, detail, limits = "fail", f"internal error: {type(e).__name__}: {e}", None
            counts[verdict] += 1
            if verdict == "fail-compiled":  # compiled, then failed in csim or the comparison
                verdict = "fail"
            if verdict == "fail":
                failures.append((i, detail))
                if a.save_failures:
                    detail += f"\n(saved as {save_failure(a, i, limits, detail)})"
            if verdict == "rejected-unsupported":
                unsupported.append((i, detail))
            if a.verbose or verdict == "fail":
                first = detail.splitlines()[0] if detail else ""
                print(f"graph {i}: {verdict.upper()} {first}", flush=True)
                if verdict == "fail":
                    print("  " + "\n  ".join(detail.splitlines()[1:40]), flush=True)
    generated = a.count
    rejected = counts["rejected-infeasible"] + counts["rejected-unsupported"]
    failed = counts["fail"] + counts["fail-compiled"]
    compiled = counts["csim-equal"] + counts["fail-compiled"]
    passed = counts["csim-equal"] + rejected
    print(f"random graphs: seed {a.seed}, graphs {a.start}..{a.start + a.count - 1}, {time.time() - t0:.0f} s")
    print(f"generated {generated}, compiled {compiled}, "
          f"rejected with a diagnostic {rejected} (infeasible limits {counts['rejected-infeasible']}, "
          f"unsupported {counts['rejected-unsupported']}), csim-equal {counts['csim-equal']}, failed {failed}")
    print(f"pass rate {100.0 * passed / max(generated, 1):.1f}% ({passed}/{generated})")
    for i, d in unsupported:
        print(f"unsupported: graph {i}: {d}")
    for i, d in failures:
        print(f"failed: graph {i}: {d.splitlines()[0] if d else ''}")
    print("random graphs: " + ("PASS" if not failures else "FAIL"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
