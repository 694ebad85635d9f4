"""ming from Python: compile a CNN model into a streaming Vitis HLS project,
read its report, run its C simulation on numpy arrays.

    import ming
    design = ming.compile("model.onnx", board="kv260", out="prj")
    design.report["total"]["cycles"]
    y = design.csim(x)

Everything runs through the `ming-opt` binary (found by `ming_opt()`); its
diagnostics come back as `MingError`.
"""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

__all__ = ["compile", "Design", "MingError", "CSimError", "ming_opt"]

# ming-opt's options by keyword: name -> (flag, takes a value).
_OPTIONS = {
    "dsp": ("--dsp", True),
    "bram": ("--bram", True),
    "clock_mhz": ("--clock-mhz", True),
    "top": ("--top", True),
    "dse_objective": ("--dse-objective", True),
    "dse_time_limit": ("--dse-time-limit", True),
    "dse_max_lanes": ("--dse-max-lanes", True),
    "no_dse": ("--no-dse", False),
    "no_fifo_minimize": ("--no-fifo-minimize", False),
}


class MingError(Exception):
    """ming-opt (or the C simulation) failed: `message` is its diagnostic
    output, `returncode` its exit status, `command` what was run."""

    def __init__(self, message, returncode, command):
        super().__init__(message)
        self.message = message
        self.returncode = returncode
        self.command = command

    def __str__(self):
        return f"{self.message} (exit status {self.returncode})"


class CSimError(MingError):
    """The C simulation did not pass: a build error, a mismatch against
    data/ref<j>.bin (exit 1), a data file of the wrong size (2), a deadlock (3)."""


def ming_opt():
    """The ming-opt binary: $MING_OPT, else target/release/ming-opt of the
    checkout this package lives in (an editable install or PYTHONPATH), else
    ming-opt on PATH."""
    env = os.environ.get("MING_OPT")
    if env:
        return env
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    built = os.path.join(checkout, "target", "release", "ming-opt")
    if os.access(built, os.X_OK):
        return built
    found = shutil.which("ming-opt")
    if found:
        return found
    raise MingError(f"ming-opt not found: set MING_OPT, build the checkout (cargo build --release; looked for {built}) "
                    "or put ming-opt on PATH", 127, [])


def compile(model, board="kv260", out=None, **options):
    """Compiles `model` (an ONNX or TFLite file, or MLIR: anything ming-opt
    reads; the path is passed through unchanged) into a Vitis HLS project
    folder `out` (a fresh temporary folder when None; `Design.write` copies
    it elsewhere). Keyword options are ming-opt's with underscores: dsp,
    bram, clock_mhz, top, dse_objective, dse_time_limit, dse_max_lanes,
    no_dse, no_fifo_minimize. Raises MingError with ming-opt's diagnostics."""
    model = os.fspath(model)
    if out is None:
        out = os.path.join(tempfile.mkdtemp(prefix="ming-"), "prj")
    out = os.fspath(out)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    cmd = [ming_opt(), model, "--hls", out, "--board", board]
    for key, value in options.items():
        if key not in _OPTIONS:
            raise TypeError(f"compile() got an unknown option '{key}' (known: {', '.join(sorted(_OPTIONS))})")
        flag, takes_value = _OPTIONS[key]
        if takes_value:
            if value is not None:
                cmd += [flag, str(value)]
        elif value:
            cmd.append(flag)
    # stderr is captured for MingError: no progress lines in it.
    env = dict(os.environ, MING_PROGRESS="0")
    run = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise MingError(run.stderr.strip() or f"ming-opt failed with status {run.returncode}", run.returncode, cmd)
    return Design(out, log=run.stderr)


class Design:
    """A generated project folder."""

    def __init__(self, path, log=""):
        self.path = os.path.abspath(os.fspath(path))
        self.log = log
        with open(os.path.join(self.path, "report.json")) as f:
            self._report = json.load(f)

    @property
    def report(self):
        """report.json as a dict (a copy: changing it changes nothing on disk)."""
        return json.loads(json.dumps(self._report))

    @property
    def top(self):
        return self._report["top"]

    @property
    def inputs(self):
        """The input arguments: dicts with name, shape, elem (MLIR type), dtype."""
        return [p for p in self._report["ports"] if p["direction"] == "in"]

    @property
    def outputs(self):
        return [p for p in self._report["ports"] if p["direction"] == "out"]

    @property
    def graph(self):
        """graph.svg (rendered from graph.dot by Graphviz when it is missing);
        None without Graphviz."""
        svg = os.path.join(self.path, "graph.svg")
        if not os.path.exists(svg) and shutil.which("dot"):
            subprocess.run(["dot", "-Tsvg", "graph.dot", "-o", "graph.svg"], cwd=self.path, capture_output=True)
        return svg if os.path.exists(svg) else None

    def write(self, out=None):
        """The project folder at `out` (copied there, replacing an earlier
        copy), or where it is when `out` is None or the same place; returns its path."""
        if out is None or os.path.abspath(os.fspath(out)) == self.path:
            return self.path
        out = os.path.abspath(os.fspath(out))
        if os.path.exists(out):
            if not os.path.exists(os.path.join(out, "report.json")):
                raise MingError(f"'{out}' exists and is not a ming project; not replacing it", 1, [])
            shutil.rmtree(out)
        shutil.copytree(self.path, out, ignore=shutil.ignore_patterns("build"))
        return out

    def csim(self, *xs, cxxflags=""):
        """Runs the C simulation (make csim) on the inputs given as numpy
        arrays (or anything numpy converts), each converted to its argument's
        type and shape; returns the output array, or a tuple of them when the
        top has several. data/in<i>.bin and data/out<j>.bin are the raw
        little-endian row-major files the testbench reads and writes."""
        ins = self.inputs
        if len(xs) != len(ins):
            raise TypeError(f"{self.top} takes {len(ins)} input(s), got {len(xs)}")
        data = os.path.join(self.path, "data")
        os.makedirs(data, exist_ok=True)
        for i, (x, port) in enumerate(zip(xs, ins)):
            a = np.asarray(x)
            n = int(np.prod(port["shape"]))
            if a.size != n:
                raise ValueError(f"input {i} is {'x'.join(map(str, port['shape']))}x{port['elem']}: {n} elements, got {a.size}")
            a.astype(np.dtype(port["dtype"]).newbyteorder("<")).reshape(port["shape"]).tofile(os.path.join(data, f"in{i}.bin"))
        for j in range(len(self.outputs)):
            path = os.path.join(data, f"out{j}.bin")
            if os.path.exists(path):
                os.remove(path)
        cmd = ["make", "-s", "-C", self.path, "csim"] + ([f"CXXFLAGS_EXTRA={cxxflags}"] if cxxflags else [])
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            raise CSimError((run.stdout + run.stderr).strip(), run.returncode, cmd)
        ys = []
        for j, port in enumerate(self.outputs):
            y = np.fromfile(os.path.join(data, f"out{j}.bin"), dtype=np.dtype(port["dtype"]).newbyteorder("<"))
            ys.append(y.astype(port["dtype"]).reshape(port["shape"]))
        return ys[0] if len(ys) == 1 else tuple(ys)

    def __repr__(self):
        t = self._report.get("total") or {}
        return (f"<ming.Design {self.top} on {self._report['board']['name']}: {t.get('cycles')} cycles, "
                f"{t.get('dsp')} DSP, {t.get('bram18k')} BRAM18K at {self.path}>")
