// A power by a run-time exponent (math-functions.mlir checks the error).

emitHLS.func @f(%x: f32, %k: i32) -> f32 {
  %p = math.fpowi %x, %k : f32, i32
  emitHLS.return %p : f32
}
