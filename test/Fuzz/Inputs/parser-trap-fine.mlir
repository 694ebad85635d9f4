// Lists and look-alikes that MLIR parses: nothing for cpp/Tools/ParserTraps.cpp
// to report. linalg.broadcast dimensions = [x] in a comment is not code.
func.func @f(%a: tensor<2x3xi8>, %e: tensor<3x2xi8>, %b: tensor<3xi8>, %f: tensor<3x4xi8>) -> (tensor<3x2xi8>, tensor<3x4xi8>, tensor<3x2xi8>) {
  %t = linalg.transpose ins(%a : tensor<2x3xi8>) outs(%e : tensor<3x2xi8>) permutation = [0x1, // one
    0]
  %u = linalg.broadcast ins(%b : tensor<3xi8>) outs(%f : tensor<3x4xi8>) dimensions = [ 1 ]
  %g = "linalg.transpose"(%a, %e) <{permutation = array<i64: 1, 0>}> ({
  ^bb0(%in: i8, %out: i8):
    linalg.yield %in : i8
  }) {note = "linalg.reduce dimensions = [bad]"} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<3x2xi8>
  return %t, %u, %g : tensor<3x2xi8>, tensor<3x4xi8>, tensor<3x2xi8>
}
func.func @extremes(%a: tensor<4xf32>, %e: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce { arith.addf } ins(%a : tensor<4xf32>) outs(%e : tensor<f32>) dimensions = [0]
  %dimensions = arith.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  return %r : tensor<f32>
}
