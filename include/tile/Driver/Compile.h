//===- Compile.h - from a .tile file to a loadable kernel -------*- C++ -*-===//
//
// The steps tile-run and tile-opt share: read a .tile file, evaluate its
// launch description, specialize the kernel for that launch (argument
// types, constexprs, divisibility by 16, integers equal to 1) and build the
// tile-dialect module; then lower it through the pipeline to PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_COMPILE_H
#define TILE_DRIVER_COMPILE_H

#include "tile/Driver/LaunchSpec.h"
#include "tile/Frontend/AST.h"
#include "tile/Frontend/MLIRGen.h"

#include "mlir/IR/OwningOpRef.h"

#include <memory>

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace tile {

/// A parsed .tile file with its evaluated launch description.
struct TileSource {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<frontend::DiagEmitter> diag;
  unsigned bufferId = 0;
  std::unique_ptr<frontend::ast::Module> module;
  launch::LaunchSpec launch;
  std::vector<frontend::KernelParam> params;
};

/// Reads and parses `path` and evaluates its launch description with
/// `overrides`; diagnostics go to `os`. Null after an error.
std::unique_ptr<TileSource>
loadTileSource(llvm::StringRef path, llvm::ArrayRef<launch::Override> overrides,
               llvm::raw_ostream &os);

/// The first half of loadTileSource: reads and parses `path`, and names the
/// kernel (the launch description's, or the file's only one) in
/// `launch.kernel`. Null after an error.
std::unique_ptr<TileSource> parseTileSource(llvm::StringRef path,
                                            llvm::raw_ostream &os);

/// The second half: evaluates the launch description with `overrides` and
/// finds the kernel's parameters.
bool evaluateLaunch(TileSource &source,
                    llvm::ArrayRef<launch::Override> overrides);

/// The specialization the launch implies (Triton's rules: pointers and
/// integers divisible by 16 are marked so, integers equal to 1 become the
/// constant 1). Reports missing or ill-typed arguments.
std::optional<frontend::KernelSpecialization> specialize(TileSource &source);

/// The specialization as text for cache keys: one line per parameter with
/// its type, divisibility, equality to 1 and constexpr value.
std::string
getSpecializationKey(const frontend::KernelSpecialization &specialization);

/// Whether the launch has a buffer of 2^31 elements or more, whose offsets
/// 32 bits cannot hold: the kernel is then compiled with its pointer
/// offsets in 64 bits (tile-widen-offsets).
bool needsWideOffsets(const launch::LaunchSpec &launch);

/// The tile-dialect module of the specialized kernel, or null.
mlir::OwningOpRef<mlir::ModuleOp>
buildTileModule(mlir::MLIRContext &context, TileSource &source,
                const frontend::KernelSpecialization &specialization);

} // namespace tile

#endif // TILE_DRIVER_COMPILE_H
