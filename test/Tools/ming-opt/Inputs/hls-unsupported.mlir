// A top function whose body has an op without a C++ translation.
emitHLS.func @bad_top(%x: !emitHLS.array<4xi32>, %y: !emitHLS.array<4xi32>)
    attributes {ming.top, ming.num_inputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %v = emitHLS.load %x[%c0] : !emitHLS.array<4xi32>
  %q = math.ctlz %v : i32
  emitHLS.store %q, %y[%c0] : !emitHLS.array<4xi32>
  emitHLS.return
}
