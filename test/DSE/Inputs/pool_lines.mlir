// Max pooling 5x5 over 16 channels of 224x224 int8: a line buffer of four
// 224-pixel rows of 16 channels (14,336 int8 words): 8 BRAM18K at the least,
// or 4 URAM288 (4 banks of 3,584 words).
func.func @pool(%arg0: tensor<1x16x224x224xi8>) -> tensor<1x16x220x220xi8> {
  %min = arith.constant -128 : i8
  %empty = tensor.empty() : tensor<1x16x220x220xi8>
  %init = linalg.fill ins(%min : i8) outs(%empty : tensor<1x16x220x220xi8>) -> tensor<1x16x220x220xi8>
  %win = tensor.empty() : tensor<5x5xi8>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%arg0, %win : tensor<1x16x224x224xi8>, tensor<5x5xi8>) outs(%init : tensor<1x16x220x220xi8>) -> tensor<1x16x220x220xi8>
  return %r : tensor<1x16x220x220xi8>
}
