// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-tma-stores | FileCheck %s
// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_80" -tilegpu-coalesce -tilegpu-tma-stores | FileCheck %s --check-prefix=SM80

// A host descriptor's store (desc.store): the f16 block goes into a buffer
// of one stage as the swizzled tile of the tensor map's box, and thread 0
// stores that stage with TMA at the box's coordinates. The pointers and the
// bounds mask are no longer needed.
// CHECK-LABEL: func.func @descriptor_store
// CHECK: %[[BUF:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<1x64x64xf16>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: tilegpu.local_store %{{.*}}, %[[BUF]][%[[ZERO]]] : tensor<64x64xf16, #{{.*}}> -> !tilegpu.memdesc<1x64x64xf16>
// CHECK-NEXT: tilegpu.tma_store %[[BUF]][%[[ZERO]]], %arg2[%arg3, %arg4] : !tilegpu.memdesc<1x64x64xf16> -> <i8>
// CHECK-NOT: tile.store
// SM80-LABEL: func.func @descriptor_store
// SM80: tile.store
// SM80-NOT: tma_store
func.func @descriptor_store(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: tensor<64x64xf16>, %map: !tile.ptr<i8>, %row: i32, %col: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %ptrs, %v tensormap %map[%row, %col] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
  return
}

// -----

// Stores the host encodes no tensor map for (an f32 block) and stores
// without one stay ordinary stores.
// CHECK-LABEL: func.func @other_stores
// CHECK-NOT: tma_store
// CHECK: tile.store
// CHECK: tile.store
// CHECK-NOT: tma_store
func.func @other_stores(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %v: tensor<64x64xf32>, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %w: tensor<64x64xf16>, %map: !tile.ptr<i8>, %row: i32, %col: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %ptrs, %v tensormap %map[%row, %col] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f32>>
  %qs = tile.splat %q : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %qptrs = tile.addptr %qs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %qptrs, %w : tensor<64x64x!tile.ptr<f16>>
  return
}

// -----

// A descriptor the program also loads through (the same tensor map) keeps
// its ordinary store: a TMA store's global writes would complete after the
// load that follows it in the program may have read.
// CHECK-LABEL: func.func @store_then_load
// CHECK-NOT: tma_store
// CHECK: tile.store
// CHECK: tile.load
// CHECK-NOT: tma_store
func.func @store_then_load(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: tensor<64x64xf16>, %map: !tile.ptr<i8>, %row: i32, %col: i32) -> tensor<64x64xf16> {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %ptrs = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %ptrs, %v tensormap %map[%row, %col] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
  %w = tile.load %ptrs tensormap %map[%row, %col] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
  return %w : tensor<64x64xf16>
}
