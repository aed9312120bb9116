// RUN: tile-opt %s | tile-opt | FileCheck %s

// CHECK: #[[B:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>

// CHECK-LABEL: func.func @convert
func.func @convert(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #c> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<32x32xf32, #[[B]]> -> tensor<32x32xf32, #{{.*}}>
  %y = tilegpu.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x32xf32, #c>
  return %y : tensor<32x32xf32, #c>
}

// CHECK-LABEL: func.func @barrier
func.func @barrier() {
  // CHECK-NEXT: tilegpu.barrier{{$}}
  tilegpu.barrier
  return
}
