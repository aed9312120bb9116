//===- PipelineStagedLoads.h - tilegpu-pipeline's staged loads -*- C++ -*-===//
//
// The scheme of tilegpu-pipeline for loops with several wgmma dots
// (PipelineStagedLoads.cpp): what PipelineLoops.cpp's pass matches, sizes
// and rewrites.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINESTAGEDLOADS_H
#define TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINESTAGEDLOADS_H

#include "StageCopies.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::tilegpu {

/// A wgmma dot of a loop whose B operand (and A, where it is a load too)
/// the loop's stages hold; an A that is not a load goes through a buffer of
/// one stage (stored once before the loop when the loop does not change it).
struct StagedDot {
  tile::DotOp dot;
  int aLoad = -1, bLoad; // indices into StagedLoads::loads; -1: registers
  bool bKMajor = false;
  Value registerA; // A before its layout conversions, where not a load
  /// registerA is an earlier dot's accumulator layout that wgmma reads from
  /// registers as it is (attention's P): no buffer.
  bool aFromRegisters = false;
};

struct StagedLoads {
  scf::ForOp loop;
  /// The dots' staged loads, then the side loads (the last `sideLoads`).
  SmallVector<tile::LoadOp> loads;
  unsigned sideLoads = 0;
  SmallVector<unsigned> steppedArgs;
  SmallVector<SmallVector<Operation *>, 4> chains;
  SmallVector<StagedDot> dots;
  SmallVector<unsigned> aheadArgs;

  /// Bytes of the register A buffers.
  uint64_t registerBytes() const {
    uint64_t bytes = 0;
    for (const StagedDot &dot : dots)
      if (dot.aLoad < 0 && !dot.aFromRegisters)
        bytes +=
            cast<RankedTensorType>(dot.registerA.getType()).getNumElements() *
            2;
    return bytes;
  }
};

/// A loop whose dots all run on wgmma and whose dots' B operands (at least
/// one) are loads the pipeline can copy: each such load gets stages, each
/// such dot becomes a synchronous warpgroup_dot on them (the loop's
/// accumulators may be rescaled between dots, as attention's are).
std::optional<StagedLoads> matchStagedLoads(scf::ForOp loop,
                                            const tile::ModuleAxisInfo &info);

/// Whether the warps release the loop's stages on barriers instead of
/// meeting at a barrier before each iteration's copies: when every staged
/// load is copied with TMA (cp.async copies need the program's barrier to
/// become visible to other threads) and the program has several
/// warpgroups. Thread 0 then starts a copy once every warp has released
/// the stage it overwrites, and the warpgroups need not keep in step: on
/// the H100 the attention forward at D 128 with two warpgroups ran 7-10%
/// faster. One warpgroup keeps in step anyway (its wgmma are collective);
/// there the releases cost up to 13% (D 64, 4 warps).
bool releasesStages(const StagedLoads &candidate);

/// The buffers that hold loop-invariant A operands, by the value stored,
/// with the op after which the buffer holds it and the slot it is in: a
/// later loop that reads the same value reads the same buffer (tutorial
/// 06's causal forward runs two loops on one q).
struct StoredOperand {
  Operation *ready;
  Value buffer, slot;
};
using StoredOperands = DenseMap<Value, StoredOperand>;

/// The last pipeline staged in each block, which a later loop of the same
/// block may continue (StageCopies.h: chainsAfter).
using PipelineChains = DenseMap<Block *, StagedLoop>;

/// Rewrites `candidate`'s loop into its `stages`-deep pipeline; `stored`
/// holds the loop-invariant A buffers earlier loops filled, `chains` the
/// pipelines they run (the loop continues its block's last one where it
/// can, and becomes it). `spareBytes` is the shared memory the stages and
/// the fixed buffers leave: an operand a carrier refills gets a second
/// slot where it fits there.
void pipelineStagedLoads(StagedLoads candidate, unsigned stages,
                         uint64_t spareBytes, StoredOperands &stored,
                         PipelineChains &chains);

} // namespace mlir::tilegpu

#endif // TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINESTAGEDLOADS_H
