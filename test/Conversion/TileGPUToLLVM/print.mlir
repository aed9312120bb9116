// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s --check-prefix=COUNT
// tile.print: one format string per argument, in Triton's line format with
// the index widths of the shape (ceil(log10(dim))) and the prefix's '%'
// doubled; every register of the thread is stored with the program id and
// its indices into a struct allocated at the function's entry, and passed
// to vprintf. Narrow integers are widened by signedness, floats extended
// to double, hex floats bitcast to their bits.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @tile_printf_0("pid (%u, %u, %u) idx (%3u) x: (operand 0) %f\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_printf_1("pid (%u, %u, %u) idx (%3u) x: (operand 1) %i\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_printf_2("pid (%u, %u, %u) idx (%2u, %1u) 100%%: 0x%04x\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_printf_3("pid (%u, %u, %u) idx () s: %llu\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_printf_4("pid (%u, %u, %u) done\0A\00")
// CHECK-LABEL: llvm.func @f
// CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, f64)>
// CHECK-DAG: llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, i32)>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.fpext %{{.*}} : f32 to f64
// CHECK: llvm.call @vprintf
// CHECK: llvm.sext %{{.*}} : i8 to i32
// CHECK: llvm.bitcast %{{.*}} : f16 to i16
// CHECK: llvm.zext %{{.*}} : i16 to i32
// CHECK: llvm.return
// Two registers of x and of y, one of h, the scalar, the line without
// values.
// COUNT-COUNT-7: llvm.call @vprintf
// COUNT-NOT: llvm.call @vprintf
func.func @f(%x: tensor<256xf32, #b>, %y: tensor<256xi8, #b>, %h: tensor<16x8xf16, #b2>, %s: i64) {
  tile.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %x, %y : tensor<256xf32, #b>, tensor<256xi8, #b>
  tile.print " 100%: " {hex = true, isSigned = array<i32: 0>} : %h : tensor<16x8xf16, #b2>
  tile.print " s: " {hex = false, isSigned = array<i32: 0>} : %s : i64
  tile.print " done" {hex = false, isSigned = array<i32>}
  return
}
}
