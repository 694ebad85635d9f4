#!/usr/bin/env python3
"""Fetches Xilinx's open-source C-simulation headers (ap_int.h, ap_fixed.h,
hls_stream.h and what they include, Apache-2.0) into a cache directory and
prints that directory.

The headers are never part of the checkout. Xilinx publishes them on GitHub
(HLS_arbitrary_Precision_Types); the PyPI package hls4ml ships a copy under
hls4ml/templates/vivado/ap_types/ in its wheel, and PyPI is what this machine
reaches, so the wheel is downloaded with `pip download --no-deps` and only
that folder is unpacked.

    scripts/xilinx_headers.py [--cache DIR]    # prints DIR/ap_types; exit 1 when unavailable

The cache defaults to $MING_XILINX_HEADERS, else target/xilinx-headers in the
checkout; a filled cache is used without any network access.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = "hls4ml/templates/vivado/ap_types/"
# The headers the compatibility tests include; the download is complete when all are there.
REQUIRED = ("ap_int.h", "ap_fixed.h", "hls_stream.h", "etc/ap_private.h")


def complete(folder):
    return all(os.path.isfile(os.path.join(folder, h)) for h in REQUIRED)


def fetch(cache, timeout):
    folder = os.path.join(cache, "ap_types")
    if complete(folder):
        return folder
    os.makedirs(cache, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        run = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
             "-q", "-d", tmp, "hls4ml"],
            capture_output=True, text=True, timeout=timeout)
        if run.returncode != 0:
            raise RuntimeError("pip download hls4ml failed: " + (run.stderr.strip().splitlines() or ["?"])[-1])
        wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")]
        if not wheels:
            raise RuntimeError("pip download hls4ml gave no wheel")
        staged = os.path.join(tmp, "ap_types")
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as wheel:
            for name in wheel.namelist():
                if not name.startswith(PREFIX) or name.endswith("/"):
                    continue
                rel = name[len(PREFIX):]
                # Only headers, and nothing that climbs out of the folder.
                if ".." in rel.split("/") or not rel.endswith(".h"):
                    continue
                dest = os.path.join(staged, rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with wheel.open(name) as src, open(dest, "wb") as out:
                    out.write(src.read())
        if not complete(staged):
            raise RuntimeError("the hls4ml wheel has no complete ap_types folder")
        # Whole or not at all: a concurrent run may have finished first.
        try:
            os.rename(staged, folder)
        except OSError:
            if not complete(folder):
                raise
    return folder


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("MING_XILINX_HEADERS") or os.path.join(ROOT, "target", "xilinx-headers")
    ap.add_argument("--cache", default=default)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds pip may take")
    args = ap.parse_args()
    try:
        print(fetch(args.cache, args.timeout))
    except (OSError, RuntimeError, subprocess.SubprocessError) as e:
        print(f"xilinx_headers: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
