// Found by scripts/fuzz.py (test/e2e/conv_stride2.mlir with the requantisation's
// clamp `arith.maxsi %2, %lo` mutated to `arith.muli %2, %lo`, %lo = 0): the
// payload always yields 0, canonicalisation makes it `linalg.yield` of a
// constant defined outside the body, and convert-linalg-to-dfg pushed a null
// value (a segmentation fault). The constant is now cloned into the process
// like the payload's other outside operands; numbers checked end to end.
// RUN: ming-opt %s --convert-linalg-to-dfg | FileCheck %s
// CHECK-LABEL: dfg.process @map
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: dfg.push %[[ZERO]]
// RUN: %python %root/scripts/e2e.py %s --work %t | FileCheck %s --check-prefix=E2E
// E2E: out0 tensor<2x8xi8>: max error 0, mismatches 0/16
// E2E: e2e: yield-outside-constant.mlir: PASS
func.func @zero(%x: tensor<2x8xi32>) -> tensor<2x8xi8> {
  %c0_i8 = arith.constant 0 : i8
  %e = tensor.empty() : tensor<2x8xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x8xi32>) outs(%e : tensor<2x8xi8>) {
  ^bb0(%a: i32, %out: i8):
    linalg.yield %c0_i8 : i8
  } -> tensor<2x8xi8>
  return %y : tensor<2x8xi8>
}
