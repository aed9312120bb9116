// RUN: tile-opt %s -split-input-file -tilegpu-insert-barriers | FileCheck %s
// A barrier goes before an op whose shared-memory writes overlap accesses
// of earlier ops not yet separated by one (a scratch user writes its whole
// buffer, synchronizes, then reads it, so it leaves only reads pending). Offsets are written by hand here; a convert_layout
// below takes 1024 bytes, a reduction 16.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two reductions back to back in the same bytes: one barrier between them,
// none before the first (nothing is pending at function entry).
// CHECK-LABEL: func.func @back_to_back
// CHECK-NOT: tilegpu.barrier
// CHECK: tile.reduce
// CHECK: tile.reduce_return
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tile.reduce
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @back_to_back(%x: tensor<256xf32, #a>) -> (f32, f32) {
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32, tilegpu.shared_offset = 0 : i32} : (tensor<256xf32, #a>) -> f32
  %1 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32, tilegpu.shared_offset = 0 : i32} : (tensor<256xf32, #a>) -> f32
  return %0, %1 : f32, f32
}

// A reduction then a conversion in disjoint bytes: no barrier. A later
// reduction at bytes 8..24 overlaps the conversion's reads: a barrier (the
// first reduction's bytes alone would need none: the conversion's own
// barrier came after its reads).
// CHECK-LABEL: func.func @disjoint
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.convert_layout
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tile.reduce
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @disjoint(%x: tensor<256xf32, #a>) -> (f32, tensor<256xf32, #b>, f32) {
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32, tilegpu.shared_offset = 0 : i32} : (tensor<256xf32, #a>) -> f32
  %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 16 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  %2 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32, tilegpu.shared_offset = 8 : i32} : (tensor<256xf32, #a>) -> f32
  return %0, %1, %2 : f32, tensor<256xf32, #b>, f32
}

// A barrier already there (or a debug_barrier) suffices.
// CHECK-LABEL: func.func @existing
// CHECK: tilegpu.convert_layout
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tile.debug_barrier
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: return
func.func @existing(%x: tensor<256xf32, #a>) -> (tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>) {
  %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  tilegpu.barrier
  %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  tile.debug_barrier
  %2 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0, %1, %2 : tensor<256xf32, #b>, tensor<256xf32, #b>, tensor<256xf32, #b>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two scratch users in other bytes in a loop: on the back edge, the first
// one's writes race with nothing, since the second one's own barrier (between
// its writes and reads) came after the first one's reads. No barrier inside.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1024
// CHECK-NEXT: {{^ +}}}{{$}}
// After the loop, the last user's bytes are still pending.
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1024
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @loop(%x: tensor<256xf32, #a>, %n: index) -> tensor<256xf32, #b> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  %2 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %2 : tensor<256xf32, #b>
}

// A loop that may run zero times: what was pending before it is still
// pending after it, even though every iteration ends with other bytes.
// CHECK-LABEL: func.func @zero_trip
// CHECK: tilegpu.convert_layout {{.*}}shared_offset = 1024
// CHECK: scf.for
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1536
func.func @zero_trip(%x: tensor<256xf32, #a>, %n: index) -> (tensor<256xf32, #b>, tensor<256xf32, #b>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  scf.for %i = %c0 to %n step %c1 {
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  %3 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1536 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0, %3 : tensor<256xf32, #b>, tensor<256xf32, #b>
}

// Nested loops: the inner user races with itself (barrier in the inner
// loop); the outer user, in other bytes, races with its previous iteration
// only if the inner loop ran zero times, so it needs its own barrier too.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1024
func.func @nested(%x: tensor<256xf32, #a>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
    }
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  return
}

// scf.while: the before region's user and the after region's, in other
// bytes, each follow the other's own barrier: none needed. Alone in the
// after region, a user races with itself through the before region.
// CHECK-LABEL: func.func @while
// CHECK: scf.while
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: scf.condition
// CHECK-NEXT: {{^ +}}} do {
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1024
// CHECK-NEXT: scf.yield
// CHECK: scf.while
// CHECK-NEXT: scf.condition
// CHECK-NEXT: {{^ +}}} do {
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 1024
func.func @while(%x: tensor<256xf32, #a>, %c: i1) {
  scf.while : () -> () {
    %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
    scf.condition(%c)
  } do {
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
    scf.yield
  }
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 1024 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
    scf.yield
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// scf.if: each branch starts from what is pending before it; after it,
// what either branch left is pending.
// CHECK-LABEL: func.func @branches
// CHECK: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 0
// CHECK-NEXT: {{^ +}}} else {
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 2048
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 2048
// Without an else, the path around the branch keeps what was pending.
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 4096
// CHECK-NEXT: {{^ +}}}{{$}}
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.convert_layout {{.*}}shared_offset = 2048
func.func @branches(%x: tensor<256xf32, #a>, %c: i1) {
  %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  scf.if %c {
    %1 = tilegpu.convert_layout %x {tilegpu.shared_offset = 0 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  } else {
    %2 = tilegpu.convert_layout %x {tilegpu.shared_offset = 2048 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  %3 = tilegpu.convert_layout %x {tilegpu.shared_offset = 2048 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  scf.if %c {
    %4 = tilegpu.convert_layout %x {tilegpu.shared_offset = 4096 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  }
  %5 = tilegpu.convert_layout %x {tilegpu.shared_offset = 2048 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return
}

// -----

// The CUDA-core dot inside a loop (the matmul's K loop), placed by the
// allocator: its scratch races with the previous iteration's.
#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @dot_loop
// CHECK: scf.for
// CHECK-NOT: scf.yield
// CHECK: tilegpu.barrier
// CHECK-NEXT: tile.dot
func.func @dot_loop(%a: tensor<16x8xf16, #l>, %b: tensor<8x16xf16, #l>, %c: tensor<16x16xf32, #l>, %n: index) -> tensor<16x16xf32, #l> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> tensor<16x16xf32, #l> {
    %d = tile.dot %a, %b, %acc {tilegpu.shared_offset = 0 : i32} : tensor<16x8xf16, #l> * tensor<8x16xf16, #l> -> tensor<16x16xf32, #l>
    scf.yield %d : tensor<16x16xf32, #l>
  }
  return %r : tensor<16x16xf32, #l>
}

// -----

// A staged side load (tilegpu-pipeline): each iteration waits for its
// stage, starts the copy of a later iteration into another stage, then
// reads its own stage with local_load. One barrier, after the wait, orders
// both the copy after every thread's read of the stage it overwrites
// (previous iteration) and the read after every thread's copy: the copy in
// flight is no write yet, so none goes before the local_load.
#s = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @side_load_loop
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: tilegpu.local_load
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
func.func @side_load_loop(%p: tensor<16x!tile.ptr<f32>, #s>, %n: index, %read: i32, %write: i32) -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<16xf32, #s>
  %buf = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<3x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> tensor<16xf32, #s> {
    tilegpu.async_wait {pending = 1 : i32}
    tilegpu.async_copy %p, %buf[%write] : tensor<16x!tile.ptr<f32>, #s> -> !tilegpu.memdesc<3x16xf32>
    tilegpu.async_commit_group
    %v = tilegpu.local_load %buf[%read] : !tilegpu.memdesc<3x16xf32> -> tensor<16xf32, #s>
    %a = arith.addf %acc, %v : tensor<16xf32, #s>
    scf.yield %a : tensor<16xf32, #s>
  }
  return %r : tensor<16xf32, #s>
}

// -----

// Rings invalidated one after the other share the bar.sync before the
// first (TmaOpToLLVM.cpp), so the first ring's invals are still pending
// after the second's: a read of its bytes gets a barrier. Rings
// initialized one after the other share the barrier after the last.
#s = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @barrier_runs
// CHECK: tilegpu.init_barriers
// CHECK-NEXT: tilegpu.init_barriers
// CHECK-NEXT: tilegpu.inval_barriers
// CHECK-NEXT: tilegpu.inval_barriers
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
func.func @barrier_runs() -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.mbarriers<2>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 64 : i32} : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %a : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %b : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %a : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %b : !tilegpu.mbarriers<2>
  %buf = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<1x16xf32>
  %v = tilegpu.local_load %buf[%c0] : !tilegpu.memdesc<1x16xf32> -> tensor<16xf32, #s>
  return %v : tensor<16xf32, #s>
}

// -----

// A ring initialized where a buffer was read before (its bytes reused)
// needs a barrier before its inits: other threads may still be reading.
// Here the second ring overlaps the buffer, the first does not.
#s = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @init_after_reads
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.local_alloc
// CHECK-NEXT: tilegpu.init_barriers %[[A:[0-9]+]]
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.init_barriers
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @init_after_reads() -> tensor<16xf32, #s> {
  %c0 = arith.constant 0 : i32
  %buf = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<1x16xf32>
  %v = tilegpu.local_load %buf[%c0] : !tilegpu.memdesc<1x16xf32> -> tensor<16xf32, #s>
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 128 : i32} : !tilegpu.mbarriers<2>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 32 : i32} : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %a : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %b : !tilegpu.mbarriers<2>
  return %v : tensor<16xf32, #s>
}
