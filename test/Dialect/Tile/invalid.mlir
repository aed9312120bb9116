// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @range_not_power_of_two() {
  // expected-error @+1 {{length 24 (end - start) is not a power of two}}
  %r = tile.make_range {start = 0 : i32, end = 24 : i32} : tensor<24xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{needs start < end, got [8, 8)}}
  %r = tile.make_range {start = 8 : i32, end = 8 : i32} : tensor<0xi32>
  return
}

// -----

func.func @range_wrong_shape() {
  // expected-error @+1 {{result must be a 1-D tensor of 16 elements, got 'tensor<32xi32>'}}
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<32xi32>
  return
}

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tile.program_id 3 : i32
  return
}

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{result element type matches the scalar}}
  %s = "tile.splat"(%x) : (f32) -> tensor<4xi32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<4x!tile.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{pointer and offset must have the same shape, got 'tensor<4x!tile.ptr<f32>>' and 'tensor<8xi32>'}}
  %q = tile.addptr %p, %o : tensor<4x!tile.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @addptr_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{operand #1 must be}}
  %q = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, f32) -> !tile.ptr<f32>
  return
}

// -----

func.func @load_result_type(%p: tensor<4x!tile.ptr<f32>>) {
  // expected-error @+1 {{result is the pointee type shaped as the pointers}}
  %v = "tile.load"(%p) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf16>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<4x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask is i1 shaped as the pointers}}
  %v = "tile.load"(%p, %m) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<4x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<4x!tile.ptr<f32>>, %m: tensor<4xi1>, %o: tensor<4xf16>) {
  // expected-error @+1 {{other has the result type}}
  %v = "tile.load"(%p, %m, %o) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>, tensor<4xi1>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<4x!tile.ptr<f32>>, %v: tensor<4xi32>) {
  // expected-error @+1 {{value is the pointee type shaped as the pointers}}
  "tile.store"(%p, %v) {operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> ()
  return
}

// -----

func.func @load_without_pointer() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %v = "tile.load"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> f32
  return
}

// -----

func.func @broadcast_bad(%x: tensor<16x2xf32>) {
  // expected-error @+1 {{cannot broadcast [16, 2] to [16, 4]}}
  %b = tile.broadcast %x : tensor<16x2xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @expand_dims_bad(%x: tensor<16xf32>) {
  // expected-error @+1 {{result shape must be [1, 16], got [16, 1]}}
  %b = tile.expand_dims %x {axis = 0 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @reshape_bad(%x: tensor<16xf32>) {
  // expected-error @+1 {{cannot reshape [16] (16 elements) to [4, 8] (32 elements)}}
  %b = tile.reshape %x : tensor<16xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @trans_bad(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{order must be a permutation of 0..1}}
  %b = tile.trans %x {order = array<i32: 1, 1>} : tensor<16x4xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @dot_bad(%a: tensor<16x8xf16>, %b: tensor<16x32xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{inner dimensions differ: [16, 8] @ [16, 32]}}
  %d = tile.dot %a, %b, %c : tensor<16x8xf16> * tensor<16x32xf16> -> tensor<16x32xf32>
  return
}

// -----

func.func @reduce_bad_region(%x: tensor<16xf32>) {
  // expected-error @+1 {{combine region yields 'i32' for operand 0 of element type 'f32'}}
  %s = tile.reduce(%x) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %c = arith.constant 0 : i32
    tile.reduce_return %c : i32
  }
  return
}

// -----

func.func @reduce_bad_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %s = tile.reduce(%x) {axis = 1 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    tile.reduce_return %l : f32
  }
  return
}

// -----

func.func @atomic_bad(%p: tensor<16x!tile.ptr<f32>>, %x: tensor<16xf32>) {
  // expected-error @+1 {{'and' needs integer values, got 'f32'}}
  %o = tile.atomic_rmw and, %p, %x : tensor<16x!tile.ptr<f32>>
  return
}

// -----

func.func @gather_rank(%x: tensor<16x4xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{needs src and index of one rank, got [16, 4] and [16]}}
  %g = tile.gather %x[%i] {axis = 0 : i32} : tensor<16x4xf32>, tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

func.func @gather_other_dim(%x: tensor<16x4xf32>, %i: tensor<8x8xi32>) {
  // expected-error @+1 {{src and index must agree on dimension 1, got [16, 4] and [8, 8]}}
  %g = tile.gather %x[%i] {axis = 0 : i32} : tensor<16x4xf32>, tensor<8x8xi32> -> tensor<8x8xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %g = tile.gather %x[%i] {axis = 1 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<16xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{result must have index's shape and src's element type}}
  %g = tile.gather %x[%i] {axis = 0 : i32} : tensor<16xf32>, tensor<8xi32> -> tensor<16xf32>
  return
}

// -----

func.func @histogram_rank(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{needs a 1-D operand and a 1-D result}}
  %h = tile.histogram %x : tensor<4x4xi32> -> tensor<8xi32>
  return
}

// -----

func.func @histogram_mask(%x: tensor<16xi32>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask must have the operand's shape}}
  %h = tile.histogram %x, %m : tensor<16xi32>, tensor<8xi1> -> tensor<8xi32>
  return
}

// -----

func.func @load_tma_coords(%p: tensor<4x16x!tile.ptr<f16>>, %map: !tile.ptr<i8>, %c: i32) {
  // expected-error @+1 {{needs one TMA coordinate per dimension of its block}}
  %v = tile.load %p tensormap %map[%c] : !tile.ptr<i8> : tensor<4x16x!tile.ptr<f16>>
  return
}

// -----

func.func @store_tma_coords(%p: tensor<4x16x!tile.ptr<f16>>, %v: tensor<4x16xf16>, %map: !tile.ptr<i8>, %c: i32) {
  // expected-error @+1 {{needs one TMA coordinate per dimension of its block}}
  tile.store %p, %v tensormap %map[%c, %c, %c] : !tile.ptr<i8> : tensor<4x16x!tile.ptr<f16>>
  return
}
