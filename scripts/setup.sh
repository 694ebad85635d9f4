#!/usr/bin/env bash
# Installs everything ming needs on a fresh Debian 12 machine; idempotent and
# quick (a few dpkg/pip queries) when everything is already there.
#   - LLVM/MLIR 22 from Debian (headers, libMLIR.so, mlir-opt-22, lit, FileCheck)
#   - graphviz (graph.svg), cmake, ninja, tcl (tclsh runs the generated Vivado/Vitis scripts
#     against stub commands in test/Deploy)
#   - a project-local Python venv (.venv) with the front-end tools (IREE, onnx)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 libclang-22-dev
          libpolly-22-dev lld-22 cmake ninja-build libzstd-dev libz3-dev libxml2-dev zlib1g-dev
          libedit-dev libffi-dev graphviz g++ make tcl)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Python venv for the front-end tools; re-installed only when requirements change.
venv="$root/.venv"
req="$root/scripts/requirements.txt"
stamp="$venv/.requirements.sha"
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: creating Python venv in .venv"
  # TensorFlow and IREE take about 2.5 GB installed; pip's cache would double that, and a
  # full disk otherwise fails half-way through with only pip's OSError to go by.
  free_kb=$(df -Pk "$root" | awk 'NR == 2 { print $4 }')
  if [ "${free_kb:-0}" -lt 4000000 ]; then
    echo "setup: warning: $((free_kb / 1024)) MB free on $(df -P "$root" | awk 'NR == 2 { print $6 }');" \
         "the venv and the build need about 6 GB" >&2
  fi
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --no-cache-dir --disable-pip-version-check -r "$req"
  echo "$want" > "$stamp"
fi
