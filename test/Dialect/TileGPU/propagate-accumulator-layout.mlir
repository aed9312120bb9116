// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-propagate-accumulator-layout -tilegpu-remove-layout-conversions -cse | FileCheck %s

// An online softmax over a loop's dot (attention's inner loop): the row max
// is reduced in the dot's mma layout, the running max the loop carries is in
// its slice, and the exponentials and the rescaled accumulator stay in mma
// layouts: no float block is converted in the loop. The rescale factor
// moves to the second dot's layout as a row vector (a conversion between
// row slices of two mma layouts, which lowers to nothing), not as a block.
// Only the loop's results (the running max, stored) convert afterwards.
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
// CHECK-DAG: #[[ACC:mma[0-9]*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-DAG: #[[ACCROWS:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[ACC]]}>
// CHECK-LABEL: func.func @online_softmax
// CHECK: scf.for {{.*}} -> (tensor<64x32xf32, #[[ACC]]>, tensor<64xf32, #[[ROWS]]>)
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: tile.reduce(%{{.*}}) {axis = 1 : i32} : (tensor<64x64xf32, #[[MMA]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: math.exp2 %{{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64xf32, #[[ROWS]]> -> tensor<64xf32, #[[ACCROWS]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: arith.truncf %{{.*}} : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: tile.dot
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: scf.yield
// CHECK: tilegpu.convert_layout %{{.*}}#1 : tensor<64xf32, #[[ROWS]]> ->
func.func @online_softmax(%q: tensor<64x32xf16>, %k: tensor<32x64x!tile.ptr<f16>>, %v: tensor<64x32x!tile.ptr<f16>>, %out: tensor<64x!tile.ptr<f32>>, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %zeroS = arith.constant dense<0.0> : tensor<64x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %m = %ninf) -> (tensor<64x32xf32>, tensor<64xf32>) : i32 {
    %kb = tile.load %k : tensor<32x64x!tile.ptr<f16>>
    %s = tile.dot %q, %kb, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %rowmax = tile.reduce(%s) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%l: f32, %r: f32):
      %x = arith.maxnumf %l, %r : f32
      tile.reduce_return %x : f32
    }
    %mnew = arith.maxnumf %m, %rowmax : tensor<64xf32>
    %me = tile.expand_dims %mnew {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tile.broadcast %me : tensor<64x1xf32> -> tensor<64x64xf32>
    %d = arith.subf %s, %mb : tensor<64x64xf32>
    %p = math.exp2 %d : tensor<64x64xf32>
    %alpha = arith.subf %m, %mnew : tensor<64xf32>
    %ae = tile.expand_dims %alpha {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %ab = tile.broadcast %ae : tensor<64x1xf32> -> tensor<64x32xf32>
    %scaled = arith.mulf %acc, %ab : tensor<64x32xf32>
    %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
    %vb = tile.load %v : tensor<64x32x!tile.ptr<f16>>
    %o = tile.dot %p16, %vb, %scaled : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    scf.yield %o, %mnew : tensor<64x32xf32>, tensor<64xf32>
  }
  tile.store %out, %res#1 : tensor<64x!tile.ptr<f32>>
  return %res#0 : tensor<64x32xf32>
}

// -----

// A loop with a dot but no reduction of it, feeding no other dot (a
// matmul's K loop), is left to tilegpu-remove-layout-conversions.
// CHECK-LABEL: func.func @no_reduction
// CHECK: scf.for
// CHECK: tile.dot
// CHECK: scf.yield
func.func @no_reduction(%a: tensor<64x32xf16>, %b: tensor<32x64x!tile.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %bb = tile.load %b : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %a, %bb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %res : tensor<64x64xf32>
}

// -----

// The attention backward's loop: no reduction, but P^T = exp2(S^T - m)
// feeds the next dot's A operand. It stays in the first dot's mma layout,
// so that wgmma can read it from registers.
// CHECK-LABEL: func.func @dot_of_dot
// CHECK: %[[S:.*]] = tile.dot {{.*}} -> tensor<64x64xf32, #[[MMA:mma[0-9]*]]>
// CHECK-NOT: tilegpu.convert_layout {{.*}}xf32
// CHECK: %[[P:.*]] = math.exp2 %{{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[P16:.*]] = arith.truncf %[[P]] : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK: tile.dot %[[P16]]
func.func @dot_of_dot(%k: tensor<64x32xf16>, %q: tensor<32x64x!tile.ptr<f16>>, %do: tensor<64x32x!tile.ptr<f16>>, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %zeroS = arith.constant dense<0.0> : tensor<64x64xf32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%dv = %zero) -> (tensor<64x32xf32>) : i32 {
    %qb = tile.load %q : tensor<32x64x!tile.ptr<f16>>
    %s = tile.dot %k, %qb, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %p = math.exp2 %s : tensor<64x64xf32>
    %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
    %dob = tile.load %do : tensor<64x32x!tile.ptr<f16>>
    %d = tile.dot %p16, %dob, %zero : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    %dvn = arith.addf %dv, %d : tensor<64x32xf32>
    scf.yield %dvn : tensor<64x32xf32>
  }
  return %res : tensor<64x32xf32>
}
