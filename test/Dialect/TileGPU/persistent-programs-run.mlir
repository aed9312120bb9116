// RUN: sed -n '/^\/\/ tile.run:/,/^$/p' %s > %t.mlir
// RUN: tile-opt %s -tilegpu-persistent-programs="all-kernels=true carried-only=false" >> %t.mlir
// RUN: tile-run %t.mlir --interpret --print-buffer runs --print-buffer ids --print-buffer sizes | FileCheck %s

// The rewritten kernel, launched as the runtime launches it: 3 hardware
// programs for a 4 x 5 x 2 grid, whose sizes come after the kernel's
// arguments. Every program of the grid runs once (runs counts them; the
// interpreter runs programs one after the other, so a plain increment
// counts), sees its own ids (ids: pid0 + 10 pid1 + 100 pid2 at its launch
// index pid0 + 4 (pid1 + 5 pid2)) and the grid's sizes (sizes: 4 + 10 * 5
// + 100 * 2), and its loop runs its 3 iterations (runs adds them).

// tile-run: kernel
//   runs = zeros(i32, 40)
//   ids = zeros(i32, 40)
//   sizes = zeros(i32, 40)
//   args = (runs, ids, sizes, 4, 5, 2)
//   grid = (3, 1, 1)

// CHECK: runs = 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4{{ *}}
// CHECK-NEXT: ids = 0 1 2 3 10 11 12 13 20 21 22 23 30 31 32 33 40 41 42 43 100 101 102 103 110 111 112 113 120 121 122 123 130 131 132 133 140 141 142 143{{ *}}
// CHECK-NEXT: sizes = 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254 254{{ *}}

func.func @kernel(%runs: !tile.ptr<i32>, %ids: !tile.ptr<i32>, %sizes: !tile.ptr<i32>) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %z = tile.program_id 2 : i32
  %nx = tile.num_programs 0 : i32
  %ny = tile.num_programs 1 : i32
  %nz = tile.num_programs 2 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %zny = arith.muli %z, %ny : i32
  %yz = arith.addi %y, %zny : i32
  %yznx = arith.muli %yz, %nx : i32
  %idx = arith.addi %x, %yznx : i32
  %run = tile.addptr %runs, %idx : !tile.ptr<i32>, i32
  %once = tile.load %run : !tile.ptr<i32>
  %first = arith.addi %once, %c1 : i32
  tile.store %run, %first : !tile.ptr<i32>
  %n = scf.for %i = %c0 to %c3 step %c1 iter_args(%k = %first) -> (i32) : i32 {
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1 : i32
  }
  tile.store %run, %n : !tile.ptr<i32>
  %y10 = arith.muli %y, %c10 : i32
  %z100 = arith.muli %z, %c100 : i32
  %xy = arith.addi %x, %y10 : i32
  %xyz = arith.addi %xy, %z100 : i32
  %id = tile.addptr %ids, %idx : !tile.ptr<i32>, i32
  tile.store %id, %xyz : !tile.ptr<i32>
  %ny10 = arith.muli %ny, %c10 : i32
  %nz100 = arith.muli %nz, %c100 : i32
  %nxy = arith.addi %nx, %ny10 : i32
  %nxyz = arith.addi %nxy, %nz100 : i32
  %size = tile.addptr %sizes, %idx : !tile.ptr<i32>, i32
  tile.store %size, %nxyz : !tile.ptr<i32>
  return
}
