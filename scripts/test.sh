#!/usr/bin/env bash
# The whole test suite: Rust unit tests and lit (test/). Runs both, fails when
# either fails, and ends with one "tests: N passed, M failed" line.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# rustup installs cargo in ~/.cargo/bin, which a non-login shell may not have on PATH.
[ -d "${HOME:-/root}/.cargo/bin" ] && export PATH="${HOME:-/root}/.cargo/bin:$PATH"
"$root/scripts/setup.sh" || exit 1
cargo build --release --locked || exit 1

logs=$(mktemp -d)
cargo test --release --locked 2>&1 | tee "$logs/cargo"
cargo_status=${PIPESTATUS[0]}
lit=$(command -v lit-22 || echo /usr/lib/llvm-22/bin/lit)
"$lit" -sv --time-tests "$@" "$root/test" 2>&1 | tee "$logs/lit"
lit_status=${PIPESTATUS[0]}

# Totals from both runners' own summaries.
cargo_pass=$(grep -Eo '[0-9]+ passed' "$logs/cargo" | awk '{s+=$1} END {print s+0}')
cargo_fail=$(grep -Eo '[0-9]+ failed' "$logs/cargo" | awk '{s+=$1} END {print s+0}')
lit_pass=$(grep -E '^\s+Passed\s*:' "$logs/lit" | grep -Eo '[0-9]+' | head -1)
lit_fail=$(grep -E '^\s+(Failed|Unresolved|Timed Out|Unexpectedly Passed)\s*:' "$logs/lit" | grep -Eo ':\s*[0-9]+' | grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
passed=$((cargo_pass + ${lit_pass:-0}))
failed=$((cargo_fail + lit_fail))
if [ "$cargo_status" -ne 0 ] || [ "$lit_status" -ne 0 ]; then
  [ "$failed" -gt 0 ] || failed=1
fi
echo "tests: $passed passed, $failed failed"
rm -rf "$logs"
[ "$cargo_status" -eq 0 ] && [ "$lit_status" -eq 0 ]
