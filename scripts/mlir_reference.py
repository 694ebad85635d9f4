#!/usr/bin/env python3
"""Independent reference for ming: run the ORIGINAL linalg-on-tensors kernel with
upstream MLIR (mlir-opt-22 lowering to LLVM, then mlir-runner's JIT).

The kernel is wrapped in a module with a `main` that builds every input as an
`arith.constant dense<"0xHEX">` tensor (the raw little-endian bytes of the input),
calls the kernel, and prints every result exactly with printMemrefI32/I64
(i8/i16 results widened with extsi, floats bit-cast to integers of their width).
The printed numbers are parsed back into numpy arrays.

As a module:   from mlir_reference import parse_kernel, reference
As a command:  mlir_reference.py KERNEL.mlir --in in0.bin [--in in1.bin ...] --out-dir DIR
               writes DIR/ref<j>.bin (raw little-endian, row-major), one per result.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"

# MLIR element type -> (numpy little-endian dtype, integer type used to print it,
# conversion op from the element type to the print type or None)
ELEM = {
    "i8": ("<i1", "i32", "arith.extsi"),
    "i16": ("<i2", "i32", "arith.extsi"),
    "i32": ("<i4", "i32", None),
    "i64": ("<i8", "i64", None),
    "f32": ("<f4", "i32", "arith.bitcast"),
    "f64": ("<f8", "i64", "arith.bitcast"),
}
PRINT_FN = {"i32": "printMemrefI32", "i64": "printMemrefI64"}
MAIN = "__ming_reference_main"


class ReferenceError(Exception):
    """A failure of the reference itself, with the failing step's output."""


def tool(name, versioned=None):
    """Path of an LLVM 22 tool: LLVM_BIN first, then a `-22` name on PATH."""
    p = os.path.join(LLVM_BIN, name)
    if os.access(p, os.X_OK):
        return p
    for cand in filter(None, [versioned, name]):
        w = shutil.which(cand)
        if w:
            return w
    raise ReferenceError(f"cannot find {name} (looked in {LLVM_BIN} and on PATH)")


class TensorType:
    def __init__(self, text):
        m = re.fullmatch(r"tensor<((?:\d+x)*)(\w+)>", text.strip())
        if not m:
            raise ReferenceError(f"unsupported type {text!r}: only static tensors are supported")
        self.shape = tuple(int(d) for d in m.group(1).split("x") if d)
        self.elem = m.group(2)
        if self.elem not in ELEM:
            raise ReferenceError(f"unsupported element type {self.elem} in {text} "
                                 f"(supported: {', '.join(ELEM)})")
        self.text = text.strip()

    @property
    def dtype(self):
        return np.dtype(ELEM[self.elem][0])

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self):
        return self.text


class Kernel:
    """The kernel function of a module, as printed by mlir-opt in generic-free
    canonical form: name, argument types and result types."""

    def __init__(self, name, args, results, module_text):
        self.name = name
        self.args = args
        self.results = results
        self.module_text = module_text  # canonical print of the whole file

    def signature(self):
        a = ", ".join(t.text for t in self.args)
        r = ", ".join(t.text for t in self.results)
        return f"@{self.name}({a}) -> ({r})"


def run(cmd, what, stdin=None, timeout=600):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ReferenceError(f"{what}: timed out after {timeout} s\n  command: {' '.join(cmd)}")
    if p.returncode != 0:
        raise ReferenceError(f"{what} failed (exit {p.returncode})\n  command: {' '.join(cmd)}\n"
                             f"{p.stderr.strip()}\n{p.stdout.strip()[-4000:]}".rstrip())
    return p.stdout


def split_types(text):
    """Split a comma-separated list of types at top level (ignoring commas in <>)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [t.strip() for t in out]


def parse_kernel(path):
    """Parse the kernel: the one public func.func with a body."""
    text = run([tool("mlir-opt", "mlir-opt-22"), path], f"mlir-opt-22 parsing {path}")
    funcs = []
    for m in re.finditer(r"^  func\.func (public |private |nested )?@([\w$.]+)\((.*)$", text, re.M):
        if m.group(1) == "private ":
            continue
        rest = m.group(3)
        # the argument list ends at the matching ')'
        depth, i = 1, 0
        while depth and i < len(rest):
            depth += {"(": 1, ")": -1}.get(rest[i], 0)
            i += 1
        args_text, tail = rest[: i - 1], rest[i:]
        args = []
        for a in split_types(args_text):
            am = re.match(r"%[\w$.]+\s*:\s*(tensor<[^>]*>|[^\s{]+)", a)
            if not am:
                raise ReferenceError(f"cannot parse argument {a!r} of @{m.group(2)}")
            args.append(am.group(1))
        results = []
        rm = re.match(r"\s*->\s*(\((.*?)\)|tensor<[^>]*>|[^\s{]+)", tail)
        if rm:
            results = split_types(rm.group(2)) if rm.group(2) is not None else [rm.group(1)]
        results = [re.sub(r"\s*\{.*\}$", "", r) for r in results]  # result attributes
        funcs.append((m.group(2), args, results))
    if not funcs:
        raise ReferenceError(f"{path}: no public func.func found")
    if len(funcs) > 1:
        raise ReferenceError(f"{path}: expected one public func.func, found "
                             + ", ".join("@" + f[0] for f in funcs))
    name, args, results = funcs[0]
    if not results:
        raise ReferenceError(f"{path}: @{name} has no results")
    return Kernel(name, [TensorType(a) for a in args], [TensorType(r) for r in results], text)


def wrapper_module(kernel, inputs):
    """The canonical module text with a main that calls the kernel on constant
    inputs and prints every result."""
    if len(inputs) != len(kernel.args):
        raise ReferenceError(f"@{kernel.name} takes {len(kernel.args)} inputs, got {len(inputs)}")
    lines = [f"  func.func @{MAIN}() {{"]
    names = []
    for i, (t, a) in enumerate(zip(kernel.args, inputs)):
        a = np.ascontiguousarray(np.asarray(a).astype(t.dtype, copy=False))
        if a.size != t.size:
            raise ReferenceError(f"input {i}: {a.size} elements, {t.text} needs {t.size}")
        lines.append(f'    %in{i} = arith.constant dense<"0x{a.tobytes().hex().upper()}"> : {t.text}')
        names.append(f"%in{i}")
    res = ", ".join(t.text for t in kernel.results)
    arg_types = ", ".join(t.text for t in kernel.args)
    n = len(kernel.results)
    lhs = "%r" + (f":{n}" if n > 1 else "")
    lines.append(f"    {lhs} = func.call @{kernel.name}({', '.join(names)}) : ({arg_types}) -> ({res})")
    used = set()
    for j, t in enumerate(kernel.results):
        r = f"%r#{j}" if n > 1 else "%r"
        _, ptype, conv = ELEM[t.elem]
        dims = "".join(f"{d}x" for d in t.shape)
        pt = f"tensor<{dims}{ptype}>"
        if conv:
            rank = len(t.shape)
            ds = ", ".join(f"d{k}" for k in range(rank))
            idmap = f"affine_map<({ds}) -> ({ds})>"
            its = ", ".join(['"parallel"'] * rank)
            lines += [
                f"    %e{j} = tensor.empty() : {pt}",
                f"    %c{j} = linalg.generic {{indexing_maps = [{idmap}, {idmap}], iterator_types = [{its}]}}"
                f" ins({r} : {t.text}) outs(%e{j} : {pt}) {{",
                f"    ^bb0(%a: {t.elem}, %b: {ptype}):",
                f"      %x = {conv} %a : {t.elem} to {ptype}",
                f"      linalg.yield %x : {ptype}",
                f"    }} -> {pt}",
            ]
            r = f"%c{j}"
        mt = f"memref<{dims}{ptype}>"
        fn = PRINT_FN[ptype]
        used.add((fn, ptype))
        lines += [
            f"    %m{j} = bufferization.to_buffer {r} : {pt} to {mt}",
            f"    %u{j} = memref.cast %m{j} : {mt} to memref<*x{ptype}>",
            f"    func.call @{fn}(%u{j}) : (memref<*x{ptype}>) -> ()",
        ]
    lines.append("    return")
    lines.append("  }")
    for fn, ptype in sorted(used):
        if re.search(rf"@{fn}\b", kernel.module_text):
            continue
        lines.append(f"  func.func private @{fn}(memref<*x{ptype}>) attributes {{llvm.emit_c_interface}}")
    main = "\n".join(lines) + "\n"

    text = kernel.module_text
    # canonical print: [aliases] module [attrs] {\n ... \n}\n [{-# resources #-}]
    res_at = text.find("\n{-#")
    body, resources = (text, "") if res_at < 0 else (text[:res_at + 1], text[res_at + 1:])
    close = body.rstrip().rfind("}")
    if close < 0 or not re.search(r"^module\b", body, re.M):
        raise ReferenceError("unexpected mlir-opt output: no top-level module")
    return body[:close] + main + body[close:] + resources


LOWERING = ",".join([
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
    "func.func(convert-linalg-to-loops)",
    "expand-strided-metadata",
    "lower-affine",
    "convert-scf-to-cf",
    "memref-expand",
    "arith-expand",
    "finalize-memref-to-llvm",
    "convert-math-to-llvm",
    "convert-math-to-libm",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
])


def parse_printed(out, kernel):
    """Split mlir-runner's output into one numpy array per result."""
    chunks = out.split("Unranked Memref")[1:]
    if len(chunks) != len(kernel.results):
        raise ReferenceError(f"mlir-runner printed {len(chunks)} memrefs, expected "
                             f"{len(kernel.results)}\n{out[:2000]}")
    arrays = []
    for j, (chunk, t) in enumerate(zip(chunks, kernel.results)):
        m = re.search(r"sizes = \[([\d, ]*)\].*?data =", chunk, re.S)
        if not m:
            raise ReferenceError(f"result {j}: cannot parse printMemref header\n{chunk[:500]}")
        sizes = tuple(int(s) for s in m.group(1).split(",") if s.strip())
        if sizes != t.shape:
            raise ReferenceError(f"result {j}: printed sizes {sizes}, expected {t.shape}")
        data = chunk[m.end():]
        ptype = ELEM[t.elem][1]
        vals = np.array(re.findall(r"-?\d+", data), dtype=np.int64)
        if vals.size != t.size:
            raise ReferenceError(f"result {j}: {vals.size} values printed, expected {t.size}")
        if t.elem.startswith("f"):
            a = vals.astype("<i4" if ptype == "i32" else "<i8").view(t.dtype)
        else:
            a = vals.astype(t.dtype)
        arrays.append(a.reshape(t.shape))
    return arrays


def reference(kernel, inputs, keep_dir=None):
    """Outputs of the kernel on the given inputs (numpy arrays), computed by MLIR."""
    tmp = keep_dir or tempfile.mkdtemp(prefix="ming-ref-")
    os.makedirs(tmp, exist_ok=True)
    try:
        wrapper = os.path.join(tmp, "reference.mlir")
        with open(wrapper, "w") as f:
            f.write(wrapper_module(kernel, inputs))
        llvm_ir = os.path.join(tmp, "reference.llvm.mlir")
        run([tool("mlir-opt", "mlir-opt-22"), wrapper, f"--pass-pipeline=builtin.module({LOWERING})",
             "-o", llvm_ir], "lowering the reference with mlir-opt-22")
        libs = [os.path.join(LLVM_LIB, "libmlir_runner_utils.so"),
                os.path.join(LLVM_LIB, "libmlir_c_runner_utils.so")]
        for lib in libs:
            if not os.path.exists(lib):
                raise ReferenceError(f"missing MLIR runtime library {lib}")
        out = run([tool("mlir-runner"), llvm_ir, "-e", MAIN, "--entry-point-result=void", "-O2"]
                  + [f"--shared-libs={lib}" for lib in libs], "running the reference with mlir-runner")
        return parse_printed(out, kernel)
    finally:
        if keep_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)


def read_bin(path, t):
    a = np.fromfile(path, dtype=t.dtype)
    if a.size != t.size:
        raise ReferenceError(f"{path}: {a.size} elements of {t.elem}, {t.text} needs {t.size}")
    return a.reshape(t.shape)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel")
    ap.add_argument("--in", dest="inputs", action="append", default=[], metavar="BIN",
                    help="input i (raw little-endian, row-major); once per argument, in order")
    ap.add_argument("--out-dir", required=True, help="writes ref<j>.bin here")
    ap.add_argument("--keep", metavar="DIR", help="keep the wrapper and lowered module in DIR")
    a = ap.parse_args(argv)
    try:
        k = parse_kernel(a.kernel)
        ins = [read_bin(p, t) for p, t in zip(a.inputs, k.args)]
        if len(a.inputs) != len(k.args):
            raise ReferenceError(f"@{k.name} takes {len(k.args)} inputs, got {len(a.inputs)} --in")
        outs = reference(k, ins, a.keep)
    except ReferenceError as e:
        print(f"mlir_reference: error: {e}", file=sys.stderr)
        return 1
    os.makedirs(a.out_dir, exist_ok=True)
    for j, o in enumerate(outs):
        o.tofile(os.path.join(a.out_dir, f"ref{j}.bin"))
        print(f"ref{j}.bin: {k.results[j].text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
