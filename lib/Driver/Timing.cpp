//===- Timing.cpp - report a run's times ----------------------------------===//
//
// What tile-run prints about time: the timed runs' median and quantiles
// with GB/s against the measured copy ceiling and TFLOP/s, a note where the
// runs alternate between two levels, the --times file and its summary, and
// where the compile's time went (front end, passes, codegen, the kernel
// cache, the driver's JIT).
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>

namespace tile {
namespace {
/// --times: each timed run's time in ms, one per line, in launch order.
bool writeTimes(llvm::StringRef timesFile, const std::vector<float> &times,
                std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(timesFile, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "--times: cannot write " + timesFile.str() + ": " + ec.message();
    return false;
  }
  os << "# " << times.size() << " timed runs in ms, in launch order\n";
  for (float t : times)
    os << llvm::formatv("{0:f6}\n", t);
  return true;
}

/// A time in ms with four decimals, or more below 0.1 ms so that it keeps
/// four significant digits (0.009344, not 0.0093: at 1024^3 a matmul's
/// median is 9-10 us, and 0.1 us steps are 1%); at most 7 decimals.
std::string formatMs(double ms) {
  int decimals = 4;
  for (double bound = 0.1; decimals < 7 && ms > 0 && ms < bound; bound /= 10)
    ++decimals;
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", decimals, ms);
  return text;
}
} // namespace

std::optional<double> getCopyCeiling(RunContext &context) {
  if (context.options.noCeiling || context.ceilingTried)
    return context.ceilingGBs;
  context.ceilingTried = true;
  // Far larger than the L2 of any current GPU.
  constexpr size_t kCopyBytes = size_t(256) << 20;
  double gbPerS = 0;
  std::string error;
  if (!rt::measureCopyBandwidth(*context.driver, kCopyBytes,
                                context.options.warmupMs, context.options.repMs,
                                gbPerS, error)) {
    llvm::errs() << context.options.toolName
                 << ": warning: no copy ceiling: " << error << "\n";
    return std::nullopt;
  }
  context.ceilingGBs = gbPerS;
  llvm::outs() << llvm::formatv(
      "copy ceiling: {0:f1} GB/s (cuMemcpyDtoD of 256 MiB, 2 x bytes / "
      "median time)\n",
      gbPerS);
  return gbPerS;
}

/// Says so when the timed runs alternate between two levels, which makes
/// the median land on either from one call to the next (TimingStats.h).
/// The note names no GB/s or TFLOP/s: scripts read those from the time line.
void printAlternatingLevels(const std::vector<float> &times) {
  std::optional<rt::AlternatingLevels> levels =
      rt::findAlternatingLevels(times);
  if (!levels)
    return;
  llvm::outs() << llvm::formatv(
      "note: the runs alternate between two levels, {0} and {1} ms "
      "({2:f1}% apart; mean {3} ms): {4:f0}% of consecutive runs switch "
      "and {5:f0}% are low, so the median can land on either level from one "
      "call to the next\n",
      formatMs(levels->lowMs), formatMs(levels->highMs),
      100 * (levels->highMs - levels->lowMs) / levels->lowMs,
      formatMs(rt::mean(times)), 100 * levels->switchFraction,
      100 * levels->lowFraction);
}

int summarizeTimesFile(RunContext &context, llvm::StringRef path) {
  std::vector<float> times;
  std::string error;
  if (!rt::readTimes(path.str(), times, error))
    return context.fail(error);
  llvm::outs() << llvm::formatv(
      "time: median {0} ms (p20 {1}, p80 {2}, mean {3}) over {4} runs\n",
      formatMs(rt::quantile(times, 0.5)), formatMs(rt::quantile(times, 0.2)),
      formatMs(rt::quantile(times, 0.8)), formatMs(rt::mean(times)),
      times.size());
  printAlternatingLevels(times);
  return 0;
}

int reportTimes(RunContext &context, const launch::LaunchSpec &spec,
                const std::vector<float> &times, std::optional<double> ceiling,
                RunResult &result) {
  double median = rt::quantile(times, 0.5);
  result.ms = median;
  result.p20 = rt::quantile(times, 0.2);
  result.p80 = rt::quantile(times, 0.8);
  result.ceilingGBs = ceiling;
  llvm::outs() << llvm::formatv(
      "time: median {0} ms (p20 {1}, p80 {2}) over {3} runs, L2 flushed",
      formatMs(median), formatMs(*result.p20), formatMs(*result.p80),
      times.size());
  if (spec.bytes) {
    double gbPerS = *spec.bytes / median * 1e-6;
    llvm::outs() << llvm::formatv("; {0:f1} GB/s", gbPerS);
    if (ceiling)
      llvm::outs() << llvm::formatv(" ({0:f1}% of the copy ceiling)",
                                    100 * gbPerS / *ceiling);
  }
  if (spec.flops)
    llvm::outs() << llvm::formatv("; {0:f1} TFLOP/s",
                                  *spec.flops / median * 1e-9);
  llvm::outs() << "\n";
  printAlternatingLevels(times);
  std::string error;
  if (!context.options.timesFile.empty() &&
      !writeTimes(context.options.timesFile, times, error))
    return context.fail(error);
  return 0;
}

void reportCompileTimes(RunContext &context, const Timings &timings,
                        double processMs) {
  // The compile proper; creating the CUDA context is a once-per-process
  // cost that any program using the GPU pays, Triton's callers included.
  double compileMs = timings.frontEnd + timings.passes + timings.codegen +
                     timings.cacheRead + timings.load;
  std::string tail =
      llvm::formatv("; CUDA context creation {0:f1} ms; process start to "
                    "loaded {1:f1} ms\n",
                    context.contextMs, processMs);
  switch (timings.cacheUse) {
  case CacheUse::None:
    llvm::outs() << llvm::formatv(
        "cold compile, .tile to a loaded module: {0:f1} ms (front end "
        "{1:f1}, passes {2:f1}, LLVM to PTX {3:f1}, driver JIT and load "
        "{4:f1}){5}",
        compileMs, timings.frontEnd, timings.passes, timings.codegen,
        timings.load, tail);
    break;
  case CacheUse::PTX:
    llvm::outs() << llvm::formatv(
        "cache hit (PTX), .tile to a loaded module: {0:f1} ms (front end "
        "{1:f1}, PTX from the cache {2:f1}, driver JIT and load {3:f1}){4}",
        compileMs, timings.frontEnd, timings.cacheRead, timings.load, tail);
    break;
  case CacheUse::Cubin:
    llvm::outs() << llvm::formatv(
        "cache hit, .tile to a loaded module: {0:f1} ms (front end {1:f1}, "
        "cubin from the cache loaded in {2:f1}; no passes, PTX or JIT){3}",
        compileMs, timings.frontEnd, timings.load, tail);
    break;
  }
}
} // namespace tile
