// RUN: tile-opt %s -split-input-file -tilegpu-remove-layout-conversions | FileCheck %s

#def = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The add is recomputed in the loads' layout; no conversion is left.
// CHECK-LABEL: func.func @rematerialize
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.make_range {{.*}} : tensor<1024xi32, #[[VEC:.*]]>
// CHECK: tile.addptr %{{.*}}, %[[R]] : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
// CHECK: %[[X:.*]] = tile.load
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[X]] : tensor<1024xf32, #[[VEC]]>
// CHECK: tile.store %{{.*}}, %[[S]] : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @rematerialize(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #def>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #def>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #def>, tensor<1024xi32, #def>
  %pv = tilegpu.convert_layout %pp : tensor<1024x!tile.ptr<f32>, #def> -> tensor<1024x!tile.ptr<f32>, #vec>
  %xv = tile.load %pv : tensor<1024x!tile.ptr<f32>, #vec>
  %x = tilegpu.convert_layout %xv : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
  %s = arith.addf %x, %x : tensor<1024xf32, #def>
  %sv = tilegpu.convert_layout %s : tensor<1024xf32, #def> -> tensor<1024xf32, #vec>
  tile.store %pv, %sv : tensor<1024x!tile.ptr<f32>, #vec>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// A loaded value cannot be recomputed: its conversion stays.
// CHECK-LABEL: func.func @keep_load
// CHECK: tile.load
// CHECK: tilegpu.convert_layout
func.func @keep_load(%p: tensor<256x!tile.ptr<f32>, #a>) -> tensor<256xf32, #b> {
  %v = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  %c = tilegpu.convert_layout %v : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %c : tensor<256xf32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Constants and chains fold.
// CHECK-LABEL: func.func @fold
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<256xf32, #{{.*}}>
// CHECK-NEXT: return %[[C]]
func.func @fold() -> tensor<256xf32, #a> {
  %c = arith.constant dense<2.0> : tensor<256xf32, #a>
  %x = tilegpu.convert_layout %c : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %y = tilegpu.convert_layout %x : tensor<256xf32, #b> -> tensor<256xf32, #a>
  return %y : tensor<256xf32, #a>
}

// -----

#def = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A loaded row the loop carries to the next iteration (a prefetch written
// by hand): the loop carries it in the loads' layout, and the reduction and
// the store take that layout, so no conversion is left in or around the
// loop.
// CHECK-LABEL: func.func @loop_carried
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[FIRST:.*]] = tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #[[VEC:.*]]>
// CHECK: %[[LAST:.*]] = scf.for {{.*}} iter_args(%[[ROW:.*]] = %[[FIRST]]) -> (tensor<1024xf32, #[[VEC]]>)
// CHECK:   %[[NEXT:.*]] = tile.load {{.*}} : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
// CHECK:   tile.reduce(%[[ROW]]) {{.*}} : (tensor<1024xf32, #[[VEC]]>) -> f32
// CHECK:   tile.store {{.*}} : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
// CHECK:   scf.yield %[[NEXT]] : tensor<1024xf32, #[[VEC]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store {{.*}}, %[[LAST]] : tensor<1024x!tile.ptr<f32>, #[[VEC]]>
func.func @loop_carried(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #vec>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #vec>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #vec>, tensor<1024xi32, #vec>
  %first = tile.load %pp : tensor<1024x!tile.ptr<f32>, #vec>
  %init = tilegpu.convert_layout %first : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%row = %init) -> (tensor<1024xf32, #def>) : i32 {
    %next = tile.load %pp : tensor<1024x!tile.ptr<f32>, #vec>
    %m = tile.reduce(%row) {axis = 0 : i32} : (tensor<1024xf32, #def>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %x = arith.maxnumf %a, %b : f32
      tile.reduce_return %x : f32
    }
    %ms = tile.splat %m : f32 -> tensor<1024xf32, #def>
    %d = arith.subf %row, %ms : tensor<1024xf32, #def>
    %rd = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #def>
    %qs = tile.splat %q : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #def>
    %qq = tile.addptr %qs, %rd : tensor<1024x!tile.ptr<f32>, #def>, tensor<1024xi32, #def>
    tile.store %qq, %d : tensor<1024x!tile.ptr<f32>, #def>
    %nextd = tilegpu.convert_layout %next : tensor<1024xf32, #vec> -> tensor<1024xf32, #def>
    scf.yield %nextd : tensor<1024xf32, #def>
  }
  %rd = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #def>
  %qs = tile.splat %q : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #def>
  %qq = tile.addptr %qs, %rd : tensor<1024x!tile.ptr<f32>, #def>, tensor<1024xi32, #def>
  tile.store %qq, %last : tensor<1024x!tile.ptr<f32>, #def>
  return
}

// -----

#def = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#vec = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>

// x - max(x, 1)[:, None] on loaded rows: the reduction to a tensor takes the
// loads' layout and yields the slice of it, the row maxima are broadcast in
// that layout, and the store follows: no conversion is left.
// CHECK-LABEL: func.func @row_reduction
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<2x1024x!tile.ptr<f32>, #[[VEC:.*]]>
// CHECK: %[[M:.*]] = tile.reduce(%[[X]]) {axis = 1 : i32} : (tensor<2x1024xf32, #[[VEC]]>) -> tensor<2xf32, #[[SLICE:.*]]>
// CHECK: %[[E:.*]] = tile.expand_dims %[[M]] {axis = 1 : i32} : tensor<2xf32, #[[SLICE]]> -> tensor<2x1xf32, #[[VEC]]>
// CHECK: %[[B:.*]] = tile.broadcast %[[E]] {{.*}} -> tensor<2x1024xf32, #[[VEC]]>
// CHECK: %[[D:.*]] = arith.subf %[[X]], %[[B]] : tensor<2x1024xf32, #[[VEC]]>
// CHECK: tile.store %{{.*}}, %[[D]] : tensor<2x1024x!tile.ptr<f32>, #[[VEC]]>
// CHECK-NOT: tilegpu.convert_layout
func.func @row_reduction(%p: !tile.ptr<f32>) {
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<2x1024x!tile.ptr<f32>, #vec>
  %x = tile.load %ps : tensor<2x1024x!tile.ptr<f32>, #vec>
  %xd = tilegpu.convert_layout %x : tensor<2x1024xf32, #vec> -> tensor<2x1024xf32, #def>
  %m = tile.reduce(%xd) {axis = 1 : i32} : (tensor<2x1024xf32, #def>) -> tensor<2xf32, #tilegpu.slice<{dim = 1, parent = #def}>> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maxnumf %a, %b : f32
    tile.reduce_return %r : f32
  }
  %e = tile.expand_dims %m {axis = 1 : i32} : tensor<2xf32, #tilegpu.slice<{dim = 1, parent = #def}>> -> tensor<2x1xf32, #def>
  %b = tile.broadcast %e : tensor<2x1xf32, #def> -> tensor<2x1024xf32, #def>
  %d = arith.subf %xd, %b : tensor<2x1024xf32, #def>
  %dv = tilegpu.convert_layout %d : tensor<2x1024xf32, #def> -> tensor<2x1024xf32, #vec>
  tile.store %ps, %dv : tensor<2x1024x!tile.ptr<f32>, #vec>
  return
}

// -----

// A conversion of a value from before the loop (the attention backward's
// rows of M and Delta in its dQ loop) moves before the loop: it goes
// through shared memory, with barriers, once instead of every iteration.
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#per4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @hoist_invariant_conversion
// CHECK: %[[X:.*]] = tile.load
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[X]]
// CHECK-NEXT: scf.for
// CHECK-NOT: tilegpu.convert_layout
// CHECK: arith.addf %{{.*}}, %[[C]]
func.func @hoist_invariant_conversion(%p: tensor<128x!tile.ptr<f32>, #row>, %q: tensor<128x!tile.ptr<f32>, #per4>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32, #per4>
  %x = tile.load %p : tensor<128x!tile.ptr<f32>, #row>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #per4>) : i32 {
    %y = tile.load %q : tensor<128x!tile.ptr<f32>, #per4>
    %xc = tilegpu.convert_layout %x : tensor<128xf32, #row> -> tensor<128xf32, #per4>
    %s = arith.addf %y, %xc : tensor<128xf32, #per4>
    %a = arith.addf %acc, %s : tensor<128xf32, #per4>
    scf.yield %a : tensor<128xf32, #per4>
  }
  tile.store %q, %r : tensor<128x!tile.ptr<f32>, #per4>
  return
}

// -----

// An accumulation of loads (`acc += tl.load(...)`, tutorial 05's dW and dB
// sums) whose accumulator starts in another layout: the addition moves into
// the load's layout, and then the loop carries the accumulator in it: the
// one conversion left is after the loop (the store's pointers, an
// argument here, stay in theirs).
#def = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @accumulated_load
// CHECK: scf.for {{.*}} -> (tensor<512xf32, #[[VEC:.*]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<512x!tile.ptr<f32>, #[[VEC]]>
// CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[X]] : tensor<512xf32, #[[VEC]]>
// CHECK-NEXT: scf.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tile.store
func.func @accumulated_load(%p: tensor<512x!tile.ptr<f32>, #vec>, %q: tensor<512x!tile.ptr<f32>, #def>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<512xf32, #def>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #def>) : i32 {
    %x = tile.load %p : tensor<512x!tile.ptr<f32>, #vec>
    %xc = tilegpu.convert_layout %x : tensor<512xf32, #vec> -> tensor<512xf32, #def>
    %s = arith.addf %acc, %xc : tensor<512xf32, #def>
    scf.yield %s : tensor<512xf32, #def>
  }
  tile.store %q, %r : tensor<512x!tile.ptr<f32>, #def>
  return
}

// -----

// The same accumulation under a condition (`if s != k: acc += tl.load(...)`,
// a split-K reduction): the scf.if result takes the load's layout too, and
// no conversion is left in the loop.
#def = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @accumulated_load_under_if
// CHECK: scf.for {{.*}} -> (tensor<512xf32, #[[VEC:.*]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.if {{.*}} -> (tensor<512xf32, #[[VEC]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.load
// CHECK-NEXT: arith.addf {{.*}} : tensor<512xf32, #[[VEC]]>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tile.store
func.func @accumulated_load_under_if(%p: tensor<512x!tile.ptr<f32>, #vec>, %q: tensor<512x!tile.ptr<f32>, #def>, %n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<512xf32, #def>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #def>) : i32 {
    %skip = arith.cmpi eq, %i, %k : i32
    %next = scf.if %skip -> (tensor<512xf32, #def>) {
      scf.yield %acc : tensor<512xf32, #def>
    } else {
      %x = tile.load %p : tensor<512x!tile.ptr<f32>, #vec>
      %xc = tilegpu.convert_layout %x : tensor<512xf32, #vec> -> tensor<512xf32, #def>
      %s = arith.addf %acc, %xc : tensor<512xf32, #def>
      scf.yield %s : tensor<512xf32, #def>
    }
    scf.yield %next : tensor<512xf32, #def>
  }
  tile.store %q, %r : tensor<512x!tile.ptr<f32>, #def>
  return
}

// -----

// An scf.if whose branches both yield conversions from one layout yields in
// that layout; the one conversion left is after it, at the store.
#def = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#vec = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @if_result_of_conversions
// CHECK: scf.if {{.*}} -> (tensor<512xf32, #[[VEC:.*]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.convert_layout %{{.*}} : tensor<512xf32, #[[VEC]]> -> tensor<512xf32, #{{.*}}>
// CHECK-NEXT: tile.store
func.func @if_result_of_conversions(%p: tensor<512x!tile.ptr<f32>, #vec>, %q: tensor<512x!tile.ptr<f32>, #def>, %c: i1) {
  %r = scf.if %c -> (tensor<512xf32, #def>) {
    %x = tile.load %p : tensor<512x!tile.ptr<f32>, #vec>
    %xc = tilegpu.convert_layout %x : tensor<512xf32, #vec> -> tensor<512xf32, #def>
    scf.yield %xc : tensor<512xf32, #def>
  } else {
    %x = tile.load %p : tensor<512x!tile.ptr<f32>, #vec>
    %y = arith.addf %x, %x : tensor<512xf32, #vec>
    %yc = tilegpu.convert_layout %y : tensor<512xf32, #vec> -> tensor<512xf32, #def>
    scf.yield %yc : tensor<512xf32, #def>
  }
  tile.store %q, %r : tensor<512x!tile.ptr<f32>, #def>
  return
}

// -----

// Attention's running row statistics. The maximum of each row, m = max(m,
// max(x, 1)), and the sum, l = l * alpha + sum(x, 1) (the running value
// behind a product), are computed from reductions, whose rows come in the
// slice of the loads' layout: each moves into that slice, the loop carries
// it there, and no conversion is left in the loop.
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @running_row_statistics
// CHECK: scf.for {{.*}} -> (tensor<16xf32, #[[SLICE:.*]]>, tensor<16xf32, #[[SLICE]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK-NEXT: }
func.func @running_row_statistics(%p: tensor<16x64x!tile.ptr<f32>, #blk>, %q: tensor<16x!tile.ptr<f32>, #row>, %n: i32, %alpha: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<16xf32, #row>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init, %l = %init) -> (tensor<16xf32, #row>, tensor<16xf32, #row>) : i32 {
    %x = tile.load %p : tensor<16x64x!tile.ptr<f32>, #blk>
    %mx = tile.reduce(%x) {axis = 1 : i32} : (tensor<16x64xf32, #blk>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tile.reduce_return %t : f32
    }
    %sx = tile.reduce(%x) {axis = 1 : i32} : (tensor<16x64xf32, #blk>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tile.reduce_return %t : f32
    }
    %mxc = tilegpu.convert_layout %mx : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<16xf32, #row>
    %sxc = tilegpu.convert_layout %sx : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<16xf32, #row>
    %mn = arith.maxnumf %m, %mxc : tensor<16xf32, #row>
    %as = tile.splat %alpha : f32 -> tensor<16xf32, #row>
    %la = arith.mulf %l, %as : tensor<16xf32, #row>
    %ln = arith.addf %la, %sxc : tensor<16xf32, #row>
    scf.yield %mn, %ln : tensor<16xf32, #row>, tensor<16xf32, #row>
  }
  %s = arith.addf %r#0, %r#1 : tensor<16xf32, #row>
  tile.store %q, %s : tensor<16x!tile.ptr<f32>, #row>
  return
}

// -----

// The running maximum computed in both branches of an `if` (the block
// pointer forward's causal mask), where it is used for more than the next
// value (the scores subtract it): the scf.if and the loop take the
// reduction's slice, and no conversion is left in the loop.
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blk = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @running_max_under_if
// CHECK: scf.for {{.*}} -> (tensor<16xf32, #[[SLICE:.*]]>, tensor<16xf32, #[[SLICE]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.if {{.*}} -> (tensor<16xf32, #[[SLICE]]>, tensor<16xf32, #[[SLICE]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK-NEXT: }
func.func @running_max_under_if(%p: tensor<16x64x!tile.ptr<f32>, #blk>, %q: tensor<16x!tile.ptr<f32>, #row>, %n: i32, %k: i32, %scale: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<16xf32, #row>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init, %dm = %init) -> (tensor<16xf32, #row>, tensor<16xf32, #row>) : i32 {
    %x = tile.load %p : tensor<16x64x!tile.ptr<f32>, #blk>
    %masked = arith.cmpi sge, %i, %k : i32
    %next:2 = scf.if %masked -> (tensor<16xf32, #row>, tensor<16xf32, #row>) {
      %mx = tile.reduce(%x) {axis = 1 : i32} : (tensor<16x64xf32, #blk>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> {
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tile.reduce_return %t : f32
      }
      %mxc = tilegpu.convert_layout %mx : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<16xf32, #row>
      %mn = arith.maxnumf %m, %mxc : tensor<16xf32, #row>
      %d = arith.subf %mxc, %mn : tensor<16xf32, #row>
      scf.yield %mn, %d : tensor<16xf32, #row>, tensor<16xf32, #row>
    } else {
      %mx = tile.reduce(%x) {axis = 1 : i32} : (tensor<16x64xf32, #blk>) -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> {
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tile.reduce_return %t : f32
      }
      %ss = tile.splat %scale : f32 -> tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>>
      %ms = arith.mulf %mx, %ss : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>>
      %mxc = tilegpu.convert_layout %ms : tensor<16xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<16xf32, #row>
      %mn = arith.maxnumf %m, %mxc : tensor<16xf32, #row>
      %d = arith.subf %mxc, %mn : tensor<16xf32, #row>
      scf.yield %mn, %d : tensor<16xf32, #row>, tensor<16xf32, #row>
    }
    scf.yield %next#0, %next#1 : tensor<16xf32, #row>, tensor<16xf32, #row>
  }
  %s = arith.addf %r#0, %r#1 : tensor<16xf32, #row>
  tile.store %q, %s : tensor<16x!tile.ptr<f32>, #row>
  return
}

// -----

// Attention's rescale of its accumulator, `acc * alpha[:, None]`, where
// alpha comes from the scores' rows (a slice of the QK^T mma layout, n 64)
// and acc is the PV accumulator (n 128): the rescale is recomputed in the
// accumulator's layout, through a conversion between the two row slices,
// which keeps every element in its register, instead of converting the
// 128 x 128 accumulator to a blocked layout and back.
#blk = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#s = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#o = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
// CHECK-LABEL: func.func @rescale_in_accumulator_layout
// CHECK-SAME: -> tensor<128x128xf32, #[[O:[a-z0-9]+]]>
// CHECK: scf.for
// CHECK-NEXT: math.exp2
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tile.expand_dims {{.*}} -> tensor<128x1xf32, #[[O]]>
// CHECK-NEXT: tile.broadcast
// CHECK-NEXT: arith.mulf {{.*}} : tensor<128x128xf32, #[[O]]>
// CHECK-NEXT: scf.yield
func.func @rescale_in_accumulator_layout(%alpha: tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>>, %n: i32) -> tensor<128x128xf32, #o> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #o>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #o>) : i32 {
    %a = math.exp2 %alpha : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>>
    %ab = tilegpu.convert_layout %a : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>> -> tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #blk}>>
    %e = tile.expand_dims %ab {axis = 1 : i32} : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #blk}>> -> tensor<128x1xf32, #blk>
    %b = tile.broadcast %e : tensor<128x1xf32, #blk> -> tensor<128x128xf32, #blk>
    %accb = tilegpu.convert_layout %acc : tensor<128x128xf32, #o> -> tensor<128x128xf32, #blk>
    %m = arith.mulf %accb, %b : tensor<128x128xf32, #blk>
    %back = tilegpu.convert_layout %m : tensor<128x128xf32, #blk> -> tensor<128x128xf32, #o>
    scf.yield %back : tensor<128x128xf32, #o>
  }
  return %r : tensor<128x128xf32, #o>
}

// -----

// A conversion between two row slices of mma layouts lowers to nothing:
// the exponential before it is not recomputed in the other layout.
#s = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#o = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 128]}>
// CHECK-LABEL: func.func @free_conversion_kept
// CHECK-NEXT: %[[E:.*]] = math.exp2
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[E]]
// CHECK-NEXT: return %[[C]]
func.func @free_conversion_kept(%x: tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>>) -> tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #o}>> {
  %e = math.exp2 %x : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>>
  %c = tilegpu.convert_layout %e : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #s}>> -> tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #o}>>
  return %c : tensor<128xf32, #tilegpu.slice<{dim = 1, parent = #o}>>
}

// -----

#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows4 = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// A transposed store (Triton's test_permute): the loaded rows go to
// pointers that are contiguous down the columns, so the store keeps its
// coalesced layout and the conversion through shared memory stays (in the
// rows' layout it would write one 2-byte element at a time).
// CHECK-LABEL: func.func @transposed_store
// CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<64x64x!tile.ptr<f16>, #[[ROWS:.*]]>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[X]] : tensor<64x64xf16, #[[ROWS]]> -> tensor<64x64xf16, #[[COLS:.*]]>
// CHECK: tile.store %{{.*}}, %[[C]] : tensor<64x64x!tile.ptr<f16>, #[[COLS]]>
func.func @transposed_store(%x: !tile.ptr<f16>, %z: !tile.ptr<f16>) {
  %px = tile.splat %x : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #rows>
  %v = tile.load %px : tensor<64x64x!tile.ptr<f16>, #rows>
  %pz = tile.splat %z : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #cols>
  %c = tilegpu.convert_layout %v : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #cols>
  tile.store %pz, %c : tensor<64x64x!tile.ptr<f16>, #cols>
  return
}

// A store coalesced along the same axis as the rows' layout takes that
// layout: no conversion.
// CHECK-LABEL: func.func @same_axis_store
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store {{.*}} : tensor<64x64x!tile.ptr<f16>, #[[ROWS]]>
func.func @same_axis_store(%x: !tile.ptr<f16>, %z: !tile.ptr<f16>) {
  %px = tile.splat %x : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #rows>
  %v = tile.load %px : tensor<64x64x!tile.ptr<f16>, #rows>
  %pz = tile.splat %z : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #rows4>
  %c = tilegpu.convert_layout %v : tensor<64x64xf16, #rows> -> tensor<64x64xf16, #rows4>
  tile.store %pz, %c : tensor<64x64x!tile.ptr<f16>, #rows4>
  return
}
