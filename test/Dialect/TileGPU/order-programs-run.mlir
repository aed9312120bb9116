// RUN: sed -n '/^\/\/ tile.run:/,/^$/p' %s > %t.mlir
// RUN: tile-opt %s -tilegpu-order-programs="max-section=3" >> %t.mlir
// RUN: tile-run %t.mlir --interpret --print-buffer runs --print-buffer trips --print-buffer ticket | FileCheck %s
// RUN: tile-run %s --interpret --print-buffer ticket | FileCheck %s --check-prefix=LAUNCH

// The renumbering is a bijection of the grid: on a 4 x 5 x 2 grid whose
// loop runs pid0 iterations, each program (pid0 + 4 * (pid1 + 5 * pid2))
// runs once and sees its own pid0. The interpreter runs programs in launch

// pairs, pid0 = 3 of both first, then pid0 = 2, and so on.

// tile-run: order
//   runs = zeros(i32, 40)
//   trips = zeros(i32, 40)
//   ticket = zeros(i32, 40)
//   counter = zeros(i32, 1)
//   args = (runs, trips, ticket, counter)
//   grid = (4, 5, 2)

// CHECK: runs = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1{{ *}}
// CHECK-NEXT: trips = 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3{{ *}}
// CHECK-NEXT: ticket = 9 6 3 0 10 7 4 1 11 8 5 2 21 18 15 12 22 19 16 13 23 20 17 14 33 30 27 24 34 31 28 25 35 32 29 26 39 38 37 36{{ *}}
// LAUNCH: ticket = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39{{ *}}

func.func @order(%runs: !tile.ptr<i32>, %trips: !tile.ptr<i32>, %ticket: !tile.ptr<i32>, %counter: !tile.ptr<i32>) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %z = tile.program_id 2 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %z5 = arith.muli %z, %c5 : i32
  %yz = arith.addi %y, %z5 : i32
  %yz4 = arith.muli %yz, %c4 : i32
  %idx = arith.addi %x, %yz4 : i32
  %n = scf.for %i = %c0 to %x step %c1 iter_args(%k = %c0) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  }
  %run = tile.addptr %runs, %idx : !tile.ptr<i32>, i32
  %old = tile.atomic_rmw add, %run, %c1 : !tile.ptr<i32>
  %trip = tile.addptr %trips, %idx : !tile.ptr<i32>, i32
  tile.store %trip, %n : !tile.ptr<i32>
  %mine = tile.atomic_rmw add, %counter, %c1 : !tile.ptr<i32>
  %t = tile.addptr %ticket, %idx : !tile.ptr<i32>, i32
  tile.store %t, %mine : !tile.ptr<i32>
  return
}
