//===- Pipeline.cpp - the compile pipeline, stage by stage ----------------===//
//
// The order of passes from the tile dialect to the LLVM dialect; docs/
// architecture.md describes what each guarantees.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/InitTile.h"
#include "tile/Target/Libdevice.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tile::buildTileToTileGPUPipeline(OpPassManager &pm,
                                            const CompileOptions &options) {
  // Device descriptors made from the kernel's arguments, as tutorial 09's
  // descriptor matmul makes them, then go by TMA as host ones do.
  if (options.hoistTensorMaps &&
      tilegpu::getComputeCapability(options.target) >= 90)
    pm.addPass(tilegpu::createTileGPUHoistTensorMaps());
  pm.addPass(createTileRewriteBlockPointers());
  if (options.wideOffsets)
    pm.addPass(createTileWidenOffsets());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTileLoopPointerBases());
  pm.addPass(createTileCombineDotAdd());
  pm.addPass(createCSEPass());
  // What survives canonicalization must have a GPU lowering.
  TileCheckGPUSupportOptions check;
  check.target = options.target;
  pm.addPass(createTileCheckGPUSupport(check));
  pm.addPass(createTileWidenBoolMemory());
  ConvertTileToTileGPUOptions convert;
  convert.numWarps = options.numWarps;
  convert.target = options.target;
  pm.addPass(createConvertTileToTileGPU(convert));
  // Causal attention's last row blocks do the most work; started last,
  // they ran alone on a few SMs (docs/performance.md).
  pm.addPass(tilegpu::createTileGPUOrderPrograms());
  pm.addPass(tilegpu::createTileGPUCoalesce());
  pm.addPass(tilegpu::createTileGPUAccelerateMatmul());
  pm.addPass(tilegpu::createTileGPUPropagateAccumulatorLayout());
  pm.addPass(tilegpu::createTileGPUSplitAccumulatorColumns());
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  pm.addPass(createCSEPass());
  // tilegpu-prefetch is not in the pipeline: the registers it carries push
  // the kernel into spills. On the H100, tutorial 03's matmul at 1000^3
  // (128x128x32, 4 warps; loads too unaligned for cp.async, so not
  // pipelined) ran at 7.7 TFLOP/s with it added after tilegpu-pipeline and
  // 33.1 without. Dots are pipelined through shared memory instead.
  // A warp-specialized kernel whose programs do equal work runs them in a
  // loop, its pipeline carried from one to the next
  // (docs/performance-2026-11-28.md).
  if (options.persistentPrograms) {
    tilegpu::TileGPUPersistentProgramsOptions persistent;
    persistent.allKernels = options.warpSpecializeAll;
    pm.addPass(tilegpu::createTileGPUPersistentPrograms(persistent));
  }
  tilegpu::TileGPUPipelineOptions pipeline;
  pipeline.numStages = options.numStages;
  pm.addPass(tilegpu::createTileGPUPipeline(pipeline));
  pm.addPass(tilegpu::createTileGPUOverlapChainedDots());
  pm.addPass(tilegpu::createTileGPUTmaStores());
  // Kernels whose loops ask for it (tl.range's warp_specialize). On the
  // H100 the D 128 attention forward split so ran 7-9% faster at N_CTX
  // 1024 but up to 6% slower from 4096 (docs/performance.md), so the
  // compiler does not split kernels that do not ask.
  // The launch's warp_specialize_all (tile-run --autotune-schedules tries
  // both) splits every kernel that can be.
  tilegpu::TileGPUWarpSpecializeOptions warpSpecialize;
  warpSpecialize.allKernels = options.warpSpecializeAll;
  pm.addPass(tilegpu::createTileGPUWarpSpecialize(warpSpecialize));
  // The launch's ping_pong = False (--autotune-schedules tries both): at
  // short loops the turns cost more than they overlap.
  if (options.pingPong)
    pm.addPass(tilegpu::createTileGPUPingPong());
  // Measured faster in persistent kernels only (SkipUnitRescale.cpp).
  tilegpu::TileGPUSkipUnitRescaleOptions skipUnitRescale;
  skipUnitRescale.persistentOnly = true;
  pm.addPass(tilegpu::createTileGPUSkipUnitRescale(skipUnitRescale));
  pm.addPass(createCSEPass());
}

void mlir::tile::buildTileGPUToLLVMPipeline(OpPassManager &pm,
                                            bool ownLibdevice) {
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory());
  pm.addPass(tilegpu::createTileGPUInsertBarriers());
  // With libdevice linked, math functions take Triton's libdevice path.
  ConvertTileGPUToLLVMOptions lower;
  lower.libdeviceMath = !ownLibdevice;
  pm.addPass(createConvertTileGPUToLLVM(lower));
  if (ownLibdevice)
    pm.addPass(createTileDefineLibdevice());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass()); // scf-to-cf's loop tests
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

LogicalResult mlir::tile::lowerToTileGPU(ModuleOp module,
                                         const CompileOptions &options) {
  PassManager pm(module.getContext());
  buildTileToTileGPUPipeline(pm, options);
  return pm.run(module);
}

LogicalResult mlir::tile::lowerToLLVMDialect(ModuleOp module) {
  // Without libdevice, Tile's own functions (a TILE_LIBDEVICE naming no
  // file is reported where a call needs it).
  const LibdeviceLocation &libdevice = findLibdevice();
  PassManager pm(module.getContext());
  buildTileGPUToLLVMPipeline(pm, libdevice.path.empty() && !libdevice.invalid);
  return pm.run(module);
}
