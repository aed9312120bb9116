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
