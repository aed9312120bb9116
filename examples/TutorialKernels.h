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
#include <vector>

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

/// Tutorial 06's attention forward (_attn_fwd, host tensor descriptors over
/// the (Z * H * N_CTX, HEAD_DIM) matrices of q, k, v and o): one
/// configuration of the tutorial's autotuning, as its signature and launch
/// options. `stage` is the kernel's STAGE: 1 non-causal, 3 causal.
struct AttentionConfig {
  int headDim, blockM, blockN, stage;
  bool warpSpecialize;
  int numWarps, numStages;
};

inline tile::Specialization attentionSpec(const AttentionConfig &c) {
  auto descriptor = [](int rows, int cols) {
    return "tensordesc<fp16[" + std::to_string(rows) + ", " +
           std::to_string(cols) + "]>:16";
  };
  tile::Specialization spec;
  spec.kernel = "_attn_fwd";
  spec.signature = {"fp32",
                    "*fp32:16",
                    "i32",
                    "i32",
                    descriptor(c.blockM, c.headDim),
                    descriptor(c.blockN, c.headDim),
                    descriptor(c.blockN, c.headDim),
                    descriptor(c.blockM, c.headDim),
                    "i32:16",
                    std::to_string(c.headDim),
                    std::to_string(c.blockM),
                    std::to_string(c.blockN),
                    "False",
                    std::to_string(c.stage),
                    c.warpSpecialize ? "True" : "False",
                    "True"};
  spec.numWarps = c.numWarps;
  spec.numStages = c.numStages;
  return spec;
}

} // namespace example

#endif // TILE_EXAMPLES_TUTORIALKERNELS_H
