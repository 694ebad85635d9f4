// A small design at the emitHLS level, as convert-dfg-to-emithls produces it:
// load -> relu -> store on a 2x8 i8 array, a DATAFLOW top marked ming.top
// with one input and one output, two named streams of different depths.
emitHLS.func @load(%x: !emitHLS.array<2x8xi8>, %out: !emitHLS.stream<i8>) attributes {ming.kind = "load"} {
  emitHLS.pragma.inline off
  emitHLS.for %i = 0 to 2 step 1 label "load_i" {
    emitHLS.for %j = 0 to 8 step 1 label "load_j" {
      emitHLS.pragma.pipeline II = 1
      %v = emitHLS.load %x[%i, %j] : !emitHLS.array<2x8xi8>
      emitHLS.stream_write %out, %v : !emitHLS.stream<i8>
    }
  }
  emitHLS.return
}

emitHLS.func @relu(%in: !emitHLS.stream<i8>, %out: !emitHLS.stream<i8>) attributes {ming.kind = "pure_parallel"} {
  emitHLS.pragma.inline off
  %zero = arith.constant 0 : i8
  emitHLS.for %i = 0 to 16 step 1 label "relu_i" {
    emitHLS.pragma.pipeline II = 1
    %v = emitHLS.stream_read %in : !emitHLS.stream<i8>
    %r = arith.maxsi %v, %zero : i8
    emitHLS.stream_write %out, %r : !emitHLS.stream<i8>
  }
  emitHLS.return
}

emitHLS.func @store(%in: !emitHLS.stream<i8>, %y: !emitHLS.array<2x8xi8>) attributes {ming.kind = "store"} {
  emitHLS.pragma.inline off
  emitHLS.for %i = 0 to 2 step 1 label "store_i" {
    emitHLS.for %j = 0 to 8 step 1 label "store_j" {
      emitHLS.pragma.pipeline II = 1
      %v = emitHLS.stream_read %in : !emitHLS.stream<i8>
      emitHLS.store %v, %y[%i, %j] : !emitHLS.array<2x8xi8>
    }
  }
  emitHLS.return
}

emitHLS.func @relu_top(%x: !emitHLS.array<2x8xi8>, %y: !emitHLS.array<2x8xi8>)
    attributes {ming.top, ming.num_inputs = 1 : i64} {
  emitHLS.pragma.interface m_axi %x bundle = "gmem0" depth = 16 : !emitHLS.array<2x8xi8>
  emitHLS.pragma.interface m_axi %y bundle = "gmem1" depth = 16 : !emitHLS.array<2x8xi8>
  emitHLS.pragma.interface s_axilite return bundle = "control"
  emitHLS.pragma.dataflow
  %a = emitHLS.stream {ming.name = "x_relu"} : !emitHLS.stream<i8>
  emitHLS.pragma.stream %a depth = 2 : !emitHLS.stream<i8>
  %b = emitHLS.stream {ming.name = "relu_y"} : !emitHLS.stream<i8>
  emitHLS.pragma.stream %b depth = 4 : !emitHLS.stream<i8>
  emitHLS.call @load(%x, %a) : (!emitHLS.array<2x8xi8>, !emitHLS.stream<i8>) -> ()
  emitHLS.call @relu(%a, %b) : (!emitHLS.stream<i8>, !emitHLS.stream<i8>) -> ()
  emitHLS.call @store(%b, %y) : (!emitHLS.stream<i8>, !emitHLS.array<2x8xi8>) -> ()
  emitHLS.return
}
