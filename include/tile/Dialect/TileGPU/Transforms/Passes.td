//===- Passes.td - tilegpu transformations -----------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUOrderPrograms : Pass<"tilegpu-order-programs", "mlir::ModuleOp"> {
  let summary = "Start the programs with the most work first";
  let description = [{
    In a kernel whose loops run more iterations in programs with larger ids
    along one grid axis (ProgramWork: causal attention's row blocks), and no
    loop fewer, the program ids are renumbered at the kernel's entry so that
    the GPU, which starts programs in launch order, starts the heaviest
    first and the last wave is made of light programs. The programs along
    the other axes are taken in sections of G: within a section, the
    heaviest programs of all G first, then the next; G is the number of
    sections whose loads (the growing loops' bytes per iteration times the
    heaviest program's iterations, computed at run time) fit in
    `section-bytes`, at most `max-section`. The renumbering is a bijection
    of the grid, so each program still runs once; where the grid holds
    2^31 programs or more the ids stay as they are.
  }];
  let options = [
    Option<"sectionBytes", "section-bytes", "int64_t",
           /*default=*/"16 << 20",
           "Bytes the loops of one section's programs may load">,
    Option<"maxSection", "max-section", "int64_t", /*default=*/"16",
           "Most programs of the other axes in one section">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "mlir::ModuleOp"> {
  let summary = "Give each global load and store its widest coalesced layout";
  let description = [{
    From the contiguity and divisibility analysis, picks for each tile.load
    and tile.store a blocked layout whose fastest axis is the pointers' most
    contiguous one and whose per-thread run is as long as contiguity,
    alignment and a 128-bit access allow. Operands and results are wrapped
    in tilegpu.convert_layout; tilegpu-remove-layout-conversions removes what
    it can.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUPropagateAccumulatorLayout
    : Pass<"tilegpu-propagate-accumulator-layout", "mlir::ModuleOp"> {
  let summary = "Keep what a loop computes from its dots in the mma layout";
  let description = [{
    In a loop that reduces values computed from its tensor-core results
    (attention's softmax), those values, their row reductions and the
    iter_args they feed take the accumulator's #tilegpu.mma layout (or its
    slice) instead of moving through shared memory to a blocked one and
    back; conversions go where other users need the old layouts.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUSplitAccumulatorColumns
    : Pass<"tilegpu-split-accumulator-columns", "mlir::ModuleOp"> {
  let summary = "Split an accumulator's column halves in its registers";
  let description = [{
    `tl.split(tl.permute(tl.reshape(acc, (M, 2, N // 2)), (0, 2, 1)))` of
    an accumulator in a `#tilegpu.mma` layout (tutorial 09's
    EPILOGUE_SUBTILE) is its two column halves. Where each half is in the
    registers of the threads that hold it (tilegpu.extract_columns), the
    halves are taken there, converted to the split's result layout; the
    reshape, permute and split, and the conversions through shared memory
    around them, go.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Remove layout conversions by rematerializing cheap values";
  let description = [{
    A conversion whose source is computed by a cheap op without side effects
    (a constant, splat, make_range, addptr or elementwise op) is replaced by
    that op recomputed in the target layout, its operands converted instead.
    Conversions of conversions fold, identity conversions vanish.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUAccelerateMatmul
    : Pass<"tilegpu-accelerate-matmul", "mlir::ModuleOp"> {
  let summary = "Put dots that tensor cores can run in an mma layout";
  let description = [{
    On sm_90a, a tile.dot of fp16 or bf16 operands with an fp32
    accumulator whose shape suits wgmma (M a multiple of 64, N of 8, K of
    16, num-warps a multiple of 4) gets an `#tilegpu.mma` version 3 result:
    warpgroups stacked along M, each wgmma as wide in N as the tile allows
    (up to 256). The accumulator is converted to that layout and the result
    back to the old one. When the accumulator is carried through an scf.for
    (the dot's only use of the iter_arg, the yield its only use of the
    result), the loop carries the mma layout instead, and the conversions
    move outside the loop. Other dots keep their layout (the CUDA-core
    lowering).
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUPrefetch : Pass<"tilegpu-prefetch", "mlir::ModuleOp"> {
  let summary = "Load a loop's dot operands one iteration ahead";
  let description = [{
    Software pipelining in registers: each tile.load in an scf.for whose
    result reaches a tile.dot, and whose operands the body computes without
    side effects from the induction variable, the iter_args and values from
    outside, is issued one iteration early. The first iteration's load
    moves before the loop; in the body the next iteration's load (masked
    off past the last) replaces it, and the loop carries its result. Its
    global-memory latency then overlaps the current dot. Runs when
    num-stages is at least 2.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Triton's num_stages: below 2, nothing is prefetched">,
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "mlir::ModuleOp"> {
  let summary = "Pipeline a loop's tensor-core dot through shared memory stages";
  let description = [{
    Triton's num_stages software pipeline: the loads feeding a loop's
    tensor-core dot become cp.async copies into num-stages shared-memory
    stages, issued num-stages - 1 iterations ahead, and the dot reads its
    stage: an asynchronous warpgroup_dot left in flight for one iteration
    (wgmma), or a shared_dot (mma.sync). Loops with several wgmma dots
    (attention) have their copyable loads staged the same way, each dot
    completing in its iteration, A from a stage, from registers or from a
    one-stage buffer. Where such a loop's loads all go by TMA and the
    program has several warpgroups, the warps release each stage on an
    mbarrier and thread 0 acquires it before refilling it, instead of a
    barrier of the whole program per iteration. The stage count is lowered
    to what fits in the target's shared memory; below 2, or for loops that
    do not have the shapes described in PipelineLoops.cpp and
    PipelineStagedLoads.cpp, nothing changes.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Triton's num_stages: shared-memory stages per operand">,
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUOverlapChainedDots
    : Pass<"tilegpu-overlap-chained-dots", "mlir::ModuleOp"> {
  let summary = "Start a loop's first dot a step ahead of its second";
  let description = [{
    FlashAttention-3's intra-warpgroup overlap, on a loop tilegpu-pipeline
    staged with TMA copies (attention's forward): the second dot of
    iteration j-1 (p v, with the accumulator's rescale and its operand's
    wait and copy) moves into iteration j, after the first dot of
    iteration j (q k^T) has started, and the first dot's result is waited
    for with that second wgmma still in flight, so the tensor cores run
    it while the warps compute iteration j's softmax. The first
    iteration's first part and the last iteration's second part are
    peeled, under a test that the loop runs at all. Other loops do not
    change.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUTmaStores : Pass<"tilegpu-tma-stores", "mlir::ModuleOp"> {
  let summary = "Store blocks of host tensor descriptors with TMA";
  let description = [{
    On sm_90 and later, a tile.store that carries the TMA tensor map of a
    host descriptor (f16 or bf16, a block that is a TMA box: TensorMapBox.h)
    becomes a tilegpu.local_store of the block into a buffer of one stage,
    as the swizzled tile of the map's box, and a tilegpu.tma_store of that
    stage by thread 0. Other stores do not change.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileGPUSkipUnitRescale
    : Pass<"tilegpu-skip-unit-rescale", "mlir::ModuleOp"> {
  let summary = "Skip a dot accumulator's row rescale where its factors are 1";
  let description = [{
    An arith.mulf that scales the rows of a tensor-core accumulator by a
    row vector (acc * alpha[:, None], attention's online-softmax
    correction) and feeds only dots' accumulators becomes an scf.if on
    tilegpu.warp_all(alpha == 1.0): a warp whose factors are all exactly 1
    keeps its registers (x * 1.0 is x), the others multiply. The values are
    the same either way. With persistent-only, only in a module that
    tilegpu-persistent-programs made persistent (where it was measured
    faster; docs/architecture.md).
  }];
  let options = [
    Option<"persistentOnly", "persistent-only", "bool", /*default=*/"false",
           "Only in modules marked tilegpu.persistent-programs">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUHoistTensorMaps
    : Pass<"tilegpu-hoist-tensor-maps", "mlir::ModuleOp"> {
  let summary = "TMA tensor maps the launch encodes for device descriptors";
  let description = [{
    On the tile dialect, before tile-rewrite-block-pointers: each
    tile.block_load and tile.block_store through a tile.make_block_ptr
    (followed through tile.advance and the scf.for iter_args that carry
    it), whose base is a kernel argument and whose shape and
    strides are computed from kernel arguments and constants alone (a
    tensor descriptor made on the device from the kernel's arguments, the
    same in every program), 2-D, row-major, fp16 or bf16 in a TMA box,
    padded with zeros or not, with a base and row stride that the
    arguments' tile.divisibility makes 16-byte aligned, and stored through
    or loaded for a tile.dot (directly or transposed), takes as its
    `tensormap` a new kernel argument (tile.tensormap) after the kernel's
    own, one per distinct descriptor. The module's tilegpu.tensor-maps
    attribute (TensorMapRecipe.h) records how the launch computes each map
    from the kernel's arguments; the launcher encodes them as it does a
    host descriptor's and passes them after the kernel's own arguments
    (before a persistent kernel's grid sizes).
  }];
}

def TileGPUPersistentPrograms
    : Pass<"tilegpu-persistent-programs", "mlir::ModuleOp"> {
  let summary = "Run a grid's programs in a loop on the programs that fit";
  let description = [{
    A kernel that will be warp-specialized (a loop asks for it, or
    `all-kernels`) and whose one loop runs as many iterations in every
    program becomes persistent: its body runs in a loop over the programs
    of the grid the launch asked for (launch order, x fastest), round robin
    over the hardware programs, and its tile.program_id and
    tile.num_programs read the loop's program and the grid's sizes, three
    i32 arguments added after the kernel's own. tilegpu-pipeline then
    carries the loop's stages across programs, so the producer warpgroup
    starts the next program's copies during this one's epilogue. The module
    gets tilegpu.persistent-programs; the runtime launches SMs times
    occupancy programs (at most the grid's) and passes the sizes. Kernels
    with calls, inline assembly, prints, asserts, atomics, volatile loads or
    while loops, with other than one scf.for, whose loop has no dot or loads
    TMA does not copy, with 4 warps, or whose loop's trip count depends on a
    program id stay as they are.
  }];
  let options = [
    Option<"allKernels", "all-kernels", "bool", /*default=*/"false",
           "Consider every kernel, not only those whose loop asks for warp "
           "specialization">,
    Option<"carriedOnly", "carried-only", "bool", /*default=*/"true",
           "Only kernels whose loop's pipeline will be carried (8 warps or "
           "more, dots, TMA loads); off, any one uniform loop (tests)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUPingPong : Pass<"tilegpu-ping-pong", "mlir::ModuleOp"> {
  let summary = "Two consumer warpgroups issue their wgmma groups in turns";
  let description = [{
    In a warp-specialized kernel with two consumer warpgroups (num-warps 8),
    each loop of the consumer region whose body issues chained wgmma groups
    (a tilegpu.warpgroup_dot with A in registers: attention's P V) takes a
    turn (tilegpu.take_turn) before its first dot and passes it
    (tilegpu.pass_turn) after the last: FlashAttention-3's
    ping-pong schedule, one warpgroup's dots on the tensor cores while the
    other runs its softmax. The second warpgroup passes once at the start,
    the first takes once at the end, so that the turns pair up.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUWarpSpecialize
    : Pass<"tilegpu-warp-specialize", "mlir::ModuleOp"> {
  let summary = "Issue a kernel's TMA copies from a producer warp of their own";
  let description = [{
    In a kernel whose pipelined loop releases its stages (release_stage and
    acquire_stage: tilegpu-pipeline), adds a warpgroup to the program that
    issues every TMA copy (and the acquires before them), as FlashAttention-3
    and Triton's warp_specialize do on Hopper: the kernel, from its first
    top-level op that is more than scalar arithmetic, an allocation or an
    mbarrier initialization, becomes an scf.if marked tilegpu.warp_roles,
    whose then region (the producer warps) keeps only the copies, the
    acquires, the tensor-map prefetches and what computes their operands,
    and whose else region (the num-warps others) keeps the rest without
    them; each region starts with tilegpu.set_max_registers (setmaxnreg).
    The mbarriers are initialized before the split. The module records the
    added warps (tilegpu.producer-warps); the lowering starts the copies from
    the producer's first thread and synchronizes the others on a named
    barrier.

    Kernels whose loops asked for it (tl.range's warp_specialize) are split;
    with `all-kernels`, every kernel that can be. Kernels it cannot split
    (mbarriers initialized in a loop or a branch, a buffer refilled without
    an acquire, pipelines one after the other, copies that need a tensor,
    32 warps) stay as they are.
  }];
  let options = [
    Option<"allKernels", "all-kernels", "bool", /*default=*/"false",
           "Split every kernel that can be, not only those that ask">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUAllocateSharedMemory
    : Pass<"tilegpu-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer an offset, by liveness";
  let description = [{
    Places each function's shared-memory buffers (today the scratch of
    reductions across warps, layout conversions between threads and the
    CUDA-core dot) so that buffers alive at the same time do not overlap
    (lib/Analysis/Allocation.cpp). Each op with a scratch buffer gets its
    byte offset as `tilegpu.shared_offset`; the module gets the bytes the
    most demanding function needs as `tilegpu.shared`. More than
    `shared-memory-limit` bytes (by default the target's opt-in maximum,
    227 KiB on sm_90) is an error at the op whose buffer ends
    highest.
  }];
  let options = [
    Option<"sharedMemoryLimit", "shared-memory-limit", "unsigned",
           /*default=*/"0",
           "Bytes of shared memory a program may use (0: what the "
           "module's target allows a program to opt in to, or 48 KiB "
           "where it names none)">,
    Option<"stagger", "stagger", "bool", /*default=*/"true",
           "Give consecutive scratch buffers separate bytes when it costs "
           "at most 4 KiB more, so no barrier is needed between them">
  ];
}

def TileGPUInsertBarriers : Pass<"tilegpu-insert-barriers", "mlir::ModuleOp"> {
  let summary = "Insert barriers where shared-memory accesses would race";
  let description = [{
    Inserts `tilegpu.barrier` before every op whose shared-memory accesses
    conflict with accesses of earlier ops not yet separated by a barrier,
    across branches and loop iterations (lib/Analysis/Membar.cpp). Needs
    the offsets of tilegpu-allocate-shared-memory.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
