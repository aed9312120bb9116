// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// tile.inline_asm_elementwise: round trip, and the verifier's checks of
// shapes and of the registers the constraints must name (per result and
// argument, pack elements, those narrower than 32 bits four or two to a
// 32-bit register).

// CHECK-LABEL: func.func @ok
func.func @ok(%a: tensor<64xi8>, %b: tensor<64xf32>, %s: i32) -> (tensor<64xi32>, tensor<64xf32>, i32) {
  // CHECK: %{{.*}}:2 = tile.inline_asm_elementwise "{{.*}}" {constraints = "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", packedElement = 4 : i32, pure = true} %{{.*}}, %{{.*}} : tensor<64xi8>, tensor<64xf32> -> tensor<64xi32>, tensor<64xf32>
  %c, %d = tile.inline_asm_elementwise "max.f32 $4, $4, $9;" {constraints = "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", packedElement = 4 : i32, pure = true} %a, %b : tensor<64xi8>, tensor<64xf32> -> tensor<64xi32>, tensor<64xf32>
  // Clobbers name no register; a scalar call without is_pure.
  // CHECK: tile.inline_asm_elementwise "shl.b32 $0, $1, 3;" {constraints = "=r,r,~{memory}", packedElement = 1 : i32, pure = false} %{{.*}} : i32 -> i32
  %e = tile.inline_asm_elementwise "shl.b32 $0, $1, 3;" {constraints = "=r,r,~{memory}", packedElement = 1 : i32, pure = false} %s : i32 -> i32
  return %c, %d, %e : tensor<64xi32>, tensor<64xf32>, i32
}

// -----

func.func @shapes(%a: tensor<64xi32>, %b: tensor<32xi32>) {
  // expected-error @+1 {{arguments and results must all be scalars or all blocks of one shape}}
  %c = tile.inline_asm_elementwise "" {constraints = "=r,r,r", packedElement = 1 : i32, pure = true} %a, %b : tensor<64xi32>, tensor<32xi32> -> tensor<64xi32>
  return
}

// -----

func.func @registers(%a: tensor<64xi8>) {
  // Four i8 in one register: one input, not four.
  // expected-error @+1 {{the constraints "=r,r,r,r,r" name 1 outputs and 4 inputs; with pack = 4 the 1 result(s) need 4 output registers and the 1 argument(s) 1 input registers}}
  %c = tile.inline_asm_elementwise "" {constraints = "=r,r,r,r,r", packedElement = 4 : i32, pure = true} %a : tensor<64xi8> -> tensor<64xi32>
  return
}

// -----

func.func @bool(%a: tensor<64xi1>) {
  // expected-error @+1 {{cannot pass i1 elements through inline asm}}
  %c = tile.inline_asm_elementwise "" {constraints = "=r,r", packedElement = 1 : i32, pure = true} %a : tensor<64xi1> -> tensor<64xi32>
  return
}
