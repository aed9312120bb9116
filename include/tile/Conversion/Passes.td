//===- Passes.td - conversions between Tile's IRs ----------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCheckGPUSupport : Pass<"tile-check-gpu-support", "mlir::ModuleOp"> {
  let summary = "Report the ops the GPU path cannot lower yet, at their line";
  let description = [{
    Runs on the tile dialect before convert-tile-to-tilegpu. Every op that
    convert-tilegpu-to-llvm has no pattern for (tl.trans, the atomics,
    tl.device_print, ...) and every arith op on fp8 values other than a
    conversion, bitcast, select or constant is reported as
    `error: tl.X is not supported on the GPU yet` at its location, and the
    pass fails, instead of a "failed to legalize" deep in the pipeline. The
    interpreter runs these ops; the GPU does not yet. fp8 conversions the
    target lacks (fp8e4nv below sm_89) are reported naming the target.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "GPU architecture (sm_80, sm_89, sm_90, sm_90a, ...)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def TileWidenBoolMemory : Pass<"tile-widen-bool-memory", "mlir::ModuleOp"> {
  let summary = "Load and store bool blocks as bytes";
  let description = [{
    A bool (i1) element in memory is one byte, as in Triton and PyTorch.
    Rewrites every tile.load and tile.store through pointers to i1 into one
    through pointers to i8 (tile.ptr_cast): loads compare the bytes with
    zero, stores write zext(value). Runs on the tile dialect before
    convert-tile-to-tilegpu.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "mlir::ModuleOp"> {
  let summary = "Give every tensor of a tile program a default blocked layout";
  let description = [{
    Rewrites every tensor type in the module to carry a blocked layout of one
    element per thread, lanes and warps along the axes in row-major order.
    Records num-warps, threads-per-warp and the target on the module.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90a\"",
           "GPU architecture (sm_80, sm_89, sm_90, sm_90a, ...)">,
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def ConvertTileGPUToLLVM : Pass<"convert-tilegpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower a tilegpu program to the LLVM and NVVM dialects";
  let description = [{
    Each tensor becomes the registers its layout gives one thread (an LLVM
    struct); each op becomes the per-thread code for its elements. Global
    loads and stores are emitted as vector accesses as wide as the layout,
    the contiguity analysis and the mask allow. Kernels become llvm.func
    with the nvvm.kernel attribute and the launch bound num-warps * 32.
    Shared memory is one global of the module's `tilegpu.shared` bytes, in
    which each op's buffer lies at its `tilegpu.shared_offset`: run
    tilegpu-allocate-shared-memory and tilegpu-insert-barriers first.
    With `libdevice-math`, tl.log, log2, exp2, sin, cos, sqrt and rsqrt
    call libdevice's functions (__nv_logf, ...; fp64 too, and exp and erf
    on fp64), as Triton's NVIDIA backend does, so their results are
    Triton's; without it they are the GPU's approximate instructions.
  }];
  let options = [
    Option<"libdeviceMath", "libdevice-math", "bool", /*default=*/"false",
           "Lower math functions to libdevice calls (libdevice is linked)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileDefineLibdevice : Pass<"tile-define-libdevice", "mlir::ModuleOp"> {
  let summary = "Tile's own definitions of the libdevice functions called";
  let description = [{
    Runs after convert-tilegpu-to-llvm, in the pipeline only where CUDA's
    libdevice bitcode was not found. Each declared libdevice function
    (`llvm.func @__nv_asinf`, called by a lowered libdevice.X) Tile has
    its own implementation of gets an internal definition: exact
    operations (floor, sqrt, fma, the _rn arithmetic, conversions, bit
    casts, isnan, ...) for fp32 and fp64, and for fp32 the transcendental
    functions as tl.exp/tl.log/tl.sin/tl.cos/tl.rsqrt/tl.erf lower them or
    as MLIR's polynomial approximations and expansions (docs/language.md
    lists their measured error). A function it has no implementation for
    is reported at each call's line (`libdevice.X on fp64 needs CUDA's
    libdevice`), and the pass fails.
  }];
  let dependentDialects = ["::mlir::math::MathDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
