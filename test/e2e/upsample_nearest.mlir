// RUN: %python %root/scripts/e2e.py %s --work %t
// nearest-neighbour 2x upsampling (16x16 -> 32x32) as a linalg.generic whose input map uses floordiv:
// none of the three kernel classes (not an identity/broadcast, no reduction, no window). The
// payload doubles the value (wrapping i8 add).
#up2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 2, d3 floordiv 2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @upsample_nearest(%arg0: tensor<1x8x16x16xi8>) -> tensor<1x8x32x32xi8> {
  %empty1 = tensor.empty() : tensor<1x8x32x32xi8>
  %up2 = linalg.generic {indexing_maps = [#up2, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%arg0 : tensor<1x8x16x16xi8>) outs(%empty1 : tensor<1x8x32x32xi8>) {
  ^bb0(%a0: i8, %out: i8):
    %r = arith.addi %a0, %a0 : i8
    linalg.yield %r : i8
  } -> tensor<1x8x32x32xi8>
  return %up2 : tensor<1x8x32x32xi8>
}
