// RUN: %python %root/scripts/e2e.py %s --work %t
// A constant broadcast is read in place from the constant's ROM, through the
// broadcast's own maps: here bt[i][j] = b[j] is written through a transposed
// output map and read transposed, so y[i][j] = x[i][j] + b[i]. A wrong
// composition of the maps reads b[j] (or out of range) and fails against
// mlir-runner.
func.func @bias_permuted(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %b = arith.constant dense<[0.25, -1.5, 2.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<5x3xf32>
  %bt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1, d0)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<3xf32>) outs(%e : tensor<5x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<5x3xf32>
  %e2 = tensor.empty() : tensor<3x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %bt : tensor<3x5xf32>, tensor<5x3xf32>) outs(%e2 : tensor<3x5xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
