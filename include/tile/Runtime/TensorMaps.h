//===- TensorMaps.h - tensor maps of descriptors a kernel makes -*- C++ -*-===//
//
// The launchers' side of tilegpu-hoist-tensor-maps: tile-run's launch and
// the C++ API's Kernel::launch encode each map the kernel's recipes
// describe (TensorMapRecipe.h) from the launch's argument values.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TENSORMAPS_H
#define TILE_RUNTIME_TENSORMAPS_H

#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Runtime/CudaDriver.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tile::rt {
/// Reads into `recipes` the tensor maps the loaded `module` asks each launch
/// to encode (the PTX global tile_tensor_maps; none where the module has
/// none). `image`, its PTX or cubin, is searched for the global's name
/// first: asking the driver for a global the module lacks is an error that
/// compute-sanitizer reports as the user's.
bool readTensorMapRecipes(Driver &driver, const Module &module,
                          llvm::StringRef image,
                          std::vector<mlir::tilegpu::TensorMapRecipe> &recipes,
                          std::string &error);

/// Encodes into `map` the tensor map `recipe` describes, for the tensor at
/// `base`, its extents and row stride computed from `argument` (the integer
/// value of the kernel argument of that index; none where it has none). An
/// empty tensor leaves `map` zero: no access through it is in bounds. A
/// recipe the arguments do not fit, or extents TMA cannot describe, are an
/// error.
bool encodeRecipeTensorMap(
    Driver &driver, const mlir::tilegpu::TensorMapRecipe &recipe,
    llvm::function_ref<std::optional<int64_t>(int64_t)> argument,
    DevicePtr base, TensorMapBytes &map, std::string &error);
} // namespace tile::rt

#endif // TILE_RUNTIME_TENSORMAPS_H
