// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tile.inline_asm_elementwise: one llvm.inline_asm per pack registers of
// the thread; i8 elements travel four to a vector<4xi8> register, i32 and
// f32 one each; several outputs come back as a struct; a thread with fewer
// registers than pack fills the call with undef. Without is_pure the asm
// has side effects.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @pack1
// CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}} : (i32, i32, i32) -> i32
// CHECK-NOT: llvm.inline_asm
func.func @pack1(%x: tensor<256xi32, #b>, %w: tensor<256xi32, #b>, %s: tensor<256xi32, #b>) {
  %f = tile.inline_asm_elementwise "shf.l.wrap.b32 $0, $1, $2, $3;" {constraints = "=r,r,r,r", packedElement = 1 : i32, pure = true} %x, %w, %s : tensor<256xi32, #b>, tensor<256xi32, #b>, tensor<256xi32, #b> -> tensor<256xi32, #b>
  return
}

// CHECK-LABEL: llvm.func @pack4
// CHECK: llvm.insertelement {{.*}} : vector<4xi8>
// CHECK: llvm.inline_asm asm_dialect = att "two", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (vector<4xi8>, f32, f32, f32, f32) -> !llvm.struct<(i32, i32, i32, i32, f32, f32, f32, f32)>
// CHECK: llvm.inline_asm asm_dialect = att "two"
// CHECK-NOT: llvm.inline_asm asm_dialect = att "two"
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "bytes", "=r,r" %{{.*}} : (vector<4xi8>) -> vector<4xi8>
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "bytes"
// CHECK-NOT: llvm.inline_asm
func.func @pack4(%a: tensor<1024xi8, #b8>, %b: tensor<1024xf32, #b8>) {
  %c, %d = tile.inline_asm_elementwise "two" {constraints = "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", packedElement = 4 : i32, pure = true} %a, %b : tensor<1024xi8, #b8>, tensor<1024xf32, #b8> -> tensor<1024xi32, #b8>, tensor<1024xf32, #b8>
  %e = tile.inline_asm_elementwise "bytes" {constraints = "=r,r", packedElement = 4 : i32, pure = false} %a : tensor<1024xi8, #b8> -> tensor<1024xi8, #b8>
  return
}

// Two registers per thread, pack 4: one call, its last two inputs undef.
// CHECK-LABEL: llvm.func @padded
// CHECK: %[[U:.*]] = llvm.mlir.undef : i32
// CHECK: llvm.inline_asm asm_dialect = att "p", "=r,=r,=r,=r,r,r,r,r" %{{.*}}, %{{.*}}, %[[U]], %[[U]] : (i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: llvm.inline_asm
func.func @padded(%x: tensor<256xi32, #b>) {
  %y = tile.inline_asm_elementwise "p" {constraints = "=r,=r,=r,=r,r,r,r,r", packedElement = 4 : i32, pure = true} %x : tensor<256xi32, #b> -> tensor<256xi32, #b>
  return
}
}
