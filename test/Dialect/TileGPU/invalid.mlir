// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{order must be a permutation of 0..1}}
#bad = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 0]}>
func.func private @f(tensor<4x4xf32, #bad>)

// -----

// expected-error @+1 {{one entry per axis (2)}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func private @f(tensor<4x4xf32, #bad>)

// -----

// expected-error @+1 {{threadsPerWarp entries must be powers of two, got 3}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [3], warpsPerCTA = [4], order = [0]}>
func.func private @f(tensor<4xf32, #bad>)

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @shape(%x: tensor<128xf32, #a>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %y = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<256xf32, #a>
  return
}

// -----

// expected-error @+1 {{a memdesc is stages x rows x columns (or stages x elements), got 4 dimensions}}
func.func private @f(!tilegpu.memdesc<2x2x64x32xf16>)

// -----

// expected-error @+1 {{a memdesc of 2-D stages holds f16 or bf16, got 'f32'}}
func.func private @f(!tilegpu.memdesc<2x64x32xf32>)

// -----

// expected-error @+1 {{a memdesc of 1-D stages holds 2- or 4-byte elements, got 'i8'}}
func.func private @f(!tilegpu.memdesc<2x64xi8>)

// -----

// A plain buffer of 1-D stages is read back with local_load in the block's
// shape and element type only.
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @local_load_shape(%stage: i32) -> tensor<32xf32, #l> {
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<3x16xf32>
  // expected-error @+1 {{reads a 'tensor<32xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' block from stages of '!tilegpu.memdesc<3x16xf32>'}}
  %v = tilegpu.local_load %buf[%stage] : !tilegpu.memdesc<3x16xf32> -> tensor<32xf32, #l>
  return %v : tensor<32xf32, #l>
}

// -----

// wgmma reads swizzled 2-D stages, not plain ones.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
func.func @dot_of_plain_stages(%stage: i32, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  // expected-error @+1 {{reads 2-D stages, got '!tilegpu.memdesc<2x64xf16>' and '!tilegpu.memdesc<2x64x64xf16>'}}
  %d = tilegpu.warpgroup_dot %a, %b[%stage], %acc : !tilegpu.memdesc<2x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%pa: tensor<64x16x!tile.ptr<f16>, #p>, %s: i32) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  // expected-error @below {{copies a 'tensor<64x16x!tile.ptr<f16>, #tilegpu.blocked}}
  tilegpu.async_copy %pa, %a[%s] : tensor<64x16x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>
  return
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%acc: tensor<64x64xf32, #p>, %s: i32) -> tensor<64x64xf32, #p> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xf16>
  // expected-error @below {{accumulator must be a 2-D tensor with an #tilegpu.mma version 3 layout}}
  %d = tilegpu.warpgroup_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #p>
  return %d : tensor<64x64xf32, #p>
}

// -----

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
func.func @f(%acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x16x64xf16>
  // expected-error @below {{do not multiply into}}
  %d = tilegpu.warpgroup_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x16x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

// expected-error @+1 {{mma layout version 4 is not supported (2: mma.sync, 3: wgmma)}}
func.func @f(%x: tensor<64x64xf32, #tilegpu.mma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 64]}>>) {
  return
}

// -----

// mma.sync (version 2) places warps freely; wgmma (version 3) stacks whole
// warpgroups along the rows.
// expected-error @+2 {{warpsPerCTA[0] must be a multiple of 4, got 2}}
func.func @f(%x: tensor<32x64xf32, #tilegpu.mma<{version = 2, warpsPerCTA = [2, 1], instrShape = [16, 64]}>>,
             %y: tensor<32x64xf32, #tilegpu.mma<{version = 3, warpsPerCTA = [2, 1], instrShape = [16, 64]}>>) {
  return
}

// -----

// shared_dot is mma.sync: its accumulator has the version 2 layout.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
func.func @f(%acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xf16>
  // expected-error @below {{accumulator must be a 2-D tensor with an #tilegpu.mma version 2 layout}}
  %d = tilegpu.shared_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
func.func @k_major_b_shape(%acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xf16>
  // expected-error @below {{do not multiply into}}
  %d = tilegpu.warpgroup_dot %a, %b[%s], %acc {b_k_major} : !tilegpu.memdesc<2x64x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
func.func @register_a_layout(%a: tensor<64x32xf16, #p>, %acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xf16>
  // expected-error @below {{takes A from registers only in an mma version 3 layout}}
  %d = tilegpu.warpgroup_dot %a, %b[%s], %acc : tensor<64x32xf16, #p>, !tilegpu.memdesc<2x32x64xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#t = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @transposed_copy_shape(%p: tensor<64x16x!tile.ptr<f16>, #t>, %s: i32) {
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x16xf16>
  // expected-error @below {{copies a}}
  tilegpu.async_copy %p, %b[%s] {transposed} : tensor<64x16x!tile.ptr<f16>, #t> -> !tilegpu.memdesc<2x64x16xf16>
  return
}

// -----

func.func @tma_copy_rank(%map: !tile.ptr<i8>, %r: i32, %s: i32, %go: i1) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  // expected-error @below {{copies 2-D boxes, got 1 coordinates}}
  tilegpu.tma_copy %map[%r], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  return
}

// -----

func.func @tma_store_rank(%map: !tile.ptr<i8>, %r: i32, %s: i32) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<1x64x64xf16>
  // expected-error @below {{stores 2-D boxes, got 1 coordinates}}
  tilegpu.tma_store %a[%s], %map[%r] : !tilegpu.memdesc<1x64x64xf16> -> !tile.ptr<i8>
  return
}

// -----

func.func @tma_store_box(%map: !tile.ptr<i8>, %r: i32, %s: i32) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<1x64x8xf16>
  // expected-error @below {{are no TMA box (TensorMapBox.h)}}
  tilegpu.tma_store %a[%s], %map[%r, %r] : !tilegpu.memdesc<1x64x8xf16> -> !tile.ptr<i8>
  return
}

// -----

func.func @acquire_stage_count(%s: i32, %phase: i32, %go: i1) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
  %released = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  // expected-error @below {{guards 3 stages with 2 barriers}}
  tilegpu.acquire_stage %released[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<3x64x64xf16>
  return
}

// -----

func.func @init_no_arrivals() {
  %released = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  // expected-error @below {{needs at least one arrival per phase, got 0}}
  tilegpu.init_barriers %released {arrivals = 0 : i32} : !tilegpu.mbarriers<2>
  return
}

// -----

func.func @tma_copy_box(%map: !tile.ptr<i8>, %r: i32, %s: i32, %go: i1) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x512x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  // expected-error @below {{are no TMA box}}
  tilegpu.tma_copy %map[%r, %r], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x512x64xf16>, !tilegpu.mbarriers<2>
  return
}

// -----

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_columns_layout(%acc: tensor<64x64xf32, #mma>) {
  // expected-error @below {{takes a 2-D block in an mma layout to one of the same element type}}
  %r = tilegpu.extract_columns %acc {offset = 0 : i32} : tensor<64x64xf32, #mma> -> tensor<64x32xf32, #blocked>
  return
}

// -----

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#half = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]}>
func.func @extract_columns_range(%acc: tensor<64x64xf32, #mma>) {
  // expected-error @below {{takes whole columns within its operand}}
  %r = tilegpu.extract_columns %acc {offset = 48 : i32} : tensor<64x64xf32, #mma> -> tensor<64x32xf32, #half>
  return
}

// -----

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#other = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 32]}>
func.func @extract_columns_warps(%acc: tensor<64x64xf32, #mma>) {
  // expected-error @below {{keeps the mma version and warps}}
  %r = tilegpu.extract_columns %acc {offset = 0 : i32} : tensor<64x64xf32, #mma> -> tensor<64x32xf32, #other>
  return
}

// -----

func.func @registers_outside_split() {
  // expected-error @+1 {{must be inside a tilegpu.warp_roles split}}
  tilegpu.set_max_registers 232
  return
}

// -----

func.func @registers_out_of_range(%producer: i1) {
  scf.if %producer {
    // expected-error @+1 {{needs a multiple of 8 from 24 to 256 registers, got 236}}
    tilegpu.set_max_registers 236
  } {tilegpu.warp_roles}
  return
}

// -----

func.func @turn_outside_split() {
  // expected-error @+1 {{must be in the consumers' region of a tilegpu.warp_roles split}}
  tilegpu.take_turn
  return
}

// -----

func.func @turn_in_producer(%producer: i1) {
  scf.if %producer {
    // expected-error @+1 {{must be in the consumers' region of a tilegpu.warp_roles split}}
    tilegpu.pass_turn
  } {tilegpu.warp_roles}
  return
}

// -----

func.func @turn_of_a_third_group(%producer: i1) {
  scf.if %producer {
  } else {
    // expected-error @+1 {{names consumer warpgroup 2; there are two (0 and 1)}}
    tilegpu.pass_turn {group = 2 : i32}
  } {tilegpu.warp_roles}
  return
}
