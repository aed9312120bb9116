// RUN: tile-run %s --interpret | FileCheck %s
// Row-wise softmax (Triton's tutorial, one row per program, BLOCK_SIZE 1024)
// written by hand in the tile dialect: masked loads with other = -inf,
// tile.reduce max and sum, math.exp, a masked store.

// tile-run: softmax_kernel
//   n_rows = 1823
//   n_cols = 781
//   x = randn(fp32, n_rows, n_cols)
//   y = empty(fp32, n_rows, n_cols)
//   args = (y, x, stride(x, 0), stride(y, 0), n_cols)
//   grid = (n_rows,)
//   check(y, ref_softmax(x), tol=1e-6)

// CHECK: softmax_kernel in the interpreter: grid (1823, 1, 1)
// CHECK: interpreter time: {{.*}} ms for 1823 programs
// CHECK: check y against ref_softmax: {{.*}} 0 NaN {{.*}}: PASS

func.func @softmax_kernel(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>, %in_stride: i32, %out_stride: i32, %n_cols: i32) {
  %row = tile.program_id 0 : i32
  %in_start = arith.muli %row, %in_stride : i32
  %in_row = tile.addptr %in, %in_start : !tile.ptr<f32>, i32
  %cols = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %in_splat = tile.splat %in_row : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %in_ptrs = tile.addptr %in_splat, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %n = tile.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tile.load %in_ptrs, %mask, other %ninf : tensor<1024x!tile.ptr<f32>>
  %max = tile.reduce(%x) {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tile.reduce_return %m : f32
  }
  %max_splat = tile.splat %max : f32 -> tensor<1024xf32>
  %shifted = arith.subf %x, %max_splat : tensor<1024xf32>
  %num = math.exp %shifted : tensor<1024xf32>
  %den = tile.reduce(%num) {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce_return %s : f32
  }
  %den_splat = tile.splat %den : f32 -> tensor<1024xf32>
  %y = arith.divf %num, %den_splat : tensor<1024xf32>
  %out_start = arith.muli %row, %out_stride : i32
  %out_row = tile.addptr %out, %out_start : !tile.ptr<f32>, i32
  %out_splat = tile.splat %out_row : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_splat, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %out_ptrs, %y, %mask : tensor<1024x!tile.ptr<f32>>
  return
}
