// An op without a C++ translation: a located error on stderr, exit status 1.
// RUN: sh -c 'ming-opt %s --emit-hls-cpp 2>%t.err; test $? -eq 1' && FileCheck %s < %t.err
// CHECK: unsupported.mlir:[[@LINE+3]]:8: error: 'math.ctlz' has no C++ translation

emitHLS.func @f(%a: i32, %b: i32) -> i32 {
  %0 = math.ctlz %a : i32
  emitHLS.return %0 : i32
}
