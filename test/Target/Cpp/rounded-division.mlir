// arith.ceildivsi / floordivsi / ceildivui (IREE divides dilated average
// pools by such counts) print as C++ that rounds as arith does: checked by
// compiling and running them on every sign combination.
// RUN: ming-opt %s --emit-hls-cpp -o %t.cpp
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -Wno-unknown-pragmas -D__SYNTHESIS__ -I%root/rust/project/include %t.cpp %S/Inputs/rounded-division-main.cpp -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK: ceil_s 7/2=4 -7/2=-3 7/-2=-3 -7/-2=4 6/3=2 -6/3=-2
// CHECK: floor_s 7/2=3 -7/2=-4 7/-2=-4 -7/-2=3 6/3=2 -6/3=-2
// CHECK: ceil_u 7/2=4 6/3=2 0/5=0

emitHLS.func @ceil_s(%a: i32, %b: i32) -> i32 {
  %0 = arith.ceildivsi %a, %b : i32
  emitHLS.return %0 : i32
}
emitHLS.func @floor_s(%a: i32, %b: i32) -> i32 {
  %0 = arith.floordivsi %a, %b : i32
  emitHLS.return %0 : i32
}
emitHLS.func @ceil_u(%a: i32, %b: i32) -> i32 {
  %0 = arith.ceildivui %a, %b : i32
  emitHLS.return %0 : i32
}
