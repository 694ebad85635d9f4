// Cyclic partitioning chosen per dim from where each unrolled access falls
// (cpp/Analysis/Partition.cpp). A bank is known at compile time only where
// the index's residue modulo the dim's factor is fixed in every copy; an
// access whose bank varies reaches every bank of that dim (Vitis multiplexes
// it), as do the writes or reads of a transposing buffer along the dim the
// other side varies.
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model{auto-partition=1 overrides=small.L0.unroll=8,small.arg0.lanes=8,small.arg1.lanes=8,split.L0.unroll=8,split.arg0.lanes=8,split.arg1.lanes=8,large.L0.unroll=16,large.arg0.lanes=16,large.arg1.lanes=16,shared.L1.unroll=4,shared.arg1.lanes=4})' 2>&1 \
// RUN:   | FileCheck %s

module {
  // 4x8 i8, written down the columns (i % 4, i / 4) and read along the rows
  // (i / 8, i % 8), 8 copies: 8 writes and 8 reads an iteration, 2 ports a
  // bank. Writes fall in known rows, reads in known columns; every factor
  // pair short of all 32 elements leaves a bank with 3 or more accesses, so
  // the 256-bit buffer becomes registers and II stays 1.
  // CHECK-LABEL: remark: L0: trip=32 unroll=8 pipelined ii=1 (request)
  // CHECK: remark: buffer 32x8b banks=32 words=1 registers bram18k=0
  // CHECK: remark: process @small:
  dfg.process @small(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %buf = memref.alloca() : memref<4x8xi8>
    scf.for %i = %c0 to %c32 step %c1 {
      %x = dfg.pull %in : !dfg.in<i8>
      %r = arith.remui %i, %c4 : index
      %q = arith.divui %i, %c4 : index
      memref.store %x, %buf[%r, %q] : memref<4x8xi8>
      %a = arith.divui %i, %c8 : index
      %b = arith.remui %i, %c8 : index
      %v = memref.load %buf[%a, %b] : memref<4x8xi8>
      dfg.push %v, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // 8x256 i32 (64 Kbit, too large for registers), written (i % 8, i / 8)
  // and read (i / 256, i % 256), 8 copies: copy j writes row j and reads a
  // column = j (mod 8). Rows by 8 and columns by 8: each of the 64 banks gets
  // one write and one read. One dim alone (8 banks, as a single cyclic
  // factor would have it) leaves 9 accesses on a bank.
  // CHECK-LABEL: remark: L0: trip=2048 unroll=8 pipelined ii=1 (request)
  // CHECK: remark: buffer 2048x32b banks=64 words=32 lutram bram18k=0
  // CHECK: remark: process @split:
  dfg.process @split(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c2048 = arith.constant 2048 : index
    %buf = memref.alloca() : memref<8x256xi32>
    scf.for %i = %c0 to %c2048 step %c1 {
      %x = dfg.pull %in : !dfg.in<i32>
      %r = arith.remui %i, %c8 : index
      %q = arith.divui %i, %c8 : index
      memref.store %x, %buf[%r, %q] : memref<8x256xi32>
      %a = arith.divui %i, %c256 : index
      %b = arith.remui %i, %c256 : index
      %v = memref.load %buf[%a, %b] : memref<8x256xi32>
      dfg.push %v, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // A row buffer every output reads whole: 4 copies of the output loop each
  // read x[0..15], the same 16 addresses, which Vitis reads once an
  // iteration. 16 reads on 2 ports a bank: 8 banks of 2 words (not the 32
  // that 64 separate reads would ask).
  // CHECK-LABEL: remark: L1: trip=8 unroll=4 pipelined ii=1 (request)
  // CHECK: remark: buffer 16x32b banks=8 words=2 lutram bram18k=0
  // CHECK: remark: process @shared:
  dfg.process @shared(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32
    %x = memref.alloca() : memref<16xi32>
    scf.for %k = %c0 to %c16 step %c1 {
      %v = dfg.pull %in : !dfg.in<i32>
      memref.store %v, %x[%k] : memref<16xi32>
    } {ming.loop = #ming.loop<ii = 1>}
    scf.for %j = %c0 to %c8 step %c1 {
      %s = scf.for %k = %c0 to %c16 step %c1 iter_args(%a = %z) -> (i32) {
        %v = memref.load %x[%k] : memref<16xi32>
        %t = arith.addi %a, %v : i32
        scf.yield %t : i32
      }
      dfg.push %s, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }

  // The same with 16 copies: writes fall in rows j % 8 and columns known
  // modulo 2 only, reads in columns j (mod 16). The best split, rows by 8
  // and columns by 16 (128 banks of 16 words), still puts 2 writes (columns
  // unknown to it) and 1 read on a bank: 3 accesses on 2 ports, II 2. The
  // model says so rather than counting 16 banks as enough.
  // CHECK-LABEL: remark: L0: trip=2048 unroll=16 pipelined ii=2 (memory alloca)
  // CHECK: remark: buffer 2048x32b banks=128 words=16 lutram bram18k=0
  // CHECK: remark: process @large:
  dfg.process @large(%in: !dfg.in<i32>, %out: !dfg.out<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c2048 = arith.constant 2048 : index
    %buf = memref.alloca() : memref<8x256xi32>
    scf.for %i = %c0 to %c2048 step %c1 {
      %x = dfg.pull %in : !dfg.in<i32>
      %r = arith.remui %i, %c8 : index
      %q = arith.divui %i, %c8 : index
      memref.store %x, %buf[%r, %q] : memref<8x256xi32>
      %a = arith.divui %i, %c256 : index
      %b = arith.remui %i, %c256 : index
      %v = memref.load %buf[%a, %b] : memref<8x256xi32>
      dfg.push %v, %out : !dfg.out<i32>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}
