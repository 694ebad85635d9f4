// The C++ of a complete kernel compiles with the project's HLS headers.
// (-Wno-unknown-pragmas: g++ warns on every `#pragma HLS` under -Wall, and
// GCC 12 cannot silence that warning from inside the file.)
// RUN: ming-opt %S/../../Dialect/EmitHLS/kernel.mlir --emit-hls-cpp -o %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp
// RUN: ming-opt %S/../../Dialect/EmitHLS/control-flow.mlir --emit-hls-cpp -o %t2.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t2.cpp
// RUN: ming-opt %s --emit-hls-cpp -o %t3.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t3.cpp

emitHLS.func @all_arith(%a: i32, %b: i32, %f: f32, %g: f64, %w: i12, %c: i1) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.subi %0, %b : i32
  %2 = arith.muli %1, %b : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.divui %3, %b : i32
  %5 = arith.remsi %4, %b : i32
  %6 = arith.remui %5, %b : i32
  %7 = arith.andi %6, %b : i32
  %8 = arith.ori %7, %b : i32
  %9 = arith.xori %8, %b : i32
  %10 = arith.shli %9, %b : i32
  %11 = arith.shrsi %10, %b : i32
  %12 = arith.shrui %11, %b : i32
  %13 = arith.maxsi %12, %b : i32
  %14 = arith.minui %13, %b : i32
  %p = arith.cmpi ult, %14, %a : i32
  %15 = arith.select %p, %14, %a : i32
  %x = arith.addf %f, %f : f32
  %y = arith.maximumf %x, %f : f32
  %q = arith.cmpf one, %y, %x : f32
  %e = math.exp %y : f32
  %z = arith.extf %e : f32 to f64
  %s = math.sqrt %z : f64
  %k = arith.fptosi %s : f64 to i32
  %u = arith.uitofp %k : i32 to f32
  %t = arith.trunci %k : i32 to i8
  %x8 = arith.extsi %t : i8 to i16
  %xu = arith.extui %c : i1 to i32
  %ws = arith.extsi %w : i12 to i32
  %cw = arith.constant 5 : i12
  %w2 = arith.addi %w, %cw : i12
  %ci = arith.constant -3 : index
  %ic = arith.index_cast %ci : index to i32
  %r = arith.addi %15, %ic : i32
  emitHLS.return %r : i32
}
