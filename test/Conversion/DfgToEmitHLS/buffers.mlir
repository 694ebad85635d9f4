// Process bodies with storage and directives: line buffer and window
// registers with ARRAY_PARTITION, a rank-0 counter as a variable, loop-carried
// accumulators and if results through variables, weights from dense and
// dense_resource globals as ROMs, PIPELINE/UNROLL pragmas and loop labels.
// RUN: ming-opt %s --pass-pipeline='builtin.module(convert-dfg-to-emithls)' | FileCheck %s

// The globals are gone: each function that reads one declares its own ROM at
// its top, partitioned as its get_global asks.
// CHECK-NOT:   memref.global
// CHECK-LABEL: emitHLS.func @conv(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i8>, %[[OUT:.*]]: !emitHLS.stream<i32>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[W:.*]] = emitHLS.array rom : !emitHLS.array<2x3x3xi8> = dense<{{\[}}{{\[}}[1, 2, 3], [4, 5, 6], [7, 8, 9]], {{\[}}[-1, -2, -3], [-4, -5, -6], [-7, -8, -9]]]> : tensor<2x3x3xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[W]] complete dim = 2 : !emitHLS.array<2x3x3xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[W]] complete dim = 3 : !emitHLS.array<2x3x3xi8>
// The bias is read inside a loop; its ROM is still declared once, at the top.
// CHECK-NEXT:    %[[BIAS:.*]] = emitHLS.array rom : !emitHLS.array<2xi32> = dense_resource<conv_bias> : tensor<2xi32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[LINES:.*]] = emitHLS.array : !emitHLS.array<2x6xi8>
// Its cyclic factor 1 (one bank, the DSE's record) gives no pragma.
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[LINES]] complete dim = 1 : !emitHLS.array<2x6xi8>
// CHECK-NEXT:    %[[WIN:.*]] = emitHLS.array : !emitHLS.array<3x3xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[WIN]] complete dim = 1 : !emitHLS.array<3x3xi8>
// CHECK-NEXT:    emitHLS.pragma.array_partition %[[WIN]] complete dim = 2 : !emitHLS.array<3x3xi8>
// CHECK-NEXT:    %[[COUNT:.*]] = emitHLS.var : !emitHLS.var<i32>{{$}}
// CHECK-NEXT:    emitHLS.assign %[[ZERO]], %[[COUNT]] : !emitHLS.var<i32>
// CHECK-NEXT:    emitHLS.for %[[H:.*]] = 0 to 6 step 1 label "row" {
// CHECK-NEXT:      emitHLS.for %[[X:.*]] = 0 to 6 step 1 label "col" {
// CHECK-NEXT:        emitHLS.pragma.pipeline II = 1
// CHECK-NEXT:        %[[V:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i8>
// CHECK-NEXT:        emitHLS.for %[[KH:.*]] = 0 to 3 step 1 label "shift" {
// CHECK-NEXT:          emitHLS.pragma.unroll{{$}}
// CHECK-NEXT:          emitHLS.for %[[KW:.*]] = 0 to 2 step 1 {
// CHECK-NEXT:            emitHLS.pragma.unroll{{$}}
// CHECK-NEXT:            %[[NEXT:.*]] = arith.addi %[[KW]], %[[C1]] : index
// CHECK-NEXT:            %[[T:.*]] = emitHLS.load %[[WIN]][%[[KH]], %[[NEXT]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:            emitHLS.store %[[T]], %[[WIN]][%[[KH]], %[[KW]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[L0:.*]] = emitHLS.load %[[LINES]][%[[C0]], %[[X]]] : !emitHLS.array<2x6xi8>
// CHECK-NEXT:        %[[L1:.*]] = emitHLS.load %[[LINES]][%[[C1]], %[[X]]] : !emitHLS.array<2x6xi8>
// CHECK-NEXT:        emitHLS.store %[[L0]], %[[WIN]][%[[C0]], %[[C2]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:        emitHLS.store %[[L1]], %[[WIN]][%[[C1]], %[[C2]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:        emitHLS.store %[[V]], %[[WIN]][%[[C2]], %[[C2]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:        emitHLS.store %[[L1]], %[[LINES]][%[[C0]], %[[X]]] : !emitHLS.array<2x6xi8>
// CHECK-NEXT:        emitHLS.store %[[V]], %[[LINES]][%[[C1]], %[[X]]] : !emitHLS.array<2x6xi8>
// CHECK-NEXT:        %[[RH:.*]] = arith.cmpi uge, %[[H]], %[[C2]] : index
// CHECK-NEXT:        %[[RW:.*]] = arith.cmpi uge, %[[X]], %[[C2]] : index
// CHECK-NEXT:        %[[READY:.*]] = arith.andi %[[RH]], %[[RW]] : i1
// CHECK-NEXT:        emitHLS.if %[[READY]] {
// CHECK-NEXT:          emitHLS.for %[[CO:.*]] = 0 to 2 step 1 label "co" {
// CHECK-NEXT:            emitHLS.pragma.unroll factor = 2
// CHECK-NEXT:            %[[B:.*]] = emitHLS.load %[[BIAS]][%[[CO]]] : !emitHLS.array<2xi32>
// An accumulator carried by two loops: one variable per loop, initialised
// from the iter_args operand, read at the top of the body, assigned from the
// yield, read once more after the loop for its result.
// CHECK-NEXT:            %[[ACC0:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[B]]
// A label already used in the function gets a suffix (C++ labels have
// function scope).
// CHECK-NEXT:            emitHLS.for %[[KH2:.*]] = 0 to 3 step 1 label "shift_1" {
// CHECK-NEXT:              emitHLS.pragma.unroll{{$}}
// CHECK-NEXT:              %[[A0:.*]] = emitHLS.get %[[ACC0]] : !emitHLS.var<i32>
// CHECK-NEXT:              %[[ACC1:.*]] = emitHLS.var : !emitHLS.var<i32> = %[[A0]]
// CHECK-NEXT:              emitHLS.for %[[KW2:.*]] = 0 to 3 step 1 {
// CHECK-NEXT:                emitHLS.pragma.unroll factor = 3
// CHECK-NEXT:                %[[A1:.*]] = emitHLS.get %[[ACC1]] : !emitHLS.var<i32>
// CHECK-NEXT:                %[[XV:.*]] = emitHLS.load %[[WIN]][%[[KH2]], %[[KW2]]] : !emitHLS.array<3x3xi8>
// CHECK-NEXT:                %[[WV:.*]] = emitHLS.load %[[W]][%[[CO]], %[[KH2]], %[[KW2]]] : !emitHLS.array<2x3x3xi8>
// CHECK-NEXT:                %[[X32:.*]] = arith.extsi %[[XV]] : i8 to i32
// CHECK-NEXT:                %[[W32:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK-NEXT:                %[[P:.*]] = arith.muli %[[X32]], %[[W32]] : i32
// CHECK-NEXT:                %[[S:.*]] = arith.addi %[[A1]], %[[P]] : i32
// CHECK-NEXT:                emitHLS.assign %[[S]], %[[ACC1]] : !emitHLS.var<i32>
// CHECK-NEXT:              }
// CHECK-NEXT:              %[[A2:.*]] = emitHLS.get %[[ACC1]] : !emitHLS.var<i32>
// CHECK-NEXT:              emitHLS.assign %[[A2]], %[[ACC0]] : !emitHLS.var<i32>
// CHECK-NEXT:            }
// CHECK-NEXT:            %[[ACC:.*]] = emitHLS.get %[[ACC0]] : !emitHLS.var<i32>
// An scf.if with a result: a variable assigned in both branches.
// CHECK-NEXT:            %[[NEG:.*]] = arith.cmpi slt, %[[ACC]], %[[ZERO]] : i32
// CHECK-NEXT:            %[[RV:.*]] = emitHLS.var : !emitHLS.var<i32>{{$}}
// CHECK-NEXT:            emitHLS.if %[[NEG]] {
// CHECK-NEXT:              emitHLS.assign %[[ZERO]], %[[RV]] : !emitHLS.var<i32>
// CHECK-NEXT:            } else {
// CHECK-NEXT:              emitHLS.assign %[[ACC]], %[[RV]] : !emitHLS.var<i32>
// CHECK-NEXT:            }
// CHECK-NEXT:            %[[R:.*]] = emitHLS.get %[[RV]] : !emitHLS.var<i32>
// CHECK-NEXT:            emitHLS.stream_write %[[OUT]], %[[R]] : !emitHLS.stream<i32>
// CHECK-NEXT:          }
// The rank-0 buffer is read and written as a variable.
// CHECK-NEXT:          %[[N:.*]] = emitHLS.get %[[COUNT]] : !emitHLS.var<i32>
// CHECK-NEXT:          %[[N1:.*]] = arith.addi %[[N]], %[[ONE]] : i32
// CHECK-NEXT:          emitHLS.assign %[[N1]], %[[COUNT]] : !emitHLS.var<i32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    emitHLS.return
// CHECK-NEXT:  }
memref.global "private" constant @w : memref<2x3x3xi8> = dense<[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[-1, -2, -3], [-4, -5, -6], [-7, -8, -9]]]>
memref.global "private" constant @bias : memref<2xi32> = dense_resource<conv_bias>

dfg.process @conv(%in: !dfg.in<i8>, %out: !dfg.out<i32>)
    attributes {kind = #dfg.kind<sliding_window>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %lines = memref.alloca() {ming.partition = #ming.partition<complete = [1], cyclic = [2, 1]>} : memref<2x6xi8>
  %win = memref.alloca() {ming.partition = #ming.partition<complete = [1, 2]>} : memref<3x3xi8>
  %count = memref.alloca() : memref<i32>
  memref.store %zero, %count[] : memref<i32>
  %w = memref.get_global @w : memref<2x3x3xi8> {ming.partition = #ming.partition<complete = [2, 3]>}
  scf.for %h = %c0 to %c6 step %c1 {
    scf.for %x = %c0 to %c6 step %c1 {
      %v = dfg.pull %in : !dfg.in<i8>
      scf.for %kh = %c0 to %c3 step %c1 {
        scf.for %kw = %c0 to %c2 step %c1 {
          %next = arith.addi %kw, %c1 : index
          %t = memref.load %win[%kh, %next] : memref<3x3xi8>
          memref.store %t, %win[%kh, %kw] : memref<3x3xi8>
        } {ming.loop = #ming.loop<unroll = 0>}
      } {ming.loop = #ming.loop<unroll = 0, label = "shift">}
      %l0 = memref.load %lines[%c0, %x] : memref<2x6xi8>
      %l1 = memref.load %lines[%c1, %x] : memref<2x6xi8>
      memref.store %l0, %win[%c0, %c2] : memref<3x3xi8>
      memref.store %l1, %win[%c1, %c2] : memref<3x3xi8>
      memref.store %v, %win[%c2, %c2] : memref<3x3xi8>
      memref.store %l1, %lines[%c0, %x] : memref<2x6xi8>
      memref.store %v, %lines[%c1, %x] : memref<2x6xi8>
      %rh = arith.cmpi uge, %h, %c2 : index
      %rw = arith.cmpi uge, %x, %c2 : index
      %ready = arith.andi %rh, %rw : i1
      scf.if %ready {
        scf.for %co = %c0 to %c2 step %c1 {
          %bias = memref.get_global @bias : memref<2xi32>
          %b = memref.load %bias[%co] : memref<2xi32>
          %acc = scf.for %kh = %c0 to %c3 step %c1 iter_args(%a0 = %b) -> (i32) {
            %a2 = scf.for %kw = %c0 to %c3 step %c1 iter_args(%a1 = %a0) -> (i32) {
              %xv = memref.load %win[%kh, %kw] : memref<3x3xi8>
              %wv = memref.load %w[%co, %kh, %kw] : memref<2x3x3xi8>
              %x32 = arith.extsi %xv : i8 to i32
              %w32 = arith.extsi %wv : i8 to i32
              %p = arith.muli %x32, %w32 : i32
              %s = arith.addi %a1, %p : i32
              scf.yield %s : i32
            } {ming.loop = #ming.loop<unroll = 3>}
            scf.yield %a2 : i32
          } {ming.loop = #ming.loop<unroll = 0, label = "shift">}
          %neg = arith.cmpi slt, %acc, %zero : i32
          %r = scf.if %neg -> (i32) {
            scf.yield %zero : i32
          } else {
            scf.yield %acc : i32
          }
          dfg.push %r, %out : !dfg.out<i32>
        } {ming.loop = #ming.loop<unroll = 2, label = "co">}
        %n = memref.load %count[] : memref<i32>
        %n1 = arith.addi %n, %one : i32
        memref.store %n1, %count[] : memref<i32>
      }
    } {ming.loop = #ming.loop<ii = 1, label = "col">}
  } {ming.loop = #ming.loop<label = "row">}
}

// CHECK-LABEL: emitHLS.func @tap(
// CHECK-SAME:      %[[IN:.*]]: !emitHLS.stream<i32>, %[[OUT:.*]]: !emitHLS.stream<i32>) {
// CHECK-NEXT:    emitHLS.pragma.inline off
// CHECK-NEXT:    %[[W:.*]] = emitHLS.array rom : !emitHLS.array<2x3x3xi8> = dense<{{.*}}> : tensor<2x3x3xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[POS:.*]] = emitHLS.var : !emitHLS.var<i64>{{$}}
// CHECK-NEXT:    %[[P0:.*]] = arith.index_cast %[[C0]] : index to i64
// CHECK-NEXT:    emitHLS.assign %[[P0]], %[[POS]] : !emitHLS.var<i64>
// CHECK-NEXT:    %[[K0:.*]] = arith.index_cast %[[C0]] : index to i64
// CHECK-NEXT:    %[[KV:.*]] = emitHLS.var : !emitHLS.var<i64> = %[[K0]]
// CHECK-NEXT:    emitHLS.for %[[I:.*]] = 0 to 32 step 1 {
// CHECK-NEXT:      %[[K64:.*]] = emitHLS.get %[[KV]] : !emitHLS.var<i64>
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[K64]] : i64 to index
// CHECK-NEXT:      %[[V:.*]] = emitHLS.stream_read %[[IN]] : !emitHLS.stream<i32>
// CHECK-NEXT:      %[[WV:.*]] = emitHLS.load %[[W]][%[[C0]], %[[C0]], %[[C0]]] : !emitHLS.array<2x3x3xi8>
// CHECK:           emitHLS.stream_write %[[OUT]], %{{.*}} : !emitHLS.stream<i32>
// CHECK-NEXT:      %[[K1:.*]] = arith.addi %[[K]], %[[C1]] : index
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[K1]], %[[C2]] : index
// An if without results and without else stays one.
// CHECK-NEXT:      emitHLS.if %[[WRAP]] {
// CHECK-NEXT:        %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:        emitHLS.assign %[[I64]], %[[POS]] : !emitHLS.var<i64>
// CHECK-NEXT:      }{{$}}
// CHECK-NEXT:      %[[K2:.*]] = arith.select %[[WRAP]], %[[C0]], %[[K1]] : index
// CHECK-NEXT:      %[[K2_64:.*]] = arith.index_cast %[[K2]] : index to i64
// CHECK-NEXT:      emitHLS.assign %[[K2_64]], %[[KV]] : !emitHLS.var<i64>
// CHECK-NEXT:    }
// The loop result is unused: no read after the loop.
// CHECK-NEXT:    emitHLS.return

// An index loop-carried value and an index scalar buffer live in i64
// variables; a second function reading @w gets its own ROM.
dfg.process @tap(%in: !dfg.in<i32>, %out: !dfg.out<i32>)
    attributes {kind = #dfg.kind<pure_parallel>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %pos = memref.alloca() : memref<index>
  memref.store %c0, %pos[] : memref<index>
  %w = memref.get_global @w : memref<2x3x3xi8>
  %last = scf.for %i = %c0 to %c32 step %c1 iter_args(%k = %c0) -> (index) {
    %v = dfg.pull %in : !dfg.in<i32>
    %wv = memref.load %w[%c0, %c0, %c0] : memref<2x3x3xi8>
    %w32 = arith.extsi %wv : i8 to i32
    %y = arith.muli %v, %w32 : i32
    dfg.push %y, %out : !dfg.out<i32>
    %k1 = arith.addi %k, %c1 : index
    %wrap = arith.cmpi eq, %k1, %c2 : index
    scf.if %wrap {
      memref.store %i, %pos[] : memref<index>
    }
    %k2 = arith.select %wrap, %c0, %k1 : index
    scf.yield %k2 : index
  }
}

// CHECK-LABEL: emitHLS.func @load(
// CHECK-LABEL: emitHLS.func @store(
// CHECK-LABEL: emitHLS.func @conv_net(
// CHECK:         emitHLS.call @load(
// CHECK-NEXT:    emitHLS.call @conv(
// CHECK-NEXT:    emitHLS.call @tap(
// CHECK-NEXT:    emitHLS.call @store(
// CHECK-NEXT:    emitHLS.return
// The blob stays in the module for the ROM that refers to it.
// CHECK:       conv_bias: "0x040000000A000000F6FFFFFF"

dfg.process @load(%mem: memref<1x1x6x6xi8>, %out: !dfg.out<i8>)
    attributes {kind = #dfg.kind<load>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %h = %c0 to %c6 step %c1 {
    scf.for %w = %c0 to %c6 step %c1 {
      %v = memref.load %mem[%c0, %c0, %h, %w] : memref<1x1x6x6xi8>
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}

dfg.process @store(%in: !dfg.in<i32>, %mem: memref<1x2x4x4xi32>)
    attributes {kind = #dfg.kind<store>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        %v = dfg.pull %in : !dfg.in<i32>
        memref.store %v, %mem[%c0, %c, %h, %w] : memref<1x2x4x4xi32>
      } {ming.loop = #ming.loop<ii = 1>}
    }
  }
}

dfg.graph @conv_net(%x: memref<1x1x6x6xi8>, %y: memref<1x2x4x4xi32>) attributes {ming.num_inputs = 1 : i64} {
  %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
  %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 2>
  %w2, %r2 = dfg.channel<i32, lanes = 1, depth = 4>
  dfg.instantiate @load(%x, %w0) : memref<1x1x6x6xi8>, !dfg.out<i8>
  dfg.instantiate @conv(%r0, %w1) : !dfg.in<i8>, !dfg.out<i32>
  dfg.instantiate @tap(%r1, %w2) : !dfg.in<i32>, !dfg.out<i32>
  dfg.instantiate @store(%r2, %y) : !dfg.in<i32>, memref<1x2x4x4xi32>
}

{-#
  dialect_resources: {
    builtin: {
      conv_bias: "0x040000000A000000F6FFFFFF"
    }
  }
#-}
