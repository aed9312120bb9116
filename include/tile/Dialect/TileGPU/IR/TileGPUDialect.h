//===- TileGPUDialect.h - GPU-level tile IR ---------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
#define TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tile/Dialect/TileGPU/IR/TileGPUAttrInterfaces.h.inc"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

namespace mlir::tilegpu {
/// The shared memory of a program, as a side-effect resource.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
} // namespace mlir::tilegpu

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUOps.h.inc"

namespace mlir::tilegpu {
/// The blocked layout with `sizePerThread` elements per thread along each
/// axis, lanes then warps spread over the axes in `order` (fastest first)
/// as far as `shape` needs them; what is left over replicates.
BlockedEncodingAttr getBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                     ArrayRef<unsigned> sizePerThread,
                                     ArrayRef<unsigned> order,
                                     unsigned numWarps,
                                     unsigned threadsPerWarp = 32);
/// The layout of tile.trans's result with permutation `order` (result axis
/// i is operand axis order[i]) from its operand's blocked layout: the same
/// parameters with the axes permuted, so that each thread holds the same
/// elements in the same registers and the transpose moves no data.
BlockedEncodingAttr permuteBlockedLayout(BlockedEncodingAttr layout,
                                         ArrayRef<int32_t> order);
/// The layout of tile.join's result from its operands' blocked layout: a
/// new last axis of 2 elements, held by each thread as its fastest axis, so
/// that the result's registers interleave the operands' (a0, b0, a1, ...).
BlockedEncodingAttr joinBlockedLayout(BlockedEncodingAttr layout);
/// The inverse, for tile.split: the operand's layout without its last axis,
/// or null when that axis is not 2 elements held by each thread fastest.
BlockedEncodingAttr splitBlockedLayout(BlockedEncodingAttr layout);
/// The distributed layout of a tensor type, or null.
DistributedLayoutInterface getDistributedLayout(Type type);
/// `type` (a ranked tensor) with its layout replaced by `layout`.
RankedTensorType withLayout(Type type, Attribute layout);
/// `value` in `layout`: itself if it has it, else a convert_layout of it.
Value convertToLayout(OpBuilder &builder, Location loc, Value value,
                      Attribute layout);
/// The module's num-warps attribute (default 4).
unsigned getNumWarps(Operation *op);
/// tilegpu-warp-specialize's module attribute: the warps it adds to each
/// program, which issue the TMA copies (0 without it).
inline constexpr llvm::StringLiteral kProducerWarpsAttr =
    "tilegpu.producer-warps";
/// tilegpu-persistent-programs' module attribute: its kernels take the
/// grid's sizes as three i32 arguments after their own and loop over the
/// grid's programs, launched on as many as fit on the GPU at once.
inline constexpr llvm::StringLiteral kPersistentProgramsAttr =
    "tilegpu.persistent-programs";
/// The scf.if tilegpu-warp-specialize splits a kernel with: its then region
/// runs on the producer warps, its else region on the num-warps others.
inline constexpr llvm::StringLiteral kWarpRolesAttr = "tilegpu.warp_roles";
/// The warps an op runs on: every warp of the program, or one side of a
/// tilegpu.warp_roles split.
enum class WarpRole { Whole, Producer, Consumers };
WarpRole getWarpRole(Operation *op);
/// The same for code placed in `region`.
WarpRole getWarpRole(Region *region);
/// The warps tilegpu-warp-specialize added (kProducerWarpsAttr, or 0).
unsigned getProducerWarps(Operation *op);
/// Whether a loop of `kernel` asks for warp specialization (tl.range's
/// warp_specialize=True: the tile.warp_specialize attribute).
bool asksForWarpSpecialization(Operation *kernel);
/// The compute capability of a target such as "sm_80" or "sm_90a" (0 when
/// it is not of that form).
unsigned getComputeCapability(StringRef target);
/// The compute capability of the module's target attribute (0 without one).
unsigned getTargetComputeCapability(Operation *op);
/// The tensor maps (tile.tensormap kernel arguments, by argument number)
/// that a TMA copy or store of `op`'s kernels reads.
llvm::SmallVector<unsigned> getTmaTensorMapArguments(Operation *op);
/// tilegpu.tensor-maps (TensorMapRecipe.h) with each map that no TMA copy
/// or store reads marked unused (element -1: the launch passes zeros), or
/// null where the module has none.
DenseI64ArrayAttr getUsedTensorMapRecipes(Operation *module);
} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
