//===- UnaryReferences.h - float64 references of math functions -*- C++ -*-===//
//
// Private to lib/Driver. `ref_NAME(x)` for the C library's functions of one
// argument (ref_asin, ref_tanh, ...): out[i] = NAME(x[i]) in float64, the
// references of kernels calling tl.math and libdevice functions.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DRIVER_UNARYREFERENCES_H
#define TILE_LIB_DRIVER_UNARYREFERENCES_H

#include "tile/Driver/HostData.h"

#include <string>
#include <vector>

namespace tile {
/// Whether `reference` is ref_NAME of a known unary function.
bool isUnaryReference(const std::string &reference);

/// out[i] = NAME(x[i]) for `reference` = ref_NAME; false with `error` set
/// when `x` is missing.
bool computeUnaryReference(const std::string &reference, const HostArray *x,
                           std::vector<double> &out, std::string &error);

/// The unary references' names, for messages.
std::string listUnaryReferences();
} // namespace tile

#endif // TILE_LIB_DRIVER_UNARYREFERENCES_H
