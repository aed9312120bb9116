//===- RunOptions.h - what a run of a kernel does ---------------*- C++ -*-===//
//
// Everything that decides what compiling, running, checking, timing,
// tuning and sweeping a kernel does, as plain fields. tile-run fills one
// from its command line; each field's default is the flag's. The driver's
// code reads these fields, never the command line.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_RUNOPTIONS_H
#define TILE_DRIVER_RUNOPTIONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace tile {

/// The stage --emit prints instead of running.
enum class Emit { None, Tile, GPU, LLVM, PTX };

/// How --info prints the compiled kernel's resources.
enum class InfoFormat { None, Text, JSON };

struct RunOptions {
  /// Prefixes the errors and notes the driver prints ("tile-run: ...").
  std::string toolName = "tile-run";

  /// The .tile or .mlir file.
  std::string inputFile;
  /// Print this stage to `outputFile` and stop.
  Emit emit = Emit::None;
  /// Launch-description overrides, "name=expr" (--set).
  std::vector<std::string> overrides;
  std::string target = "sm_90a";
  /// Where --emit, --info and --print-autotune write ("-": stdout).
  std::string outputFile = "-";
  /// The seed of the random inputs.
  uint64_t seed = 0x7113;
  /// Run and check, do not time.
  bool noBench = false;
  /// Run and time, skip the launch's checks.
  bool noCheck = false;
  int warmupMs = 25;
  int repMs = 100;
  /// Run on the CPU interpreter.
  bool interpret = false;
  /// Run on the GPU and in the interpreter; report the differences.
  bool compare = false;
  /// "name=file.npy": buffers read before the run (--input).
  std::vector<std::string> npyInputs;
  /// "name=file.npy": buffers written after the run (--save).
  std::vector<std::string> npySaves;
  /// Every buffer is written to DIR/<name>.npy after the run.
  std::string saveDir;
  /// Buffers whose elements are printed after the run.
  std::vector<std::string> printBuffers;
  /// Report the compiled kernel's resources instead of running it.
  InfoFormat info = InfoFormat::None;
  /// Do not measure the copy bandwidth GB/s is compared with.
  bool noCeiling = false;
  /// Where each timed run's time goes (--times).
  std::string timesFile;

  /// --sweep NAME=VALUES, and where its table and plot go.
  std::string sweep;
  std::string csvFile;
  std::string plotFile;
  /// CSV files whose columns are added to the plot ("file.csv[:columns]").
  std::vector<std::string> plotRefs;
  std::string plotY;
  std::string plotTitle;
  std::string plotSeries = "Tile";

  /// Neither read nor write the kernel cache.
  bool noCache = false;
  /// Say on stderr what the kernel cache finds and writes.
  bool verboseCache = false;

  /// Tune @triton.autotune's configurations even where the launch sets
  /// their constexprs; tune again instead of using the cached choice.
  bool forceAutotune = false;
  /// Also time each configuration with the compiler's warp-specialized
  /// schedule (warp_specialize_all=True), on sm_90 and later.
  bool autotuneSchedules = false;
  /// Time the configurations within 5% of the best this many more times,
  /// taking turns, and choose by median (0: one trial each, as Triton).
  unsigned autotuneConfirm = 0;
  bool retune = false;
  // Triton's autotuner times each configuration with do_bench's defaults.
  int tuneWarmupMs = 25;
  int tuneRepMs = 100;
  /// Fake timings for tuning (tests).
  std::string autotuneFixture;
};

} // namespace tile

#endif // TILE_DRIVER_RUNOPTIONS_H
