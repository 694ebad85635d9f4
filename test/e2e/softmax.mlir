// RUN: %python %root/scripts/e2e.py %s --work %t
// Softmax over the last axis as IREE lowers ONNX Softmax: a max reduction
// with a second, dead result (the arg-max index, erased), x - max, exp, a sum
// and a division. The row is forked into the max and the subtraction, so the
// fork's FIFO to the subtraction holds a row while the max is computed.
// RUN: ming-opt %s --convert-linalg-to-dfg | FileCheck %s
// CHECK: dfg.process @fork
// CHECK: dfg.channel<f32, lanes = 1, depth = 13>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @softmax(%x: tensor<3x10xf32>) -> tensor<3x10xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<3xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<3xi64>) -> tensor<3xi64>
  %em = tensor.empty() : tensor<3xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<3xf32>) -> tensor<3xf32>
  %mx:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x10xf32>) outs(%fm, %fi : tensor<3xf32>, tensor<3xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %in, %m : f32
    %nm = arith.maximumf %in, %m : f32
    %ni = arith.select %gt, %j64, %i : i64
    linalg.yield %nm, %ni : f32, i64
  } -> (tensor<3xf32>, tensor<3xi64>)
  %m2 = tensor.expand_shape %mx#0 [[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
  %e = tensor.empty() : tensor<3x10xf32>
  %s = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m2 : tensor<3x10xf32>, tensor<3x1xf32>) outs(%e : tensor<3x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  } -> tensor<3x10xf32>
  %es = tensor.empty() : tensor<3x1xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x1xf32>) -> tensor<3x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row0], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<3x10xf32>) outs(%fs : tensor<3x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %sum : tensor<3x10xf32>, tensor<3x1xf32>) outs(%e : tensor<3x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<3x10xf32>
  return %r : tensor<3x10xf32>
}
