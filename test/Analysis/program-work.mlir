// RUN: tile-opt %s -split-input-file -test-print-program-work -verify-diagnostics -o /dev/null

// The causal forward's two loops: the blocks left of the diagonal (more of
// them the higher the row block, program_id(0)) and the diagonal block (one,
// whichever the row block).
// expected-remark @below {{kernel work by axis: 0: increasing, 1: independent, 2: independent}}
func.func @causal(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %m = tile.program_id 0 : i32
  %hz = tile.program_id 1 : i32
  %hi = arith.muli %m, %c128 : i32
  // expected-remark @below {{loop trip count by axis: 0: increasing, 1: independent, 2: independent}}
  scf.for %i = %c0 to %hi step %c64 : i32 {
  }
  %next = arith.addi %m, %c1 : i32
  %end = arith.muli %next, %c128 : i32
  // expected-remark @below {{loop trip count by axis: 0: independent, 1: independent, 2: independent}}
  scf.for %i = %hi to %end step %c64 : i32 {
  }
  // A bound from kernel arguments and another axis's id only moves the
  // loop, it does not lengthen it.
  %base = arith.muli %hz, %c128 : i32
  %top = arith.addi %base, %n : i32
  // expected-remark @below {{loop trip count by axis: 0: independent, 1: independent, 2: independent}}
  scf.for %i = %base to %top step %c1 : i32 {
  }
  return
}

// -----

// A persistent loop starts at its program id and strides by the grid: the
// higher the id, the fewer iterations.
// expected-remark @below {{kernel work by axis: 0: decreasing, 1: independent, 2: independent}}
func.func @persistent(%tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %pid = tile.program_id 0 : i32
  %grid = tile.num_programs 0 : i32
  // expected-remark @below {{loop trip count by axis: 0: decreasing, 1: independent, 2: independent}}
  scf.for %t = %pid to %tiles step %grid : i32 {
    // expected-remark @below {{loop trip count by axis: 0: independent, 1: independent, 2: independent}}
    scf.for %k = %c0 to %c8 step %c1 : i32 {
    }
  }
  return
}

// -----

// What the reading does not follow: a loop under a branch on the program
// id, a bound carried by an enclosing loop, a division that is not exact,
// a product of the id and a value known only at run time, a while loop
// (which leaves every axis unknown).
// expected-remark @below {{kernel work by axis: 0: unknown, 1: unknown, 2: unknown}}
func.func @unknown(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %pid = tile.program_id 0 : i32
  %odd = arith.remsi %pid, %c3 : i32
  %some = arith.cmpi eq, %odd, %c0 : i32
  scf.if %some {
    // expected-remark @below {{loop trip count by axis: 0: unknown, 1: independent, 2: independent}}
    scf.for %i = %c0 to %n step %c1 : i32 {
    }
  }
  // expected-remark @below {{loop trip count by axis: 0: independent, 1: independent, 2: independent}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-remark @below {{loop trip count by axis: 0: unknown, 1: unknown, 2: unknown}}
    scf.for %j = %c0 to %i step %c1 : i32 {
    }
  }
  %third = arith.divsi %pid, %c3 : i32
  // expected-remark @below {{loop trip count by axis: 0: unknown, 1: independent, 2: independent}}
  scf.for %i = %c0 to %third step %c1 : i32 {
  }
  %scaled = arith.muli %pid, %n : i32
  // expected-remark @below {{loop trip count by axis: 0: unknown, 1: independent, 2: independent}}
  scf.for %i = %c0 to %scaled step %c1 : i32 {
  }
  scf.while : () -> () {
    %go = arith.cmpi slt, %c0, %n : i32
    scf.condition(%go)
  } do {
    scf.yield
  }
  return
}
