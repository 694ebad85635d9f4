// Two inputs (f32 and i12) and two outputs in one plain function (no
// DATAFLOW): float tolerance, ap_int data (2 bytes per element in the data
// files, sign-extended) and several ports in the testbench.
emitHLS.func @mixed(%x: !emitHLS.array<3x4xf32>, %n: !emitHLS.array<4xi12>,
                    %y: !emitHLS.array<3x4xf32>, %m: !emitHLS.array<4xi12>)
    attributes {ming.top, ming.num_inputs = 2 : i64} {
  %half = arith.constant 0.5 : f32
  emitHLS.for %i = 0 to 3 step 1 label "rows" {
    emitHLS.for %j = 0 to 4 step 1 label "cols" {
      %v = emitHLS.load %x[%i, %j] : !emitHLS.array<3x4xf32>
      %h = arith.mulf %v, %half : f32
      emitHLS.store %h, %y[%i, %j] : !emitHLS.array<3x4xf32>
    }
  }
  %one = arith.constant 1 : i12
  emitHLS.for %k = 0 to 4 step 1 label "incr" {
    %a = emitHLS.load %n[%k] : !emitHLS.array<4xi12>
    %b = arith.addi %a, %one : i12
    emitHLS.store %b, %m[%k] : !emitHLS.array<4xi12>
  }
  emitHLS.return
}
