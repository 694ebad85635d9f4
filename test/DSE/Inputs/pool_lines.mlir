// Max pooling 5x5 over one channel of 8 x 4093 int8: a line buffer of four
// 4093-pixel rows, one bank each (4093 is prime, so no unroll of the row
// walk splits them): 8 BRAM18K at the least, or 4 URAM288 (one 4K-word
// URAM per row). Too large for LUTRAM however the DSE unrolls.
func.func @pool(%arg0: tensor<1x1x8x4093xi8>) -> tensor<1x1x4x4089xi8> {
  %min = arith.constant -128 : i8
  %empty = tensor.empty() : tensor<1x1x4x4089xi8>
  %init = linalg.fill ins(%min : i8) outs(%empty : tensor<1x1x4x4089xi8>) -> tensor<1x1x4x4089xi8>
  %win = tensor.empty() : tensor<5x5xi8>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%arg0, %win : tensor<1x1x8x4093xi8>, tensor<5x5xi8>) outs(%init : tensor<1x1x4x4089xi8>) -> tensor<1x1x4x4089xi8>
  return %r : tensor<1x1x4x4089xi8>
}
