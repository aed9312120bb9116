//===- TutorialKernels.h - the example's kernels and specializations ------===//
//
// Triton's tutorial kernels in kernels/ (01 add, 02 softmax, 03 matmul) as
// the examples compile them through the C++ API: the same specializations
// as their tile_add_kernel launchers in CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_TUTORIALKERNELS_H
#define TILE_EXAMPLES_TUTORIALKERNELS_H

#include "tile/Tile.h"

#include <string>

namespace example {

struct TutorialKernel {
  const char *name;
  /// The file under kernels/.
  const char *file;
  tile::Specialization spec;
};

/// add: 1024 elements per program.
inline TutorialKernel addKernel() {
  tile::Specialization spec;
  spec.signature = {"*fp32:16", "*fp32:16", "*fp32:16", "i32", "1024"};
  return {"add", "add.tile", spec};
}

/// softmax: rows of up to 1024 columns, 2 warps.
inline TutorialKernel softmaxKernel() {
  tile::Specialization spec;
  spec.signature = {"*fp32:16", "*fp32:16", "i32", "i32", "i32", "1024"};
  spec.numWarps = 2;
  return {"softmax", "softmax_simple.tile", spec};
}

/// matmul: fp16, row-major operands (unit strides compiled in), 128x256x64
/// tiles, 8 warps, 3 stages.
inline TutorialKernel matmulKernel() {
  tile::Specialization spec;
  spec.kernel = "matmul_kernel";
  spec.signature = {"*fp16:16", "*fp16:16", "*fp16:16", "i32:16", "i32:16",
                    "i32:16",   "i32:16",   "i32:1",    "i32:16", "i32:1",
                    "i32:16",   "i32:1",    "128",      "256",    "64",
                    "8",        "\"\""};
  spec.numWarps = 8;
  spec.numStages = 3;
  return {"matmul", "matmul.tile", spec};
}

} // namespace example

#endif // TILE_EXAMPLES_TUTORIALKERNELS_H
