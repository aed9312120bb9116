//===- InitTile.h - registration and the compile pipeline -------*- C++ -*-===//

#ifndef TILE_INITTILE_H
#define TILE_INITTILE_H

#include <string>

#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace mlir::tile {
/// Every dialect and LLVM IR translation a Tile tool needs.
void registerTileDialects(DialectRegistry &registry);
/// Tile's passes, test passes and the named pipelines (tile-opt).
void registerTilePasses();

struct CompileOptions {
  unsigned numWarps = 4;
  std::string target = "sm_90a";
  /// Triton's num_stages: shared-memory stages of a pipelined wgmma dot.
  unsigned numStages = 3;
  /// Pointer offsets in 64 bits (tile-widen-offsets): for buffers of 2^31
  /// elements or more.
  bool wideOffsets = false;
  /// Split every kernel whose loop can be warp-specialized (a producer
  /// warpgroup issuing its TMA copies), not only those whose tl.range asks.
  bool warpSpecializeAll = false;
  /// Two consumer warpgroups take turns at their chained dots
  /// (tilegpu-ping-pong).
  bool pingPong = true;
  /// Make kernels persistent where tilegpu-persistent-programs applies: the
  /// launcher must then pass the grid's sizes and start SMs times occupancy
  /// programs (tile-run's does; the C++ API and tile-compile do not yet).
  bool persistentPrograms = false;
  /// Give tensor descriptors the kernel makes from its arguments TMA tensor
  /// maps the launch encodes (tilegpu-hoist-tensor-maps): the launcher must
  /// then pass them after the kernel's arguments (tile-run's and the C++
  /// API's do; tile-compile's do not yet). Targets with TMA only.
  bool hoistTensorMaps = false;
};

/// tile dialect -> tilegpu with coalesced layouts.
void buildTileToTileGPUPipeline(OpPassManager &pm,
                                const CompileOptions &options);
/// tilegpu -> LLVM dialect with NVVM ops. `ownLibdevice`: define the
/// libdevice functions called with Tile's own code (no libdevice found).
void buildTileGPUToLLVMPipeline(OpPassManager &pm, bool ownLibdevice = false);

/// Runs buildTileToTileGPUPipeline on `module`, in place.
LogicalResult lowerToTileGPU(ModuleOp module, const CompileOptions &options);
/// Runs buildTileGPUToLLVMPipeline on `module`, in place, with libdevice's
/// functions where it is found (findLibdevice) and Tile's own where not.
LogicalResult lowerToLLVMDialect(ModuleOp module);
} // namespace mlir::tile

#endif // TILE_INITTILE_H
