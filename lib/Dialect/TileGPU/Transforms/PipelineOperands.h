//===- PipelineOperands.h - loads tilegpu-pipeline can copy -----*- C++ -*-===//
//
// What both of tilegpu-pipeline's schemes (PipelineLoops.cpp and
// PipelineStagedLoads.cpp) ask of a loop and its loads: the load behind a
// dot operand, whether a block can be copied into a swizzled wgmma tile,
// the ops and iter_args that compute a load's operands, and the clean-up
// of the loads a pipeline replaced.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEOPERANDS_H
#define TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEOPERANDS_H

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tilegpu {

/// The load behind a dot operand through layout conversions and, where
/// `transposed` is given, one 2-D tile.trans (which it then sets), whatever
/// else uses them; `chain` collects those ops, the dot's side first.
tile::LoadOp traceOperandLoad(Value operand,
                              SmallVectorImpl<Operation *> &chain,
                              bool *transposed);

/// The same, each op of the chain used once (the classic pipeline erases
/// the chain with the dot).
tile::LoadOp getOperandLoad(Value operand, SmallVectorImpl<Operation *> &chain,
                            bool *transposed = nullptr);

/// Whether a thread's runs of `load`'s elements along `axis` make cp.async
/// copies of 4, 8 or 16 bytes: the run the async_copy lowering plans
/// (planVectors: the layout's registers along the axis, the pointers'
/// contiguity and alignment, the mask's constancy).
bool hasCopyableRuns(tile::LoadOp load, DistributedLayoutInterface layout,
                     const tile::ModuleAxisInfo &axisInfo, unsigned axis);

/// Whether `load` reads a block a copy into a swizzled wgmma tile can hold:
/// 2-D f16/bf16, not volatile, zeros (or nothing) where masked off.
bool hasCopyableBlock(tile::LoadOp load);

/// Whether `load` can become an async copy into a swizzled wgmma tile (also
/// a transposed one where `allowTransposed`).
bool isCopyable(tile::LoadOp load, const tile::ModuleAxisInfo &axisInfo,
                bool allowTransposed = false);

/// Ops of `loop`'s body that compute the loads' operands and the next values
/// of the iter_args they use; those iter_args in `aheadArgs`.
void collectLoadSlice(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
                      llvm::SmallPtrSetImpl<Operation *> &slice,
                      llvm::SetVector<unsigned> &aheadArgs);

/// Both pipelines count iterations: a positive constant step, an i32 or
/// index induction variable.
bool hasCountableSteps(scf::ForOp loop);

/// Erases the replaced loads with the conversions between them and their
/// dots, then what computed their operands.
void eraseReplacedLoads(scf::ForOp loop,
                        ArrayRef<SmallVector<Operation *>> chains);

} // namespace mlir::tilegpu

#endif // TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEOPERANDS_H
