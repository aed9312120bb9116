//===- TimingStats.h - summaries of per-run kernel times --------*- C++ -*-===//
//
// What tile-run reports about the per-run times that benchmarkMedian
// collects: quantiles as numpy computes them, and a test for runs that
// alternate between two levels. On the H100, a kernel timed with a flush
// before each run (as do_bench times it) takes one of two times about
// 0.3-0.8 us apart on alternate runs, whatever the kernel (a spin kernel
// too). The two levels are about equally common, so the median lands on
// either from one call to the next; tile-run says so instead of letting a
// difference of one level pass for a difference between kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TIMINGSTATS_H
#define TILE_RUNTIME_TIMINGSTATS_H

#include <optional>
#include <string>
#include <vector>

namespace tile::rt {

/// The q-th quantile (0 <= q <= 1) with linear interpolation between the
/// closest ranks, as numpy.quantile computes it by default; NaN when `v` is
/// empty.
float quantile(std::vector<float> v, double q);

/// The arithmetic mean; NaN when `v` is empty.
double mean(const std::vector<float> &v);

/// Two levels the runs alternate between.
struct AlternatingLevels {
  /// The median of the runs at or below the cut, and of those above it.
  double lowMs, highMs;
  /// The fraction of runs on the low side.
  double lowFraction;
  /// The fraction of consecutive pairs of runs on different sides: about
  /// 0.5 for independent runs, near 1 for strict alternation.
  double switchFraction;
};

/// The runs of `timesMs` (in launch order) split halfway between their 25th
/// and 75th percentiles, where both sides hold at least 30% of the runs and
/// at least 75% of consecutive pairs fall on different sides; nullopt
/// otherwise, and for fewer than 20 runs.
std::optional<AlternatingLevels>
findAlternatingLevels(const std::vector<float> &timesMs);

/// Reads times in ms, one per line (blank lines and lines starting with '#'
/// skipped), as tile-run --times writes them. False, with `error` naming
/// the file and line, on a line that is not a positive finite number, or
/// when no time is found.
bool readTimes(const std::string &path, std::vector<float> &timesMs,
               std::string &error);

} // namespace tile::rt

#endif // TILE_RUNTIME_TIMINGSTATS_H
