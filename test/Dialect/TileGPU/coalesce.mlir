// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu -tilegpu-coalesce | FileCheck %s

// 16-byte aligned, contiguous f32 pointers: four elements (128 bits) per
// thread, wrapped in conversions from and to the default layout.
// CHECK: #[[DEF:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[VEC:.*]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @aligned
func.func @aligned(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: %[[PTRS:.*]] = tilegpu.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[DEF]]> -> tensor<1024x!tile.ptr<f32>, #[[VEC]]>
  // CHECK: %[[V:.*]] = tile.load %[[PTRS]] : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
  // CHECK: tilegpu.convert_layout %[[V]] : tensor<1024xf32, #[[VEC]]> -> tensor<1024xf32, #[[DEF]]>
  %v = tile.load %pp : tensor<1024x!tile.ptr<f32>>
  // CHECK: tile.store {{.*}} : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
  tile.store %pp, %v : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// Unknown alignment: one element per thread.
// CHECK-LABEL: func.func @unaligned
func.func @unaligned(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #blocked>
  %v = tile.load %pp : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// f16: eight elements make 128 bits.
// CHECK: #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @half
func.func @half(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 2048 : i32} : tensor<2048xi32>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>>
  %pp = tile.addptr %ps, %r : tensor<2048x!tile.ptr<f16>>, tensor<2048xi32>
  %v = tile.load %pp : tensor<2048x!tile.ptr<f16>>
  return
}

// -----

// A block smaller than the threads: no more per thread than there is.
// CHECK: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @small
func.func @small(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %pp : tensor<64x!tile.ptr<f32>>
  return
}
