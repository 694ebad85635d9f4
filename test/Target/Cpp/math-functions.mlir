// erf, log1p and pow as <cmath> calls; a constant power of 0 to 8 as its
// products (the cost model counts that many mulf), and the C++ compiles.
// RUN: ming-opt %s --emit-hls-cpp | FileCheck %s
// RUN: ming-opt %s --emit-hls-cpp -o %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -fsyntax-only -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp
// A power by a value known only at run time has no translation: a located
// error, exit status 1.
// RUN: sh -c 'ming-opt %S/Inputs/fpowi-variable.mlir --emit-hls-cpp 2>%t.err; test $? -eq 1' && FileCheck %s --check-prefix=ERR < %t.err
// ERR: fpowi-variable.mlir:4:8: error: 'math.fpowi' has a C++ translation only for a constant exponent of 0 to 8

// CHECK: float f(float arg0) {
// CHECK:   const float [[E:v[0-9]+]] = std::erf(arg0);
// CHECK:   const float [[L:v[0-9]+]] = std::log1p([[E]]);
// CHECK:   const float [[P:v[0-9]+]] = [[L]] * [[L]] * [[L]];
// CHECK:   const float [[Q:v[0-9]+]] = static_cast<float>(1);
// CHECK:   const float [[S:v[0-9]+]] = [[P]] + [[Q]];
// CHECK:   const float [[R:v[0-9]+]] = std::pow([[S]], arg0);
// CHECK:   return [[R]];
emitHLS.func @f(%x: f32) -> f32 {
  %k3 = arith.constant 3 : i32
  %k0 = arith.constant 0 : i32
  %e = math.erf %x : f32
  %l = math.log1p %e : f32
  %p = math.fpowi %l, %k3 : f32, i32
  %q = math.fpowi %p, %k0 : f32, i32
  %s = arith.addf %p, %q : f32
  %r = math.powf %s, %x : f32
  emitHLS.return %r : f32
}
