// RUN: tile-opt %s -test-print-gpu-parity | FileCheck %s
// The tile-dialect ops the interpreter runs and the GPU path does not lower
// yet, and the reverse; the GPU-only ops must be ones the interpreter
// refuses with a diagnostic at their line (inline PTX cannot run on the
// CPU). Giving an op a GPU lowering (or adding an op, or an interpreter
// handler) changes these lines: update them, and the "not supported on the
// GPU yet" list of docs/language.md with them.

// CHECK: interpreter only:{{$}}
// CHECK-NEXT: GPU only: tile.inline_asm_elementwise{{$}}
// CHECK-NEXT: refused by the interpreter: tile.inline_asm_elementwise{{$}}
module {}
