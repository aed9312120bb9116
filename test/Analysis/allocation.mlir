// RUN: tile-opt %s -split-input-file -test-print-shared-memory-allocation=stagger=false -verify-diagnostics
// Liveness-based placement of shared-memory buffers. Ops are numbered in
// program order (the function is 0, nested ops follow their parent); a
// buffer is alive over [first, last) of those numbers. Ops carrying
// test.shared_bytes define explicit buffers that live from definition to
// last use.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Scratch buffers of ops that run one after the other share offset 0; the
// total is the largest. A reduction that stays within a warp needs none.
// expected-remark @below {{shared memory: 1024 bytes}}
func.func @disjoint(%x: tensor<256xf32, #a>, %s: tensor<32xf32, #a>) -> (f32, f32, tensor<256xf32, #b>, f32) {
  // expected-remark @below {{scratch: offset 0, size 16, live [1, 4)}}
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
  // expected-remark @below {{scratch: offset 0, size 16, live [4, 7)}}
  %1 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
  // expected-remark @below {{scratch: offset 0, size 1024, live [7, 8)}}
  %2 = tilegpu.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %3 = "tile.reduce"(%s) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<32xf32, #a>) -> f32
  return %0, %1, %2, %3 : f32, f32, tensor<256xf32, #b>, f32
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Buffers alive at the same time do not overlap: %dead lies above %held,
// the reduction's scratch above %held too, but in the bytes of %dead, which
// died before it.
// expected-remark @below {{shared memory: 144 bytes}}
func.func @overlapping(%x: tensor<256xf32, #a>) -> (f32, tensor<256xf32, #a>) {
  // expected-remark @below {{explicit: offset 0, size 80, live [1, 7)}}
  %held = arith.addf %x, %x {test.shared_bytes = 80} : tensor<256xf32, #a>
  // expected-remark @below {{explicit: offset 80, size 64, live [2, 3)}}
  %dead = arith.mulf %x, %x {test.shared_bytes = 64} : tensor<256xf32, #a>
  // expected-remark @below {{scratch: offset 80, size 16, live [3, 6)}}
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
  %1 = arith.subf %held, %x : tensor<256xf32, #a>
  return %0, %1 : f32, tensor<256xf32, #a>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A value defined before a loop and used inside it is alive for the whole
// loop, so a reduction later in the body cannot take its bytes. A value
// defined and last used in the body before the reduction can.
// expected-remark @below {{shared memory: 160 bytes}}
func.func @loop(%x: tensor<256xf32, #a>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{explicit: offset 0, size 128, live [4, 14)}}
  %outer = arith.addf %x, %x {test.shared_bytes = 128} : tensor<256xf32, #a>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %u = arith.mulf %outer, %x : tensor<256xf32, #a>
    // expected-remark @below {{explicit: offset 128, size 32, live [7, 9)}}
    %inner = arith.addf %u, %x {test.shared_bytes = 32} : tensor<256xf32, #a>
    %v = arith.mulf %inner, %x : tensor<256xf32, #a>
    // expected-remark @below {{scratch: offset 128, size 16, live [9, 12)}}
    %s = "tile.reduce"(%v) ({
    ^bb0(%l: f32, %q: f32):
      %m = arith.addf %l, %q : f32
      tile.reduce_return %m : f32
    }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
    %t = arith.addf %acc, %s : f32
    scf.yield %t : f32
  }
  // The same pattern under scf.if, which does not repeat: the reduction
  // reuses the bytes of the value last used before it.
  %cond = arith.cmpi eq, %n, %c0 : index
  // expected-remark @below {{explicit: offset 0, size 48, live [15, 18)}}
  %once = arith.addf %x, %x {test.shared_bytes = 48} : tensor<256xf32, #a>
  %f = scf.if %cond -> f32 {
    %w = arith.mulf %once, %x : tensor<256xf32, #a>
    // expected-remark @below {{scratch: offset 0, size 16, live [18, 21)}}
    %s = "tile.reduce"(%w) ({
    ^bb0(%l: f32, %q: f32):
      %m = arith.addf %l, %q : f32
      tile.reduce_return %m : f32
    }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
    scf.yield %s : f32
  } else {
    scf.yield %r : f32
  }
  return %f : f32
}

// -----

#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// The CUDA-core dot keeps A (16x8 f16, 256 bytes) then B (8x16 f16) at the
// next 16-byte boundary.
// expected-remark @below {{shared memory: 512 bytes}}
func.func @dot(%a: tensor<16x8xf16, #l>, %b: tensor<8x16xf16, #l>, %c: tensor<16x16xf32, #l>) -> tensor<16x16xf32, #l> {
  // expected-remark @below {{scratch: offset 0, size 512, live [1, 2)}}
  %d = tile.dot %a, %b, %c : tensor<16x8xf16, #l> * tensor<8x16xf16, #l> -> tensor<16x16xf32, #l>
  return %d : tensor<16x16xf32, #l>
}

// -----

// A scalar atomic whose old value is used has a scratch word (8 bytes for a
// 64-bit value, at least 4); one whose value is unused, or a block atomic,
// has none.
// expected-remark @below {{shared memory: 8 bytes}}
func.func @scalar_atomics(%p: !tile.ptr<i32>, %q: !tile.ptr<i64>, %h: !tile.ptr<i16>, %x: i32, %y: i64, %z: i16) {
  // expected-remark @below {{scratch: offset 0, size 4, live [1, 2)}}
  %0 = tile.atomic_cas %p, %x, %x : !tile.ptr<i32>
  tile.store %p, %0 : !tile.ptr<i32>
  // expected-remark @below {{scratch: offset 0, size 8, live [3, 4)}}
  %1 = tile.atomic_rmw xchg, %q, %y : !tile.ptr<i64>
  tile.store %q, %1 : !tile.ptr<i64>
  // expected-remark @below {{scratch: offset 0, size 4, live [5, 6)}}
  %2 = tile.atomic_rmw add, %h, %z : !tile.ptr<i16>
  tile.store %h, %2 : !tile.ptr<i16>
  %3 = tile.atomic_rmw add, %p, %x : !tile.ptr<i32>
  return
}
