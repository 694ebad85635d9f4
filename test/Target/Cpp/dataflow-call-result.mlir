// A call with a result cannot run as a dataflow process: a located error, exit status 1.
// RUN: sh -c 'ming-opt %s --emit-hls-cpp 2>%t.err; test $? -eq 1' && FileCheck %s < %t.err
// CHECK: dataflow-call-result.mlir:[[@LINE+4]]:8: error: a call in a DATAFLOW function runs as a process and must not return a value

emitHLS.func @top(%a: i32) {
  emitHLS.pragma.dataflow
  %r = emitHLS.call @g(%a) : (i32) -> i32
  emitHLS.return
}
emitHLS.func @g(%a: i32) -> i32 {
  emitHLS.return %a : i32
}
