// RUN: tile-opt %s -convert-tilegpu-to-llvm -reconcile-unrealized-casts | FileCheck %s

// The grid queries read PTX's special registers: the program's index and
// the grid's size per axis, and the SM count tilegpu-heavy-programs-first
// sizes its groups by.
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @grid
// CHECK: nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: nvvm.read.ptx.sreg.nsmid : i32
// CHECK: llvm.add
// CHECK: llvm.add
func.func @grid(%out: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 1 : i32
  %grid = tile.num_programs 2 : i32
  %sms = tilegpu.sm_count : i32
  %a = arith.addi %pid, %grid : i32
  %b = arith.addi %a, %sms : i32
  tile.store %out, %b : !tile.ptr<i32>
  return
}
}
