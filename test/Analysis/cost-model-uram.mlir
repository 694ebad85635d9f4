// A buffer in UltraRAM (docs/cost-model.md, "Buffers, ROMs and FIFOs"): a
// URAM288 is 4,096 words of 72 bits, one shape only, so 8,192 int8 words take
// 2 of them (each 72-bit word holds one element); in BRAM the same buffer is
// 4 BRAM18K (2K x 9). 64 words of 96 bits split in width: 2 URAMs. A ROM
// never goes to UltraRAM, and LUTRAM-sized buffers stay in LUTRAM.
// RUN: ming-opt %s --pass-pipeline='builtin.module(ming-test-cost-model)' 2>&1 | FileCheck %s

module {
  // CHECK: remark: buffer 8192x8b banks=1 words=8192 uram bram18k=0 uram=2
  // CHECK: remark: buffer 8192x8b banks=1 words=8192 bram bram18k=4
  // CHECK: remark: buffer 64x96b banks=1 words=64 uram bram18k=0 uram=2
  // CHECK: remark: buffer 16x8b banks=1 words=16 lutram bram18k=0
  // CHECK: remark: process @delay: cycles={{[0-9]+}} first={{[0-9]+}} dsp=0 bram18k=4 pre={{[0-9]+}} tail={{[0-9]+}} uram=4
  dfg.process @delay(%in: !dfg.in<i8>, %out: !dfg.out<i8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c8192 = arith.constant 8192 : index
    %line = memref.alloca() {ming.uram} : memref<8192xi8>
    %other = memref.alloca() : memref<8192xi8>
    %wide = memref.alloca() {ming.uram} : memref<64xi96>
    %small = memref.alloca() {ming.uram} : memref<16xi8>
    scf.for %i = %c0 to %c8192 step %c1 {
      %v = dfg.pull %in : !dfg.in<i8>
      %old = memref.load %line[%i] : memref<8192xi8>
      memref.store %v, %line[%i] : memref<8192xi8>
      %x = memref.load %other[%i] : memref<8192xi8>
      memref.store %old, %other[%i] : memref<8192xi8>
      %j = arith.remui %i, %c64 : index
      %k = arith.remui %i, %c16 : index
      %e = arith.extsi %x : i8 to i96
      memref.store %e, %wide[%j] : memref<64xi96>
      memref.store %x, %small[%k] : memref<16xi8>
      dfg.push %x, %out : !dfg.out<i8>
    } {ming.loop = #ming.loop<ii = 1>}
  }
}
