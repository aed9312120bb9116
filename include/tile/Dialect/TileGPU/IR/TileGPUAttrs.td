//===- TileGPUAttrs.td - tensor layouts --------------------*- tablegen -*-===//
//
// Layouts are tensor encodings. Every layout that spreads a tensor over the
// registers of a program's threads implements DistributedLayoutInterface;
// code generation and analyses ask only that interface, so slice, MMA and
// dot-operand layouts (and a shared-memory layout, which is not distributed)
// are added as further attributes without touching their users.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_DistributedLayoutInterface
    : AttrInterface<"DistributedLayoutInterface"> {
  let cppNamespace = "::mlir::tilegpu";
  let description = [{
    A layout that gives each element of a tensor to the registers of one or
    more threads. The mapping is described per axis, so it covers N-D tensors:
    for each axis, how many consecutive elements a thread holds, how the lanes
    of a warp and the warps of a program are spread, and the order in which
    axes vary fastest. A tensor larger than the layout's tile wraps (a thread
    holds several repetitions); a smaller one is replicated across threads.
  }];
  let methods = [
    InterfaceMethod<"Elements per thread along each axis, for `shape`.",
      "::llvm::SmallVector<unsigned>", "getElemsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"Elements per thread in all, for `shape`.",
      "unsigned", "getTotalElemsPerThread",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
    InterfaceMethod<"Axes from fastest-varying to slowest.",
      "::llvm::SmallVector<unsigned>", "getLayoutOrder", (ins)>,
    InterfaceMethod<"Consecutive elements a thread holds along each axis.",
      "::llvm::SmallVector<unsigned>", "getLayoutSizePerThread", (ins)>,
    InterfaceMethod<"Lanes of a warp along each axis.",
      "::llvm::SmallVector<unsigned>", "getLayoutThreadsPerWarp", (ins)>,
    InterfaceMethod<"Warps of a program along each axis.",
      "::llvm::SmallVector<unsigned>", "getLayoutWarpsPerCTA", (ins)>,
  ];
}

def TileGPU_BlockedEncodingAttr : AttrDef<TileGPU_Dialect, "BlockedEncoding",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayoutInterface>]> {
  let mnemonic = "blocked";
  let summary = "Blocked layout: each thread holds small contiguous tiles";
  let description = [{
    As Triton's #blocked: along axis d a thread holds sizePerThread[d]
    consecutive elements; threadsPerWarp[d] lanes and warpsPerCTA[d] warps
    follow each other along d, giving a tile of
    sizePerThread[d] * threadsPerWarp[d] * warpsPerCTA[d] elements that
    repeats over the tensor. `order` lists the axes fastest first; lanes,
    warps and a thread's registers are numbered along it.

    Example: `#tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32],
    warpsPerCTA = [4], order = [0]}>` gives each of 128 threads 4 adjacent
    f32, so a load of them is one 128-bit access.
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order
  );
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,`
            `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    // Elements covered by one repetition of the layout along each axis.
    ::llvm::SmallVector<int64_t> getShapePerCTATile() const;
  }];
}

def TileGPU_SliceEncodingAttr : AttrDef<TileGPU_Dialect, "SliceEncoding",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayoutInterface>]> {
  let mnemonic = "slice";
  let summary = "A parent layout with one axis removed";
  let description = [{
    As Triton's #slice: the layout of a tensor of rank r-1 whose elements a
    thread holds as the parent (rank r) layout would hold them at coordinate
    0 along `dim`. It is what a reduction along `dim` yields, and what
    expand_dims along `dim` takes: both then move no data.
  }];
  let parameters = (ins "unsigned":$dim,
                        "DistributedLayoutInterface":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let extraClassDeclaration = [{
    /// `shape` with a size-1 axis inserted at `dim`: the parent's shape.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_MmaEncodingAttr : AttrDef<TileGPU_Dialect, "MmaEncoding",
    [DeclareAttrInterfaceMethods<TileGPU_DistributedLayoutInterface>]> {
  let mnemonic = "mma";
  let summary = "The accumulator layout of tensor-core instructions";
  let description = [{
    As Triton's #nvidia_mma: the layout in which tensor-core instructions
    leave a 2-D accumulator. Each warp holds a 16 x n tile (instrShape =
    [16, n]); within it lane l holds rows l/4 and l/4 + 8 and, in each 8
    columns, columns 2*(l%4) and 2*(l%4) + 1. Warps are numbered along
    the rows first (warpsPerCTA = [WM, WN]; warp w has row index w % WM),
    so with version 3 (wgmma, sm_90a) four consecutive warps form a
    warpgroup holding 64 rows; with version 2 (mma.sync m16n8k16, sm_80 and
    later) a warp's n columns are n/8 instructions side by side. The
    16*WM x n*WN tile repeats over the tensor, whose shape must be a
    multiple of it.

    A thread's registers are numbered tile repetition by repetition (rows
    outer, columns inner), then as wgmma numbers its accumulators: in
    each 8 columns (j), row l/4 then l/4 + 8 (h), two columns each (e):
    register ((rm * repsN + rn) * n/8 + j) * 4 + h * 2 + e.

    Example: `#tilegpu.mma<{version = 3, warpsPerCTA = [8, 1],
    instrShape = [16, 256]}>`: two warpgroups, each a 64 x 256 wgmma
    accumulator, for a 128 x 256 tile with 8 warps.
  }];
  let parameters = (ins
    "unsigned":$versionMajor,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$instrShape
  );
  let assemblyFormat = [{
    `<` `{` `version` `=` $versionMajor `,`
            `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
            `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getInstrN() const { return getInstrShape()[1]; }
    /// Rows and columns of one repetition: 16 * WM by n * WN.
    ::llvm::SmallVector<int64_t> getShapePerCTATile() const;
    /// Repetitions of the tile along each axis for `shape`.
    ::llvm::SmallVector<int64_t> getReps(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
