//===- EmitC.h - C source of an ahead-of-time compiled kernel ---*- C++ -*-===//
//
// Writes the header and C source tile-compile produces: each specialization's
// PTX as a string, and one launcher that loads the modules on first use
// (through libcuda.so.1, opened with dlopen), picks the specialization its
// arguments satisfy and launches it. The generated code needs the CUDA
// driver only: no CUDA toolkit, no Tile library.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILECOMPILE_EMITC_H
#define TILE_TOOLS_TILECOMPILE_EMITC_H

#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Tile.h"

#include <string>
#include <vector>

namespace tile::aot {

/// One runtime parameter of the launcher.
struct LauncherParam {
  std::string name;
  /// "*fp32", "i32", "tensordesc<fp16[128, 64]>", ... (the signature's
  /// type, without hints).
  std::string type;
  /// A tensor descriptor's element type and block shape.
  std::string elementType;
  std::vector<int64_t> blockShape;
  TensorMapLayout tensorMap;
  bool isTensorDescriptor() const { return !blockShape.empty(); }
};

/// One compiled specialization.
struct Variant {
  tile::CompiledKernel kernel;
  /// For each launcher parameter: 16 (divisible by 16; a descriptor's
  /// every extent), 8 (an integer divisible by 8), 1 (equal to 1, folded),
  /// or 0 (no hint).
  std::vector<int> hints;
  /// The constexprs' values as the signature gives them, for the header's
  /// comment and the algorithm groups.
  std::string constexprs;
  /// Index of the algorithm (a distinct set of constexprs and launch
  /// options) this variant belongs to.
  unsigned algo = 0;
  /// The cubin of the PTX for the kernel's target (tile-compile --cubin),
  /// empty if none; the compute capability it runs on (10 * major + minor)
  /// and whether only that one (an sm_NNa target) or later minors too.
  std::string cubin;
  int cubinCapability = 0;
  bool cubinArchSpecific = false;
  /// The tensor maps of descriptors the kernel makes from its arguments
  /// (tilegpu-hoist-tensor-maps), which each launch encodes and passes
  /// after the arguments.
  std::vector<mlir::tilegpu::TensorMapRecipe> madeMaps;
};

struct Launcher {
  /// The C name of the entry point (and the files' stem).
  std::string name;
  std::string kernelName;
  std::string sourcePath;
  std::vector<LauncherParam> params;
  std::vector<Variant> variants;
  /// Descriptions of the algorithms, in order (when there are several, the
  /// launcher takes `int algo`).
  std::vector<std::string> algos;
};

/// Why the launcher cannot encode variant `v`'s made maps (a recipe that
/// names an argument it does not pass as an integer or a pointer), or
/// empty; emitSource needs every variant to pass.
std::string checkMadeMaps(const Launcher &launcher, const Variant &v);

/// The C header declaring the launcher.
std::string emitHeader(const Launcher &launcher);
/// The C source defining it.
std::string emitSource(const Launcher &launcher);

} // namespace tile::aot

#endif // TILE_TOOLS_TILECOMPILE_EMITC_H
