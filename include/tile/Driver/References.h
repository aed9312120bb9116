//===- References.h - independent references for kernel checks -*- C++ -*-===//
//
// Reference results computed on the CPU in float64 with plain loops, never
// with Tile itself, so a check catches compiler bugs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_REFERENCES_H
#define TILE_DRIVER_REFERENCES_H

#include "tile/Driver/HostData.h"

#include <string>
#include <vector>

namespace tile {
/// Computes `check.reference` over its arguments (buffers from `inputs`,
/// indexed as the launch's buffers). False with `error` set when the
/// reference is unknown or its arguments do not fit.
bool computeReference(const launch::Check &check,
                      const std::vector<HostArray> &inputs,
                      const launch::LaunchSpec &spec,
                      std::vector<double> &result, std::string &error);

/// Names of the known references, for messages.
std::string listReferences();

struct Comparison {
  bool passed = false;
  double maxAbsError = 0;
  double relativeError = 0; // ||out - ref|| / ||ref||
  int64_t mismatches = 0;   // elements that differ (exact checks)
  int64_t firstMismatch = -1;
  int64_t nans = 0;
};

/// Compares `output` with `reference`. tolerance 0 asks for equality with
/// the reference rounded to the output's type; otherwise the relative L2
/// error must not exceed it. NaN never passes.
Comparison compare(const HostArray &output,
                   const std::vector<double> &reference, double tolerance);
} // namespace tile

#endif // TILE_DRIVER_REFERENCES_H
