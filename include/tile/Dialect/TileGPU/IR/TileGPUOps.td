//===- TileGPUOps.td - tilegpu operations ------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tile/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "tile/Dialect/TileGPU/IR/TileGPUTypes.td"
include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Redistribute a tensor to another layout";
  let description = [{
    Same values, another layout. Passes remove the ones they can; the rest
    move data between threads.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TileGPU_ExtractColumnsOp : TileGPU_Op<"extract_columns", [Pure]> {
  let summary = "Columns of an mma-layout block that its registers hold";
  let description = [{
    The columns [`offset`, `offset` + N') of a 2-D block in a
    `#tilegpu.mma` layout, as an N'-column block in an mma layout of the
    same version and warps: each thread keeps the registers of those
    columns, and no data moves. The result's layout must place every
    column in the thread that holds it in `src` (the same layout with half
    the tile repetitions, or, with one warp along N and one repetition, an
    instruction half as wide). tilegpu-split-accumulator-columns makes it
    of tl.split(tl.permute(tl.reshape(acc, (M, 2, N // 2)), (0, 2, 1))).
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$offset);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Synchronize the threads of a program (bar.sync 0)";
  let description = [{
    Every thread of the program reaches it before any passes, and shared
    memory accesses before it are visible to every thread after it.
    tilegpu-insert-barriers places it where shared-memory accesses of
    different ops would otherwise race.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// The software-pipelined dot (tilegpu-pipeline). Each stage of a
// !tilegpu.memdesc is filled by async copies and read by wgmma while the
// next stages load.
//===----------------------------------------------------------------------===//

def TileGPU_SharedMemory : Resource<"::mlir::tilegpu::SharedMemory">;

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc<TileGPU_SharedMemory>]>]> {
  let summary = "A shared-memory buffer (its offset set by the allocator)";
  let description = [{
    The buffer lives from here to its last use (to the end of a loop that
    uses it); tilegpu-allocate-shared-memory records its offset on this op.
  }];
  let results = (outs AnyTypeOf<[TileGPU_MemDescType,
                                 TileGPU_BarriersType]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [
    MemoryEffects<[MemRead<DefaultResource>,
                   MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Copy a block from global memory into a stage, with cp.async";
  let description = [{
    Each thread starts copies of the elements its registers of `ptr` would
    hold (in runs of 4, 8 or 16 bytes, as the pointers' contiguity and the
    mask's constancy allow) into stage `stage` of `buffer`. Masked-off
    elements are written as zeros and read nothing. The copies belong to the
    thread's next commit group and complete at an async_wait. With
    `transposed`, the block's first axis is the contiguous one (pointers
    written `base + rows[None, :] * stride + cols[:, None]`, a loaded q^T):
    element (i, j) goes to (j, i) of the stage, so the stage is contiguous
    along its last axis as always.
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, TileGPU_MemDescType:$buffer,
                       I32:$stage, Optional<RankedTensorOf<[I1]>>:$mask,
                       UnitAttr:$transposed);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $stage `]` (`,` $mask^)? attr-dict `:`
    type($ptr) `->` qualified(type($buffer)) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store", [
    MemoryEffects<[MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Store a block held in registers into a stage, for wgmma";
  let description = [{
    Each thread stores its registers of `src` into stage `stage` of
    `buffer`, as the swizzled tile wgmma reads (the block's last dimension
    the contiguous one), then fence.proxy.async, so that wgmma's async
    proxy sees the stores. A barrier (tilegpu-insert-barriers places it)
    separates the stores of every thread from the wgmma that reads them.
    tilegpu-pipeline stores a dot's A operand that is not a load this way:
    once before the loop when the loop does not change it, else in each
    iteration.
  }];
  let arguments = (ins Tile_Tensor:$src, TileGPU_MemDescType:$buffer,
                       I32:$stage);
  let assemblyFormat = [{
    $src `,` $buffer `[` $stage `]` attr-dict `:` type($src) `->`
    qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>]>]> {
  let summary = "Read a 1-D stage into registers";
  let description = [{
    Each thread loads the elements its registers of the result hold from
    stage `stage` of a plain buffer of 1-D stages (a small side load that
    tilegpu-pipeline staged, such as a row of M in the attention backward),
    in the result's layout, which need not be the copy's. A barrier
    (tilegpu-insert-barriers) separates it from the copies' wait.
  }];
  let arguments = (ins TileGPU_MemDescType:$buffer, I32:$stage);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $stage `]` attr-dict `:` qualified(type($buffer)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Close this thread's group of async copies (cp.async.commit_group)";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    cp.async.wait_group: this thread's groups but the `pending` newest are
    complete. Other threads, and the wgmma that reads the stage, see their
    data after a barrier, which tilegpu-insert-barriers places before the
    reader.
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// TMA copies (cp.async.bulk.tensor) into stages, completing on mbarriers
//===----------------------------------------------------------------------===//

def TileGPU_InitBarriersOp : TileGPU_Op<"init_barriers",
    [MemoryEffects<[MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Initialize a loop's mbarriers";
  let description = [{
    Thread 0 initializes every barrier with an arrival count of `arrivals`
    (one by default: the thread that starts a stage's copies; a barrier
    that stages are released on counts one arrival per warp), then the
    program synchronizes, so that every thread may wait on them. Phase 0 is
    the first to complete.
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers,
                       DefaultValuedAttr<I32Attr, "1">:$arrivals);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";  let hasVerifier = 1;
}

def TileGPU_ReleaseStageOp : TileGPU_Op<"release_stage",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Tell the copying thread this warp is done with a stage";
  let description = [{
    After the warp's reads of stage `stage` of a pipelined buffer (its
    wgmma waited for), the warp's lane 0 arrives on barrier `stage` of
    `barriers`, initialized with one arrival per warp: the barrier's phase
    completes once every warp has released the stage, and the thread that
    refills it waits for that (acquire_stage) instead of the whole program
    meeting at a barrier.
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, I32:$stage);
  let assemblyFormat = [{
    $barriers `[` $stage `]` attr-dict `:` qualified(type($barriers))
  }];
}

def TileGPU_AcquireStageOp : TileGPU_Op<"acquire_stage",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Thread 0 waits until every warp has released a stage";
  let description = [{
    Where `pred` holds, thread 0 (the thread that starts TMA copies) polls
    mbarrier.try_wait.parity until the phase of parity `phase` of barrier
    `stage` of `barriers` has completed: every warp has released that
    stage of `buffer` (release_stage) since it was last filled, so a copy
    into it may start. Other threads go on. `buffer` names the stages the
    barriers guard, for the barrier analysis: the reads of `buffer` before
    it are ordered before thread 0's next copy into it.
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, I32:$stage,
                       I32:$phase, I1:$pred, TileGPU_MemDescType:$buffer);
  let assemblyFormat = [{
    $barriers `[` $stage `]` `,` $phase `,` $pred `for` $buffer attr-dict `:`
    qualified(type($barriers)) `,` qualified(type($buffer))
  }];  let hasVerifier = 1;
}

def TileGPU_InvalBarriersOp : TileGPU_Op<"inval_barriers",
    [MemoryEffects<[MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Invalidate a loop's mbarriers once no thread waits on them";
  let description = [{
    The program synchronizes (every thread is done waiting), then thread 0
    invalidates each barrier, so that their bytes may hold anything else.
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
}

def TileGPU_InProducerWarpOp : TileGPU_Op<"in_producer_warp", [Pure]> {
  let summary = "Whether this thread is in the producer warps";
  let description = [{
    True on the warps tilegpu-warp-specialize adds after the module's
    num-warps (threads num-warps * 32 and up), which issue the TMA copies;
    the condition of its tilegpu.warp_roles split.
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_WarpAllOp : TileGPU_Op<"warp_all", [Pure]> {
  let summary = "Whether every element the calling warp holds is true";
  let description = [{
    True when every element of `pred` that the threads of the executing
    warp hold in registers (its layout's) is true: vote.sync.all over each
    thread's conjunction. Unlike a program's other scalars, the result may
    differ from warp to warp, so only a branch whose two sides compute the
    same values may depend on it (tilegpu-skip-unit-rescale). Every thread
    of the warp must execute it.
  }];
  let arguments = (ins RankedTensorOf<[I1]>:$pred);
  let results = (outs I1:$result);
  let assemblyFormat = "$pred attr-dict `:` type($pred)";
}

// Declared as writing, so that no pass moves or drops it.
def TileGPU_SetMaxRegistersOp : TileGPU_Op<"set_max_registers",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Resize this warpgroup's registers (setmaxnreg)";
  let description = [{
    First in each region of a tilegpu.warp_roles split: every warp of the
    warpgroup moves to `registers` registers per thread (setmaxnreg, a
    multiple of 8 from 24 to 256), down in the producer's region and up in
    the consumers', so that the consumers may use more than the launch's
    even share. The counts of all warpgroups must fit the register file.
  }];
  let arguments = (ins I32Attr:$registers);
  let assemblyFormat = "$registers attr-dict";
  let hasVerifier = 1;
}

// The consumer warpgroups' turns at the tensor cores (tilegpu-ping-pong).
// Declared as writing, so that no pass moves them across the dots they
// order.
def TileGPU_TakeTurnOp : TileGPU_Op<"take_turn",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until the other consumer warpgroup has passed the turn";
  let description = [{
    In the consumer region of a warp-specialized kernel with two consumer
    warpgroups: this warpgroup waits (bar.sync on its named barrier, 2 + its
    index, counting both warpgroups' threads) until the other one has run a
    tilegpu.pass_turn. With `group`, only that consumer warpgroup runs it.
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$group);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TileGPU_PassTurnOp : TileGPU_Op<"pass_turn",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Let the other consumer warpgroup take its turn";
  let description = [{
    Arrives (bar.arrive, without waiting) on the other consumer warpgroup's
    named barrier, releasing its tilegpu.take_turn. With `group`, only that
    consumer warpgroup runs it.
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$group);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TileGPU_TmaCopyOp : TileGPU_Op<"tma_copy", [
    MemoryEffects<[MemRead<DefaultResource>,
                   MemWrite<TileGPU_SharedMemory>]>]> {
  let summary = "Copy a block into a stage with the Tensor Memory Accelerator";
  let description = [{
    Where `pred` holds, thread 0 announces the stage's bytes on barrier
    `stage` of `barriers` (mbarrier.arrive.expect_tx) and copies the box
    of `tensormap` at `coords` (one per dimension, outermost first) into
    stage `stage` of `buffer` with cp.async.bulk.tensor, one copy per
    swizzle-wide column block of the stage (TensorMapBox.h: the host
    encoded the tensor map with that box and swizzle). Elements outside the
    tensor arrive as zeros. The copies complete on the barrier: a tma_wait
    for its phase makes the stage visible to the waiting thread.
  }];
  let arguments = (ins Tile_Ptr:$tensormap, Variadic<I32>:$coords,
                       TileGPU_MemDescType:$buffer, I32:$stage,
                       TileGPU_BarriersType:$barriers, I1:$pred);
  let assemblyFormat = [{
    $tensormap `[` $coords `]` `,` $buffer `[` $stage `]` `,` $barriers `,`
    $pred attr-dict `:` type($tensormap) `->` qualified(type($buffer)) `,`
    qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TileGPU_TmaStoreOp : TileGPU_Op<"tma_store", [
    MemoryEffects<[MemRead<TileGPU_SharedMemory>,
                   MemWrite<DefaultResource>]>]> {
  let summary = "Store a stage to global memory with the Tensor Memory Accelerator";
  let description = [{
    Thread 0 copies stage `stage` of `buffer` (the swizzled tile
    local_store writes and tma_copy fills) to the box of `tensormap` at
    `coords` (one per dimension, outermost first) with cp.async.bulk.tensor,
    one copy per swizzle-wide column block (TensorMapBox.h); elements
    outside the tensor are not written. It then waits until the copies
    have read the stage (cp.async.bulk.wait_group.read), so that after a
    barrier the stage may be written again; the writes to global memory
    complete on their own before the kernel ends. The stage's writes must
    be ordered before it by a barrier, after a fence.proxy.async
    (local_store has one).
  }];
  let arguments = (ins Tile_Ptr:$tensormap, Variadic<I32>:$coords,
                       TileGPU_MemDescType:$buffer, I32:$stage);
  let assemblyFormat = [{
    $buffer `[` $stage `]` `,` $tensormap `[` $coords `]` attr-dict `:`
    qualified(type($buffer)) `->` type($tensormap)
  }];
  let hasVerifier = 1;
}

// Declared as writing too, so that no pass drops it as dead.
def TileGPU_PrefetchTensormapOp : TileGPU_Op<"prefetch_tensormap",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start fetching a TMA tensor map (prefetch.tensormap)";
  let description = [{
    Thread 0 asks for the 128-byte tensor map at `tensormap` to be brought
    near the TMA unit, so that the first copy through it does not wait for
    the fetch. A hint: it changes no result.
  }];
  let arguments = (ins Tile_Ptr:$tensormap);
  let assemblyFormat = "$tensormap attr-dict `:` type($tensormap)";
}

def TileGPU_TmaWaitOp : TileGPU_Op<"tma_wait",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait for phase `phase` of barrier `stage` to complete";
  let description = [{
    Every thread polls mbarrier.try_wait.parity until the barrier's phase
    of parity `phase` (0 or 1) has completed: the TMA copies of that stage
    have landed and are visible to the thread.
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, I32:$stage,
                       I32:$phase);
  let assemblyFormat = [{
    $barriers `[` $stage `]` `,` $phase attr-dict `:`
    qualified(type($barriers))
  }];
}

def TileGPU_WarpGroupDotOp : TileGPU_Op<"warpgroup_dot", [
    AllTypesMatch<["acc", "result"]>,
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemRead<DefaultResource>,
                   MemWrite<DefaultResource>]>]> {
  let summary = "acc + A * B on tensor cores, operands in shared memory";
  let description = [{
    Starts wgmma.mma_async on stage `stage` of `a` (M x K) and of `b`
    (K x N, or N x K with `b_k_major`: a transposed block, K contiguous, as
    wgmma reads B without its transpose bit), accumulating into `acc`
    (M x N, #tilegpu.mma version 3), and commits them as one wgmma group.
    `a_stage`, where given, is A's stage instead (A's buffer may have
    another number of stages than B's). `a` may also be a block in
    registers with the #tilegpu.mma version 3 layout of an earlier dot (its
    warps along M only, as the result's): wgmma then reads A from those
    registers, as FlashAttention-3 feeds P to its second GEMM. The result is
    not valid until a warpgroup_dot_wait with fewer pending groups; until
    then the stages (and A's registers) must not be overwritten.
  }];
  let arguments = (ins AnyTypeOf<[TileGPU_MemDescType, Tile_Tensor]>:$a,
                       TileGPU_MemDescType:$b,
                       I32:$stage, Tile_Tensor:$acc, Optional<I32>:$a_stage,
                       UnitAttr:$b_k_major);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a (`[` $a_stage^ `]`)? `,` $b `[` $stage `]` `,` $acc attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def TileGPU_SharedDotOp : TileGPU_Op<"shared_dot", [
    AllTypesMatch<["acc", "result"]>,
    MemoryEffects<[MemRead<TileGPU_SharedMemory>, MemRead<DefaultResource>,
                   MemWrite<DefaultResource>]>]> {
  let summary = "acc + A * B with mma.sync, operands in shared memory";
  let description = [{
    The synchronous counterpart of warpgroup_dot for an #tilegpu.mma
    version 2 accumulator (mma.sync, sm_80 and later): each warp loads its
    fragments of stage `stage` of `a` (M x K) and `b` (K x N), laid out as
    local_alloc's swizzled tiles, with ldmatrix, and multiplies them into
    `acc`. The result is complete when the op is; a barrier must separate
    it from writes to the stage.
  }];
  let arguments = (ins TileGPU_MemDescType:$a, TileGPU_MemDescType:$b,
                       I32:$stage, Tile_Tensor:$acc);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `[` $stage `]` `,` $acc attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpGroupDotWaitOp : TileGPU_Op<"warpgroup_dot_wait", [
    AllTypesMatch<["acc", "result"]>,
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until at most `pending` wgmma groups are in flight";
  let description = [{
    wgmma.wait_group: the result is `acc` once this warpgroup's wgmma
    groups but the `pending` newest are complete. With `pending` = 0 it
    holds the final accumulators.
  }];
  let arguments = (ins Tile_Tensor:$acc, I32Attr:$pending);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
