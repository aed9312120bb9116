// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// tile.extern_elementwise round-trips; a libdevice symbol takes the operand
// and result types of its table row (others are not checked).

// CHECK-LABEL: func.func @calls
// CHECK: tile.extern_elementwise "__nv_asinf"(%{{.*}}) {pure} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: tile.extern_elementwise "__nv_powif"(%{{.*}}, %{{.*}}) {pure} : (f32, i32) -> f32
// CHECK: tile.extern_elementwise "my_function"(%{{.*}}) : (f64) -> i64
func.func @calls(%x: tensor<8xf32>, %s: f32, %n: i32, %d: f64) {
  %a = tile.extern_elementwise "__nv_asinf"(%x) {pure} : (tensor<8xf32>) -> tensor<8xf32>
  %b = tile.extern_elementwise "__nv_powif"(%s, %n) {pure} : (f32, i32) -> f32
  %c = tile.extern_elementwise "my_function"(%d) : (f64) -> i64
  return
}

// -----

func.func @wrong_type(%x: f64) {
  // expected-error @+1 {{__nv_asinf takes fp32 operands where it got 'f64'}}
  %a = tile.extern_elementwise "__nv_asinf"(%x) {pure} : (f64) -> f32
  return
}

// -----

func.func @wrong_count(%x: f32) {
  // expected-error @+1 {{__nv_atan2f takes 2 operands, got 1}}
  %a = tile.extern_elementwise "__nv_atan2f"(%x) {pure} : (f32) -> f32
  return
}

// -----

func.func @wrong_result(%x: f32) {
  // expected-error @+1 {{__nv_isnanf returns int32, not 'i1'}}
  %a = tile.extern_elementwise "__nv_isnanf"(%x) {pure} : (f32) -> i1
  return
}

// -----

func.func @shapes(%x: tensor<8xf32>, %y: f32) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %a = tile.extern_elementwise "__nv_atan2f"(%x, %y) {pure} : (tensor<8xf32>, f32) -> tensor<8xf32>
  return
}
