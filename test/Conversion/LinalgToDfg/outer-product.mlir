// Single-row float dense layers: one behind a producer that spreads its
// outputs over its run (a loop nest computing output after output) takes
// each input element as it arrives and updates every accumulator with it
// (an outer product), one row of slots per element, the next element pulled
// into a register pair during the row; its outputs come at its end, so the
// layer after it stays a loop nest. The first layer, behind the load, stays
// one too. Integer layers stay loop nests.
// RUN: ming-opt %s --split-input-file --pass-pipeline='builtin.module(convert-linalg-to-dfg)' | FileCheck %s

// The first layer: a loop nest (behind the load).
// CHECK-LABEL: dfg.process @reduce1
// CHECK-NOT: ming.carried_distance
// CHECK: scf.for {{.*}} iter_args
// CHECK: dfg.process @map2
// The second: the accumulators start from the bias...
// CHECK-LABEL: dfg.process @reduce3
// CHECK-SAME: ming.input_elements = 6 : i64, ming.lookahead = 6 : i64
// CHECK: %[[ACC:[a-z0-9_]+]] = memref.alloca() : memref<1x4xf32>
// CHECK: memref.get_global @weights_2 : memref<4xf32>
// CHECK: memref.store %{{.*}}, %[[ACC]]
// ...the first element goes to half 0 of the pair...
// CHECK: %[[X:[a-z0-9_]+]] = memref.alloca() : memref<2xf32>
// CHECK-NEXT: %[[P0:[a-z0-9_]+]] = dfg.pull %arg0
// CHECK-NEXT: memref.store %[[P0]], %[[X]][%c0]
// ...then per element m (6) one pipelined row over the 4 outputs j, the
// next element pulled in its first slot into the other half.
// CHECK: scf.for %[[M:[a-z0-9_]+]] = %{{.*}} to %c6
// CHECK: scf.for %[[J:[a-z0-9_]+]] = %{{.*}} to %c4
// CHECK: %[[SLOT:[a-z0-9_]+]] = arith.remui %[[M]], %c2
// CHECK: %[[NEXT:[a-z0-9_]+]] = arith.remui %{{.*}}, %c2
// CHECK: %[[FIRST:[a-z0-9_]+]] = arith.cmpi eq, %[[J]], %c0
// CHECK: %[[MORE:[a-z0-9_]+]] = arith.cmpi ult, %[[M]], %c5
// CHECK: %[[PULL:[a-z0-9_]+]] = arith.andi %[[FIRST]], %[[MORE]]
// CHECK: scf.if %[[PULL]] {
// CHECK-NEXT: %[[P:[a-z0-9_]+]] = dfg.pull %arg0
// CHECK-NEXT: memref.store %[[P]], %[[X]][%[[NEXT]]]
// CHECK: %[[XV:[a-z0-9_]+]] = memref.load %[[X]][%[[SLOT]]]
// CHECK: %[[W:[a-z0-9_]+]] = memref.load %{{.*}}[%{{.*}}, %[[J]]] : memref<6x4xf32>
// CHECK: %[[OLD:[a-z0-9_]+]] = memref.load %[[ACC]][%{{.*}}, %[[J]]]
// CHECK: %[[T:[a-z0-9_]+]] = arith.mulf %[[XV]], %[[W]]
// CHECK: %[[NEW:[a-z0-9_]+]] = arith.addf %[[OLD]], %[[T]]
// CHECK: memref.store %[[NEW]], %[[ACC]][%{{.*}}, %[[J]]]
// An accumulator comes back 4 slots (one row) later.
// CHECK: } {ming.carried_distance = 4 : i64, ming.loop = #ming.loop<ii = 1>}
// CHECK-NEXT: } {ming.carried_distance = 1 : i64}
// The outputs after the last element.
// CHECK: scf.for
// CHECK: memref.load %[[ACC]]
// CHECK: dfg.push
// The third: behind the outer product, a loop nest again.
// CHECK-LABEL: dfg.process @reduce5
// CHECK-NOT: ming.carried_distance
// CHECK: scf.for {{.*}} iter_args
// CHECK-LABEL: dfg.process @store
func.func @mlp_f32(%x0: tensor<1x8xf32>) -> tensor<1x3xf32> {
  %w0 = arith.constant dense<[[0.12509547173976898,0.39721378684043884,0.27568569779396057,-0.2747928202152252,-0.1998337209224701,0.37355345487594604], [-0.4947347044944763,0.32122841477394104,0.2970694303512573,-0.032065048813819885,-0.19696757197380066,-0.22157438099384308], [-0.24513041973114014,-0.05492369458079338,0.004548259079456329,0.053497351706027985,0.4955002963542938,0.2926619052886963], [0.12217923253774643,0.4889601469039917,-0.28469130396842957,-0.33978796005249023,0.11253960430622101,-0.45605799555778503], [-0.46431973576545715,0.014888820238411427,-0.03379397466778755,0.4171677827835083,0.12922625243663788,0.014117646962404251], [-0.0031265646684914827,-0.252485066652298,-0.4882059693336487,-0.3075978457927704,0.1920321136713028,-0.29939326643943787], [-0.13046368956565857,-0.4962657690048218,0.33004772663116455,-0.3455389142036438,-0.23240070044994354,0.3803321421146393], [0.009790809825062752,0.3471502363681793,0.13971716165542603,0.24177095293998718,-0.4085043966770172,0.04114381968975067]]> : tensor<8x6xf32>
  %b0 = arith.constant dense<[0.007772236131131649, 0.3713393807411194, -0.13873593509197235, 0.09818406403064728, -0.4407483637332916, -0.11236819624900818]> : tensor<6xf32>
  %e0 = tensor.empty() : tensor<1x6xf32>
  %i0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b0 : tensor<6xf32>) outs(%e0 : tensor<1x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x6xf32>
  %m0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x0, %w0 : tensor<1x8xf32>, tensor<8x6xf32>) outs(%i0 : tensor<1x6xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x6xf32>
  %r0e = tensor.empty() : tensor<1x6xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m0 : tensor<1x6xf32>) outs(%r0e : tensor<1x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x6xf32>
  %w1 = arith.constant dense<[[-0.1769636571407318,-0.3498002588748932,0.31633809208869934,-0.12055382877588272], [0.4787478744983673,0.08999169617891312,0.10505625605583191,0.1379965841770172], [0.1764502376317978,-0.34921199083328247,-0.059686534106731415,-0.2604360282421112], [-0.09750170260667801,-0.4032959043979645,0.46782806515693665,-0.284995973110199], [0.17176516354084015,-0.19957992434501648,0.3740770220756531,0.1622147411108017], [-0.3683841824531555,0.345074325799942,0.4449481666088104,0.40391677618026733]]> : tensor<6x4xf32>
  %b1 = arith.constant dense<[0.06971915066242218, -0.35454005002975464, -0.3075365126132965, 0.4279056787490845]> : tensor<4xf32>
  %e1 = tensor.empty() : tensor<1x4xf32>
  %i1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<4xf32>) outs(%e1 : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r0, %w1 : tensor<1x6xf32>, tensor<6x4xf32>) outs(%i1 : tensor<1x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  %r1e = tensor.empty() : tensor<1x4xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m1 : tensor<1x4xf32>) outs(%r1e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %w2 = arith.constant dense<[[0.05232648923993111,-0.31944748759269714,0.3840568959712982], [0.14157170057296753,0.06969427317380905,-0.12371216714382172], [-0.0890447199344635,-0.26051077246665955,-0.4619427025318146], [0.3762187957763672,-0.032269783318042755,0.04763519763946533]]> : tensor<4x3xf32>
  %b2 = arith.constant dense<[-0.17783668637275696, 0.25132492184638977, -0.4748031198978424]> : tensor<3xf32>
  %e2 = tensor.empty() : tensor<1x3xf32>
  %i2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b2 : tensor<3xf32>) outs(%e2 : tensor<1x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x3xf32>
  %m2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r1, %w2 : tensor<1x4xf32>, tensor<4x3xf32>) outs(%i2 : tensor<1x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %p = arith.mulf %a, %c : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  return %m2 : tensor<1x3xf32>
}

// -----

// An integer sum stays a loop nest: it is a tree a few cycles after its
// input, and packs two products in a DSP.
// CHECK-LABEL: dfg.process @reduce3
// CHECK-NOT: ming.carried_distance
// CHECK: scf.for {{.*}} iter_args
// CHECK-LABEL: dfg.process @store
func.func @mlp_i8(%x0: tensor<1x8xi8>) -> tensor<1x4xi32> {
  %w0 = arith.constant dense<[[113,32,47,101,20,70], [85,-71,-114,-52,-56,95], [105,-127,-1,82,-95,76], [-98,-9,81,-51,-41,-57], [56,-63,125,-15,-6,1], [21,13,2,126,78,74], [51,31,-41,125,-9,-73], [88,-87,91,28,-99,-117]]> : tensor<8x6xi8>
  %b0 = arith.constant dense<[-221, -1858, -1434, 59, 1881, -136]> : tensor<6xi32>
  %e0 = tensor.empty() : tensor<1x6xi32>
  %i0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b0 : tensor<6xi32>) outs(%e0 : tensor<1x6xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<1x6xi32>
  %m0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x0, %w0 : tensor<1x8xi8>, tensor<8x6xi8>) outs(%i0 : tensor<1x6xi32>) {
  ^bb0(%a: i8, %c: i8, %o: i32):
    %ae = arith.extsi %a : i8 to i32
    %ce = arith.extsi %c : i8 to i32
    %p = arith.muli %ae, %ce : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<1x6xi32>
  %r0e = tensor.empty() : tensor<1x6xi8>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m0 : tensor<1x6xi32>) outs(%r0e : tensor<1x6xi8>) {
  ^bb0(%a: i32, %o: i8):
    %z = arith.constant 0 : i32
    %sh = arith.constant 10 : i32
    %top = arith.constant 127 : i32
    %r = arith.maxsi %a, %z : i32
    %q = arith.shrsi %r, %sh : i32
    %c = arith.minsi %q, %top : i32
    %t = arith.trunci %c : i32 to i8
    linalg.yield %t : i8
  } -> tensor<1x6xi8>
  %w1 = arith.constant dense<[[78,106,82,33], [-16,3,-60,-1], [-31,-65,126,-125], [-104,-79,120,49], [97,-77,56,-34], [-3,-128,30,84]]> : tensor<6x4xi8>
  %b1 = arith.constant dense<[654, -1383, 135, -930]> : tensor<4xi32>
  %e1 = tensor.empty() : tensor<1x4xi32>
  %i1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<4xi32>) outs(%e1 : tensor<1x4xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<1x4xi32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r0, %w1 : tensor<1x6xi8>, tensor<6x4xi8>) outs(%i1 : tensor<1x4xi32>) {
  ^bb0(%a: i8, %c: i8, %o: i32):
    %ae = arith.extsi %a : i8 to i32
    %ce = arith.extsi %c : i8 to i32
    %p = arith.muli %ae, %ce : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<1x4xi32>
  return %m1 : tensor<1x4xi32>
}
