//===- Ptxas.h - assembling PTX to a cubin with ptxas -----------*- C++ -*-===//
//
// tile-compile --cubin embeds, beside each specialization's PTX, the cubin
// ptxas makes of it for the kernel's target, so the launcher skips the
// driver's JIT on that target. ptxas comes from the CUDA toolkit or
// Triton's wheel; it is needed at build time only, and only with --cubin.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILECOMPILE_PTXAS_H
#define TILE_TOOLS_TILECOMPILE_PTXAS_H

#include <string>

namespace tile::aot {

/// `requested` if given, else ptxas on the PATH, else
/// /usr/local/cuda/bin/ptxas; empty when none is executable.
std::string findPtxas(const std::string &requested);

/// Assembles `ptx` for `target` (sm_90a, sm_80, ...) with the ptxas at
/// `ptxas` into `cubin`. On failure, `error` says why (ptxas's own output).
bool assemble(const std::string &ptxas, const std::string &ptx,
              const std::string &target, std::string &cubin,
              std::string &error);

/// The compute capability a cubin of `target` is for, as 10 * major +
/// minor (90 for sm_90a); 0 for a name that is not sm_NN[a].
int getComputeCapability(const std::string &target);

} // namespace tile::aot

#endif // TILE_TOOLS_TILECOMPILE_PTXAS_H
