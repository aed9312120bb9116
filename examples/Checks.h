//===- Checks.h - what the examples print of their checks -----------------===//
//
// PASS or FAIL lines and the count of failures the example programs exit
// with: a Status or CUresult that should be success, an error that should
// be one, and an error against a tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_CHECKS_H
#define TILE_EXAMPLES_CHECKS_H

#include "tile/Tile.h"

#include <cstdio>

namespace example {

/// The checks that failed so far; the programs exit 1 when any did.
inline int failures = 0;

inline bool ok(const tile::Status &status, const char *what) {
  if (status)
    return true;
  std::printf("FAIL %s: %s\n", what, status.message().c_str());
  ++failures;
  return false;
}

inline bool ok(int cuResult, const char *what) {
  if (cuResult == 0)
    return true;
  std::printf("FAIL %s: CUresult %d\n", what, cuResult);
  ++failures;
  return false;
}

/// A call that must fail (bad arguments the API refuses): its message.
inline void expectError(const tile::Status &status, const char *what) {
  failures += status.ok();
  std::printf("%s %s: %s\n", status.ok() ? "FAIL" : "PASS", what,
              status.ok() ? "accepted" : status.message().c_str());
}

inline void report(const char *what, double maxError, double tolerance) {
  bool pass = maxError <= tolerance;
  failures += !pass;
  std::printf("%s %s: max |err| %.3g (tol %.3g)\n", pass ? "PASS" : "FAIL",
              what, maxError, tolerance);
}

} // namespace example

#endif // TILE_EXAMPLES_CHECKS_H
