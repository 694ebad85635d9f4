// A top function with a pointer argument: the testbench needs shapes.
emitHLS.func @ptr_top(%x: !emitHLS.ptr<i8>, %y: !emitHLS.array<4xi8>)
    attributes {ming.top, ming.num_inputs = 1 : i64} {
  emitHLS.return
}
