//===- Run.h - compile, run, check, time and tune a kernel ------*- C++ -*-===//
//
// The driver's entry points, which tile-run calls after reading its
// command line into RunOptions: a RunContext holds what the runs of one
// process share (the MLIR context, the CUDA driver, the kernel cache, the
// copy ceiling); runKernel compiles one kernel for one launch and runs,
// checks and times it; runTuned first picks a @triton.autotune
// configuration; runSweep runs once per value of a launch variable.
//
// Each returns a status: 0 (success), 1 (an error, already reported on the
// context's error stream or as a diagnostic) or 2 (a check failed). What a
// run measures goes to llvm::outs() as tile-run prints it, and into a
// RunResult.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_RUN_H
#define TILE_DRIVER_RUN_H

#include "tile/Driver/HostData.h"
#include "tile/Driver/KernelCache.h"
#include "tile/Driver/LaunchSpec.h"
#include "tile/Driver/RunOptions.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tile {
namespace rt {
class Driver;
} // namespace rt

/// The statuses the entry points return (tile-run's exit codes).
enum RunStatus : int { kRunOK = 0, kRunError = 1, kRunCheckFailed = 2 };

/// How far runKernel goes: a normal run, a tuning trial (compile, load,
/// time briefly, print nothing), a fixture trial (compile to PTX only), or
/// a tuning precompile (PTX, and on a GPU the driver's cubin, into the
/// kernel cache; nothing runs: it may be called from several threads, each
/// with the driver's context made current).
enum class Stage { Run, Trial, CompileOnly, Precompile };

/// What one run measured, for --sweep.
struct RunResult {
  bool onGPU = false;
  /// What failed, where runKernel fails: "compile", "load" or "launch".
  const char *phase = "compile";
  /// The GPU's median and quantiles, or the interpreter's wall time.
  std::optional<double> ms, p20, p80;
  std::optional<double> ceilingGBs;
  bool hasChecks = false;
  llvm::StringMap<launch::Value> variables;
  std::optional<double> bytes, flops;
  /// A hash of the kernel's PTX, where the run had it at hand (compile-only
  /// runs do): tuning skips a schedule that compiles to a kernel it timed.
  std::optional<uint64_t> ptxHash;
};

/// What the runs of one process share: the options, the driver and the
/// copy ceiling, measured once.
struct RunContext {
  using Clock = std::chrono::steady_clock;

  RunContext(mlir::MLIRContext &mlirContext, const RunOptions &options);
  ~RunContext();

  /// Prints "<tool>: message" on the error stream; returns kRunError.
  int fail(const llvm::Twine &message);
  /// Opens the kernel cache the options ask for.
  void openCache();
  /// Loads the CUDA driver and creates its context (timed in contextMs).
  /// Null `driver` and the reason in `driverError` where there is none.
  void openDriver();

  mlir::MLIRContext &mlirContext;
  const RunOptions &options;
  /// Where errors go; a tuning trial captures them.
  llvm::raw_ostream *errorStream = &llvm::errs();
  rt::Driver *driver = nullptr;
  std::string driverError;
  double contextMs = 0;
  Clock::time_point processStart = Clock::now();
  bool ceilingTried = false;
  std::optional<double> ceilingGBs;
  std::unique_ptr<cache::KernelCache> cache;
  /// While tuning: the inputs of the first trial, which later trials with
  /// the same buffers reuse.
  std::vector<launch::BufferSpec> tuneBuffers;
  std::vector<HostArray> tuneInputs;
  /// While tuning on a GPU: the first trial's device buffers, which later
  /// trials with the same buffers launch on, as Triton's autotuner runs
  /// every configuration on the same tensors (no upload per trial).
  std::shared_ptr<struct TuneDeviceBuffers> tuneDevice;
};

/// Splits a "name=value" option; reports a malformed one (naming
/// `option`, e.g. "--set") on `context`'s error stream.
bool splitAssignment(RunContext &context, llvm::StringRef option,
                     llvm::StringRef text, std::string &name,
                     std::string &value);

/// Compiles the kernel with `overrides` and runs, checks and times it (or
/// prints a stage, or the --info report).
int runKernel(RunContext &context, llvm::ArrayRef<launch::Override> overrides,
              RunResult &result, Stage stage = Stage::Run);

/// runKernel after @triton.autotune has picked the configuration.
int runTuned(RunContext &context, llvm::ArrayRef<launch::Override> overrides,
             RunResult &result);

/// --sweep: one run per value, then the table, the CSV file and the plot.
int runSweep(RunContext &context, std::vector<launch::Override> overrides);

/// --plot-only: plots a CSV file an earlier sweep wrote.
int plotExisting(RunContext &context, llvm::StringRef csvPath);

/// --summarize-times: the summary of a file --times wrote.
int summarizeTimesFile(RunContext &context, llvm::StringRef path);

/// --list-interpreter-ops: the ops the interpreter executes, and every
/// registered tile-dialect op it would not (then kRunError).
int printInterpreterOps(RunContext &context);

/// --info-fixture: the --info report of a key = value file.
int printInfoFixture(RunContext &context, llvm::StringRef path);

/// --cache-info: the cache directory, whether it is on, the compiler.
int printCacheInfo(RunContext &context);

/// --print-autotune: the kernel's @triton.autotune configurations.
int printAutotuneConfigs(RunContext &context,
                         llvm::ArrayRef<launch::Override> overrides);

} // namespace tile

#endif // TILE_DRIVER_RUN_H
