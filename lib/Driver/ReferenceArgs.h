//===- ReferenceArgs.h - what a reference function takes --------*- C++ -*-===//
//
// The arguments and signature shared by the reference functions of
// References.cpp and of the files beside it that hold a family of them
// (ReferencesNorm.cpp, ReferencesAttention.cpp), so each family registers its
// own.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_REFERENCEARGS_H
#define TILE_DRIVER_REFERENCEARGS_H

#include "tile/Driver/HostData.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tile {
/// An argument of a reference: a buffer, or a number or string.
struct RefArg {
  const HostArray *buffer = nullptr;
  const launch::Value *value = nullptr;
};
/// A reference: fills `out` from `args`, or sets `error` and gives false.
using ReferenceFn = std::function<bool(const std::vector<RefArg> &,
                                       std::vector<double> &, std::string &)>;

/// Runs body(begin, end) over [0, count) split across the host's cores,
/// or on this thread when count * workPerItem is small. Each item must be
/// independent of the others.
void parallelChunks(int64_t count, int64_t workPerItem,
                    const std::function<void(int64_t, int64_t)> &body);

/// The layer-norm references (Triton's tutorial 05), by name.
std::vector<std::pair<std::string, ReferenceFn>> getNormReferences();
/// The fused-attention references (Triton's tutorial 06), by name.
std::vector<std::pair<std::string, ReferenceFn>> getAttentionReferences();
} // namespace tile

#endif // TILE_DRIVER_REFERENCEARGS_H
