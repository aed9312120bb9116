// RUN: tile-opt %s -test-print-gpu-parity | FileCheck %s
// The tile-dialect ops the interpreter runs and the GPU path does not lower
// yet, and the reverse. Giving an op a GPU lowering (or adding an op, or an
// interpreter handler) changes these lines: update them, and the "not
// supported on the GPU yet" list of docs/language.md with them.

// CHECK: interpreter only: tile.print{{$}}
// CHECK-NEXT: GPU only:{{$}}
module {}
