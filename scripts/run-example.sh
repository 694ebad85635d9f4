#!/usr/bin/env bash
# The main job on the bundled example (examples/conv_relu.mlir, int8 conv 3->8 + requantised
# ReLU at 32x32): the whole flow to a Vitis HLS project in out/conv_relu, then the proof that
# it computes the right numbers: the same design C-simulated (make csim, one thread per
# dataflow process, bounded FIFOs) on deterministic inputs and compared element by element
# with the original linalg executed by MLIR itself (mlir-runner).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# rustup installs cargo in ~/.cargo/bin, which a non-login shell may not have on PATH.
[ -d "${HOME:-/root}/.cargo/bin" ] && export PATH="${HOME:-/root}/.cargo/bin:$PATH"
"$root/scripts/setup.sh"
cargo build --release --locked
mkdir -p out
./target/release/ming-opt examples/conv_relu.mlir --hls out/conv_relu
echo "ming: wrote the HLS project out/conv_relu ($(ls out/conv_relu | tr '\n' ' '))"
PATH="$root/target/release:$PATH" "$root/.venv/bin/python" scripts/e2e.py examples/conv_relu.mlir \
  --work out/conv_relu.check --keep
