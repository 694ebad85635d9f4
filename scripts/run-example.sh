#!/usr/bin/env bash
# The main job on the bundled example, examples/conv_relu.onnx (f32 conv 3->8 3x3 + bias,
# ReLU, 32x32; written by examples/conv_relu.py with onnx.helper): the ONNX model is
# imported (IREE's importer and torch pipelines from .venv), compiled into the Vitis HLS
# project out/conv_relu, then proven right: the same design C-simulated (make csim, one
# thread per dataflow process, bounded FIFOs) on deterministic inputs and compared
# element by element with onnxruntime running the model.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# rustup installs cargo in ~/.cargo/bin, which a non-login shell may not have on PATH.
[ -d "${HOME:-/root}/.cargo/bin" ] && export PATH="${HOME:-/root}/.cargo/bin:$PATH"
"$root/scripts/setup.sh"
cargo build --release --locked
mkdir -p out
./target/release/ming-opt examples/conv_relu.onnx --hls out/conv_relu
echo "ming: wrote the HLS project out/conv_relu ($(ls out/conv_relu | tr '\n' ' '))"
PATH="$root/target/release:$PATH" "$root/.venv/bin/python" scripts/e2e_onnx.py examples/conv_relu.onnx \
  --work out/conv_relu.check --keep
