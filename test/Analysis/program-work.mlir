// RUN: tile-opt %s -split-input-file -test-print-program-work -verify-diagnostics -o /dev/null

// Causal attention's two loops: the off-diagonal one grows with pid0 and
// loads a 64 x 64 f16 tile per iteration; the diagonal one runs from
// pid0 * 64 to (pid0 + 1) * 64, the same in every program (the slopes
// cancel). The work grows along axis 0 only.
// expected-remark @below {{work: increasing independent independent}}
func.func @causal(%p: !tile.ptr<f16>) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lo = arith.muli %pid, %c64 : i32
  %next = arith.addi %pid, %c1 : i32
  %hi = arith.muli %next, %c64 : i32
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  // expected-remark @below {{trip count: increasing independent independent; loads 8192 bytes per iteration}}
  scf.for %i = %c0 to %lo step %c64 : i32 {
    %x = tile.load %ps : tensor<64x64x!tile.ptr<f16>>
  }
  // expected-remark @below {{trip count: independent independent independent; loads 0 bytes per iteration}}
  scf.for %i = %lo to %hi step %c64 : i32 {
  }
  return
}

// -----

// A loop from pid1 shrinks along axis 1; divisions by a positive constant
// and min keep the trend without a slope; a product with a kernel argument
// (of unknown sign) is not followed.
// expected-remark @below {{work: unknown decreasing independent}}
func.func @trends(%n: i32) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  // expected-remark @below {{trip count: independent decreasing independent; loads 0 bytes per iteration}}
  scf.for %i = %y to %n step %c1 : i32 {
  }
  %q = arith.divsi %x, %c4 : i32
  %m = arith.minsi %q, %n : i32
  // expected-remark @below {{trip count: increasing independent independent; loads 0 bytes per iteration}}
  scf.for %i = %c1 to %m step %c1 : i32 {
  }
  %s = arith.muli %x, %n : i32
  // expected-remark @below {{trip count: unknown independent independent; loads 0 bytes per iteration}}
  scf.for %i = %c1 to %s step %c1 : i32 {
  }
  return
}

// -----

// A branch on pid0 makes the work along axis 0 unknown; a while loop, along
// every axis.
// expected-remark @below {{work: unknown independent independent}}
func.func @branch(%p: !tile.ptr<i32>) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @below {{trip count: increasing independent independent; loads 0 bytes per iteration}}
  scf.for %i = %c0 to %pid step %c1 : i32 {
  }
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    tile.store %p, %pid : !tile.ptr<i32>
  }
  return
}

// -----

// expected-remark @below {{work: unknown unknown unknown}}
func.func @while(%n: i32) {
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c1) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %j = arith.addi %i, %c1 : i32
    scf.yield %j : i32
  }
  return
}
