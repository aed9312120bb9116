// RUN: tile-opt %s -split-input-file -tilegpu-persistent-programs="carried-only=false" | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-persistent-programs | FileCheck %s --check-prefix=CARRIED

// A kernel whose loop asks for warp specialization and runs as often in
// every program: its body loops over the grid's programs (64-bit launch
// index from the hardware's, stepping by the hardware's count, up to the
// product of the sizes passed after the kernel's arguments), whose ids
// replace tile.program_id and whose sizes replace tile.num_programs.
// CHECK: module attributes {"tilegpu.persistent-programs"}
// CHECK-LABEL: func.func @uniform
// CHECK-SAME: (%[[OUT:.*]]: !tile.ptr<i32>, %[[N:.*]]: i32, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK: %[[HW:.*]] = tile.program_id 0 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.extui %[[HW]] : i32 to i64
// CHECK-NEXT: %[[HWN:.*]] = tile.num_programs 0 : i32
// CHECK-NEXT: %[[STEP:.*]] = arith.extui %[[HWN]] : i32 to i64
// CHECK-NEXT: %[[X:.*]] = arith.extui %[[GX]] : i32 to i64
// CHECK-NEXT: %[[Y:.*]] = arith.extui %[[GY]] : i32 to i64
// CHECK-NEXT: %[[XY:.*]] = arith.muli %[[X]], %[[Y]] : i64
// CHECK-NEXT: %[[Z:.*]] = arith.extui %[[GZ]] : i32 to i64
// CHECK-NEXT: %[[ALL:.*]] = arith.muli %[[XY]], %[[Z]] : i64
// CHECK-NEXT: scf.for %[[P:.*]] = %[[FIRST]] to %[[ALL]] step %[[STEP]] : i64 {
// CHECK-NEXT: %[[PX:.*]] = arith.remui %[[P]], %[[X]]
// CHECK-NEXT: %[[ID0:.*]] = arith.trunci %[[PX]] : i64 to i32
// CHECK: %[[PZ:.*]] = arith.divui %[[P]], %[[XY]]
// CHECK-NEXT: %[[ID2:.*]] = arith.trunci %[[PZ]] : i64 to i32
// CHECK-NOT: tile.program_id
// CHECK: arith.addi %[[ID0]], %[[GX]]
// CHECK: arith.addi %[[ID2]], %[[GZ]]
// CHECK: scf.for
// CHECK: tile.store
// CHECK: }
// CHECK-NEXT: return
// Without a dot on TMA loads in a program of several warpgroups the
// pipeline would not be carried: left alone by default.
// CARRIED-NOT: tilegpu.persistent-programs
// CARRIED-LABEL: func.func @uniform(%{{.*}}: !tile.ptr<i32>, %{{.*}}: i32)
func.func @uniform(%out: !tile.ptr<i32>, %n: i32) {
  %x = tile.program_id 0 : i32
  %z = tile.program_id 2 : i32
  %nx = tile.num_programs 0 : i32
  %nz = tile.num_programs 2 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %nx : i32
  %b = arith.addi %z, %nz : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%k = %a) -> (i32) : i32 {
    %k1 = arith.addi %k, %b : i32
    scf.yield %k1 : i32
  } {tile.warp_specialize}
  tile.store %out, %s : !tile.ptr<i32>
  return
}

// -----

// Left alone: the loop does not ask for warp specialization.
// CHECK-NOT: tilegpu.persistent-programs
// CHECK-LABEL: func.func @not_asked(%{{.*}}: !tile.ptr<i32>, %{{.*}}: i32)
// CHECK-NEXT: tile.program_id 0
func.func @not_asked(%out: !tile.ptr<i32>, %n: i32) {
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%k = %x) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  }
  tile.store %out, %s : !tile.ptr<i32>
  return
}

// -----

// Left alone: program_id(0) sets the trip count (a causal forward's row
// block): round robin would share the work out unevenly.
// CHECK-NOT: tilegpu.persistent-programs
// CHECK-LABEL: func.func @growing(%{{.*}}: !tile.ptr<i32>)
func.func @growing(%out: !tile.ptr<i32>) {
  %x = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %x step %c1 iter_args(%k = %c0) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  } {tile.warp_specialize}
  tile.store %out, %s : !tile.ptr<i32>
  return
}

// -----

// Left alone: two loops (the second pipeline would not be carried).
// CHECK-NOT: tilegpu.persistent-programs
// CHECK-LABEL: func.func @two_loops(%{{.*}}: !tile.ptr<i32>, %{{.*}}: i32)
func.func @two_loops(%out: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c0) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  } {tile.warp_specialize}
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%k = %s) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  }
  tile.store %out, %t : !tile.ptr<i32>
  return
}

// -----

// Left alone: an atomic (programs that wait for each other could wait for
// one queued behind them on the same hardware program).
// CHECK-NOT: tilegpu.persistent-programs
// CHECK-LABEL: func.func @atomic(%{{.*}}: !tile.ptr<i32>, %{{.*}}: i32)
func.func @atomic(%out: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c0) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  } {tile.warp_specialize}
  %old = tile.atomic_rmw add, %out, %s : !tile.ptr<i32>
  return
}
