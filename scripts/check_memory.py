#!/usr/bin/env python3
"""Checks that a streaming design's on-chip memory does not grow with the image.

  check_memory.py OUT32 OUT224 [--small-size 32] [--large-size 224] [--fmap-small N] [--fmap-large N]

OUT32 and OUT224 are the HLS project folders (or emitHLS .mlir files) of the same
kernel compiled at two image sizes. Every array declared in the designs (local and
static arrays of the `<top>.cpp` files, not the testbench; or every `emitHLS.array`
op of an .mlir file) must be a line/row/window buffer or a weight ROM:
  - the two designs declare the same arrays (matched by function and name, else by
    order);
  - a ROM (a `static const` or `extern const` array with an initialiser, as in
    `<top>_weights.cpp`, or an `emitHLS.array rom`) has the
    same size in both designs;
  - every other array of the large design has at most large/small (224/32 = 7)
    times the elements of its counterpart (a line buffer grows with the width only);
  - no array other than a ROM is as large as a feature map: fewer elements than
    --fmap-small / --fmap-large (default: H*W of the image, which is stricter than
    H*W*C for every channel count C).
Prints one line per array and exits 1 on any violation."""
import argparse
import glob
import os
import re
import sys

CPP_DECL = re.compile(
    r"^\s*(?P<extern>extern\s+)?(?P<static>static\s+)?(?P<const>const\s+)?(?P<type>(?:[A-Za-z_][\w:]*)(?:\s*<[^;=(){}]*?>)?)\s+"
    r"(?P<name>[A-Za-z_]\w*)(?P<dims>(?:\s*\[\s*\d+\s*\])+)\s*(?P<end>=|;)")
CPP_FUNC = re.compile(r"^[A-Za-z_][\w:<>,\s*&]*?\b(?P<name>[A-Za-z_]\w*)\s*\(")
MLIR_ARRAY = re.compile(r"=\s*emitHLS\.array\b(?!<)(?P<rom>\s+rom)?[^:]*:\s*!emitHLS\.array<(?P<shape>(?:\d+x)+)(?P<elem>\w+)>")
MLIR_FUNC = re.compile(r"(?:emitHLS\.func|func\.func)\s+(?:\w+\s+)?@(?P<name>[\w$.]+)")


class Array:
    def __init__(self, func, name, elem, dims, rom, where):
        self.func, self.name, self.elem, self.dims, self.rom, self.where = func, name, elem, dims, rom, where

    @property
    def size(self):
        n = 1
        for d in self.dims:
            n *= d
        return n

    def text(self):
        return f"{self.elem}{''.join(f'[{d}]' for d in self.dims)}"


def arrays_of_cpp(path):
    """Arrays declared in a C++ file: at namespace scope or inside function bodies
    (parameters are not declarations: they name external memory or a caller's array)."""
    out, func, pending, depth = [], "<global>", "<global>", 0
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            code = re.sub(r"//.*", "", line)
            if depth == 0:
                m = CPP_FUNC.match(code)
                if m and not code.rstrip().endswith(";"):
                    pending = m.group("name")
            m = CPP_DECL.match(code)
            # `extern const T w[..];` only declares a ROM of <top>_weights.cpp, where it is counted.
            if m and m.group("extern") and m.group("end") == ";":
                m = None
            if m and m.group("type") not in ("return", "delete", "else", "case", "goto", "using", "typedef"):
                dims = [int(d) for d in re.findall(r"\d+", m.group("dims"))]
                rom = bool(m.group("const")) and m.group("end") == "="
                out.append(Array(func if depth else "<global>", m.group("name"), m.group("type").strip(), dims,
                                 rom, f"{os.path.basename(path)}:{ln}"))
            opened = depth
            depth = max(0, depth + code.count("{") - code.count("}"))
            if opened == 0 and depth > 0:
                func = pending
            elif opened > 0 and depth == 0:
                func = pending = "<global>"
    return out


def arrays_of_mlir(path):
    out, func, counter = [], "<module>", {}
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            m = MLIR_FUNC.search(line)
            if m:
                func = m.group("name")
            for m in MLIR_ARRAY.finditer(line):
                dims = [int(d) for d in m.group("shape").split("x") if d]
                res = re.match(r"\s*(%[\w$.#]+)\s*=", line)
                k = counter.get(func, 0)
                counter[func] = k + 1
                name = res.group(1) if res else f"#{k}"
                out.append(Array(func, name, m.group("elem"), dims, bool(m.group("rom")),
                                 f"{os.path.basename(path)}:{ln}"))
    return out


def collect(out):
    """Arrays of a project folder (every .cpp but testbenches) or an .mlir file."""
    if os.path.isfile(out):
        return (arrays_of_mlir(out) if out.endswith(".mlir") else arrays_of_cpp(out)), [out]
    if not os.path.isdir(out):
        raise SystemExit(f"check_memory: error: {out}: no such project folder or file")
    files = sorted(p for p in glob.glob(os.path.join(out, "*.cpp")) if not p.endswith("_tb.cpp"))
    if not files:
        raise SystemExit(f"check_memory: error: {out}: no design .cpp (only testbenches or nothing)")
    arrays = []
    for p in files:
        arrays += arrays_of_cpp(p)
    return arrays, files


def pair(small, large):
    """Match arrays by (function, name); fall back to declaration order."""
    ks = {(a.func, a.name): a for a in small}
    kl = {(a.func, a.name): a for a in large}
    if len(ks) == len(small) and len(kl) == len(large) and ks.keys() == kl.keys():
        return [(ks[k], kl[k]) for k in kl], "function and name"
    if len(small) == len(large):
        return list(zip(small, large)), "declaration order (names differ)"
    return None, (f"the designs declare different arrays: {len(small)} vs {len(large)}\n"
                  f"  only small: {sorted(set(ks) - set(kl))}\n  only large: {sorted(set(kl) - set(ks))}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("small", help="design at the small size (OUT32)")
    ap.add_argument("large", help="design at the large size (OUT224)")
    ap.add_argument("--small-size", type=int, default=32, help="image height/width of the small design")
    ap.add_argument("--large-size", type=int, default=224, help="image height/width of the large design")
    ap.add_argument("--fmap-small", type=int, help="feature-map elements of the small design (default H*W)")
    ap.add_argument("--fmap-large", type=int, help="feature-map elements of the large design (default H*W)")
    a = ap.parse_args(argv)
    ratio = a.large_size / a.small_size
    fmap_s = a.fmap_small or a.small_size * a.small_size
    fmap_l = a.fmap_large or a.large_size * a.large_size

    small, fs = collect(a.small)
    large, fl = collect(a.large)
    print(f"check_memory: {len(small)} arrays in {', '.join(fs)}; {len(large)} arrays in {', '.join(fl)}")
    pairs, how = pair(small, large)
    if pairs is None:
        print(f"check_memory: FAIL: {how}")
        return 1
    errors = []
    for s, l in pairs:
        kind = "rom" if (s.rom and l.rom) else "buffer"
        g = l.size / s.size if s.size else float("inf")
        msgs = []
        if s.rom != l.rom:
            msgs.append("a ROM in one design only")
        if kind == "rom" and l.size != s.size:
            msgs.append(f"ROM size changes with the image ({s.size} -> {l.size})")
        if kind == "buffer":
            if l.size > ratio * s.size:
                msgs.append(f"grows {g:.2f}x, more than {a.large_size}/{a.small_size} = {ratio:.2f}x")
            if s.size >= fmap_s:
                msgs.append(f"small design: {s.size} elements >= a feature map ({fmap_s})")
            if l.size >= fmap_l:
                msgs.append(f"large design: {l.size} elements >= a feature map ({fmap_l})")
        verdict = "ok" if not msgs else "VIOLATION: " + "; ".join(msgs)
        print(f"  {l.func}/{l.name} ({kind}): {s.text()} = {s.size} -> {l.text()} = {l.size} "
              f"(x{g:.2f}) [{l.where}] {verdict}")
        if msgs:
            errors.append(f"{l.func}/{l.name}: " + "; ".join(msgs))
    if not pairs:
        print("check_memory: note: no arrays declared in either design")
    print(f"check_memory: matched by {how}; limits: growth <= {ratio:.2f}x, "
          f"buffers < {fmap_s} / {fmap_l} elements")
    if errors:
        print(f"check_memory: FAIL: {len(errors)} violation(s)")
        return 1
    print("check_memory: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
