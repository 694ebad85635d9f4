emitHLS.func @conv(%a: !emitHLS.array<2x3xf32>, %b: !emitHLS.array<4xi8>) {
  %buf = emitHLS.array : !emitHLS.array<2x3x34xi8>
  %w = emitHLS.array rom : !emitHLS.array<8x27xi8> = dense<1> : tensor<8x27xi8>
  emitHLS.pragma.array_partition %w cyclic factor = 2 dim = 1 : !emitHLS.array<8x27xi8>
}
