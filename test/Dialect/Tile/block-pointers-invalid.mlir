// RUN: tile-opt %s -split-input-file -verify-diagnostics
// The block-pointer ops' verifiers.

func.func @rank(%a: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @below {{needs one shape, stride, offset and order entry per dimension of the 2-d block}}
  %p = tile.make_block_ptr %a, [%n], [%n], [%o] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<4x4xf32>>
  return
}

// -----

func.func @element(%a: !tile.ptr<f16>, %n: i64, %o: i32) {
  // expected-error @below {{base points at 'f16', the block holds 'f32'}}
  %p = tile.make_block_ptr %a, [%n], [%n], [%o] {order = array<i32: 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<4xf32>>
  return
}

// -----

func.func @order(%a: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @below {{order must be a permutation of the dimensions}}
  %p = tile.make_block_ptr %a, [%n, %n], [%n, %n], [%o, %o] {order = array<i32: 1, 1>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<4x4xf32>>
  return
}

// -----

func.func @check(%p: !tile.block_ptr<tensor<4x4xf32>>) {
  // expected-error @below {{boundary check of dimension 2 of a 2-d block}}
  %x = tile.block_load %p {boundaryCheck = array<i32: 0, 2>} : !tile.block_ptr<tensor<4x4xf32>>
  return
}

// -----

func.func @nan(%p: !tile.block_ptr<tensor<4xi32>>) {
  // expected-error @below {{NaN padding needs a floating-point block}}
  %x = tile.block_load %p {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tile.block_ptr<tensor<4xi32>>
  return
}

// -----

func.func @advance(%p: !tile.block_ptr<tensor<4x4xf32>>, %o: i32) {
  // expected-error @below {{needs one offset per dimension of the block}}
  %q = tile.advance %p, [%o] : !tile.block_ptr<tensor<4x4xf32>>
  return
}
