// A payload that reads a constant table at an address computed from the data
// (ming-quantize-integer's lookup of an i8 activation): the table becomes a
// ROM, a constant memref.global, read in the process with the pulled value
// as its address. Two layers reading the same table share its global.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// CHECK: memref.global "private" constant @[[T:table[_0-9]*]] : memref<256xi8> = dense<"0x
// CHECK-NOT: memref.global
// CHECK-LABEL: dfg.process @map1
// CHECK-SAME: (%[[IN:[a-z0-9_]+]]: !dfg.in<i8>, %[[OUT:[a-z0-9_]+]]: !dfg.out<i8>)
// CHECK: scf.for
// CHECK: %[[X:.*]] = dfg.pull %[[IN]] : !dfg.in<i8>
// CHECK: %[[I:.*]] = arith.index_cast %[[X]] : i8 to index
// CHECK: %[[J:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[ROM:.*]] = memref.get_global @[[T]] : memref<256xi8>
// CHECK: %[[V:.*]] = memref.load %[[ROM]][%[[J]]] : memref<256xi8>
// CHECK: dfg.push %[[V]], %[[OUT]] : !dfg.out<i8>
// CHECK-LABEL: dfg.process @map2
// CHECK: memref.get_global @[[T]] : memref<256xi8>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @lookup(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  // t[k] = (k - 128) / 2, floored: the table of x -> floor(x / 2).
  %t = arith.constant dense<[-64, -64, -63, -63, -62, -62, -61, -61, -60, -60, -59, -59, -58, -58, -57, -57, -56, -56, -55, -55, -54, -54, -53, -53, -52, -52, -51, -51, -50, -50, -49, -49, -48, -48, -47, -47, -46, -46, -45, -45, -44, -44, -43, -43, -42, -42, -41, -41, -40, -40, -39, -39, -38, -38, -37, -37, -36, -36, -35, -35, -34, -34, -33, -33, -32, -32, -31, -31, -30, -30, -29, -29, -28, -28, -27, -27, -26, -26, -25, -25, -24, -24, -23, -23, -22, -22, -21, -21, -20, -20, -19, -19, -18, -18, -17, -17, -16, -16, -15, -15, -14, -14, -13, -13, -12, -12, -11, -11, -10, -10, -9, -9, -8, -8, -7, -7, -6, -6, -5, -5, -4, -4, -3, -3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 61, 62, 62, 63, 63]> : tensor<256xi8>
  %e = tensor.empty() : tensor<4x8xi8>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xi8>) outs(%e : tensor<4x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    %i = arith.index_cast %in : i8 to index
    %c128 = arith.constant 128 : index
    %j = arith.addi %i, %c128 : index
    %v = tensor.extract %t[%j] : tensor<256xi8>
    linalg.yield %v : i8
  } -> tensor<4x8xi8>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xi8>) outs(%e : tensor<4x8xi8>) {
  ^bb0(%in: i8, %out: i8):
    %i = arith.index_cast %in : i8 to index
    %c128 = arith.constant 128 : index
    %j = arith.addi %i, %c128 : index
    %v = tensor.extract %t[%j] : tensor<256xi8>
    linalg.yield %v : i8
  } -> tensor<4x8xi8>
  return %z : tensor<4x8xi8>
}
