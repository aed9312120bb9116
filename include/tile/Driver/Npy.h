//===- Npy.h - numpy .npy files for kernel buffers --------------*- C++ -*-===//
//
// Reads and writes NumPy's .npy format (versions 1 to 3, little-endian, C
// order) so that buffers move to and from numpy and PyTorch. dtypes: float16,
// bfloat16 (ml_dtypes' name), float32, float64, int8 to int64, uint8 to
// uint64 and bool.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_NPY_H
#define TILE_DRIVER_NPY_H

#include "tile/Driver/HostData.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tile {
/// Reads `path` into `array` (dtype, shape and bytes). False with `error`
/// set for anything else (big-endian, Fortran order, other dtypes).
bool readNpy(llvm::StringRef path, HostArray &array, std::string &error);

/// Writes `array` to `path`.
bool writeNpy(llvm::StringRef path, const HostArray &array, std::string &error);
} // namespace tile

#endif // TILE_DRIVER_NPY_H
