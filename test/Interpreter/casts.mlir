// RUN: tile-run %s --interpret | FileCheck %s
// Casts round as the GPU does: fp16 and bf16 to nearest even with overflow
// to inf, fptosi/fptoui saturating toward zero (cvt.rzi) with NaN to 0,
// integers wrapping.

// tile-run: casts
//   grid = (1,)

// 1 + 2^-11 is halfway between fp16 neighbours 1 and 1 + 2^-10: even is 1.
// 1 + 3 * 2^-11 rounds up to 1 + 2^-9. 65519 stays finite, 65520 is inf.
// CHECK: pid (0, 0, 0) idx (0) f16: 0x3c00
// CHECK: pid (0, 0, 0) idx (1) f16: 0x3c02
// CHECK: pid (0, 0, 0) idx (2) f16: 0x7bff
// CHECK: pid (0, 0, 0) idx (3) f16: 0x7c00
// CHECK: pid (0, 0, 0) idx (4) f16: 0x0001
// CHECK: pid (0, 0, 0) idx (5) f16: 0x0000
// bf16: 1 + 2^-8 ties to 1; 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
// CHECK: pid (0, 0, 0) idx (0) bf16: 0x3f80
// CHECK: pid (0, 0, 0) idx (1) bf16: 0x3f82
// fptosi to i32: 1e10 and -1e10 saturate, NaN gives 0, -2.7 truncates.
// CHECK: pid (0, 0, 0) idx (0) fptosi: 2147483647
// CHECK: pid (0, 0, 0) idx (1) fptosi: -2147483648
// CHECK: pid (0, 0, 0) idx (2) fptosi: 0
// CHECK: pid (0, 0, 0) idx (3) fptosi: -2
// fptoui to i8: negative saturates to 0, 300 to 255.
// CHECK: pid (0, 0, 0) idx (0) fptoui: 0
// CHECK: pid (0, 0, 0) idx (1) fptoui: 255
// i8 arithmetic wraps: 127 + 1 = -128; 100 * 3 = 44.
// CHECK: pid (0, 0, 0) idx (0) wrap: -128
// CHECK: pid (0, 0, 0) idx (1) wrap: 44
// extsi and extui of i8 -1; trunci of 300 to i8.
// CHECK: pid (0, 0, 0) idx () extsi: -1
// CHECK: pid (0, 0, 0) idx () extui: 255
// CHECK: pid (0, 0, 0) idx () trunci: 44
// bitcast of 1.0f, and of fp16 1.0 as hex.
// CHECK: pid (0, 0, 0) idx () bitcast: 1065353216
// CHECK: pid (0, 0, 0) idx () f16 bits: 0x3c00
// sitofp of 2^24 + 1 to f32 rounds to even; uitofp of u32 0xffffffff.
// CHECK: pid (0, 0, 0) idx () sitofp: 16777216.000000
// CHECK: pid (0, 0, 0) idx () uitofp: 4294967296.000000
// i64 2^31 truncated to i32 prints negative.
// CHECK: pid (0, 0, 0) idx () trunc64: -2147483648

func.func @casts() {
  %f = arith.constant dense<[1.0, 1.00146484375, 65519.0, 65520.0, 5.0e-8, 2.0e-8]> : tensor<6xf32>
  %h = arith.truncf %f : tensor<6xf32> to tensor<6xf16>
  tile.print " f16: " {hex = true, isSigned = array<i32: 0>} : %h : tensor<6xf16>
  %g = arith.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %b = arith.truncf %g : tensor<2xf32> to tensor<2xbf16>
  tile.print " bf16: " {hex = true, isSigned = array<i32: 0>} : %b : tensor<2xbf16>
  %big = arith.constant dense<[1.0e10, -1.0e10, 0x7FC00000, -2.7]> : tensor<4xf32>
  %si = arith.fptosi %big : tensor<4xf32> to tensor<4xi32>
  tile.print " fptosi: " {hex = false, isSigned = array<i32: 1>} : %si : tensor<4xi32>
  %u = arith.constant dense<[-5.0, 300.0]> : tensor<2xf32>
  %ui = arith.fptoui %u : tensor<2xf32> to tensor<2xi8>
  tile.print " fptoui: " {hex = false, isSigned = array<i32: 0>} : %ui : tensor<2xi8>
  %x = arith.constant dense<[127, 100]> : tensor<2xi8>
  %y = arith.constant dense<[1, 3]> : tensor<2xi8>
  %s = arith.addi %x, %y : tensor<2xi8>
  %p = arith.muli %x, %y : tensor<2xi8>
  %mask2 = arith.constant dense<[true, false]> : tensor<2xi1>
  %w = arith.select %mask2, %s, %p : tensor<2xi1>, tensor<2xi8>
  tile.print " wrap: " {hex = false, isSigned = array<i32: 1>} : %w : tensor<2xi8>
  %m1 = arith.constant -1 : i8
  %e1 = arith.extsi %m1 : i8 to i32
  tile.print " extsi: " {hex = false, isSigned = array<i32: 1>} : %e1 : i32
  %e2 = arith.extui %m1 : i8 to i32
  tile.print " extui: " {hex = false, isSigned = array<i32: 1>} : %e2 : i32
  %c300 = arith.constant 300 : i32
  %t = arith.trunci %c300 : i32 to i8
  tile.print " trunci: " {hex = false, isSigned = array<i32: 1>} : %t : i8
  %one = arith.constant 1.0 : f32
  %bits = arith.bitcast %one : f32 to i32
  tile.print " bitcast: " {hex = false, isSigned = array<i32: 1>} : %bits : i32
  %oneh = arith.constant 1.0 : f16
  tile.print " f16 bits: " {hex = true, isSigned = array<i32: 0>} : %oneh : f16
  %odd = arith.constant 16777217 : i32
  %sf = arith.sitofp %odd : i32 to f32
  tile.print " sitofp: " {hex = false, isSigned = array<i32: 0>} : %sf : f32
  %allones = arith.constant -1 : i32
  %uf = arith.uitofp %allones : i32 to f32
  tile.print " uitofp: " {hex = false, isSigned = array<i32: 0>} : %uf : f32
  %two31 = arith.constant 2147483648 : i64
  %t64 = arith.trunci %two31 : i64 to i32
  tile.print " trunc64: " {hex = false, isSigned = array<i32: 1>} : %t64 : i32
  return
}
