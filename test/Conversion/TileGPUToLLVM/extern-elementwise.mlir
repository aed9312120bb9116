// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// RUN: tile-opt %s -convert-tilegpu-to-llvm -tile-define-libdevice | FileCheck %s --check-prefix=OWN
// tile.extern_elementwise becomes one llvm.call of its symbol per register,
// the symbol declared once; tile-define-libdevice (no libdevice found) gives
// the declarations Tile's own internal definitions.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-DAG: llvm.func @__nv_asinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_powif(f32, i32) -> f32
// CHECK-DAG: llvm.func @__nv_floor(f64) -> f64
// CHECK-LABEL: llvm.func @blocks
func.func @blocks(%x: tensor<256xf32, #b>, %o: tensor<256x!tile.ptr<f32>, #b>) {
  // CHECK-COUNT-2: llvm.call @__nv_asinf(%{{.*}}) : (f32) -> f32
  %y = tile.extern_elementwise "__nv_asinf"(%x) {pure} : (tensor<256xf32, #b>) -> tensor<256xf32, #b>
  tile.store %o, %y : tensor<256x!tile.ptr<f32>, #b>
  return
}
// CHECK-LABEL: llvm.func @scalars
func.func @scalars(%x: f32, %n: i32, %d: f64, %p: !tile.ptr<f32>, %q: !tile.ptr<f64>) {
  // CHECK: llvm.call @__nv_powif(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
  %y = tile.extern_elementwise "__nv_powif"(%x, %n) {pure} : (f32, i32) -> f32
  // CHECK: llvm.call @__nv_asinf
  %z = tile.extern_elementwise "__nv_asinf"(%y) {pure} : (f32) -> f32
  // CHECK: llvm.call @__nv_floor
  %f = tile.extern_elementwise "__nv_floor"(%d) {pure} : (f64) -> f64
  tile.store %p, %z : !tile.ptr<f32>
  tile.store %q, %f : !tile.ptr<f64>
  return
}
}

// floor on fp64: LLVM's floor; powi: multiplications (MLIR's fpowi
// expansion); asin: MLIR's polynomial, no math op or call left.
// OWN: llvm.func internal @__nv_floor(%{{.*}}: f64) -> f64
// OWN-NEXT: llvm.intr.floor(%{{.*}}) : (f64) -> f64
// OWN: llvm.func internal @__nv_powif(%{{.*}}: f32, %{{.*}}: i32) -> f32
// OWN-NOT: llvm.call
// OWN: llvm.fmul
// OWN: llvm.func internal @__nv_asinf(%{{.*}}: f32) -> f32
// OWN-NOT: math.
// OWN-NOT: llvm.call
// OWN: llvm.intr.sqrt
// OWN: llvm.func @blocks
