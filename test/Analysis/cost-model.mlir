// Cost model (docs/cost-model.md): small processes whose cycles, DSP and
// BRAM18K can be worked out by hand; the derivations are in the comments.
// Latencies used below (docs table): dfg.pull/push 1, extsi/index_cast 0,
// muli (<= 27x18) 2, addi 1, mulf f32 3, addf f32 4, LUTRAM read 1,
// BRAM read 2, store 1. An op completes at max(operand completions) + latency;
// depth = the latest completion in one iteration;
// pipelined cycles = (iterations - 1) * II + depth.
//
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 \
// RUN:   | FileCheck %s
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{auto-partition=1 overrides=facc.L1.unroll=2,lookup.L0.unroll=4,lookup.arg0.lanes=4,lookup.arg1.lanes=4})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HYPO
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WIN
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{auto-partition=1 overrides=lookup.L0.unroll=0,lookup.arg0.lanes=4,lookup.arg1.lanes=4})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL

module {
  memref.global "private" constant @w4 : memref<4xi8> = dense<[1, 2, 3, 4]>
  memref.global "private" constant @table : memref<2048xi16> = dense<1>

  // ===== 1. A pipelined int8 MAC loop ======================================
  // 16 outputs, each the sum of 4 products; the 4 inputs arrive on 4 lanes.
  // Inside the pipelined loop the k loop is fully unrolled: 4 pulls (one per
  // lane: port II 1), 4 muli 8x8 (1 DSP each), weights w4[k] with k constant
  // after unrolling: the ROM folds into constants (no BRAM, no port).
  // Depth: pull 1, mul 1+2 = 3; the 4 adds of the unrolled accumulation are
  // rebalanced by HLS into a tree over 5 terms (4 products + the zero
  // start): ceil(log2 5) = 3 levels -> 6; push 7 -> 7.
  // cycles = 15 * 1 + 7 = 22; first push after 7; DSP = 4 (II 1, no sharing).
  // CHECK: remark: L0: trip=16 unroll=1 pipelined ii=1 (request) depth=7 cycles=22 dsp=4 ops=[addi 32 x4, muli 8x8->32 x4]
  // CHECK: remark: rom @w4 4x8b banks=1 words=4 folded bram18k=0
  // Every iteration pulls: the first pull issues at 0 (pre=0), the last with
  // iteration 15 at 15, and the process ends a depth later: tail = 22 - 15 = 7.
  // CHECK: remark: process @mac: cycles=22 first=7 dsp=4 bram18k=0 pre=0 tail=7
  dfg.process @mac(%in: !dfg.in<i8, lanes = 4>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (i32) {
        %x = dfg.pull %in[%k] : !dfg.in<i8, lanes = 4>
        %w = memref.get_global @w4 : memref<4xi8>
        %wv = memref.load %w[%k] : memref<4xi8>
        %xe = arith.extsi %x : i8 to i32
        %we = arith.extsi %wv : i8 to i32
        %m = arith.muli %xe, %we : i32
        %s = arith.addi %a, %m : i32
        scf.yield %s : i32
      }
      dfg.push %acc, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // ===== 1b. A nested int8 reduction is one tree ============================
  // Each output sums 4 x 4 products over two nested loops (input channels and
  // kernel taps of a convolution), both unrolled in the pipeline. The inner
  // loop starts from the outer one's partial sum, so after unrolling it is one
  // chain of 16 adds, which HLS balances as a whole: pull 1, mul 3, a tree over
  // 17 terms: ceil(log2 17) = 5 levels -> 8; push 9. (Balancing each inner
  // loop alone and chaining the four gives 1 + 2 + 4 * 3 + 1 = 16.)
  // cycles = 15 * 1 + 9 = 24.
  // CHECK: remark: L0: trip=16 unroll=1 pipelined ii=1 (request) depth=9 cycles=24 dsp=16 ops=[addi 32 x16, muli 8x3->32 x16]
  // CHECK: remark: process @mac2: cycles=24 first=9 dsp=16 bram18k=0 pre=0 tail=9
  dfg.process @mac2(%in: !dfg.in<i8, lanes = 16>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32
    %w = arith.constant 3 : i32
    scf.for %i = %c0 to %c16 step %c1 {
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (i32) {
        %row = arith.muli %k, %c4 : index
        %part = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (i32) {
          %lane = arith.addi %row, %j : index
          %x = dfg.pull %in[%lane] : !dfg.in<i8, lanes = 16>
          %xe = arith.extsi %x : i8 to i32
          %m = arith.muli %xe, %w : i32
          %s = arith.addi %b, %m : i32
          scf.yield %s : i32
        }
        scf.yield %part : i32
      }
      dfg.push %acc, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // ===== 2. f32 accumulation: II = addf latency ============================
  // The pipelined k loop carries %a through one addf: recurrence 4 -> II 4.
  // Depth: pull 1, mulf 4, addf 8. Inner cycles = 31 * 4 + 8 = 132.
  // The i loop is sequential (its body also pushes, so no flattening): one
  // iteration = 132 + 1 (push) + 1 (loop state) = 134; 8 * 134 = 1072.
  // First push right after the first k loop: 132.
  // DSP: mulf 3 + addf 2, each shared over II 4 -> 5.
  // CHECK: remark: L0: trip=8 unroll=1 cycles=1072
  // CHECK: remark: L1: trip=32 unroll=1 pipelined ii=4 (recurrence) depth=8 cycles=132 dsp=5 ops=[addf f32 x1, mulf f32 x1]
  // CHECK: remark: process @facc: cycles=1072 first=132 dsp=5 bram18k=0
  // Unrolling k by 2 chains two addf per iteration: II 8, 16 iterations,
  // depth 12 (second addf at 8 + 4): 15 * 8 + 12 = 132 again, no gain.
  // HYPO: remark: L1: trip=32 unroll=2 pipelined ii=8 (recurrence) depth=12 cycles=132 dsp=5
  dfg.process @facc(%in: !dfg.in<f32>, %out: !dfg.out<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %r = scf.for %k = %c0 to %c32 step %c1 iter_args(%a = %zero) -> (f32) {
        %x = dfg.pull %in : !dfg.in<f32>
        %m = arith.mulf %x, %x : f32
        %s = arith.addf %a, %m : f32
        scf.yield %s : f32
      } {ming.loop = #ming.loop<ii = 1>}
      dfg.push %r, %out : !dfg.out<f32>
    }
  }

  // ===== 3. Line buffers: BRAM vs LUTRAM vs registers =======================
  // big: 2x64x8 i8, dim 1 partitioned: 2 banks of 512 words x 8 bits = 4096
  //   bits > 1024 -> BRAM, 2Kx9 shape: 1 block per bank -> 2.
  // small: 2x16x4 i8, dim 1 partitioned: 2 banks of 64 x 8 = 512 bits -> LUTRAM.
  // regs: 3x3 fully partitioned: 9 banks of one word -> registers.
  // One store per bank per iteration: II 1. Depth: pull 1, stores 2, the
  // BRAM read 0 + 2 = 2, push 3. cycles = 63 + 3 = 66, first = 3.
  // CHECK: remark: L0: trip=64 unroll=1 pipelined ii=1 (request) depth=3 cycles=66 dsp=0 ops=[]
  // CHECK: remark: buffer 1024x8b banks=2 words=512 bram bram18k=2
  // CHECK: remark: buffer 128x8b banks=2 words=64 lutram bram18k=0
  // CHECK: remark: buffer 9x8b banks=9 words=1 registers bram18k=0
  // CHECK: remark: process @lines: cycles=66 first=3 dsp=0 bram18k=2
  dfg.process @lines(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %big = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<2x64x8xi8>
    %small = memref.alloca() {ming.partition = #ming.partition<complete = [1]>} : memref<2x16x4xi8>
    %regs = memref.alloca() {ming.partition = #ming.partition<complete = [1, 2]>} : memref<3x3xi8>
    scf.for %i = %c0 to %c64 step %c1 {
      %x = dfg.pull %in : !dfg.in<i8>
      memref.store %x, %big[%c0, %i, %c0] : memref<2x64x8xi8>
      memref.store %x, %small[%c1, %c0, %c0] : memref<2x16x4xi8>
      memref.store %x, %regs[%c2, %c2] : memref<3x3xi8>
      %y = memref.load %big[%c1, %i, %c0] : memref<2x64x8xi8>
      dfg.push %y, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // ===== 4. Memory ports limit II ==========================================
  // buf: 64 x i16 = 1024 bits, not partitioned -> one LUTRAM bank, 2 ports.
  // Per iteration 4 reads (k unrolled, distinct addresses) + 1 write = 5
  // accesses -> II = ceil(5 / 2) = 3. Depth: reads 1, add tree over 5 terms
  // 3 levels -> 4, push 5. cycles = 15 * 3 + 5 = 50.
  // CHECK: remark: L0: trip=16 unroll=1 pipelined ii=3 (memory alloca) depth=5 cycles=50 dsp=0 ops=[addi 16 x4]
  // CHECK: remark: buffer 64x16b banks=1 words=64 lutram bram18k=0
  // With auto-partition the buffer is split cyclically by 4 (16 words per
  // bank, still LUTRAM) and II drops to 1: 15 + 5 = 20. Not by 3: reads 0
  // and 3 would share bank 0 with the write, whose bank varies (3 accesses
  // on 2 ports).
  // HYPO: remark: L0: trip=16 unroll=1 pipelined ii=1 (request) depth=5 cycles=20
  // HYPO: remark: buffer 64x16b banks=4 words=16 lutram bram18k=0
  dfg.process @ports(%in: !dfg.in<i16>, %out: !dfg.out<i16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i16
    %buf = memref.alloca() : memref<64xi16>
    scf.for %i = %c0 to %c16 step %c1 {
      %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (i16) {
        %v = memref.load %buf[%k] : memref<64xi16>
        %t = arith.addi %a, %v : i16
        scf.yield %t : i16
      }
      %x = dfg.pull %in : !dfg.in<i16>
      memref.store %x, %buf[%i] : memref<64xi16>
      dfg.push %s, %out : !dfg.out<i16>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // ===== 5. A ROM read at a data-dependent address ==========================
  // table: 2048 x i16 = 32768 bits; 1Kx18 gives 1 x 2 = 2 blocks (2Kx9: 2 x 1,
  // 512x36: 1 x 4): 2 BRAM18K. Depth: pull 1, BRAM read 3, push 4: 63 + 4 = 67.
  // CHECK: remark: L0: trip=64 unroll=1 pipelined ii=1 (request) depth=4 cycles=67 dsp=0 ops=[]
  // CHECK: remark: rom @table 2048x16b banks=1 words=2048 bram bram18k=2
  // CHECK: remark: process @lookup: cycles=67 first=4 dsp=0 bram18k=2
  // Unrolled by 4 on 4 lanes, 4 reads per iteration at addresses the data
  // computes: a cyclic split would not spread them (any bank may get all
  // four), so even with auto-partition the ROM stays one bank and its two
  // ports give II 2. Copies 2 and 3 issue a cycle after copies 0 and 1 (the
  // ports' second cycle): depth 4 + 1 = 5, 15 * 2 + 5 = 35.
  // HYPO: remark: L0: trip=64 unroll=4 pipelined ii=2 (memory @table (data addresses)) depth=5 cycles=35
  // HYPO: remark: rom @table 2048x16b banks=1 words=2048 bram bram18k=2
  // Fully unrolled, the one iteration still takes the 64 reads' 32 cycles on
  // two ports (more than its 16 pulls on 4 lanes); the last two reads issue
  // in cycle 31: depth 31 + 4 = 35.
  // FULL: remark: L0: trip=64 unroll=64 pipelined ii=32 (memory @table (data addresses)) depth=35 cycles=35
  dfg.process @lookup(%in: !dfg.in<i32>, %out: !dfg.out<i16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c64 step %c1 {
      %x = dfg.pull %in : !dfg.in<i32>
      %ix = arith.index_cast %x : i32 to index
      %t = memref.get_global @table : memref<2048xi16>
      %v = memref.load %t[%ix] : memref<2048xi16>
      dfg.push %v, %out : !dfg.out<i16>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // ===== 6. A 3-stage chain and its FIFOs ===================================
  // src: 100 pushes at II 1 (lane 0 of 2), push at 1: cycles 99 + 1 = 100,
  //      first 1; its first 2-lane word leaves with the second push, at 2.
  // mid: II 2 requested; x * 3 with x a full i32: the 32-bit operand does not
  //      fit the 27-bit port, slices 26 + 6 bits -> 2 DSPs, latency 3.
  //      pull 1, muli 4, push 5: cycles 99 * 2 + 5 = 203, first 5.
  //      (Shared over II 2, one 2-DSP multiplier: dsp 2.)
  // sink: pull 1, external store 2: cycles 99 + 2 = 101, first 2 (a sink's
  //      "first output" is its first store to memory).
  // pre/tail (first pull at 0; last pull with the last iteration, tail = the
  // depth): src pulls nothing: 0/0; mid: 0/5; sink: 0/2.
  // Graph (every process starts at 0; A = first input, FO = first output,
  // T = finish; docs/cost-model.md "Graph latency"):
  //   src:  A 0, FO 2, T 100.
  //   mid:  A 2, FO = max(5, 2 + 5 - 0) = 7, T = max(203, 2 + 203 - 0,
  //         100 + 5) = 205 (the bottleneck, two cycles late).
  //   sink: A 7, FO = max(2, 7 + 2 - 0) = 9, T = max(101, 7 + 101 - 0,
  //         205 + 2) = 207: it ends 2 cycles after mid's last output.
  // dataflow = 207, path sink <- mid (finish) <- src (first output); the
  // paper's sum = 100 + 203 + 101 = 404.
  // FIFOs: i32 x 1024 deep on 2 lanes: 32768 bits per lane, 1Kx18 -> 2 x 1 =
  // 2 blocks per lane -> 4; i32 x 32 = 1024 bits -> SRL, 0.
  // CHECK: remark: process @src: cycles=100 first=2 dsp=0 bram18k=0 pre=0 tail=0
  // CHECK: remark: L0: trip=100 unroll=1 pipelined ii=2 (request) depth=5 cycles=203 dsp=2 ops=[muli 32x3->32 x1]
  // CHECK: remark: process @mid: cycles=203 first=5 dsp=2 bram18k=0 pre=0 tail=5
  // CHECK: remark: process @sink: cycles=101 first=2 dsp=0 bram18k=0 pre=0 tail=2
  // CHECK: remark: fifo lanes=2 depth=1024 width=32 bram18k=4
  // CHECK: remark: fifo lanes=1 depth=32 width=32 bram18k=0
  // CHECK: remark: graph: dataflow=207 sum=404 bottleneck=203 dsp=2 bram18k=4 (fifo 4) path=@src -> @mid -> @sink
  // CHECK: remark: node @src: arrival=0 first=2 cycles=100 finish=100
  // CHECK: remark: node @mid: arrival=2 first=7 cycles=203 finish=205
  // CHECK: remark: node @sink: arrival=7 first=9 cycles=101 finish=207
  dfg.process @src(%out: !dfg.out<i32, lanes = 2>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    scf.for %i = %c0 to %c100 step %c1 {
      %v = arith.index_cast %i : index to i32
      dfg.push %v, %out[%c0] : !dfg.out<i32, lanes = 2>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @mid(%in: !dfg.in<i32, lanes = 2>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c3 = arith.constant 3 : i32
    scf.for %i = %c0 to %c100 step %c1 {
      %x = dfg.pull %in[%c0] : !dfg.in<i32, lanes = 2>
      %y = arith.muli %x, %c3 : i32
      dfg.push %y, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 2>}
  }
  dfg.process @sink(%in: !dfg.in<i32>, %mem: memref<100xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    scf.for %i = %c0 to %c100 step %c1 {
      %x = dfg.pull %in : !dfg.in<i32>
      memref.store %x, %mem[%i] : memref<100xi32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.graph @chain(%mem: memref<100xi32>) {
    %w0, %r0 = dfg.channel<i32, lanes = 2, depth = 1024>
    %w1, %r1 = dfg.channel<i32, lanes = 1, depth = 32>
    dfg.instantiate @src(%w0) : !dfg.out<i32, lanes = 2>
    dfg.instantiate @mid(%r0, %w1) : !dfg.in<i32, lanes = 2>, !dfg.out<i32>
    dfg.instantiate @sink(%r1, %mem) : !dfg.in<i32>, memref<100xi32>
  }
  // ===== 7. A sliding window: pre and tail ==================================
  // win: 3x3 window with padding 1 over a 4x4 image, one channel. The line
  // buffer (2 x 6 i8 = 96 bits, LUTRAM) is zeroed first: a flattened nest of
  // 12 iterations at II 1, depth 1 (store): 11 + 1 = 12 cycles. Then the 6 x 6
  // padded positions, flattened, II 1: a real pixel (1 <= r, c <= 4) is
  // pulled; the condition takes cmpi 1 + andi 2 + andi 3, so the if's value
  // is there at 3; the old line is read (LUTRAM 1), the sum at 4 is pushed
  // at 5 once the window is complete (r, c >= 2): depth 5, 35 + 5 = 40;
  // cycles = 12 + 40 = 52.
  // first output: position (2, 2) = iteration 14: 12 + 14 + 5 = 31.
  // pre: the first pull is position (1, 1) = iteration 7: 12 + 7 = 19 (the
  //   line-buffer initialisation and the padded row and column before it).
  // tail: the last pull is position (4, 4) = iteration 28, at 12 + 28 = 40;
  //   then 7 padded positions and the depth: 52 - 40 = 12.
  // WIN: remark: process @win: cycles=52 first=31 dsp=0 bram18k=0 pre=19 tail=12
  // wsrc: 16 pushes at II 1, cycles 16, first 1. wsink: 16 pulls and stores
  // at II 1: cycles 15 + 2 = 17, first 2, pre 0, tail 2.
  // Graph:
  //   wsrc:  A 0, FO 1, T 16.
  //   win:   A 1 < pre: the first pixel waits in the FIFO, FO = max(31,
  //          1 + 31 - 19) = 31, T = max(52, 1 + 52 - 19, 16 + 12) = 52.
  //   wsink: A 31, FO = max(2, 31 + 2) = 33, T = max(17, 31 + 17, 52 + 2) = 54.
  // dataflow = 54 = win's cycles + wsink's tail; sum = 16 + 52 + 17 = 85.
  // (The former formula, fill in + cycles + fill out, said 1 + 52 + 2 = 55:
  // it started the window only when the first pixel arrived, although the
  // window spends 19 cycles before it needs one.)
  // WIN: remark: graph: dataflow=54 sum=85 bottleneck=52 dsp=0 bram18k=0 (fifo 0) path=@win -> @wsink
  // WIN: remark: node @wsrc: arrival=0 first=1 cycles=16 finish=16
  // WIN: remark: node @win: arrival=1 first=31 cycles=52 finish=52
  // WIN: remark: node @wsink: arrival=31 first=33 cycles=17 finish=54
  dfg.process @wsrc(%out: !dfg.out<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %v = arith.index_cast %i : index to i8
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.process @win(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %z = arith.constant 0 : i8
    %line = memref.alloca() : memref<2x6xi8>
    scf.for %r = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c6 step %c1 {
        memref.store %z, %line[%r, %c] : memref<2x6xi8>
      } {ming.loop = #ming.loop<ii = 1>}
    }
    scf.for %r = %c0 to %c6 step %c1 {
      scf.for %c = %c0 to %c6 step %c1 {
        %r1 = arith.cmpi sge, %r, %c1 : index
        %r2 = arith.cmpi slt, %r, %c5 : index
        %c1b = arith.cmpi sge, %c, %c1 : index
        %c2b = arith.cmpi slt, %c, %c5 : index
        %a = arith.andi %r1, %r2 : i1
        %b = arith.andi %c1b, %c2b : i1
        %inside = arith.andi %a, %b : i1
        %x = scf.if %inside -> (i8) {
          %p = dfg.pull %in : !dfg.in<i8>
          scf.yield %p : i8
        } else {
          scf.yield %z : i8
        }
        %y = memref.load %line[%c0, %c] : memref<2x6xi8>
        memref.store %x, %line[%c1, %c] : memref<2x6xi8>
        %o1 = arith.cmpi sge, %r, %c2 : index
        %o2 = arith.cmpi sge, %c, %c2 : index
        %full = arith.andi %o1, %o2 : i1
        scf.if %full {
          %s = arith.addi %x, %y : i8
          dfg.push %s, %out : !dfg.out<i8>
        }
      } {ming.loop = #ming.loop<ii = 1>}
    }
  }
  dfg.process @wsink(%in: !dfg.in<i8>, %mem: memref<16xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      %x = dfg.pull %in : !dfg.in<i8>
      memref.store %x, %mem[%i] : memref<16xi8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
  dfg.graph @windowed(%mem: memref<16xi8>) {
    %w0, %r0 = dfg.channel<i8, lanes = 1, depth = 2>
    %w1, %r1 = dfg.channel<i8, lanes = 1, depth = 2>
    dfg.instantiate @wsrc(%w0) : !dfg.out<i8>
    dfg.instantiate @win(%r0, %w1) : !dfg.in<i8>, !dfg.out<i8>
    dfg.instantiate @wsink(%r1, %mem) : !dfg.in<i8>, memref<16xi8>
  }
}
