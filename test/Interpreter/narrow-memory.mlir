// RUN: tile-run %s --interpret --print-buffer h --print-buffer b --print-buffer flags | FileCheck %s
// fp16, bf16 and bool buffers: stores round to nearest even and write the
// right bytes; masked-off lanes of a load take `other`; i1 is a byte.

// tile-run: narrow
//   h = zeros(fp16, 6)
//   b = zeros(bf16, 6)
//   flags = zeros(i1, 6)
//   args = (h, b, flags)
//   grid = (1,)

// k / 3 for k = 0..5 (lanes 6 and 7 are masked off).
// CHECK: pid (0, 0, 0) idx (5) back: 1.666992
// CHECK: pid (0, 0, 0) idx (6) back: -1.000000
// CHECK: h = 0 0.333251953 0.666503906 1 1.33300781 1.66699219
// CHECK: b = 0 0.333984375 0.66796875 1 1.3359375 1.6640625
// CHECK: flags = 0 1 0 1 0 1

func.func @narrow(%h: !tile.ptr<f16>, %b: !tile.ptr<bf16>, %flags: !tile.ptr<i1>) {
  %r = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %six = arith.constant dense<6> : tensor<8xi32>
  %mask = arith.cmpi slt, %r, %six : tensor<8xi32>
  %rf = arith.sitofp %r : tensor<8xi32> to tensor<8xf32>
  %three = arith.constant dense<3.0> : tensor<8xf32>
  %third = arith.divf %rf, %three : tensor<8xf32>
  %th = arith.truncf %third : tensor<8xf32> to tensor<8xf16>
  %tb = arith.truncf %third : tensor<8xf32> to tensor<8xbf16>
  %hs = tile.splat %h : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %hp = tile.addptr %hs, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  tile.store %hp, %th, %mask : tensor<8x!tile.ptr<f16>>
  %bs = tile.splat %b : !tile.ptr<bf16> -> tensor<8x!tile.ptr<bf16>>
  %bp = tile.addptr %bs, %r : tensor<8x!tile.ptr<bf16>>, tensor<8xi32>
  tile.store %bp, %tb, %mask : tensor<8x!tile.ptr<bf16>>
  %minus = arith.constant dense<-1.0> : tensor<8xf16>
  %back = tile.load %hp, %mask, other %minus : tensor<8x!tile.ptr<f16>>
  tile.print " back: " {hex = false, isSigned = array<i32: 0>} : %back : tensor<8xf16>
  %one = arith.constant dense<1> : tensor<8xi32>
  %odd = arith.andi %r, %one : tensor<8xi32>
  %isodd = arith.trunci %odd : tensor<8xi32> to tensor<8xi1>
  %fs = tile.splat %flags : !tile.ptr<i1> -> tensor<8x!tile.ptr<i1>>
  %fp = tile.addptr %fs, %r : tensor<8x!tile.ptr<i1>>, tensor<8xi32>
  tile.store %fp, %isodd, %mask : tensor<8x!tile.ptr<i1>>
  return
}
