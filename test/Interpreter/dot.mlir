// RUN: tile-run %s --interpret | FileCheck %s
// tile.dot: fp16 inputs accumulate in fp32 (sums an fp16 accumulator could
// not hold), fp32 inputs are rounded to tf32 unless input_precision is
// ieee, i8 accumulates in i32.

// tile-run: dots
//   grid = (1,)

// 2048 + 1 + ... : in fp32 the ones are kept (fp16 would lose them).
// CHECK: pid (0, 0, 0) idx ( 0,  0) f16: 2063.000000
// 1 + 2^-12 is not a tf32 value: tf32 gives 1, ieee keeps it.
// CHECK: pid (0, 0, 0) idx ( 0,  0) tf32: 1.000000{{$}}
// CHECK: pid (0, 0, 0) idx ( 0,  0) ieee: 1.000244
// i8: 16 * (-128 * 127) = -260096 in i32.
// CHECK: pid (0, 0, 0) idx ( 0,  0) i8: -260096
// fp64 inputs: 1 + 2^-30 survives an fp64 accumulator and rounds to 1 in
// an fp32 one (the bits, printed with hex=True).
// CHECK: pid (0, 0, 0) idx ( 0,  0) f64: 0x3ff0000000400000
// CHECK: pid (0, 0, 0) idx ( 0,  0) f64-to-f32: 0x3f800000

func.func @dots() {
  %ah = arith.constant dense<1.0> : tensor<16x16xf16>
  %ch = arith.constant dense<2047.0> : tensor<16x16xf32>
  %dh = tile.dot %ah, %ah, %ch : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tile.print " f16: " {hex = false, isSigned = array<i32: 0>} : %dh : tensor<16x16xf32>
  %a = arith.constant dense<1.000244140625> : tensor<16x16xf32>
  %b = arith.constant dense<0.0625> : tensor<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %t = tile.dot %a, %b, %z : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tile.print " tf32: " {hex = false, isSigned = array<i32: 0>} : %t : tensor<16x16xf32>
  %i = tile.dot %a, %b, %z {inputPrecision = 2 : i32} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tile.print " ieee: " {hex = false, isSigned = array<i32: 0>} : %i : tensor<16x16xf32>
  %a8 = arith.constant dense<-128> : tensor<16x16xi8>
  %b8 = arith.constant dense<127> : tensor<16x16xi8>
  %c32 = arith.constant dense<0> : tensor<16x16xi32>
  %d8 = tile.dot %a8, %b8, %c32 : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  tile.print " i8: " {hex = false, isSigned = array<i32: 1>} : %d8 : tensor<16x16xi32>
  %a64 = arith.constant dense<1.000000000931322574615478515625> : tensor<16x16xf64>
  %b64 = arith.constant dense<0.0625> : tensor<16x16xf64>
  %z64 = arith.constant dense<0.0> : tensor<16x16xf64>
  %d64 = tile.dot %a64, %b64, %z64 : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  tile.print " f64: " {hex = true, isSigned = array<i32: 0>} : %d64 : tensor<16x16xf64>
  %e64 = tile.dot %a64, %b64, %z : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf32>
  tile.print " f64-to-f32: " {hex = true, isSigned = array<i32: 0>} : %e64 : tensor<16x16xf32>
  return
}
