//===- GPUSupport.h - which ops the GPU path lowers -------------*- C++ -*-===//
//
// The GPU path's answer to "does this op run on the GPU": the ops that
// convert-tilegpu-to-llvm has a pattern for. tile-check-gpu-support reports
// the others at their line before the GPU pipeline runs, and the parity test
// (test-print-gpu-parity) compares them with the interpreter's ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_GPUSUPPORT_H
#define TILE_CONVERSION_GPUSUPPORT_H

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Operation;
namespace tile {

/// Names of the ops convert-tilegpu-to-llvm lowers ("tile.load",
/// "arith.addf", ...): the root op of each of its patterns and the region
/// terminators lowered with their parents, sorted. Elementwise ops on
/// tensors are lowered to the same op on scalars first, so they are in the
/// list through the scalar op's pattern.
std::vector<std::string> getGPULoweredOpNames(MLIRContext *context);

/// How a kernel's author calls the tile-dialect op `op` in Triton's
/// language: "tl.atomic_add", "tl.trans (tl.permute, .T)".
std::string getBuiltinSpelling(Operation *op);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_GPUSUPPORT_H
