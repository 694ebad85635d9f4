#!/usr/bin/env bash
# The main job on the bundled example (examples/conv_relu.mlir): every stage
# that exists today: normalisation (named ops generalised) and the kernel
# analysis of each layer, printed as remarks; the normalised IR goes to
# out/conv_relu.generic.mlir.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# rustup installs cargo in ~/.cargo/bin, which a non-login shell may not have on PATH.
[ -d "${HOME:-/root}/.cargo/bin" ] && export PATH="${HOME:-/root}/.cargo/bin:$PATH"
"$root/scripts/setup.sh"
cargo build --release --locked
mkdir -p out
./target/release/ming-opt examples/conv_relu.mlir --linalg-generalize-named-ops \
  --ming-test-kernel-analysis --mlir-print-op-on-diagnostic=false -o out/conv_relu.generic.mlir
echo "ming: wrote out/conv_relu.generic.mlir"
