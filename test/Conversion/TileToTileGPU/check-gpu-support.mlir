// RUN: tile-opt %s -tile-check-gpu-support -split-input-file -verify-diagnostics
// Ops the GPU path has no lowering for are reported at their line with the
// builtin's name; ops it lowers pass without a word.

func.func @unsupported(%p: !tile.ptr<f32>, %x: tensor<16xf32>, %bc: tensor<16x4xf32>) {
  // A transpose runs on the GPU.
  %t = tile.trans %bc {order = array<i32: 1, 0>} : tensor<16x4xf32> -> tensor<4x16xf32>
  // Reshapes run on the GPU.
  %r = tile.reshape %bc : tensor<16x4xf32> -> tensor<64xf32>
  // Joins and splits run on the GPU.
  %j = tile.join %x, %x : tensor<16xf32> -> tensor<16x2xf32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // Atomics run on the GPU.
  %old = tile.atomic_rmw fadd, %ps, %x : tensor<16x!tile.ptr<f32>>
  %s0, %s1 = tile.split %j : tensor<16x2xf32> -> tensor<16xf32>
  %c = tile.cat %x, %x : tensor<16xf32> -> tensor<32xf32>
  // Prints and inline asm run on the GPU.
  tile.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<16xf32>
  %y = tile.inline_asm_elementwise "mov.b32 $0, $1;" {constraints = "=r,r", packedElement = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  // Gathers and histograms run on the GPU.
  %i = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %g = tile.gather %x[%i] {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>
  %h = tile.histogram %i : tensor<16xi32> -> tensor<16xi32>
  return
}

// -----

func.func @fp8(%x: tensor<16xf32>) -> tensor<16xf8E4M3FN> {
  // Conversions, bitcasts, selects and constants of fp8 run on the GPU.
  %y = arith.truncf %x : tensor<16xf32> to tensor<16xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<16xf8E4M3FN>
  %b = arith.bitcast %y : tensor<16xf8E4M3FN> to tensor<16xi8>
  %c = arith.cmpf olt, %x, %x : tensor<16xf32>
  %s = arith.select %c, %y, %z : tensor<16xi1>, tensor<16xf8E4M3FN>
  // expected-error @+1 {{arithmetic on fp8 values is not supported on the GPU yet (Triton has none; convert to tl.float16 or tl.float32 first)}}
  %m = arith.mulf %s, %y : tensor<16xf8E4M3FN>
  // Math ops on fp8 neither (tl.abs clears the sign bit instead).
  // expected-error @+1 {{arithmetic on fp8 values is not supported on the GPU yet}}
  %a = math.absf %m : tensor<16xf8E4M3FN>
  return %a : tensor<16xf8E4M3FN>
}

// -----

func.func @supported(%p: !tile.ptr<f32>, %x: tensor<16xf32>) {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %l = tile.load %ps : tensor<16x!tile.ptr<f32>>
  %s = arith.addf %l, %x : tensor<16xf32>
  %sum = tile.reduce(%s) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %q = arith.addf %a, %b : f32
    tile.reduce_return %q : f32
  }
  tile.store %ps, %s : tensor<16x!tile.ptr<f32>>
  return
}
