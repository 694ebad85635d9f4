// RUN: %python %root/scripts/e2e.py %s --work %t
// elementwise saturating add of two int8 inputs (a linalg.generic).
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @add(%arg0: tensor<1x8x32x32xi8>, %arg1: tensor<1x8x32x32xi8>) -> tensor<1x8x32x32xi8> {
  %empty1 = tensor.empty() : tensor<1x8x32x32xi8>
  %sum2 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%arg0, %arg1 : tensor<1x8x32x32xi8>, tensor<1x8x32x32xi8>) outs(%empty1 : tensor<1x8x32x32xi8>) {
  ^bb0(%a0: i8, %a1: i8, %out: i8):
    %lo = arith.constant -128 : i32
    %hi = arith.constant 127 : i32
    %0 = arith.extsi %a0 : i8 to i32
    %1 = arith.extsi %a1 : i8 to i32
    %2 = arith.addi %0, %1 : i32
    %3 = arith.maxsi %2, %lo : i32
    %4 = arith.minsi %3, %hi : i32
    %r = arith.trunci %4 : i32 to i8
    linalg.yield %r : i8
  } -> tensor<1x8x32x32xi8>
  return %sum2 : tensor<1x8x32x32xi8>
}
