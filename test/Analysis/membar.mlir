// RUN: tile-opt %s -split-input-file -test-print-membar -verify-diagnostics -o /dev/null
// The membar analysis, printed: a remark at each op that needs a barrier
// before it. A scratch op writes its buffer, synchronizes, then reads it;
// only its writes can race with earlier accesses.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Same bytes back to back: the second one's writes follow the first one's
// reads. Other bytes: nothing to order. Back to the first bytes after the
// second op's own barrier: nothing either.
// expected-remark @below {{1 barriers inserted}}
func.func @straight(%x: tensor<256xf32, #a>) -> (tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>) {
  %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  // expected-remark @below {{barrier needed before this op}}
  %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %2 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %3 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0, %1, %2, %3 : tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Alone in a loop, a scratch op races with itself across the back edge.
// expected-remark @below {{1 barriers inserted}}
func.func @loop(%x: tensor<256xf32, #a>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{barrier needed before this op}}
    %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Without an offset the analysis cannot know the bytes: an error.
func.func @no_offset(%x: tensor<256xf32, #a>) -> tensor<256xf32, #b> {
  // expected-error @below {{needs 1024 bytes of shared memory but has no tilegpu.shared_offset}}
  %0 = tilegpu.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0 : tensor<256xf32, #b>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>

// Explicit buffers (the pipelined dot): a copy writes its buffer, a
// warpgroup_dot reads both. Copies into different constant stages of one
// buffer, or into different buffers, need nothing between them. In the loop
// the dot reads what copies wrote (before it, a barrier), then copies
// overwrite what the dot read (another).
// expected-remark @below {{2 barriers inserted}}
func.func @pipelined(%pa: tensor<64x32x!tile.ptr<f16>, #p>, %pb: tensor<32x64x!tile.ptr<f16>, #p>, %acc0: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 8192 : i32} : !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_copy %pa, %a[%c0] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
  tilegpu.async_copy %pb, %b[%c0] : tensor<32x64x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_copy %pa, %a[%c1] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
  tilegpu.async_commit_group
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %s = arith.remui %k, %c1 : i32
    tilegpu.async_wait {pending = 0 : i32}
    // expected-remark @below {{barrier needed before this op}}
    %d = tilegpu.warpgroup_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
    %w = tilegpu.warpgroup_dot_wait %d {pending = 1 : i32} : tensor<64x64xf32, #mma>
    // expected-remark @below {{barrier needed before this op}}
    tilegpu.async_copy %pa, %a[%s] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
    tilegpu.async_copy %pb, %b[%s] : tensor<32x64x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x32x64xf16>
    tilegpu.async_commit_group
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 32]}>

// shared_dot (mma.sync on a stage) reads both buffers like warpgroup_dot.
// A copy's write lands at the next async_wait: in flight it conflicts with
// no read (shared_dot right after the copies needs no barrier), and a
// barrier does not retire it. So with the copies first, the barrier after
// the wait is the only one: it orders the landed copies before the dot and
// the previous dot's reads before the copies.
// expected-remark @below {{1 barriers inserted}}
func.func @pipelined_sync(%pa: tensor<64x32x!tile.ptr<f16>, #p>, %pb: tensor<32x64x!tile.ptr<f16>, #p>, %acc0: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 8192 : i32} : !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_copy %pa, %a[%c0] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
  tilegpu.async_copy %pb, %b[%c0] : tensor<32x64x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_commit_group
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    %s = arith.remui %k, %c1 : i32
    tilegpu.async_wait {pending = 0 : i32}
    // expected-remark @below {{barrier needed before this op}}
    tilegpu.async_copy %pa, %a[%s] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
    tilegpu.async_copy %pb, %b[%s] : tensor<32x64x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x32x64xf16>
    tilegpu.async_commit_group
    %d = tilegpu.shared_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 32]}>

// Without the wait, a read of what a copy writes is the program's race to
// avoid, not a barrier's; after the wait, the read needs a barrier even if
// one came between the copy and the wait.
// expected-remark @below {{1 barriers inserted}}
func.func @in_flight(%pa: tensor<64x32x!tile.ptr<f16>, #p>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<1x64x32xf16>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 4096 : i32} : !tilegpu.memdesc<1x32x64xf16>
  tilegpu.async_copy %pa, %a[%c0] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<1x64x32xf16>
  tilegpu.barrier
  tilegpu.async_wait {pending = 0 : i32}
  // expected-remark @below {{barrier needed before this op}}
  %d = tilegpu.shared_dot %a, %b[%c0], %acc : !tilegpu.memdesc<1x64x32xf16>, !tilegpu.memdesc<1x32x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

func.func @unplaced(%pa: tensor<64x32x!tile.ptr<f16>, #p>) {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  // expected-error @below {{reads or writes a shared-memory buffer with no tilegpu.shared_offset}}
  tilegpu.async_copy %pa, %a[%c0] : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
  return
}

// -----

// A spin lock: the atomic_cas of each iteration writes the scratch word the
// previous iteration's threads read, so it waits for them; the xchg that
// releases the lock uses no scratch.
// expected-remark @below {{1 barriers inserted}}
func.func @spin_lock(%lock: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.while : () -> () {
    // expected-remark @below {{barrier needed before this op}}
    %old = tile.atomic_cas %lock, %c0, %c1 {tilegpu.shared_offset = 0 : i32} : !tile.ptr<i32>
    %held = arith.cmpi eq, %old, %c1 : i32
    scf.condition(%held)
  } do {
    scf.yield
  }
  %0 = tile.atomic_rmw xchg, %lock, %c0 : !tile.ptr<i32>
  return
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>

// A block stored for wgmma (local_store, as tilegpu-pipeline stores a dot's
// A that is not a load) in each iteration: the dot reads what every thread
// stored (a barrier before it), and the next iteration's store overwrites
// what the dot read (another, before the store).
// expected-remark @below {{2 barriers inserted}}
func.func @stored_operand(%x: tensor<64x32xf16, #p>, %pb: tensor<32x64x!tile.ptr<f16>, #p>, %acc0: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<1x64x32xf16>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 8192 : i32} : !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_copy %pb, %b[%c0] : tensor<32x64x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x32x64xf16>
  tilegpu.async_commit_group
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    // expected-remark @below {{barrier needed before this op}}
    tilegpu.local_store %x, %a[%c0] : tensor<64x32xf16, #p> -> !tilegpu.memdesc<1x64x32xf16>
    // expected-remark @below {{barrier needed before this op}}
    %d = tilegpu.warpgroup_dot %a[%c0], %b[%c0], %acc : !tilegpu.memdesc<1x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
    %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}
