//===- EmitPTX.h - LLVM dialect to PTX --------------------------*- C++ -*-===//
//
// The last stage: an LLVM-dialect module (with NVVM ops) is translated to
// LLVM IR, optimized at O3 and compiled to PTX by LLVM's NVPTX backend.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_EMITPTX_H
#define TILE_TARGET_EMITPTX_H

#include "mlir/Support/LLVM.h"
#include <string>

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace mlir::tile {
/// Registers the translations from the builtin, LLVM and NVVM dialects to
/// LLVM IR.
void registerLLVMTranslations(DialectRegistry &registry);

/// Empty when LLVM's NVPTX backend knows the GPU architecture `target`
/// (sm_80, sm_90a, ...); otherwise the error to report.
std::string checkTarget(StringRef target);

/// The optimized LLVM IR of `module`, as text. Reports errors on `module`.
FailureOr<std::string> emitLLVMIR(ModuleOp module, StringRef target);

/// PTX for `target` (sm_80, sm_90a, ...) from an LLVM-dialect module.
/// Reports errors on `module`.
FailureOr<std::string> emitPTX(ModuleOp module, StringRef target);
} // namespace mlir::tile

#endif // TILE_TARGET_EMITPTX_H
