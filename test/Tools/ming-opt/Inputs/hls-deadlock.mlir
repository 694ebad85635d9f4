// A design that cannot finish: copy reads one element more than load writes.
// C simulation must stop with a report that names the process and the stream.
emitHLS.func @load(%x: !emitHLS.array<4xi32>, %out: !emitHLS.stream<i32>) {
  emitHLS.pragma.inline off
  emitHLS.for %i = 0 to 4 step 1 label "load_i" {
    %v = emitHLS.load %x[%i] : !emitHLS.array<4xi32>
    emitHLS.stream_write %out, %v : !emitHLS.stream<i32>
  }
  emitHLS.return
}

emitHLS.func @copy(%in: !emitHLS.stream<i32>, %y: !emitHLS.array<4xi32>) {
  emitHLS.pragma.inline off
  emitHLS.for %i = 0 to 4 step 1 label "copy_i" {
    %v = emitHLS.stream_read %in : !emitHLS.stream<i32>
    emitHLS.store %v, %y[%i] : !emitHLS.array<4xi32>
  }
  %extra = emitHLS.stream_read %in : !emitHLS.stream<i32>
  emitHLS.return
}

emitHLS.func @stuck(%x: !emitHLS.array<4xi32>, %y: !emitHLS.array<4xi32>)
    attributes {ming.top, ming.num_inputs = 1 : i64} {
  emitHLS.pragma.dataflow
  %s = emitHLS.stream {ming.name = "x_to_copy"} : !emitHLS.stream<i32>
  emitHLS.pragma.stream %s depth = 8 : !emitHLS.stream<i32>
  emitHLS.call @load(%x, %s) : (!emitHLS.array<4xi32>, !emitHLS.stream<i32>) -> ()
  emitHLS.call @copy(%s, %y) : (!emitHLS.stream<i32>, !emitHLS.array<4xi32>) -> ()
  emitHLS.return
}
