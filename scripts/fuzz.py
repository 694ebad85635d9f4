#!/usr/bin/env python3
"""Mutation fuzzing of ming-opt over the test corpus.

  fuzz.py [--minutes M | --runs N] [--seed S] [--jobs J] [--timeout T]
          [--ming-opt CMD] [--corpus DIR ...] [--out DIR]

Takes every *.mlir under the corpus folders (default test/; files marked
`REQUIRES: slow` and files over 200 kB left out), mutates one at a time and runs
ming-opt on the mutant in one of several modes:
  --hls OUTDIR, --convert-linalg-to-dfg, --dse, --simulate,
  --pass-pipeline='builtin.module(convert-dfg-to-emithls)', --emit-hls-cpp
(the modes that fit the file's level: linalg, dfg or emitHLS; with
--split-input-file where the file is split by "// -----").
Mutations: byte flips, inserts and deletions; truncation; token swaps (numbers
by boundary values, element types, SSA names, op names, affine dims, iterator
kinds, shapes); line deletion, duplication and swaps; splices of two corpus
files (the head of one, the tail of another).

A run is a CRASH when ming-opt dies by a signal or exits with a status >= 128,
or prints "panicked at", "LLVM ERROR", "Assertion", "Stack dump", "PLEASE
submit a bug report"; a HANG when it uses more than --timeout seconds of CPU
(RLIMIT_CPU, so that other load on the machine does not count) or more than
four times that on the wall clock; a SILENT failure when
it exits non-zero without an "error:" line. Each distinct crash (by its first
telling line) is written to OUT/crash-<n>.mlir with its command and output in
OUT/crash-<n>.txt. The summary prints executions per mode and the counts; the
exit status is 0 only when no crash or hang was found.
"""
import argparse
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASH = re.compile(r"panicked at|LLVM ERROR|Assertion|Stack dump|PLEASE submit a bug report|"
                   r"Segmentation fault|UNREACHABLE executed|terminate called")
MODES = {
    "hls": lambda out: ["--hls", out],
    "linalg-to-dfg": lambda out: ["--convert-linalg-to-dfg"],
    "dse": lambda out: ["--dse", "--dsp", "64", "--bram", "64"],
    "simulate": lambda out: ["--simulate"],
    "dfg-to-emithls": lambda out: ["--pass-pipeline=builtin.module(convert-dfg-to-emithls)"],
    "emit-hls-cpp": lambda out: ["--emit-hls-cpp"],
}
# The modes that make sense at each level of input, with weights.
LEVEL_MODES = {
    "linalg": {"hls": 4, "linalg-to-dfg": 2, "dse": 2, "simulate": 1},
    "dfg": {"hls": 3, "dse": 2, "simulate": 2, "dfg-to-emithls": 2},
    "emithls": {"hls": 2, "emit-hls-cpp": 2},
}


def level(data):
    if b"emitHLS." in data:
        return "emithls"
    return "dfg" if b"dfg.graph" in data else "linalg"

NUMBERS = ["0", "1", "-1", "2", "3", "7", "8", "16", "255", "256", "-128", "127", "128", "65536",
           "2147483647", "2147483648", "-2147483648", "4294967296", "9223372036854775807", "99999999999999999999",
           "0.0", "-0.0", "1.5", "1e39", "nan", "0x7FC00000"]
TYPES = ["i1", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "index", "bf16", "i3", "ui8", "si8", "complex<f32>"]
SWAPS = [
    ["parallel", "reduction"], ["linalg.matmul", "linalg.batch_matmul", "linalg.conv_2d_nchw_fchw",
                                "linalg.pooling_nchw_max", "linalg.pooling_nchw_sum", "linalg.depthwise_conv_2d_nchw_chw",
                                "linalg.generic", "linalg.fill", "linalg.add", "linalg.transpose"],
    ["arith.addi", "arith.muli", "arith.subi", "arith.divsi", "arith.remsi", "arith.shrsi", "arith.maxsi",
     "arith.minsi", "arith.shli", "arith.divui"],
    ["arith.addf", "arith.mulf", "arith.subf", "arith.divf", "arith.maximumf", "arith.minimumf"],
    ["dfg.pull", "dfg.push"], ["dfg.in", "dfg.out"], ["dfg.process", "dfg.graph"],
    ["scf.for", "scf.if"], ["floordiv", "ceildiv", "mod", "*", "+"],
    ["tensor.collapse_shape", "tensor.expand_shape"], ["tensor.pad", "tensor.empty"],
    ["low", "high"], ["strides", "dilations"], ["ins", "outs"], ["memref", "tensor"],
]
TOKEN = re.compile(r"%[\w.$-]+|#[\w.$-]+|@[\w.$-]+|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b[a-z_][\w.]*\b|\S")


def corpus_files(dirs):
    files = []
    for d in dirs:
        for dp, dn, fn in os.walk(d):
            dn[:] = [x for x in dn if x not in ("target", ".venv")]
            for f in fn:
                if not f.endswith(".mlir"):
                    continue
                p = os.path.join(dp, f)
                if os.path.getsize(p) > 200_000:
                    continue
                with open(p, "rb") as fh:
                    data = fh.read()
                if b"REQUIRES: slow" in data:
                    continue
                files.append((p, data))
    return sorted(files)


def mutate(rng, data, corpus):
    """One to three mutations of `data` (bytes); returns (bytes, description)."""
    text = data.decode("utf-8", errors="replace")
    what = []
    for _ in range(rng.choice([1, 1, 1, 1, 2, 3])):
        # mostly mutations that keep the text parseable, so that the passes see it
        kind = rng.choices(["byte", "truncate", "token", "number", "type", "swap", "line", "splice", "shape"],
                           weights=[1, 1, 2, 4, 2, 3, 2, 1, 3])[0]
        if not text:
            break
        if kind == "byte":
            b = bytearray(text.encode("utf-8", errors="replace"))
            i = rng.randrange(len(b))
            op = rng.choice(["flip", "insert", "delete"])
            if op == "flip":
                b[i] ^= 1 << rng.randrange(8)
            elif op == "insert":
                b.insert(i, rng.choice(b"{}()<>[]:,=%#@^\"x0-9\n \x00\xff"))
            else:
                del b[i:i + rng.randint(1, 8)]
            text = b.decode("utf-8", errors="replace")
        elif kind == "truncate":
            text = text[:rng.randrange(len(text))]
        elif kind in ("token", "number", "type", "shape"):
            toks = list(TOKEN.finditer(text))
            if not toks:
                continue
            if kind == "number":
                toks = [t for t in toks if re.fullmatch(r"-?\d.*", t.group())] or toks
                rep = rng.choice(NUMBERS)
            elif kind == "type":
                toks = [t for t in toks if t.group() in TYPES] or toks
                rep = rng.choice(TYPES)
            elif kind == "shape":
                shapes = list(re.finditer(r"(?<=<)(\d+x)+", text))
                if not shapes:
                    continue
                m = rng.choice(shapes)
                ds = m.group()[:-1].split("x")
                j = rng.randrange(len(ds))
                op = rng.choice(["change", "drop", "dup", "zero", "dyn"])
                if op == "change":
                    ds[j] = rng.choice(["1", "2", "3", "5", "31", "33", "64", "1000"])
                elif op == "drop" and len(ds) > 1:
                    del ds[j]
                elif op == "dup":
                    ds.insert(j, ds[j])
                elif op == "zero":
                    ds[j] = "0"
                else:
                    ds[j] = "?"
                text = text[:m.start()] + "x".join(ds) + "x" + text[m.end():]
                what.append(f"shape@{m.start()}")
                continue
            else:
                rep = rng.choice(toks).group()  # another token of the same file
            t = rng.choice(toks)
            text = text[:t.start()] + rep + text[t.end():]
            what.append(f"{kind}@{t.start()}:{t.group()[:20]}->{rep[:20]}")
            continue
        elif kind == "swap":
            group = rng.choice(SWAPS)
            present = [g for g in group if g in text]
            if not present:
                continue
            a = rng.choice(present)
            idx = [m.start() for m in re.finditer(re.escape(a), text)]
            i = rng.choice(idx)
            b = rng.choice([g for g in group if g != a] or [a])
            text = text[:i] + b + text[i + len(a):]
            what.append(f"swap@{i}:{a}->{b}")
            continue
        elif kind == "line":
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            op = rng.choice(["delete", "dup", "swap"])
            if op == "delete":
                del lines[i]
            elif op == "dup":
                lines.insert(i, lines[i])
            else:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif kind == "splice":
            other = rng.choice(corpus)[1].decode("utf-8", errors="replace")
            text = text[:rng.randrange(len(text) + 1)] + other[rng.randrange(len(other) + 1):]
        what.append(kind)
    return text.encode("utf-8", errors="replace"), " ".join(what)


def limits(cpu_seconds):
    def apply():
        # A mutant may ask for absurd tensors; 4 GB is far above what any corpus file needs.
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        # A hang is measured in CPU time (SIGXCPU), so that a loaded machine
        # does not turn slow runs into hangs; the wall-clock limit is a backstop.
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_seconds), int(cpu_seconds) + 5))
        os.setsid()
    return apply


def signature(out):
    """The first telling line of a crash (numbers and addresses blanked)."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if CRASH.search(line):
            if "panicked at" in line and i + 1 < len(lines):
                line = line + " " + lines[i + 1]
            return re.sub(r"0x[0-9a-f]+|\d+", "N", line.strip())[:200]
    for line in lines:
        if "error" in line.lower():
            return re.sub(r"0x[0-9a-f]+|\d+", "N", line.strip())[:200]
    return out.strip().splitlines()[-1][:200] if out.strip() else "(no output)"


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.runs = {m: 0 for m in MODES}
        self.ok = self.errors = self.silent = 0
        self.crashes, self.hangs = {}, []


def run_one(a, rng, corpus, stats, tmp):
    path, data = rng.choice(corpus)
    mutant, desc = mutate(rng, data, corpus)
    weights = LEVEL_MODES[level(data)]
    mode = rng.choices(list(weights), weights=list(weights.values()))[0]
    src = os.path.join(tmp, "in.mlir")
    with open(src, "wb") as f:
        f.write(mutant)
    out = os.path.join(tmp, "prj")
    shutil.rmtree(out, ignore_errors=True)
    cmd = shlex.split(a.ming_opt) + [src] + MODES[mode](out) + (["-o", os.devnull] if mode != "hls" else [])
    if mode != "hls" and b"// -----" in data and rng.random() < 0.8:
        cmd.append("--split-input-file")
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=4 * a.timeout, preexec_fn=limits(a.timeout))
        status, output = p.returncode, (p.stdout[-4000:] + p.stderr).decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired as e:
        status, output = None, ((e.stdout or b"")[-2000:] + (e.stderr or b"")).decode("utf-8", errors="replace")
    took = time.time() - t0
    kind = None
    if status is None or status in (-signal.SIGXCPU, -signal.SIGKILL):
        kind = "hang"
    elif status < 0 or status >= 128 or CRASH.search(output):
        kind = "crash"
    with stats.lock:
        stats.runs[mode] += 1
        if kind is None:
            if status == 0:
                stats.ok += 1
            elif "error:" in output or "error" in output.lower():
                stats.errors += 1
            else:
                stats.silent += 1
                kind = "silent"
        if kind is None:
            return
        sig = "hang" if kind == "hang" else signature(output)
        key = (kind, mode, sig)
        if kind == "hang":
            stats.hangs.append((path, mode))
        first = key not in stats.crashes
        stats.crashes.setdefault(key, 0)
        stats.crashes[key] += 1
        if not first:
            return
        n = len(stats.crashes)
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, f"{kind}-{n}")
    with open(base + ".mlir", "wb") as f:
        f.write(mutant)
    with open(base + ".txt", "w") as f:
        f.write(f"source: {os.path.relpath(path, ROOT)}\nmutation: {desc}\nmode: {mode}\n"
                f"command: {' '.join(shlex.quote(c) for c in cmd)}\nstatus: {status}\nseconds: {took:.1f}\n"
                f"signature: {sig}\n--- output ---\n{output[-6000:]}\n")
    print(f"fuzz: {kind.upper()} #{n} ({mode}, from {os.path.relpath(path, ROOT)}): {sig}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=None, help="run this long (default 10 unless --runs)")
    ap.add_argument("--runs", type=int, default=None, help="run this many mutants")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30,
                    help="CPU seconds before a run counts as a hang (default 30; wall clock: 4x)")
    ap.add_argument("--ming-opt", default="ming-opt")
    ap.add_argument("--corpus", nargs="*", default=[os.path.join(ROOT, "test")])
    ap.add_argument("--out", default="fuzz-out", help="folder for crashes (default fuzz-out)")
    a = ap.parse_args(argv)
    if a.runs is None and a.minutes is None:
        a.minutes = 10
    exe = shutil.which(shlex.split(a.ming_opt)[0])
    if exe:
        a.ming_opt = " ".join([shlex.quote(exe)] + shlex.split(a.ming_opt)[1:])
    corpus = corpus_files(a.corpus)
    if not corpus:
        print("fuzz: empty corpus", file=sys.stderr)
        return 2
    stats = Stats()
    deadline = time.time() + a.minutes * 60 if a.minutes is not None else None
    counter = iter(range(a.runs if a.runs is not None else 1 << 62))
    counter_lock = threading.Lock()
    t0 = time.time()

    def worker(k):
        rng = random.Random(a.seed * 1000 + k)
        with tempfile.TemporaryDirectory(prefix="ming-fuzz-") as tmp:
            while deadline is None or time.time() < deadline:
                with counter_lock:
                    if next(counter, None) is None:
                        return
                run_one(a, rng, corpus, stats, tmp)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(max(1, a.jobs))]
    for t in threads:
        t.start()
    last = time.time()
    while any(t.is_alive() for t in threads):
        time.sleep(1)
        if time.time() - last > 60:
            last = time.time()
            print(f"fuzz: {sum(stats.runs.values())} executions, {time.time() - t0:.0f} s", flush=True)
    for t in threads:
        t.join()
    total = sum(stats.runs.values())
    crashes = {k: v for k, v in stats.crashes.items() if k[0] == "crash"}
    hangs = {k: v for k, v in stats.crashes.items() if k[0] == "hang"}
    silent = {k: v for k, v in stats.crashes.items() if k[0] == "silent"}
    print(f"fuzz: {total} executions in {time.time() - t0:.0f} s over {len(corpus)} corpus files, seed {a.seed}")
    print("fuzz: per mode: " + ", ".join(f"{m} {n}" for m, n in stats.runs.items()))
    print(f"fuzz: exit 0 {stats.ok}, error with a diagnostic {stats.errors}, silent failures {stats.silent}, "
          f"crashes {sum(crashes.values())} ({len(crashes)} distinct), hangs {sum(hangs.values())}")
    for (kind, mode, sig), n in sorted(stats.crashes.items()):
        print(f"  {kind} x{n} ({mode}): {sig}")
    del silent
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
