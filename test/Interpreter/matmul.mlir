// RUN: tile-run %s --interpret | FileCheck %s
// RUN: not tile-run %s --interpret --set tol=1e-6 | FileCheck %s --check-prefix=TIGHT
// A 512^3 fp16 matmul with fp32 accumulation: 64x64 tiles of C, a K loop
// (scf.for with iter_args) of 64x32 by 32x64 tile.dot, written by hand.

// tile-run: matmul_kernel
//   M = 512
//   N = 512
//   K = 512
//   a = randn(fp16, M, K)
//   b = randn(fp16, K, N)
//   c = empty(fp16, M, N)
//   args = (a, b, c, M, N, K)
//   grid = (cdiv(M, 64) * cdiv(N, 64),)
//   tol = 2e-3
//   check(c, ref_matmul(a, b), tol=tol)

// CHECK: matmul_kernel in the interpreter: grid (64, 1, 1)
// CHECK: interpreter time: {{.*}} ms for 64 programs
// CHECK: check c against ref_matmul: {{.*}} 0 NaN {{.*}}: PASS
// fp16 output cannot meet 1e-6: the check fails (exit status 2).
// TIGHT: check c against ref_matmul: {{.*}}: FAIL

func.func @matmul_kernel(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %num_pid_n = arith.ceildivsi %N, %c64 : i32
  %pid_m = arith.divsi %pid, %num_pid_n : i32
  %pid_n = arith.remsi %pid, %num_pid_n : i32
  %r64 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r32 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %m0 = arith.muli %pid_m, %c64 : i32
  %m0s = tile.splat %m0 : i32 -> tensor<64xi32>
  %offs_m = arith.addi %m0s, %r64 : tensor<64xi32>
  %n0 = arith.muli %pid_n, %c64 : i32
  %n0s = tile.splat %n0 : i32 -> tensor<64xi32>
  %offs_n = arith.addi %n0s, %r64 : tensor<64xi32>

  // a + offs_m[:, None] * K + offs_k[None, :]
  %am = tile.expand_dims %offs_m {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %Ks = tile.splat %K : i32 -> tensor<64x1xi32>
  %amK = arith.muli %am, %Ks : tensor<64x1xi32>
  %amb = tile.broadcast %amK : tensor<64x1xi32> -> tensor<64x32xi32>
  %ak = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %a_off = arith.addi %amb, %akb : tensor<64x32xi32>
  %a_base = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a_ptrs = tile.addptr %a_base, %a_off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>

  // b + offs_k[:, None] * N + offs_n[None, :]
  %bk = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %Ns = tile.splat %N : i32 -> tensor<32x1xi32>
  %bkN = arith.muli %bk, %Ns : tensor<32x1xi32>
  %bkb = tile.broadcast %bkN : tensor<32x1xi32> -> tensor<32x64xi32>
  %bn = tile.expand_dims %offs_n {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %b_off = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %b_base = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %b_ptrs = tile.addptr %b_base, %b_off : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>

  %a_step = arith.constant dense<32> : tensor<64x32xi32>
  %b_stride = arith.muli %N, %c32 : i32
  %b_step = tile.splat %b_stride : i32 -> tensor<32x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc:3 = scf.for %k = %c0 to %K step %c32 iter_args(%sum = %zero, %ap = %a_ptrs, %bp = %b_ptrs) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %av = tile.load %ap : tensor<64x32x!tile.ptr<f16>>
    %bv = tile.load %bp : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %av, %bv, %sum : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %ap2 = tile.addptr %ap, %a_step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %bp2 = tile.addptr %bp, %b_step : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  %c16 = arith.truncf %acc#0 : tensor<64x64xf32> to tensor<64x64xf16>

  // c + offs_m[:, None] * N + offs_n[None, :]
  %Nc = tile.splat %N : i32 -> tensor<64x1xi32>
  %cmN = arith.muli %am, %Nc : tensor<64x1xi32>
  %cmb = tile.broadcast %cmN : tensor<64x1xi32> -> tensor<64x64xi32>
  %cnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %c_off = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %c_base = tile.splat %c : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %c_ptrs = tile.addptr %c_base, %c_off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  tile.store %c_ptrs, %c16 : tensor<64x64x!tile.ptr<f16>>
  return
}
