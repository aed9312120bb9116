// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// A lone 8-bit element (int8, fp8, bool) is loaded into and stored from a
// 16-bit PTX register: ld.global.b8 / st.global.b8 with an "h" operand,
// truncated to / extended from the i8 register; a masked load's fallback
// moves as 16 bits.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @bytes
func.func @bytes(%p: tensor<128x!tile.ptr<i8>, #a>, %q: tensor<128x!tile.ptr<f8E4M3FN>, #a>, %m: tensor<128xi1, #a>) {
  // CHECK: %[[W:.*]] = llvm.inline_asm {{.*}}"ld.global.b8 $0, [ $1 + 0 ];", "=h,l" {{.*}} -> i16
  // CHECK: llvm.trunc %[[W]] : i16 to i8
  %v = tile.load %p : tensor<128x!tile.ptr<i8>, #a>
  // CHECK: llvm.inline_asm {{.*}}"mov.b16 $0, $3;\0A\09@$2 ld.global.b8 $0, [ $1 + 0 ];", "=h,l,b,h" {{.*}} -> i16
  %f = tile.load %q, %m : tensor<128x!tile.ptr<f8E4M3FN>, #a>
  // CHECK: %[[X:.*]] = llvm.zext %{{.*}} : i8 to i16
  // CHECK: llvm.inline_asm has_side_effects {{.*}}"st.global.b8 [ $0 + 0 ], $1;", "l,h" %{{.*}}, %[[X]]
  tile.store %q, %f : tensor<128x!tile.ptr<f8E4M3FN>, #a>
  return
}
}
