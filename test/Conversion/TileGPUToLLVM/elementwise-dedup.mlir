// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -reconcile-unrealized-casts | FileCheck %s

// Registers that AxisInfo's constancy proves equal share one value. Each
// thread holds rows w + 4i (i < 16) of a 64x32 block, one column. The row
// index compared with a bound divisible by 16 is constant on runs of 16
// rows: a thread's 16 registers take 4 values (rows w, w+16, w+32, w+48),
// as Triton's `offs_k[:, None] < K - k * BK` does.
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #rows}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @bound_divisible_by_16
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
func.func @bound_divisible_by_16(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #col>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #col> -> tensor<64x1xi32, #rows>
  %b = tile.broadcast %e : tensor<64x1xi32, #rows> -> tensor<64x32xi32, #rows>
  %ks = tile.splat %k : i32 -> tensor<64x32xi32, #rows>
  %m = arith.cmpi slt, %b, %ks : tensor<64x32xi32, #rows>
  %x = arith.extui %m : tensor<64x32xi1, #rows> to tensor<64x32xi32, #rows>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #rows>
  %pp = tile.addptr %ps, %b : tensor<64x32x!tile.ptr<i32>, #rows>, tensor<64x32xi32, #rows>
  tile.store %pp, %x : tensor<64x32x!tile.ptr<i32>, #rows>
  return
}
}

// -----

// Divisible by 8: runs of 8 rows, two of a thread's rows in each.
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #rows}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @bound_divisible_by_8
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
func.func @bound_divisible_by_8(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 8 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #col>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #col> -> tensor<64x1xi32, #rows>
  %b = tile.broadcast %e : tensor<64x1xi32, #rows> -> tensor<64x32xi32, #rows>
  %ks = tile.splat %k : i32 -> tensor<64x32xi32, #rows>
  %m = arith.cmpi slt, %b, %ks : tensor<64x32xi32, #rows>
  %x = arith.extui %m : tensor<64x32xi1, #rows> to tensor<64x32xi32, #rows>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #rows>
  %pp = tile.addptr %ps, %b : tensor<64x32x!tile.ptr<i32>, #rows>, tensor<64x32xi32, #rows>
  tile.store %pp, %x : tensor<64x32x!tile.ptr<i32>, #rows>
  return
}
}

// -----

// Nothing known of the bound: one comparison per register.
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #rows}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @bound_unknown
// CHECK-COUNT-16: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
func.func @bound_unknown(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %k: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #col>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #col> -> tensor<64x1xi32, #rows>
  %b = tile.broadcast %e : tensor<64x1xi32, #rows> -> tensor<64x32xi32, #rows>
  %ks = tile.splat %k : i32 -> tensor<64x32xi32, #rows>
  %m = arith.cmpi slt, %b, %ks : tensor<64x32xi32, #rows>
  %x = arith.extui %m : tensor<64x32xi1, #rows> to tensor<64x32xi32, #rows>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #rows>
  %pp = tile.addptr %ps, %b : tensor<64x32x!tile.ptr<i32>, #rows>, tensor<64x32xi32, #rows>
  tile.store %pp, %x : tensor<64x32x!tile.ptr<i32>, #rows>
  return
}
}

// -----

// Runs longer than a thread's stride but within one register run: with 4
// rows per thread (sizePerThread 4) and runs of 2, each pair of a thread's
// consecutive rows shares a value.
#rows = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #rows}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @runs_inside_size_per_thread
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
func.func @runs_inside_size_per_thread(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 2 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #col>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #col> -> tensor<64x1xi32, #rows>
  %b = tile.broadcast %e : tensor<64x1xi32, #rows> -> tensor<64x32xi32, #rows>
  %ks = tile.splat %k : i32 -> tensor<64x32xi32, #rows>
  %m = arith.cmpi slt, %b, %ks : tensor<64x32xi32, #rows>
  %x = arith.extui %m : tensor<64x32xi1, #rows> to tensor<64x32xi32, #rows>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #rows>
  %pp = tile.addptr %ps, %b : tensor<64x32x!tile.ptr<i32>, #rows>, tensor<64x32xi32, #rows>
  tile.store %pp, %x : tensor<64x32x!tile.ptr<i32>, #rows>
  return
}
}

// -----

// `row > 0` flips between rows 0 and 1, inside a run of 16: no runs to
// share, one comparison per register.
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tilegpu.slice<{dim = 1, parent = #rows}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @greater_than_zero
// CHECK-COUNT-16: llvm.icmp "sgt"
// CHECK-NOT: llvm.icmp
// CHECK: llvm.return
func.func @greater_than_zero(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #col>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #col> -> tensor<64x1xi32, #rows>
  %b = tile.broadcast %e : tensor<64x1xi32, #rows> -> tensor<64x32xi32, #rows>
  %zero = arith.constant dense<0> : tensor<64x32xi32, #rows>
  %m = arith.cmpi sgt, %b, %zero : tensor<64x32xi32, #rows>
  %x = arith.extui %m : tensor<64x32xi1, #rows> to tensor<64x32xi32, #rows>
  %ps = tile.splat %p : !tile.ptr<i32> -> tensor<64x32x!tile.ptr<i32>, #rows>
  %pp = tile.addptr %ps, %b : tensor<64x32x!tile.ptr<i32>, #rows>, tensor<64x32xi32, #rows>
  tile.store %pp, %x : tensor<64x32x!tile.ptr<i32>, #rows>
  return
}
}
