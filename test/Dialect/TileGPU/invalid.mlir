// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{order must be a permutation of 0..1}}
#bad = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 0]}>
func.func private @f(tensor<4x4xf32, #bad>)

// -----

// expected-error @+1 {{one entry per axis (2)}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func private @f(tensor<4x4xf32, #bad>)

// -----

// expected-error @+1 {{threadsPerWarp entries must be powers of two, got 3}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [3], warpsPerCTA = [4], order = [0]}>
func.func private @f(tensor<4xf32, #bad>)

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @shape(%x: tensor<128xf32, #a>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %y = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<256xf32, #a>
  return
}
