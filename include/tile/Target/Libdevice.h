//===- Libdevice.h - where CUDA's libdevice bitcode is ----------*- C++ -*-===//
//
// libdevice.10.bc holds the __nv_* functions that libdevice.X calls
// (tile.extern_elementwise) name. It is looked for once per process:
//
//   1. $TILE_LIBDEVICE (a file; empty or "none" means no libdevice),
//   2. $TRITON_LIBDEVICE_PATH (Triton's own override),
//   3. nvvm/libdevice/ of $CUDA_HOME, $CUDA_PATH, /usr/local/cuda and of
//      the CUDA install whose ptxas is on $PATH, and Debian's
//      /usr/lib/nvidia-cuda-toolkit/libdevice,
//   4. Triton's Python package (triton/backends/nvidia/lib/), under the
//      prefixes of $VIRTUAL_ENV, $CONDA_PREFIX, the python3 on $PATH,
//      ~/.local, /usr/local and /usr.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_LIBDEVICE_H
#define TILE_TARGET_LIBDEVICE_H

#include <string>

namespace mlir::tile {

struct LibdeviceLocation {
  /// The bitcode file, or empty where none was found.
  std::string path;
  /// Where none was found, or the one named cannot be used: why.
  std::string problem;
  /// $TILE_LIBDEVICE names a file that is not there (an error, not a
  /// reason to use Tile's own functions).
  bool invalid = false;
};

/// Where libdevice is (searched once).
const LibdeviceLocation &findLibdevice();

/// Which libdevice code generation links, for the compile cache's key: its
/// path, size and modification time, or "none".
std::string getLibdeviceIdentity();

} // namespace mlir::tile

#endif // TILE_TARGET_LIBDEVICE_H
