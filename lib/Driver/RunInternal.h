//===- RunInternal.h - what the run's files share ---------------*- C++ -*-===//
//
// Private to lib/Driver: the loaded kernel, its compile timings and the
// functions Run.cpp calls in KernelLoad.cpp (reading the kernel and its
// launch), Buffers.cpp (inputs and saved outputs), Launch.cpp (loading and
// launching on the GPU or in the interpreter), Check.cpp and Timing.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DRIVER_RUNINTERNAL_H
#define TILE_LIB_DRIVER_RUNINTERNAL_H

#include "tile/Driver/Compile.h"
#include "tile/Driver/HostData.h"
#include "tile/Driver/KernelInfo.h"
#include "tile/Driver/Run.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Runtime/CudaDriver.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <chrono>

namespace tile {

using Clock = std::chrono::steady_clock;
inline double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// What the kernel cache gave a compile.
enum class CacheUse { None, PTX, Cubin };

struct Timings {
  double frontEnd = 0, passes = 0, codegen = 0, load = 0;
  CacheUse cacheUse = CacheUse::None;
  /// Reading the cache entry (PTX hits; a cubin hit counts it in load).
  double cacheRead = 0;
};

/// The kernel to run: its launch, its function and its arguments.
struct Kernel {
  std::unique_ptr<TileSource> source;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  /// One per function argument, in order, with the argument types (kept:
  /// lowering to LLVM replaces the function).
  std::vector<launch::Value> args;
  std::vector<mlir::Type> argTypes;
  /// Where the grid used num_sms() and occupancy(): their values.
  std::optional<launch::DeviceValues> gridFrom;
  /// How the kernel was specialized, for the cache key (empty for .mlir).
  std::string specializationKey;
};

/// The loaded GPU kernel.
struct LoadedKernel {
  rt::Module module;
  rt::Function function;
  /// The dynamic shared memory each launch needs (kernels over 48 KiB).
  unsigned dynamicSharedBytes = 0;
  /// The warps a warp-specialized kernel adds to num_warps (its TMA
  /// producer), which each launch starts too.
  unsigned producerWarps = 0;
  /// A persistent kernel (tilegpu-persistent-programs): each launch passes
  /// the grid's sizes and starts at most `occupancy` programs per SM.
  bool persistentPrograms = false;
  /// cuOccupancyMaxActiveBlocksPerMultiprocessor's answer for the launch.
  int occupancy = 0;
  /// The tensor maps each launch encodes and passes after the kernel's
  /// arguments (tilegpu-hoist-tensor-maps).
  std::vector<mlir::tilegpu::TensorMapRecipe> tensorMaps;
};

/// Whether the input is a tile-dialect .mlir file rather than a .tile one.
bool isMLIRInput(const RunOptions &options);

/// The TMA copies, buffers and mbarriers of a kernel lowered to tilegpu.
TmaUsage gatherTmaUsage(mlir::ModuleOp module);

/// Writes `text` to the options' output file (-o).
int writeOutput(RunContext &context, llvm::StringRef text);

// KernelLoad.cpp

/// Reads the kernel and its launch, .tile or .mlir, into `kernel`.
bool loadKernel(RunContext &context, llvm::ArrayRef<launch::Override> overrides,
                Kernel &kernel);
/// Gives the grid its value where it depends on num_sms() or occupancy().
bool resolveGrid(RunContext &context, Kernel &kernel,
                 llvm::ArrayRef<launch::Override> overrides,
                 const launch::DeviceValues &values);
/// " from num_sms() = 132, occupancy() = 8" where the grid used them.
std::string describeGridSource(const Kernel &kernel, bool interpreter);

// Buffers.cpp

/// The launch's buffers, filled from the seed or from --input files, then
/// the derived ones computed (errors at their line through `diag`).
bool makeInputs(RunContext &context, frontend::DiagEmitter &diag,
                const launch::LaunchSpec &spec, std::vector<HostArray> &inputs);
bool sameBuffers(llvm::ArrayRef<launch::BufferSpec> a,
                 llvm::ArrayRef<launch::BufferSpec> b);
/// --print-buffer, --save and --save-dir.
int saveBuffers(RunContext &context, const launch::LaunchSpec &spec,
                const std::vector<HostArray> &buffers);

// Launch.cpp

/// The kernel cache's key for the PTX of `kernel`.
std::string getPTXKey(const RunContext &context, const Kernel &kernel);
/// The key of the cubin the driver's JIT makes of that PTX on this device.
std::string getCubinKey(const rt::Driver &driver, llvm::StringRef ptxKey);
/// Loads the kernel from a cached cubin, if there is a valid one.
void loadCachedCubin(rt::Driver &driver, cache::KernelCache &kernelCache,
                     llvm::StringRef key, const Kernel &kernel,
                     LoadedKernel &loaded, Timings &timings);
/// JIT-compiles the PTX and finds the kernel.
int loadOnGPU(RunContext &context, Kernel &kernel, const std::string &ptx,
              llvm::StringRef cubinKey, cache::KernelCache *kernelCache,
              LoadedKernel &loaded, Timings &timings);
/// Runs the loaded kernel on the GPU: upload `buffers`, launch, copy every
/// buffer back, and time it unless --no-bench.
/// The device buffers tuning trials share (RunContext::tuneDevice).
struct TuneDeviceBuffers {
  std::vector<rt::DeviceBuffer> buffers;
};

int runOnGPU(RunContext &context, Kernel &kernel, LoadedKernel &loaded,
             std::vector<HostArray> &buffers, Timings &timings,
             RunResult &result, Stage stage);
/// Runs the tile-dialect kernel `func` in the interpreter on `buffers`.
int runInInterpreter(RunContext &context, Kernel &kernel,
                     mlir::func::FuncOp func, std::vector<HostArray> &buffers,
                     double &wallMs);

// Check.cpp

/// Runs the launch's checks on `outputs`; 0 when all pass, 2 otherwise.
int runChecks(TileSource &source, const std::vector<HostArray> &inputs,
              const std::vector<HostArray> &outputs);
/// --compare: the largest differences between the GPU's and the
/// interpreter's buffers.
int reportDifferences(const launch::LaunchSpec &spec,
                      const std::vector<HostArray> &inputs,
                      const std::vector<HostArray> &gpu,
                      const std::vector<HostArray> &interpreted);

// Timing.cpp

/// The copy ceiling, measured the first time a run reports GB/s.
std::optional<double> getCopyCeiling(RunContext &context);
/// Notes when the timed runs alternate between two levels.
void printAlternatingLevels(const std::vector<float> &times);
/// The timed runs' line: median, quantiles, GB/s and TFLOP/s; --times.
int reportTimes(RunContext &context, const launch::LaunchSpec &spec,
                const std::vector<float> &times, std::optional<double> ceiling,
                RunResult &result);
/// The compile's line: cold or from the cache, and where the time went.
void reportCompileTimes(RunContext &context, const Timings &timings,
                        double processMs);

} // namespace tile

#endif // TILE_LIB_DRIVER_RUNINTERNAL_H
