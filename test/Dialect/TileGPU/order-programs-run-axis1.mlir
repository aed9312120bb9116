// RUN: sed -n '/^\/\/ tile.run:/,/^$/p' %s > %t.mlir
// RUN: tile-opt %s -tilegpu-order-programs="max-section=4" >> %t.mlir
// RUN: tile-run %t.mlir --interpret --print-buffer runs --print-buffer trips --print-buffer ticket | FileCheck %s

// The work grows along axis 1 of a 3 x 4 x 2 grid: the other axes' 6
// programs (x + 3 * z) go in sections of 4 and 2; within a section, pid1 =
// 3 of each first. Every program runs once and sees its own pid1.

// tile-run: order_axis1
//   runs = zeros(i32, 24)
//   trips = zeros(i32, 24)
//   ticket = zeros(i32, 24)
//   counter = zeros(i32, 1)
//   args = (runs, trips, ticket, counter)
//   grid = (3, 4, 2)

// CHECK: runs = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1{{ *}}
// CHECK-NEXT: trips = 0 0 0 1 1 1 2 2 2 3 3 3 0 0 0 1 1 1 2 2 2 3 3 3{{ *}}
// CHECK-NEXT: ticket = 12 13 14 8 9 10 4 5 6 0 1 2 15 22 23 11 20 21 7 18 19 3 16 17{{ *}}

func.func @order_axis1(%runs: !tile.ptr<i32>, %trips: !tile.ptr<i32>, %ticket: !tile.ptr<i32>, %counter: !tile.ptr<i32>) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %z = tile.program_id 2 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %z4 = arith.muli %z, %c4 : i32
  %yz = arith.addi %y, %z4 : i32
  %yz3 = arith.muli %yz, %c3 : i32
  %idx = arith.addi %x, %yz3 : i32
  %n = scf.for %i = %c0 to %y step %c1 iter_args(%k = %c0) -> (i32) : i32 {
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
