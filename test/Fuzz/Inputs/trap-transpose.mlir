func.func @f(%a: tensor<2x3xi8>, %e: tensor<3x2xi8>) -> tensor<3x2xi8> {
  %t = linalg.transpose ins(%a : tensor<2x3xi8>) outs(%e : tensor<3x2xi8>) permutation = [1, 9223372036854775808]
  return %t : tensor<3x2xi8>
}
