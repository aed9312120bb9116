//===- InitTile.cpp - dialect and pass registration -----------------------===//

#include "tile/InitTile.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"
#include "tile/Target/EmitPTX.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::tile::registerTileDialects(DialectRegistry &registry) {
  registry
      .insert<TileDialect, tilegpu::TileGPUDialect, arith::ArithDialect,
              func::FuncDialect, math::MathDialect, scf::SCFDialect,
              cf::ControlFlowDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
  registerLLVMTranslations(registry);
}

namespace {
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program"),
                            llvm::cl::init(4)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("GPU architecture"),
                             llvm::cl::init("sm_90a")};
  Option<unsigned> numStages{
      *this, "num-stages",
      llvm::cl::desc("Shared-memory stages of a pipelined dot (Triton's "
                     "num_stages)"),
      llvm::cl::init(3)};
};
} // namespace

void mlir::tile::registerTilePasses() {
  registerTileConversionPasses();
  registerTileTransformsPasses();
  tilegpu::registerTileGPUPasses();
  registerCanonicalizerPass();
  registerCSEPass();
  registerReconcileUnrealizedCastsPass();
  PassPipelineRegistration<PipelineOptions>(
      "tile-to-llvm",
      "The whole compile: tile dialect to LLVM dialect with NVVM ops",
      [](OpPassManager &pm, const PipelineOptions &options) {
        CompileOptions compile;
        compile.numWarps = options.numWarps;
        compile.target = options.target;
        compile.numStages = options.numStages;
        buildTileToTileGPUPipeline(pm, compile);
        buildTileGPUToLLVMPipeline(pm);
      });
}
