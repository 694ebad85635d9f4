func.func @f(%a: tensor<8x4xf32>, %e: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%a : tensor<8x4xf32>) outs(%e : tensor<8xf32>) dimensions = [1.5]
    (%in: f32, %init: f32) {
      %0 = arith.addf %in, %init : f32
      linalg.yield %0 : f32
    }
  return %r : tensor<8xf32>
}
