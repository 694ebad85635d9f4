// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(ming-pack-int8)' | FileCheck %s
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(ming-pack-int8)' --verify-diagnostics -o /dev/null

// A dot-product layer: the output loop %j multiplies the buffered x[k] by
// w[j][k]. Packed: %j steps by 2, the reduction carries both sums, x is
// loaded once, and each pair of products is one 27x8 multiply whose low 18
// bits are x * w[j+1][k] and whose bits above are x * w[j][k] less a borrow.
// CHECK-LABEL: dfg.process @dot
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C2]] {
// CHECK:         %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK:         %[[S:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (i32, i32) {
// CHECK:           %[[X:.*]] = memref.load %{{.*}}[%[[K]]] : memref<32xi8>
// CHECK-NOT:       memref.load %{{.*}}[%[[K]]] : memref<32xi8>
// CHECK:           %[[WA:.*]] = memref.load %{{.*}}[%[[J]], %[[K]]] : memref<4x32xi8>
// CHECK:           %[[WB:.*]] = memref.load %{{.*}}[%[[J1]], %[[K]]] : memref<4x32xi8>
// CHECK-NOT:       arith.extsi {{.*}} to i32
// CHECK:           %[[HA:.*]] = arith.extsi %[[WA]] : i8 to i27
// CHECK:           %[[HI:.*]] = arith.shli %[[HA]], %{{.*}} : i27
// CHECK:           %[[HB:.*]] = arith.extsi %[[WB]] : i8 to i27
// CHECK:           %[[WORD:.*]] = arith.addi %[[HI]], %[[HB]] : i27
// CHECK:           %[[W36:.*]] = arith.extsi %[[WORD]] : i27 to i36
// CHECK:           %[[X36:.*]] = arith.extsi %[[X]] : i8 to i36
// CHECK:           %[[P:.*]] = arith.muli %[[W36]], %[[X36]] : i36
// CHECK:           %[[LOW:.*]] = arith.trunci %[[P]] : i36 to i18
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[LOW]], %{{.*}} : i18
// CHECK:           %[[SH:.*]] = arith.shrsi %[[P]], %{{.*}} : i36
// CHECK:           %[[BORROW:.*]] = arith.extui %[[NEG]] : i1 to i36
// CHECK:           %[[UP:.*]] = arith.addi %[[SH]], %[[BORROW]] : i36
// CHECK:           %[[PA:.*]] = arith.trunci %[[UP]] : i36 to i32
// CHECK:           %[[PB:.*]] = arith.extsi %[[LOW]] : i18 to i32
// CHECK:           %[[NA:.*]] = arith.addi %[[A]], %[[PA]] : i32
// CHECK:           %[[NB:.*]] = arith.addi %[[B]], %[[PB]] : i32
// CHECK:           scf.yield %[[NA]], %[[NB]] : i32, i32
// CHECK:         }
// CHECK:         dfg.push %[[S]]#0, %{{.*}} : !dfg.out<i32>
// CHECK:         dfg.push %[[S]]#1, %{{.*}} : !dfg.out<i32>
// CHECK:       } {ming.loop = #ming.loop<ii = 1>}
memref.global "private" constant @w : memref<4x32xi8> = dense<1>

dfg.process @dot(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0 : i32
  %buf = memref.alloca() : memref<32xi8>
  scf.for %k = %c0 to %c32 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %buf[%k] : memref<32xi8>
  } {ming.loop = #ming.loop<ii = 1>}
  // expected-remark @+1 {{int8 packing: 1 pair(s) of multiplies per iteration, one DSP each}}
  scf.for %j = %c0 to %c4 step %c1 {
    %acc = scf.for %k = %c0 to %c32 step %c1 iter_args(%a = %zero) -> (i32) {
      %x = memref.load %buf[%k] : memref<32xi8>
      %wm = memref.get_global @w : memref<4x32xi8>
      %w = memref.load %wm[%j, %k] : memref<4x32xi8>
      %xe = arith.extsi %x : i8 to i32
      %we = arith.extsi %w : i8 to i32
      %m = arith.muli %xe, %we : i32
      %s = arith.addi %a, %m : i32
      scf.yield %s : i32
    }
    dfg.push %acc, %out : !dfg.out<i32>
  } {ming.loop = #ming.loop<ii = 1>}
}

// -----

// Loops left alone (no remark): an odd trip count, a depthwise layer (the
// activation depends on the channel too: no shared operand), a loop that
// pushes twice per iteration (the lockstep copies would interleave the
// stream), an i16 operand (a product that does not fit the 18-bit lane),
// and a loop that carries a value.
// CHECK-LABEL: dfg.process @alone
// CHECK-NOT:   arith.constant 2 : index
// CHECK-NOT:   i27
memref.global "private" constant @w3 : memref<3x4xi8> = dense<1>
memref.global "private" constant @w4 : memref<4x4xi8> = dense<1>
memref.global "private" constant @w16 : memref<4x4xi16> = dense<1>

dfg.process @alone(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %buf = memref.alloca() : memref<4xi8>
  %dw = memref.alloca() : memref<4x4xi8>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %buf[%k] : memref<4xi8>
    memref.store %v, %dw[%k, %k] : memref<4x4xi8>
  }
  %g3 = memref.get_global @w3 : memref<3x4xi8>
  %g4 = memref.get_global @w4 : memref<4x4xi8>
  %g16 = memref.get_global @w16 : memref<4x4xi16>
  scf.for %j = %c0 to %c3 step %c1 {
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
      %x = memref.load %buf[%k] : memref<4xi8>
      %w = memref.load %g3[%j, %k] : memref<3x4xi8>
      %xe = arith.extsi %x : i8 to i32
      %we = arith.extsi %w : i8 to i32
      %m = arith.muli %xe, %we : i32
      %s = arith.addi %a, %m : i32
      scf.yield %s : i32
    }
    dfg.push %acc, %out : !dfg.out<i32>
  }
  scf.for %c = %c0 to %c4 step %c1 {
    %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
      %x = memref.load %dw[%k, %c] : memref<4x4xi8>
      %w = memref.load %g4[%c, %k] : memref<4x4xi8>
      %xe = arith.extsi %x : i8 to i32
      %we = arith.extsi %w : i8 to i32
      %m = arith.muli %xe, %we : i32
      %s = arith.addi %a, %m : i32
      scf.yield %s : i32
    }
    dfg.push %acc, %out : !dfg.out<i32>
  }
  scf.for %j = %c0 to %c4 step %c1 {
    %x = memref.load %buf[%c0] : memref<4xi8>
    %w = memref.load %g4[%j, %c0] : memref<4x4xi8>
    %xe = arith.extsi %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %m = arith.muli %xe, %we : i32
    dfg.push %m, %out : !dfg.out<i32>
    dfg.push %m, %out : !dfg.out<i32>
  }
  scf.for %j = %c0 to %c4 step %c1 {
    %x = memref.load %buf[%c0] : memref<4xi8>
    %w = memref.load %g16[%j, %c0] : memref<4x4xi16>
    %xe = arith.extsi %x : i8 to i32
    %we = arith.extsi %w : i16 to i32
    %m = arith.muli %xe, %we : i32
    dfg.push %m, %out : !dfg.out<i32>
  }
  %last = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
    %x = memref.load %buf[%c0] : memref<4xi8>
    %w = memref.load %g4[%j, %c0] : memref<4x4xi8>
    %xe = arith.extsi %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %m = arith.muli %xe, %we : i32
    %s = arith.addi %a, %m : i32
    scf.yield %s : i32
  }
  dfg.push %last, %out : !dfg.out<i32>
}

// -----

// A convolution's output-channel loop as convert-linalg-to-dfg writes it:
// the bias pulled per channel starts the sum. Both pulls stand where the one
// stood, before both pushes; the window register x is read once. A loop that
// pulls after its push is left alone (no remark).
// CHECK-LABEL: dfg.process @conv
// CHECK:       scf.for %[[OC:.*]] = %{{.*}} to %{{.*}} step %c2
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.addi %[[OC]]
// CHECK-NEXT:    %[[BA:.*]] = dfg.pull %arg1 : !dfg.in<i32>
// CHECK-NEXT:    %[[BB:.*]] = dfg.pull %arg1 : !dfg.in<i32>
// CHECK-NEXT:    %[[S:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[BA]], %{{.*}} = %[[BB]]) -> (i32, i32) {
// CHECK:           memref.load %{{.*}} : memref<3xi8>
// CHECK-NOT:       memref.load %{{.*}} : memref<3xi8>
// CHECK:           arith.muli {{.*}} : i36
// CHECK-NOT:       arith.muli
// CHECK:         dfg.push %[[S]]#0, %arg2
// CHECK-NEXT:    dfg.push %[[S]]#1, %arg2
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// CHECK:         dfg.push
// CHECK-NEXT:    dfg.pull
memref.global "private" constant @wc : memref<4x3xi8> = dense<[[-128, 127, 1], [-128, -128, 5], [3, -7, 127], [0, 1, -1]]>

dfg.process @conv(%in: !dfg.in<i8>, %bias: !dfg.in<i32>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %win = memref.alloca() : memref<3xi8>
  scf.for %k = %c0 to %c3 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %win[%k] : memref<3xi8>
  }
  %g = memref.get_global @wc : memref<4x3xi8>
  // expected-remark @+1 {{int8 packing: 1 pair(s) of multiplies per iteration, one DSP each}}
  scf.for %oc = %c0 to %c4 step %c1 {
    %b = dfg.pull %bias : !dfg.in<i32>
    %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%a = %b) -> (i32) {
      %x = memref.load %win[%k] : memref<3xi8>
      %w = memref.load %g[%oc, %k] : memref<4x3xi8>
      %xe = arith.extsi %x : i8 to i32
      %we = arith.extsi %w : i8 to i32
      %m = arith.muli %xe, %we : i32
      %s = arith.addi %a, %m : i32
      scf.yield %s : i32
    }
    dfg.push %acc, %out : !dfg.out<i32>
  }
  scf.for %oc = %c0 to %c4 step %c1 {
    %x = memref.load %win[%c0] : memref<3xi8>
    %w = memref.load %g[%oc, %c0] : memref<4x3xi8>
    %xe = arith.extsi %x : i8 to i32
    %we = arith.extsi %w : i8 to i32
    %m = arith.muli %xe, %we : i32
    dfg.push %m, %out : !dfg.out<i32>
    %b = dfg.pull %bias : !dfg.in<i32>
  }
}

// -----

// A matmul-like nest over gathered windows: while channel j computes from
// half m % 2 of the double buffer, it pulls an element of the next window
// into half (m + 1) % 2. The pair runs the fills of j and j + 1 in order
// (the stream's order), then both channels from the other half: no load
// reads what the fills store. A fill into the half being read is left alone
// (no remark): moving the loads after the other copy's store would change
// what they read.
// CHECK-LABEL: dfg.process @gathered
// CHECK:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c2
// CHECK:         scf.if
// CHECK:           dfg.pull %arg0
// CHECK:           memref.store {{.*}} : memref<2x4xi8>
// CHECK:         scf.if
// CHECK:           dfg.pull %arg0
// CHECK:           memref.store {{.*}} : memref<2x4xi8>
// CHECK:         arith.muli {{.*}} : i36
// CHECK-NOT:     arith.muli {{.*}} : i36
// CHECK:         dfg.push
// CHECK-NEXT:    dfg.push
// CHECK-LABEL: dfg.process @same_half
// CHECK-NOT:   step %c2
memref.global "private" constant @wg : memref<4x4xi8> = dense<3>

dfg.process @gathered(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %buf = memref.alloca() : memref<2x4xi8>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = dfg.pull %in : !dfg.in<i8>
    memref.store %v, %buf[%c0, %k] : memref<2x4xi8>
  }
  %g = memref.get_global @wg : memref<4x4xi8>
  scf.for %m = %c0 to %c4 step %c1 {
    // expected-remark @+1 {{int8 packing: 1 pair(s) of multiplies per iteration, one DSP each}}
    scf.for %j = %c0 to %c4 step %c1 {
      %slot = arith.remui %m, %c2 : index
      %m1 = arith.addi %m, %c1 : index
      %next = arith.remui %m1, %c2 : index
      %more = arith.cmpi ult, %m, %c3 : index
      scf.if %more {
        %v = dfg.pull %in : !dfg.in<i8>
        memref.store %v, %buf[%next, %j] : memref<2x4xi8>
      }
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
        %x = memref.load %buf[%slot, %k] : memref<2x4xi8>
        %w = memref.load %g[%j, %k] : memref<4x4xi8>
        %xe = arith.extsi %x : i8 to i32
        %we = arith.extsi %w : i8 to i32
        %p = arith.muli %xe, %we : i32
        %s = arith.addi %a, %p : i32
        scf.yield %s : i32
      }
      dfg.push %acc, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

dfg.process @same_half(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<regular_reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %buf = memref.alloca() : memref<2x4xi8>
  %g = memref.get_global @wg : memref<4x4xi8>
  scf.for %m = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %slot = arith.remui %m, %c2 : index
      %true = arith.constant true
      scf.if %true {
        %v = dfg.pull %in : !dfg.in<i8>
        memref.store %v, %buf[%slot, %j] : memref<2x4xi8>
      }
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %zero) -> (i32) {
        %x = memref.load %buf[%slot, %k] : memref<2x4xi8>
        %w = memref.load %g[%j, %k] : memref<4x4xi8>
        %xe = arith.extsi %x : i8 to i32
        %we = arith.extsi %w : i8 to i32
        %p = arith.muli %xe, %we : i32
        %s = arith.addi %a, %p : i32
        scf.yield %s : i32
      }
      dfg.push %acc, %out : !dfg.out<i32>
    }
  }
}

// -----

// Two products in one block sharing the weight (an int8 depthwise window's
// two columns, cpp/Conversion/LinalgToDfg/WindowBody.cpp): one 27x8 multiply
// where the first stood, the loop left as it is (its trip count is odd).
// CHECK-LABEL: dfg.process @columns
// CHECK:       scf.for %{{.*}} step %c1
// CHECK:       arith.muli %{{.*}}, %{{.*}} : i36
// CHECK-NOT:   arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:       dfg.push
// A pair whose second tap is loaded after the first product stays apart:
// the packed multiply would stand at the first.
// CHECK-LABEL: dfg.process @late
// CHECK-COUNT-2: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NOT:   i36
memref.global "private" constant @w9 : memref<9xi8> = dense<3>

dfg.process @columns(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0 : i32
  %win = memref.alloca() : memref<10xi8>
  // expected-remark @+1 {{int8 packing: 1 pair(s) of multiplies per iteration, one DSP each}}
  %s:2 = scf.for %k = %c0 to %c9 step %c1 iter_args(%a = %zero, %b = %zero) -> (i32, i32) {
    %k1 = arith.addi %k, %c1 : index
    %t0 = memref.load %win[%k] : memref<10xi8>
    %t1 = memref.load %win[%k1] : memref<10xi8>
    %wm = memref.get_global @w9 : memref<9xi8>
    %w = memref.load %wm[%k] : memref<9xi8>
    %t0e = arith.extsi %t0 : i8 to i32
    %we0 = arith.extsi %w : i8 to i32
    %p0 = arith.muli %t0e, %we0 : i32
    %t1e = arith.extsi %t1 : i8 to i32
    %we1 = arith.extsi %w : i8 to i32
    %p1 = arith.muli %t1e, %we1 : i32
    %na = arith.addi %a, %p0 : i32
    %nb = arith.addi %b, %p1 : i32
    scf.yield %na, %nb : i32, i32
  }
  dfg.push %s#0, %out : !dfg.out<i32>
  dfg.push %s#1, %out : !dfg.out<i32>
}

dfg.process @late(%in: !dfg.in<i8>, %out: !dfg.out<i32>) attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0 : i32
  %win = memref.alloca() : memref<10xi8>
  %s:2 = scf.for %k = %c0 to %c9 step %c1 iter_args(%a = %zero, %b = %zero) -> (i32, i32) {
    %k1 = arith.addi %k, %c1 : index
    %t0 = memref.load %win[%k] : memref<10xi8>
    %wm = memref.get_global @w9 : memref<9xi8>
    %w = memref.load %wm[%k] : memref<9xi8>
    %t0e = arith.extsi %t0 : i8 to i32
    %we0 = arith.extsi %w : i8 to i32
    %p0 = arith.muli %t0e, %we0 : i32
    %t1 = memref.load %win[%k1] : memref<10xi8>
    %t1e = arith.extsi %t1 : i8 to i32
    %we1 = arith.extsi %w : i8 to i32
    %p1 = arith.muli %t1e, %we1 : i32
    %na = arith.addi %a, %p0 : i32
    %nb = arith.addi %b, %p1 : i32
    scf.yield %na, %nb : i32, i32
  }
  dfg.push %s#0, %out : !dfg.out<i32>
  dfg.push %s#1, %out : !dfg.out<i32>
}
