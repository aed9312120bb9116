// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -reconcile-unrealized-casts | FileCheck %s

#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// The kernel signature: global pointers, alignment from specialization, the
// launch bound of 4 warps.
// CHECK-LABEL: llvm.func @masked_copy
// CHECK-SAME: (%{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i32)
// CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>}
func.func @masked_copy(%src: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %dst: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
  // CHECK: nvvm.read.ptx.sreg.ctaid.x
  %pid = tile.program_id 0 : i32
  %c512 = arith.constant 512 : i32
  %start = arith.muli %pid, %c512 : i32
  // CHECK: nvvm.read.ptx.sreg.tid.x
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #vec>
  %s = tile.splat %start : i32 -> tensor<512xi32, #vec>
  %offs = arith.addi %s, %r : tensor<512xi32, #vec>
  %ns = tile.splat %n : i32 -> tensor<512xi32, #vec>
  %mask = arith.cmpi slt, %offs, %ns : tensor<512xi32, #vec>
  %ps = tile.splat %src : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #vec>
  %pp = tile.addptr %ps, %offs : tensor<512x!tile.ptr<f32>, #vec>, tensor<512xi32, #vec>
  // One predicated 128-bit load per thread; masked-off lanes read zero.
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r"
  // CHECK-NOT: ld.global
  %v = tile.load %pp, %mask : tensor<512x!tile.ptr<f32>, #vec>
  %qs = tile.splat %dst : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #vec>
  %qp = tile.addptr %qs, %offs : tensor<512x!tile.ptr<f32>, #vec>, tensor<512xi32, #vec>
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b"
  tile.store %qp, %v, %mask : tensor<512x!tile.ptr<f32>, #vec>
  // CHECK: llvm.return
  return
}
}

// -----

#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// Without alignment the same layout falls back to scalar accesses.
// CHECK-LABEL: llvm.func @unaligned
// CHECK-COUNT-4: ld.global.b32 $0, [ $1 + 0 ];
// CHECK-NOT: ld.global
func.func @unaligned(%src: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32, #vec>
  %ps = tile.splat %src : !tile.ptr<f32> -> tensor<512x!tile.ptr<f32>, #vec>
  %pp = tile.addptr %ps, %r : tensor<512x!tile.ptr<f32>, #vec>, tensor<512xi32, #vec>
  %v = tile.load %pp : tensor<512x!tile.ptr<f32>, #vec>
  return
}
}

