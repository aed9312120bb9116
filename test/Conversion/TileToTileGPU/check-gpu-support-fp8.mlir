// RUN: tile-opt %s -tile-check-gpu-support=target=sm_80 -split-input-file -verify-diagnostics
// RUN: tile-opt %s -tile-check-gpu-support=target=sm_89 -split-input-file | FileCheck %s --check-prefix=SM89
// fp8 conversions a target lacks are reported naming it: fp8e4nv needs
// sm_89 either way; fp8e5 and fp8e4b15 conversions run on sm_80 (bit
// operations where the sm_89 cvt is missing). On sm_89 all of them pass.
// SM89-COUNT-3: func.func

func.func @e4nv(%x: tensor<16xf32>) -> tensor<16xf8E4M3FN> {
  // expected-error @+1 {{a conversion to or from tl.float8e4nv needs sm_89 or later; the target is sm_80 (as in Triton)}}
  %y = arith.truncf %x : tensor<16xf32> to tensor<16xf8E4M3FN>
  return %y : tensor<16xf8E4M3FN>
}

// -----

func.func @e5(%x: tensor<16xf32>, %c: tensor<16xf8E5M2>) -> tensor<16xf8E5M2> {
  %w = arith.extf %c : tensor<16xf8E5M2> to tensor<16xf16>
  %z = arith.truncf %x toward_zero : tensor<16xf32> to tensor<16xf8E5M2>
  %y = arith.truncf %x : tensor<16xf32> to tensor<16xf8E5M2>
  return %y : tensor<16xf8E5M2>
}

// -----

func.func @e4b15(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = arith.truncf %x : tensor<16xf32> to tensor<16xf8E4M3B11FNUZ>
  %w = arith.extf %y : tensor<16xf8E4M3B11FNUZ> to tensor<16xf32>
  return %w : tensor<16xf32>
}
