//===- StageCopies.h - the stages of a pipelined loop and their copies -*- C++
//-*-===//
//
// What both of tilegpu-pipeline's schemes share: a loop gets a buffer of S
// stages per staged load, the counters of the stages it reads and writes,
// a prologue that fills stages 0 .. S-2, and in its body the copies of
// iteration i+S-1 and the wait for iteration i. A load is copied with
// cp.async (per thread, in commit groups, waited for with
// cp.async.wait_group), or, where it carries the TMA tensor map of a host
// descriptor whose block is a TMA box (TensorMapBox.h), with one TMA copy by
// thread 0 that completes on the stage's mbarrier, waited for by phase; its
// tensor map is prefetched where the kernel begins.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_STAGECOPIES_H
#define TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_STAGECOPIES_H

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::tilegpu {

/// Whether `load`'s block is contiguous along its first axis (pointers
/// written base + rows[None, :] * stride + cols[:, None], a loaded q^T): its
/// stage holds it transposed, contiguous along the stage's last axis.
bool isTransposedLoad(tile::LoadOp load);

/// Whether `load` is copied with TMA: the target has TMA (sm_90 and
/// later), the load carries a tensor map, its block is not transposed and
/// is a TMA box.
bool isTmaLoad(tile::LoadOp load);

/// Starts fetching `tensormap` where the kernel begins, once per tensor map,
/// when it is a kernel argument (a host descriptor's): the fetch then
/// overlaps everything before the first copy or store through it instead
/// of delaying it. The prefetch goes first in the kernel, or with
/// `afterOthers` after the prefetches already there (a store's map, needed
/// last).
void prefetchAtEntry(Value tensormap, bool afterOthers = false);

/// The bytes of a block of `type` (a stage of it, a staged store's).
uint64_t getBlockBytes(RankedTensorType type);

/// The shared memory one stage of `loads` takes: their blocks (2-byte
/// elements) and, for each load copied with TMA, its stage's mbarrier (two
/// where `releaseBarriers`: the stages are also released on one).
uint64_t getStageBytes(ArrayRef<tile::LoadOp> loads,
                       bool releaseBarriers = false);

/// An integer constant of `type` (i32 or index).
Value constantOf(OpBuilder &b, Location loc, Type type, int64_t value);

/// A loop with its loads' stages: the stage counters it carries (read:
/// i % S, write: (i-1) % S), a buffer of S stages per load, and for the
/// loads copied with TMA their barriers (null for cp.async loads) and the
/// parity of the phase the read stage completes in, which the loop also
/// carries.
struct StagedLoop {
  scf::ForOp loop;
  unsigned stages;
  Value readStage, writeStage, phase;
  SmallVector<Value> buffers, barriers;
  /// Per TMA load, where the warps release its stages instead of meeting
  /// at a barrier before the copies: the barriers they release them on,
  /// one arrival per warp (null otherwise).
  SmallVector<Value> releaseBarriers;
  /// Iter_args the loads need that the body uses too: they stay with their
  /// iteration, and the copies of iteration i+S-1 apply their yields S-1
  /// times.
  SmallVector<unsigned> steppedArgs;
  /// The loop around `loop` whose iterations continue its pipeline (a
  /// persistent kernel's loop over tiles; getPipelineCarrier), or null. Its
  /// iterations carry the stage counters and phases; the buffers and
  /// barriers are set up once, before it, so that the copies of the next
  /// run of `loop` may start while this one's consumers are still busy.
  scf::ForOp carrier;
  /// Whether `loop` continues the pipeline of a loop before it in its
  /// block (chainsAfter): it started from that loop's stage counters and
  /// phase, in the same buffers and barriers, acquiring every stage.
  bool chained = false;
  /// The position of the read stage's counter among `loop`'s iter_args
  /// (the write stage's and the phase follow it).
  unsigned counterIndex = 0;
  /// Each load's tensor map (null for cp.async loads).
  SmallVector<Value> tensormaps;

  /// Whether some load is copied with cp.async (has no barriers).
  bool anyAsyncCopy() const { return llvm::is_contained(barriers, Value()); }
  /// Whether some load's stages are released on barriers.
  bool anyReleasedStages() const {
    return llvm::any_of(releaseBarriers, [](Value v) { return bool(v); });
  }
};

/// The loop whose iterations continue `loop`'s pipeline, if any: with
/// released stages (`releaseStages`), the scf.for whose body holds `loop`
/// and no other loop. Each run of `loop` then starts from the stages and
/// phases where the previous run stopped, acquiring every stage before it
/// refills it, and the barriers are initialized once.
scf::ForOp getPipelineCarrier(scf::ForOp loop, bool releaseStages);

/// Adds the stage counters to `loop`, allocates a buffer per load (and
/// barriers per TMA load) and emits the prologue: iterations 0 .. S-2
/// copied into stages 0 .. S-2, the iter_args in `aheadArgs` advanced with
/// them (those in `steppedArgs` are stepped for the copies only). A 1-D
/// load gets a plain buffer of 1-D stages. With `releaseStages`, each TMA
/// load also gets barriers its stages are released on (emitStageRelease),
/// which its copies in the body wait for (acquire_stage).
/// With `predecessor` (chainsAfter holds), the loop continues its
/// pipeline instead: no buffers or barriers of its own, the counters start
/// where the predecessor's stopped, and each prologue copy acquires its
/// stage as a carried run's do.
std::optional<StagedLoop>
setUpStages(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
            ArrayRef<unsigned> aheadArgs, ArrayRef<unsigned> steppedArgs,
            unsigned stages, bool releaseStages = false,
            const StagedLoop *predecessor = nullptr);

/// Whether `loop`, whose `loads` will be staged `stages` deep with released
/// stages, can continue `predecessor`'s pipeline (a causal forward's
/// diagonal loop after the loop below the diagonal): both in one block,
/// neither carried, every load copied with TMA through the same tensor map
/// into stages of the same type, the same depth, and between the two loops
/// nothing that touches memory but the predecessor's barrier
/// invalidations. One pipeline then runs through both, so that
/// tilegpu-warp-specialize's producer may fill the second loop's stages
/// while the consumers still read the first's.
bool chainsAfter(const StagedLoop &predecessor, scf::ForOp loop,
                 ArrayRef<tile::LoadOp> loads, unsigned stages);

/// At `b`'s insertion point in the body: waits until iteration i's stages
/// have landed (for cp.async, in this thread; S-2 groups stay pending).
void emitStageWait(OpBuilder &b, const StagedLoop &staged);

/// At `b`'s insertion point in the body: the copies of iteration i+S-1
/// into the stage iteration i-1 read (each TMA copy with released stages
/// after thread 0 has waited for every warp's release of iteration i-1).
void emitAheadCopies(OpBuilder &b, const StagedLoop &staged,
                     ArrayRef<tile::LoadOp> loads);

/// At `b`'s insertion point in the body, after the warp's last read of
/// iteration i's stage of load `index`: the warp releases the stage.
void emitStageRelease(OpBuilder &b, const StagedLoop &staged, unsigned index);

/// After the loop: the copies past the end waited for, the barriers
/// invalidated (after the carrier, where there is one).
void emitAfterLoop(OpBuilder &b, const StagedLoop &staged);

/// A loop-invariant wgmma operand that `load` (isTmaLoad) reads, copied
/// instead with TMA, right after `load`, into a new buffer of one stage:
/// the buffer, and the barriers (one) the copy completes on, in phase 0.
std::pair<Value, Value> copyOperandWithTma(tile::LoadOp load);

/// Where copyCarriedOperandWithTma put a carrier iteration's operand: the
/// buffer and the slot of it, the barriers the copy completes on and the
/// phase to wait for there.
struct CarriedOperand {
  Value buffer, slot, barriers, phase;
};

/// copyOperandWithTma for an operand loaded in each iteration of
/// `staged`'s carrier, into a ring of `slots` (1 or 2) buffers set up
/// before the carrier, which carries the slot and its phase; thread 0
/// acquires the slot (the warps release it after `staged.loop`, on a
/// barrier of its own) before it refills it. With two slots the producer
/// warp of a warp-specialized kernel copies the next iteration's operand
/// while the consumers still read this one's. The barriers are
/// invalidated after the carrier; nullopt if the carrier cannot take more
/// iter_args.
std::optional<CarriedOperand> copyCarriedOperandWithTma(tile::LoadOp load,
                                                        StagedLoop &staged,
                                                        unsigned slots);

} // namespace mlir::tilegpu

#endif // TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_STAGECOPIES_H
