#!/bin/sh
# e2e.py's --ming-opt for gather-windows.test: called as `IN --hls OUT ...`;
# the linalg is lowered with the window gather, then --hls takes the graph.
set -e
in=$1 out=$3
shift 3
ming-opt "$in" --pass-pipeline='builtin.module(func.func(linalg-generalize-named-ops,ming-fold-constants),convert-linalg-to-dfg{gather-windows=1},canonicalize,cse)' -o "$out.dfg.mlir"
exec ming-opt "$out.dfg.mlir" --hls "$out" "$@"
