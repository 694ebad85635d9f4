"""A chain of N elementwise multiplies on 16 integers, as linalg: a graph of
N + 2 processes (load, N maps, store) for tests that need a large graph
without a large model."""
import sys

n = int(sys.argv[1])
print("#id = affine_map<(d0) -> (d0)>")
print("func.func @chain(%x: tensor<16xi32>) -> tensor<16xi32> {")
prev = "%x"
for i in range(n):
    print(f"  %e{i} = tensor.empty() : tensor<16xi32>")
    print(f"  %c{i} = arith.constant {i + 1} : i32")
    print(f"  %v{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\"]}}"
          f" ins({prev} : tensor<16xi32>) outs(%e{i} : tensor<16xi32>) {{")
    print("  ^bb0(%a: i32, %o: i32):")
    print(f"    %r = arith.muli %a, %c{i} : i32")
    print("    linalg.yield %r : i32")
    print("  } -> tensor<16xi32>")
    prev = f"%v{i}"
print(f"  return {prev} : tensor<16xi32>")
print("}")
