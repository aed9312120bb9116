// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm -canonicalize | FileCheck %s
// tile.scan keeps its blocked layout: a sequential scan over each thread's
// registers along the axis, a Hillis-Steele scan of the chunk totals over
// the lanes along the axis (shfl.sync.up, or .down for reverse scans) and
// one more shuffle for the lanes before this one, then the totals of
// earlier chunks (shfl.sync.idx from the chunk's last lane) and of earlier
// warps (through the scratch buffer, between barriers).

// One warp, two registers per thread: no shared memory.
#a = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK: module attributes {{{.*}}tilegpu.shared = 0 : i32
// CHECK-NOT: tile_smem
// CHECK-LABEL: llvm.func @warp_1d
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// The thread's second element follows its first.
// CHECK: %[[T:.*]] = llvm.fadd %[[R0:.*]], %[[R1:.*]] : f32
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C1]], %[[C0]] : i32 -> i32
// CHECK: %[[GE1:.*]] = llvm.icmp "uge" %[[LANE:.*]], %[[C1]] : i32
// CHECK: %[[S1:.*]] = llvm.fadd %{{.*}}, %[[T]] : f32
// CHECK: %[[V1:.*]] = llvm.select %[[GE1]], %[[S1]], %[[T]] : i1, f32
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C2]], %[[C0]]
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C4]], %[[C0]]
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C8]], %[[C0]]
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C16]], %[[C0]]
// The lanes before this one: lane 0 keeps its own values.
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C1]], %[[C0]]
// CHECK: %[[P:.*]] = llvm.bitcast
// CHECK: %[[A0:.*]] = llvm.fadd %[[P]], %[[R0]] : f32
// CHECK: llvm.select %[[NOT0:.*]], %[[A0]], %[[R0]] : i1, f32
// CHECK: %[[A1:.*]] = llvm.fadd %[[P]], %[[T]] : f32
// CHECK: llvm.select %[[NOT0]], %[[A1]], %[[T]] : i1, f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 1 : i32} {
func.func @warp_1d(%p: tensor<64x!tile.ptr<f32>, #a>) {
  %v = tile.load %p : tensor<64x!tile.ptr<f32>, #a>
  %s = tile.scan(%v) {axis = 0 : i32} : (tensor<64xf32, #a>) -> tensor<64xf32, #a> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  tile.store %p, %s : tensor<64x!tile.ptr<f32>, #a>
  return
}
}

// -----

// Two warps along the scanned axis 1: each warp's row totals (16 rows per
// thread) go through 32 rows x 2 warps x 4 bytes of scratch; the second
// warp reads the first warp's totals (the loads nobody needs fold away).
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: module attributes {{{.*}}tilegpu.shared = 256 : i32
// CHECK: llvm.mlir.global internal @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<256 x i8>
// CHECK-LABEL: llvm.func @warps_2d
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// The last lane along the axis holds the warp's total.
// CHECK: %[[LAST:.*]] = llvm.add %{{.*}}, %[[C31]] : i32
// CHECK: nvvm.shfl.sync{{ +}}up %{{.*}}, %{{.*}}, %[[C16]], %[[C0]]
// CHECK: nvvm.shfl.sync{{ +}}idx %{{.*}}, %{{.*}}, %[[LAST]], %[[C31]]
// Nothing is pending before the first shared access: no barrier before it.
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-16: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: llvm.load {{.*}} : !llvm.ptr<3>
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @warps_2d(%p: tensor<32x64x!tile.ptr<f32>, #b>) {
  %v = tile.load %p : tensor<32x64x!tile.ptr<f32>, #b>
  %s = tile.scan(%v) {axis = 1 : i32} : (tensor<32x64xf32, #b>) -> tensor<32x64xf32, #b> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  tile.store %p, %s : tensor<32x64x!tile.ptr<f32>, #b>
  return
}
}

// -----

// A reverse scan of 4 chunks in one warp: shuffles down, chunk totals from
// the lane holding the first elements, carried in registers; the combine
// keeps its operand order (later elements first).
#c = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK: module attributes {{{.*}}tilegpu.shared = 0 : i32
// CHECK-LABEL: llvm.func @reverse_chunks
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-DAG: %[[C0:.*]] = llvm.mlir.{{constant\(0 : i32\)|zero}} : i32
// CHECK: %[[MIRROR:.*]] = llvm.sub %[[C31]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = llvm.add %{{.*}}, %[[C0]] : i32
// CHECK: %[[D:.*]] = nvvm.shfl.sync{{ +}}down %{{.*}}, %[[V:.*]], %[[C1]], %[[C31]] : i32 -> i32
// CHECK: %[[GE:.*]] = llvm.icmp "uge" %[[MIRROR]], %[[C1]] : i32
// CHECK: %[[M:.*]] = llvm.mul %[[D]], %[[V]] : i32
// CHECK: llvm.select %[[GE]], %[[M]], %[[V]] : i1, i32
// CHECK-COUNT-4: nvvm.shfl.sync{{ +}}down
// CHECK: nvvm.shfl.sync{{ +}}down %{{.*}}, %{{.*}}, %[[C1]], %[[C31]]
// CHECK: nvvm.shfl.sync{{ +}}idx %{{.*}}, %{{.*}}, %[[FIRST]], %[[C31]]
// CHECK-COUNT-3: nvvm.shfl.sync{{ +}}idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 1 : i32} {
func.func @reverse_chunks(%p: tensor<128x!tile.ptr<i32>, #c>) {
  %v = tile.load %p : tensor<128x!tile.ptr<i32>, #c>
  %s = tile.scan(%v) {axis = 0 : i32, reverse} : (tensor<128xi32, #c>) -> tensor<128xi32, #c> {
  ^bb0(%x: i32, %y: i32):
    %z = arith.muli %x, %y : i32
    tile.scan_return %z : i32
  }
  tile.store %p, %s : tensor<128x!tile.ptr<i32>, #c>
  return
}
}

// -----

// Two operands scanned along axis 0, which only warps span: no shuffles;
// the totals of 4 chunks x 4 warps x 32 columns per operand (f32, then i32
// at byte 2048) go through the scratch buffer.
#d = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: module attributes {{{.*}}tilegpu.shared = 4096 : i32
// CHECK-LABEL: llvm.func @two_operands_axis0
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: %[[IOFF:.*]] = llvm.add %{{.*}}, %[[C2048]] : i32
// CHECK: %[[IPTR:.*]] = llvm.getelementptr %{{.*}}[%[[IOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store {{.*}}, %[[IPTR]] : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.intr.maxnum
// CHECK: llvm.add
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @two_operands_axis0(%p: tensor<16x32x!tile.ptr<f32>, #d>, %q: tensor<16x32x!tile.ptr<i32>, #d>) {
  %v = tile.load %p : tensor<16x32x!tile.ptr<f32>, #d>
  %i = tile.load %q : tensor<16x32x!tile.ptr<i32>, #d>
  %s:2 = tile.scan(%v, %i) {axis = 0 : i32} : (tensor<16x32xf32, #d>, tensor<16x32xi32, #d>) -> (tensor<16x32xf32, #d>, tensor<16x32xi32, #d>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %m = arith.maxnumf %a, %b : f32
    %n = arith.addi %ai, %bi : i32
    tile.scan_return %m, %n : f32, i32
  }
  tile.store %p, %s#0 : tensor<16x32x!tile.ptr<f32>, #d>
  tile.store %q, %s#1 : tensor<16x32x!tile.ptr<i32>, #d>
  return
}
}
