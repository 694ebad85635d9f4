// Every error path of convert-linalg-to-dfg: a located diagnostic naming the
// op and what is supported.
// RUN: ming-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-linalg-to-dfg)'

func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  // expected-error @+1 {{'linalg.softmax' is not supported; supported are linalg structured ops}}
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// expected-error @+1 {{arguments and results must be tensors of static shape, got 'tensor<?x8xf32>'}}
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  return %x : tensor<?x8xf32>
}

// -----

func.func @dynamic_inside(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tensor.cast' has a dynamic shape ('tensor<?x8xf32>'); ming streams static shapes only}}
  %d = tensor.cast %x : tensor<4x8xf32> to tensor<?x8xf32>
  %s = tensor.cast %d : tensor<?x8xf32> to tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'scf.while' is not supported; supported are linalg structured ops}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %c = arith.cmpi slt, %i, %c0 : index
    scf.condition(%c) %i : index
  } do {
  ^bb0(%i: index):
    scf.yield %i : index
  }
  return %x : tensor<4xf32>
}

// -----

func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @+1 {{several functions could be the top ('first', 'second'); choose one with --top}}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{no function with a body to compile}}
module {
  func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
}

// -----

func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'call' calls itself; recursion cannot become hardware}}
  %r = func.call @call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @elsewhere(tensor<4xf32>) -> tensor<4xf32>
func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'func.call' is not supported}}
  %r = func.call @elsewhere(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{'no_input' takes no tensor argument; a streaming design needs an input to stream}}
func.func @no_input() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// expected-error @+1 {{'half' has a 'tensor<4xf16>' argument or result; ming streams signless integers up to i64, f32 and f64}}
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  return %x : tensor<4xf16>
}

// -----

func.func @wide(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tensor.empty' has elements of type 'i128'; ming streams signless integers up to i64, f32 and f64}}
  %e = tensor.empty() : tensor<4xi128>
  %w = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xi32>) outs(%e : tensor<4xi128>) {
  ^bb0(%a: i32, %o: i128):
    %v = arith.extsi %a : i32 to i128
    linalg.yield %v : i128
  } -> tensor<4xi128>
  %e2 = tensor.empty() : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%w : tensor<4xi128>) outs(%e2 : tensor<4xi32>) {
  ^bb0(%a: i128, %o: i32):
    %v = arith.trunci %a : i128 to i32
    linalg.yield %v : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// A pad that is its own process (no window reads it) cannot crop.
func.func @pad_not_window_negative(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0.0 : f32
  // expected-error @+1 {{tensor.pad needs static, non-negative padding}}
  %p = tensor.pad %x low[-1] high[1] {
  ^bb0(%i: index):
    tensor.yield %c0 : f32
  } : tensor<4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%p : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @pad_not_constant(%x: tensor<1x1x4x4xf32>, %v: tensor<f32>) -> tensor<1x1x4x4xf32> {
  %val = tensor.extract %v[] : tensor<f32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %val : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  return %x : tensor<1x1x4x4xf32>
}
// expected-error @-7 {{'tensor.extract' is not supported}}

// -----

func.func @uninitialised(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{operand #1 is a tensor.empty whose values the payload reads}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A running arg-max and its max, both read: the index's payload reads the
// max's accumulator, so the two cannot be computed apart (results that can
// are split: test/Conversion/LinalgToDfg/results.mlir; dead ones erased).
func.func @argmax_and_max(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %lo = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %m0 = linalg.fill ins(%lo : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %i0 = linalg.fill ins(%z : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  // expected-error @+1 {{convert-linalg-to-dfg: a linalg op whose 2 results read one another's accumulators (a running arg-max and its max, both read) is not supported; results computed apart become processes apart}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%m0, %i0 : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%a: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %m : f32
    %mx = arith.select %gt, %a, %m : f32
    %ix = arith.select %gt, %ji, %i : i64
    linalg.yield %mx, %ix : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// -----

func.func @payload(%x: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tensor.extract' of a tensor that is not a constant; a payload reads by index only constant tables of static shape, held in ROMs}}
    %v = tensor.extract %t[%c0] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @returns_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  // expected-error @+1 {{this value is not produced by a streaming layer}}
  return %c : tensor<4xf32>
}

// -----

func.func @rank_reducing_slice(%x: tensor<2x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{a rank-reducing tensor.extract_slice is not supported; slices keep the rank}}
  %s = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

func.func @dynamic_slice(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %i = arith.constant 1 : index
  // expected-error @+1 {{a tensor.extract_slice with dynamic offsets, sizes or strides cannot be streamed}}
  %s = tensor.extract_slice %x[0, %i] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
