//===- tile-run.cpp - compile, run, check and time a .tile kernel ---------===//
//
//   tile-run kernels/add.tile                  compile, launch, check, time
//   tile-run kernels/add.tile --set n=2**27    override a launch variable
//   tile-run kernels/add.tile --emit=ptx       print a stage and exit
//   tile-run kernels/add.tile --interpret      run on the CPU interpreter
//   tile-run kernels/add.tile --compare        GPU against the interpreter
//   tile-run test.mlir                         a tile-dialect kernel
//   tile-run kernels/softmax.tile --info       registers, spills, occupancy
//   tile-run kernels/softmax.tile --sweep n_cols=256..8192*2 --csv s.csv
//            --plot s.png                      one run per value, a plot
//   tile-run kernels/matmul.tile --autotune    tune @triton.autotune's configs
//
// Compiled kernels (PTX, and the driver's cubin) and tuning choices are
// cached on disk (lib/Driver/KernelCache.cpp; --no-cache turns it off).
//
// The launch (buffers, sizes, grid, constexprs, num_warps, reference check)
// comes from the file's `# tile-run:` description (`// tile-run:` in .mlir
// files). --emit and --interpret work without a GPU; running on the GPU
// needs the CUDA driver (libcuda.so.1), loaded at run time. Without a
// driver, tile-run interprets the kernel on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"
#include "HostData.h"
#include "KernelInfo.h"
#include "Npy.h"
#include "References.h"
#include "Sweep.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Driver/Compile.h"
#include "tile/Driver/KernelCache.h"
#include "tile/Frontend/Parser.h"
#include "tile/InitTile.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Runtime/CudaDriver.h"
#include "tile/Target/EmitPTX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
using namespace ::tile;
namespace cl = llvm::cl;
namespace interp = mlir::tile::interp;

namespace {
cl::OptionCategory tileRunOptions("tile-run options");

enum class Emit { None, Tile, GPU, LLVM, PTX };

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<kernel.tile or kernel.mlir>"),
                               cl::cat(tileRunOptions));
cl::opt<Emit>
    emit("emit", cl::desc("Print one stage and exit (no GPU needed)"),
         cl::init(Emit::None),
         cl::values(clEnumValN(Emit::Tile, "tile", "the tile dialect"),
                    clEnumValN(Emit::GPU, "gpu", "tilegpu, with layouts"),
                    clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
                    clEnumValN(Emit::PTX, "ptx", "PTX assembly")),
         cl::cat(tileRunOptions));
cl::list<std::string>
    overrides("set",
              cl::desc("Override a launch-description variable: --set n=2**20"),
              cl::value_desc("name=expr"), cl::cat(tileRunOptions));
cl::opt<std::string> target("target", cl::desc("GPU architecture"),
                            cl::init("sm_90a"), cl::cat(tileRunOptions));
cl::opt<std::string> outputFile("o", cl::desc("Output file for --emit"),
                                cl::init("-"), cl::cat(tileRunOptions));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                       cl::init(0x7113), cl::cat(tileRunOptions));
cl::opt<bool> noBench("no-bench", cl::desc("Run and check, do not time"),
                      cl::cat(tileRunOptions));
cl::opt<bool> noCheck("no-check",
                      cl::desc("Run and time, skip the launch's checks (and "
                               "their CPU references)"),
                      cl::cat(tileRunOptions));
cl::opt<int> warmupMs("warmup-ms", cl::desc("Warm-up time"), cl::init(25),
                      cl::cat(tileRunOptions));
cl::opt<int> repMs("rep-ms", cl::desc("Timed repetitions, in ms"),
                   cl::init(100), cl::cat(tileRunOptions));
cl::opt<bool> printAutotune(
    "print-autotune",
    cl::desc("Print the kernel's @triton.autotune configurations and exit"),
    cl::cat(tileRunOptions));
cl::opt<bool> interpret("interpret",
                        cl::desc("Run the kernel on the CPU interpreter"),
                        cl::cat(tileRunOptions));
cl::opt<bool>
    compareRuns("compare",
                cl::desc("Run on the GPU and in the interpreter on the same "
                         "inputs; report the largest differences"),
                cl::cat(tileRunOptions));
cl::list<std::string> npyInputs("input",
                                cl::desc("Read a buffer from a .npy file"),
                                cl::value_desc("name=file.npy"),
                                cl::cat(tileRunOptions));
cl::list<std::string> npySaves("save",
                               cl::desc("Write a buffer after the run to a "
                                        ".npy file"),
                               cl::value_desc("name=file.npy"),
                               cl::cat(tileRunOptions));
cl::opt<std::string> saveDir("save-dir",
                             cl::desc("Write every buffer after the run to "
                                      "DIR/<name>.npy"),
                             cl::value_desc("dir"), cl::cat(tileRunOptions));
cl::list<std::string>
    printBuffers("print-buffer",
                 cl::desc("Print a buffer's elements after the run"),
                 cl::value_desc("name"), cl::cat(tileRunOptions));
enum class InfoFormat { None, Text, JSON };
cl::opt<InfoFormat>
    info("info",
         cl::desc("Compile and load the kernel on the GPU and print its "
                  "registers, spills, shared memory and occupancy instead of "
                  "running it"),
         cl::init(InfoFormat::None), cl::ValueOptional,
         cl::values(clEnumValN(InfoFormat::Text, "", "as text"),
                    clEnumValN(InfoFormat::Text, "text", "as text"),
                    clEnumValN(InfoFormat::JSON, "json", "as JSON")),
         cl::cat(tileRunOptions));
cl::opt<std::string> infoFixture(
    "info-fixture", cl::Hidden,
    cl::desc("Print the --info report from a key = value file (tests)"),
    cl::value_desc("file"), cl::cat(tileRunOptions));
cl::opt<bool> noCeiling("no-ceiling",
                        cl::desc("Do not measure the copy bandwidth that "
                                 "GB/s is compared with"),
                        cl::cat(tileRunOptions));
cl::opt<std::string>
    timesFile("times",
              cl::desc("Write each timed run's time (ms, one per line, in "
                       "launch order) here"),
              cl::value_desc("file"), cl::cat(tileRunOptions));
cl::opt<std::string> summarizeTimes(
    "summarize-times",
    cl::desc("Summarize a file --times wrote (median, p20, p80, mean, "
             "alternating levels); run nothing"),
    cl::value_desc("file"), cl::cat(tileRunOptions));
cl::opt<std::string>
    sweep("sweep",
          cl::desc("Run once per value of a launch variable: NAME=V1,V2,... "
                   "or NAME=A..B:STEP or NAME=A..B*FACTOR"),
          cl::value_desc("name=values"), cl::cat(tileRunOptions));
cl::opt<std::string> csvFile("csv", cl::desc("Write the sweep's table here"),
                             cl::value_desc("file.csv"),
                             cl::cat(tileRunOptions));
cl::opt<std::string> plotFile("plot",
                              cl::desc("Plot the sweep with gnuplot (PNG)"),
                              cl::value_desc("file.png"),
                              cl::cat(tileRunOptions));
cl::opt<std::string>
    plotOnly("plot-only",
             cl::desc("Plot a CSV file an earlier --sweep --csv wrote; run "
                      "nothing"),
             cl::value_desc("file.csv"), cl::cat(tileRunOptions));
cl::list<std::string>
    plotRefs("plot-ref",
             cl::desc("Add a CSV file's columns to the plot (FILE: every "
                      "numeric column against the first; FILE:COL,COL: those)"),
             cl::value_desc("file.csv[:columns]"), cl::cat(tileRunOptions));
cl::opt<std::string>
    plotY("plot-y",
          cl::desc("The sweep's column to plot: GB/s (default where bytes is "
                   "declared), TFLOP/s (where flops is), ms, "
                   "ceiling_fraction"),
          cl::value_desc("column"), cl::cat(tileRunOptions));
cl::opt<std::string> plotTitle("plot-title", cl::desc("The plot's title"),
                               cl::cat(tileRunOptions));
cl::opt<std::string> plotSeries("plot-name",
                                cl::desc("The sweep's series on the plot"),
                                cl::init("Tile"), cl::cat(tileRunOptions));
cl::opt<bool> noCache("no-cache",
                      cl::desc("Neither read nor write the kernel cache "
                               "(also TILE_CACHE_DISABLE=1)"),
                      cl::cat(tileRunOptions));
cl::opt<bool> verboseCache("verbose-cache",
                           cl::desc("Say on stderr what the kernel cache "
                                    "finds and writes"),
                           cl::cat(tileRunOptions));
cl::opt<bool> cacheInfo("cache-info",
                        cl::desc("Print the cache directory, whether it is "
                                 "on, and the compiler version, and exit"),
                        cl::cat(tileRunOptions));
cl::opt<bool>
    forceAutotune("autotune",
                  cl::desc("Tune the kernel's @triton.autotune "
                           "configurations even where the launch sets "
                           "their constexprs"),
                  cl::cat(tileRunOptions));
cl::opt<bool> retune("retune",
                     cl::desc("Tune again instead of using the cached "
                              "choice"),
                     cl::cat(tileRunOptions));
cl::opt<int> tuneWarmupMs("tune-warmup-ms",
                          cl::desc("Warm-up time per configuration while "
                                   "tuning"),
                          cl::init(5), cl::cat(tileRunOptions));
cl::opt<int> tuneRepMs("tune-rep-ms",
                       cl::desc("Timed repetitions per configuration while "
                                "tuning, in ms"),
                       cl::init(20), cl::cat(tileRunOptions));
cl::opt<std::string> autotuneFixture(
    "autotune-fixture", cl::Hidden,
    cl::desc("Tune with fake timings from a file instead of the GPU (tests)"),
    cl::value_desc("file"), cl::cat(tileRunOptions));
cl::opt<bool> listInterpreterOps(
    "list-interpreter-ops",
    cl::desc("Print the ops the interpreter executes; fail if a tile-dialect "
             "op is not among them"),
    cl::cat(tileRunOptions));

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Where fail() writes; a trial while tuning captures it.
llvm::raw_ostream *errorStream = &llvm::errs();

int fail(const llvm::Twine &message) {
  *errorStream << "tile-run: " << message << "\n";
  return 1;
}

/// Writes `text` to -o.
int writeOutput(llvm::StringRef text) {
  std::string error;
  auto output = mlir::openOutputFile(outputFile, &error);
  if (!output)
    return fail(error);
  output->os() << text;
  output->keep();
  return 0;
}

/// What the kernel cache gave a compile.
enum class CacheUse { None, PTX, Cubin };

struct Timings {
  double frontEnd = 0, passes = 0, codegen = 0, load = 0;
  CacheUse cacheUse = CacheUse::None;
  /// Reading the cache entry (PTX hits; a cubin hit counts it in load).
  double cacheRead = 0;
};

/// How far runKernel goes: a normal run, a tuning trial (compile, load,
/// time briefly, print nothing), or a fixture trial (compile to PTX only).
enum class Stage { Run, Trial, CompileOnly };

/// The kernel to run: its launch, its function and its arguments.
struct Kernel {
  std::unique_ptr<TileSource> source;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  /// One per function argument, in order, with the argument types (kept:
  /// lowering to LLVM replaces the function).
  std::vector<launch::Value> args;
  std::vector<Type> argTypes;
  /// Where the grid used num_sms() and occupancy(): their values.
  std::optional<launch::DeviceValues> gridFrom;
  /// How the kernel was specialized, for the cache key (empty for .mlir).
  std::string specializationKey;
};

/// Splits "name=value" options.
bool splitAssignment(llvm::StringRef option, llvm::StringRef text,
                     std::string &name, std::string &value) {
  size_t eq = text.find('=');
  if (eq == llvm::StringRef::npos || eq == 0) {
    fail(option + " expects name=value, got '" + text + "'");
    return false;
  }
  name = text.take_front(eq).trim().str();
  value = text.substr(eq + 1).str();
  return true;
}

/// The function named by the launch, or the only one.
func::FuncOp findKernel(ModuleOp module, TileSource &source) {
  func::FuncOp found;
  unsigned count = 0;
  module.walk([&](func::FuncOp f) {
    ++count;
    if (source.launch.kernel.empty() || f.getSymName() == source.launch.kernel)
      found = f;
  });
  if (!found || (source.launch.kernel.empty() && count != 1)) {
    source.diag->error(source.launch.loc,
                       source.launch.kernel.empty()
                           ? "name the kernel to run after 'tile-run:'"
                           : "no func.func @" + source.launch.kernel);
    return nullptr;
  }
  return found;
}

/// A .mlir file: the tile-dialect module and a `// tile-run:` launch whose
/// `args = (...)` gives the function's arguments in order.
bool loadMLIRKernel(MLIRContext &context, ArrayRef<launch::Override> overrides,
                    Kernel &kernel) {
  kernel.source = std::make_unique<TileSource>();
  TileSource &source = *kernel.source;
  source.diag =
      std::make_unique<frontend::DiagEmitter>(source.sourceMgr, *errorStream);
  std::optional<unsigned> id =
      frontend::addSourceFile(source.sourceMgr, inputFile, *source.diag);
  if (!id)
    return false;
  source.bufferId = *id;
  std::optional<launch::LaunchSpec> spec = launch::parseLaunchSpec(
      source.sourceMgr, *id, *source.diag, overrides, "//");
  if (!spec)
    return false;
  source.launch = std::move(*spec);
  kernel.module = parseSourceFile<ModuleOp>(source.sourceMgr, &context);
  if (!kernel.module)
    return false;
  kernel.func = findKernel(*kernel.module, source);
  if (!kernel.func)
    return false;
  const launch::LaunchSpec &launch = source.launch;
  auto it = launch.variables.find("args");
  if (it != launch.variables.end())
    kernel.args = it->second.kind == launch::Value::Kind::Tuple
                      ? it->second.elements
                      : std::vector<launch::Value>{it->second};
  for (const launch::Value &arg : kernel.args)
    if (arg.isDeferred()) {
      source.diag->error(launch.loc, "args: " + arg.describe() +
                                         "; only the grid may use them");
      return false;
    }
  if (kernel.args.size() != kernel.func.getNumArguments()) {
    source.diag->error(
        launch.loc, "@" + kernel.func.getSymName() + " takes " +
                        std::to_string(kernel.func.getNumArguments()) +
                        " arguments; the launch description gives " +
                        std::to_string(kernel.args.size()) + " (args = (...))");
    return false;
  }
  return true;
}

/// A .tile file: front end, specialized by the launch.
bool loadTileKernel(MLIRContext &context, ArrayRef<launch::Override> overrides,
                    Kernel &kernel) {
  kernel.source = loadTileSource(inputFile, overrides, *errorStream);
  if (!kernel.source)
    return false;
  std::optional<frontend::KernelSpecialization> specialization =
      specialize(*kernel.source);
  if (!specialization)
    return false;
  kernel.specializationKey = getSpecializationKey(*specialization);
  kernel.module = buildTileModule(context, *kernel.source, *specialization);
  if (!kernel.module)
    return false;
  kernel.func = findKernel(*kernel.module, *kernel.source);
  if (!kernel.func)
    return false;
  // Constexprs and integers equal to 1 are folded into the kernel.
  for (const frontend::ParamSpec &param : specialization->params)
    if (param.type != "constexpr" && !param.equalsOne)
      kernel.args.push_back(kernel.source->launch.variables.lookup(param.name));
  if (kernel.args.size() != kernel.func.getNumArguments())
    return fail("internal error: the kernel's arguments do not match its "
                "specialization"),
           false;
  return true;
}

/// The launch's buffers, filled from the seed or from --input files.
bool makeInputs(const launch::LaunchSpec &spec,
                std::vector<HostArray> &inputs) {
  for (size_t i = 0; i < spec.buffers.size(); ++i)
    inputs.push_back(makeHostArray(spec.buffers[i], seed + 977 * i));
  for (const std::string &option : npyInputs) {
    std::string name, path, error;
    if (!splitAssignment("--input", option, name, path))
      return false;
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return fail("--input " + name + ": no buffer of that name"), false;
    HostArray array;
    if (!readNpy(path, array, error))
      return fail(error), false;
    HostArray &target = inputs[it - spec.buffers.begin()];
    if (array.dtype != target.dtype || array.shape != target.shape) {
      auto describe = [](const HostArray &a) {
        std::string text = launch::getName(a.dtype).str() + "(";
        for (size_t d = 0; d < a.shape.size(); ++d)
          text += (d ? ", " : "") + std::to_string(a.shape[d]);
        return text + ")";
      };
      return fail("--input " + name + ": '" + path + "' holds " +
                  describe(array) + ", the buffer is " + describe(target)),
             false;
    }
    target.bytes = std::move(array.bytes);
  }
  return true;
}

bool sameBuffers(ArrayRef<launch::BufferSpec> a,
                 ArrayRef<launch::BufferSpec> b) {
  return a.size() == b.size() &&
         std::equal(
             a.begin(), a.end(), b.begin(),
             [](const launch::BufferSpec &x, const launch::BufferSpec &y) {
               return x.name == y.name && x.dtype == y.dtype &&
                      x.shape == y.shape && x.init == y.init;
             });
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
      "note: the runs alternate between two levels, {0:f4} and {1:f4} ms "
      "({2:f1}% apart; mean {3:f4} ms): {4:f0}% of consecutive runs switch "
      "and {5:f0}% are low, so the median can land on either level from one "
      "call to the next\n",
      levels->lowMs, levels->highMs,
      100 * (levels->highMs - levels->lowMs) / levels->lowMs, rt::mean(times),
      100 * levels->switchFraction, 100 * levels->lowFraction);
}

/// --times: each timed run's time in ms, one per line, in launch order.
bool writeTimes(const std::vector<float> &times, std::string &error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(timesFile, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "--times: cannot write " + timesFile + ": " + ec.message();
    return false;
  }
  os << "# " << times.size() << " timed runs in ms, in launch order\n";
  for (float t : times)
    os << llvm::formatv("{0:f6}\n", t);
  return true;
}

/// --summarize-times: the summary of a file --times wrote.
int summarizeTimesFile() {
  std::vector<float> times;
  std::string error;
  if (!rt::readTimes(summarizeTimes, times, error))
    return fail(error);
  llvm::outs() << llvm::formatv(
      "time: median {0:f4} ms (p20 {1:f4}, p80 {2:f4}, mean {3:f4}) over {4} "
      "runs\n",
      rt::quantile(times, 0.5), rt::quantile(times, 0.2),
      rt::quantile(times, 0.8), rt::mean(times), times.size());
  printAlternatingLevels(times);
  return 0;
}

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
};

/// What the runs of one process share: the driver and the copy ceiling,
/// measured once.
struct Session {
  explicit Session(MLIRContext &context) : context(context) {}
  MLIRContext &context;
  rt::Driver *driver = nullptr;
  std::string driverError;
  double contextMs = 0;
  Clock::time_point processStart;
  bool ceilingTried = false;
  std::optional<double> ceilingGBs;
  std::unique_ptr<cache::KernelCache> cache;
  /// While tuning: the inputs of the first trial, which later trials with
  /// the same buffers reuse.
  std::vector<launch::BufferSpec> tuneBuffers;
  std::vector<HostArray> tuneInputs;
};

/// The loaded GPU kernel.
struct LoadedKernel {
  rt::Module module;
  rt::Function function;
  /// The dynamic shared memory each launch needs (kernels over 48 KiB).
  unsigned dynamicSharedBytes = 0;
};

/// Reads the dynamic shared memory the module declares, if any, and opts
/// the kernel in to it.
bool prepareDynamicShared(rt::Driver &driver, LoadedKernel &loaded,
                          std::string &error) {
  std::optional<uint32_t> bytes;
  if (!driver.readGlobalU32(loaded.module,
                            mlir::tilegpu::kDynamicSharedBytesSymbol.str(),
                            bytes, error))
    return false;
  loaded.dynamicSharedBytes = bytes.value_or(0);
  if (!bytes)
    return true;
  if (!driver.setMaxDynamicShared(loaded.function, int(*bytes), error)) {
    error +=
        llvm::formatv(" (the kernel needs {0} bytes of shared memory)", *bytes)
            .str();
    return false;
  }
  return true;
}

/// Gives the grid its value where it depends on num_sms() or occupancy():
/// evaluates the launch description again, knowing them. Everything else
/// the first evaluation gave stays (it cannot depend on them).
bool resolveGrid(Kernel &kernel, ArrayRef<launch::Override> overrides,
                 const launch::DeviceValues &values) {
  TileSource &source = *kernel.source;
  if (!source.launch.gridDeferred)
    return true;
  bool isMLIR = llvm::StringRef(inputFile).ends_with(".mlir");
  std::optional<launch::LaunchSpec> full =
      launch::parseLaunchSpec(source.sourceMgr, source.bufferId, *source.diag,
                              overrides, isMLIR ? "//" : "#", &values);
  if (!full)
    return false;
  source.launch.grid = full->grid;
  source.launch.gridDeferred = false;
  kernel.gridFrom = values;
  return true;
}

/// " (num_sms() 132, occupancy() 8)" where the grid used them.
std::string describeGridSource(const Kernel &kernel, bool interpreter) {
  if (!kernel.gridFrom)
    return "";
  return llvm::formatv(" from num_sms() = {0}, occupancy() = {1}{2}",
                       kernel.gridFrom->numSMs, kernel.gridFrom->occupancy,
                       interpreter ? " (the interpreter's)" : "")
      .str();
}

/// The kernel cache's key for the PTX of `kernel`: its source text, its
/// specialization, the compile options and the compiler.
std::string getPTXKey(const Kernel &kernel) {
  const TileSource &source = *kernel.source;
  const launch::LaunchSpec &spec = source.launch;
  bool isMLIR = llvm::StringRef(inputFile).ends_with(".mlir");
  cache::KeyBuilder key;
  key.add("compiler", cache::getCompilerVersion())
      .add("input", isMLIR ? "mlir" : "tile")
      .add("source",
           source.sourceMgr.getMemoryBuffer(source.bufferId)->getBuffer())
      .add("kernel", spec.kernel)
      .add("specialization", kernel.specializationKey)
      .add("num_warps", spec.numWarps)
      .add("num_stages", spec.numStages)
      .add("target", target);
  return key.digest();
}

/// The key of the cubin the driver's JIT makes of that PTX on this device.
std::string getCubinKey(const rt::Driver &driver, llvm::StringRef ptxKey) {
  cache::KeyBuilder key;
  key.add("ptx", ptxKey)
      .add("driver", driver.driverVersion())
      .add("device", driver.deviceName())
      .add("cc", driver.computeCapability());
  return key.digest();
}

/// Loads the kernel from a cached cubin, if there is a valid one.
void loadCachedCubin(rt::Driver &driver, cache::KernelCache &kernelCache,
                     llvm::StringRef key, const Kernel &kernel,
                     LoadedKernel &loaded, Timings &timings) {
  auto start = Clock::now();
  std::optional<std::string> payload =
      kernelCache.lookup(cache::EntryKind::Cubin, key);
  if (!payload)
    return;
  std::string cubin, log, error;
  if (!cache::unpackCubin(*payload, cubin, log)) {
    kernelCache.discard(cache::EntryKind::Cubin, key, "bad cubin payload");
    return;
  }
  if (!driver.loadCubin(cubin, log, loaded.module, error) ||
      !driver.getFunction(loaded.module, kernel.source->launch.kernel,
                          loaded.function, error) ||
      !prepareDynamicShared(driver, loaded, error)) {
    loaded.module.reset();
    loaded.function = rt::Function();
    kernelCache.discard(cache::EntryKind::Cubin, key,
                        "the driver refused it: " + error);
    return;
  }
  timings.cacheUse = CacheUse::Cubin;
  timings.load = msSince(start);
}

/// JIT-compiles the PTX and finds the kernel: through the driver's linker
/// into a cubin that the cache keeps (under `cubinKey`, unless empty), or,
/// where the driver has no linker or the link fails, by loading the PTX.
int loadOnGPU(rt::Driver &driver, Kernel &kernel, const std::string &ptx,
              llvm::StringRef cubinKey, cache::KernelCache *kernelCache,
              LoadedKernel &loaded, Timings &timings) {
  std::string error, cubin, log;
  auto loadStart = Clock::now();
  bool linked = driver.canLink() &&
                driver.compileToCubin(ptx, cubin, log, error) &&
                driver.loadCubin(cubin, log, loaded.module, error);
  if (!linked) {
    if (driver.canLink() && verboseCache)
      llvm::errs() << "tile-run: cache: no cubin (" << error
                   << "); loading the PTX\n";
    cubin.clear();
    error.clear();
    if (!driver.loadModule(ptx, loaded.module, error))
      return fail(error);
  }
  if (!driver.getFunction(loaded.module, kernel.source->launch.kernel,
                          loaded.function, error) ||
      !prepareDynamicShared(driver, loaded, error))
    return fail(error);
  timings.load = msSince(loadStart);
  if (kernelCache && !cubinKey.empty() && !cubin.empty())
    kernelCache->store(cache::EntryKind::Cubin, cubinKey,
                       cache::packCubin(cubin, log));
  return 0;
}

/// The copy ceiling, measured the first time a run reports GB/s.
std::optional<double> getCopyCeiling(Session &session) {
  if (noCeiling || session.ceilingTried)
    return session.ceilingGBs;
  session.ceilingTried = true;
  // Far larger than the L2 of any current GPU.
  constexpr size_t kCopyBytes = size_t(256) << 20;
  double gbPerS = 0;
  std::string error;
  if (!rt::measureCopyBandwidth(*session.driver, kCopyBytes, warmupMs, repMs,
                                gbPerS, error)) {
    llvm::errs() << "tile-run: warning: no copy ceiling: " << error << "\n";
    return std::nullopt;
  }
  session.ceilingGBs = gbPerS;
  llvm::outs() << llvm::formatv(
      "copy ceiling: {0:f1} GB/s (cuMemcpyDtoD of 256 MiB, 2 x bytes / "
      "median time)\n",
      gbPerS);
  return gbPerS;
}

/// Runs the loaded kernel on the GPU: upload `buffers`, launch, copy every
/// buffer back, and time it unless --no-bench.
int runOnGPU(Session &session, Kernel &kernel, LoadedKernel &loaded,
             std::vector<HostArray> &buffers, Timings &timings,
             RunResult &result, Stage stage) {
  rt::Driver &driver = *session.driver;
  const launch::LaunchSpec &spec = kernel.source->launch;
  std::string error;
  double processMs = msSince(session.processStart);

  std::vector<rt::DeviceBuffer> deviceBuffers(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!deviceBuffers[i].allocate(driver, buffers[i].bytes.size(), error) ||
        !driver.copyToDevice(deviceBuffers[i].ptr(), buffers[i].bytes.data(),
                             buffers[i].bytes.size(), error))
      return fail(error);

  // Kernel arguments, as the function's argument types say.
  std::vector<uint64_t> storage(kernel.args.size());
  std::vector<void *> args;
  for (auto [i, value] : llvm::enumerate(kernel.args)) {
    Type type = kernel.argTypes[i];
    void *slot = &storage[i];
    if (value.kind == launch::Value::Kind::Buffer)
      *static_cast<uint64_t *>(slot) = deviceBuffers[value.buffer].ptr();
    else if (type.isInteger(64))
      *static_cast<int64_t *>(slot) = value.intValue;
    else if (type.isIntOrIndex())
      *static_cast<int32_t *>(slot) = int32_t(value.intValue);
    else if (type.isF64())
      *static_cast<double *>(slot) = value.asDouble();
    else
      *static_cast<float *>(slot) = float(value.asDouble());
    args.push_back(slot);
  }
  unsigned threads = spec.numWarps * 32;
  rt::Function function = loaded.function;
  auto launchOnce = [&](std::string &err) {
    return driver.launch(function, spec.grid[0], spec.grid[1], spec.grid[2],
                         threads, loaded.dynamicSharedBytes, args.data(), err);
  };

  if (stage == Stage::Trial) {
    // A tuning trial: one launch that must succeed, then a short timing.
    std::vector<float> times;
    if (!launchOnce(error) || !driver.synchronize(error) ||
        !rt::benchmarkMedian(driver, launchOnce, tuneWarmupMs, tuneRepMs,
                             /*flushL2=*/true, times, error))
      return fail(error);
    result.ms = rt::quantile(times, 0.5);
    return 0;
  }
  llvm::outs() << llvm::formatv(
      "{0} on {1}: grid ({2}, {3}, {4}){5}, "
      "num_warps {6}\n",
      spec.kernel, driver.deviceName(), spec.grid[0], spec.grid[1],
      spec.grid[2], describeGridSource(kernel, false), spec.numWarps);
  if (!launchOnce(error) || !driver.synchronize(error))
    return fail(error);
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!driver.copyToHost(buffers[i].bytes.data(), deviceBuffers[i].ptr(),
                           buffers[i].bytes.size(), error))
      return fail(error);

  if (!noBench && !compareRuns) {
    // The ceiling first: its own buffers are freed before the kernel's
    // timing starts.
    std::optional<double> ceiling =
        spec.bytes ? getCopyCeiling(session) : std::nullopt;
    std::vector<float> times;
    if (!rt::benchmarkMedian(driver, launchOnce, warmupMs, repMs,
                             /*flushL2=*/true, times, error))
      return fail(error);
    double median = rt::quantile(times, 0.5);
    result.ms = median;
    result.p20 = rt::quantile(times, 0.2);
    result.p80 = rt::quantile(times, 0.8);
    result.ceilingGBs = ceiling;
    llvm::outs() << llvm::formatv(
        "time: median {0:f4} ms (p20 {1:f4}, p80 {2:f4}) over {3} runs, L2 "
        "flushed",
        median, *result.p20, *result.p80, times.size());
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
    if (!timesFile.empty() && !writeTimes(times, error))
      return fail(error);
  }
  // The compile proper; creating the CUDA context is a once-per-process
  // cost that any program using the GPU pays, Triton's callers included.
  double compileMs = timings.frontEnd + timings.passes + timings.codegen +
                     timings.cacheRead + timings.load;
  std::string tail =
      llvm::formatv("; CUDA context creation {0:f1} ms; process start to "
                    "loaded {1:f1} ms\n",
                    session.contextMs, processMs);
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
  return 0;
}

/// Runs the tile-dialect kernel `func` in the interpreter on `buffers`.
int runInInterpreter(Kernel &kernel, func::FuncOp func,
                     std::vector<HostArray> &buffers, double &wallMs) {
  const launch::LaunchSpec &spec = kernel.source->launch;
  std::vector<interp::Buffer> views;
  for (auto [i, buffer] : llvm::enumerate(buffers))
    views.push_back({spec.buffers[i].name, buffer.bytes});
  std::vector<interp::Argument> args;
  for (const launch::Value &value : kernel.args) {
    interp::Argument arg;
    if (value.kind == launch::Value::Kind::Buffer) {
      arg.kind = interp::Argument::Kind::Buffer;
      arg.buffer = value.buffer;
    } else if (value.kind == launch::Value::Kind::Float) {
      arg.kind = interp::Argument::Kind::Float;
      arg.floatValue = value.floatValue;
    } else if (value.kind == launch::Value::Kind::Int ||
               value.kind == launch::Value::Kind::Bool) {
      arg.intValue = value.intValue;
    } else {
      return fail("kernel argument " + std::to_string(args.size()) +
                  " must be a buffer or a number, got " + value.describe());
    }
    args.push_back(arg);
  }
  interp::LaunchOptions options;
  options.grid = spec.grid;
  options.printStream = &llvm::outs();
  llvm::outs() << llvm::formatv("{0} in the interpreter: grid ({1}, {2}, "
                                "{3}){4}\n",
                                spec.kernel, spec.grid[0], spec.grid[1],
                                spec.grid[2], describeGridSource(kernel, true));
  llvm::outs().flush();
  auto start = Clock::now();
  if (failed(interp::runKernel(func, args, views, options)))
    return 1;
  wallMs = msSince(start);
  llvm::outs() << llvm::formatv(
      "interpreter time: {0:f1} ms for {1} programs\n", wallMs,
      spec.grid[0] * spec.grid[1] * spec.grid[2]);
  return 0;
}
/// Runs the launch's checks on `outputs`; 0 when all pass, 2 otherwise.
int runChecks(TileSource &source, const std::vector<HostArray> &inputs,
              const std::vector<HostArray> &outputs) {
  const launch::LaunchSpec &spec = source.launch;
  bool allPassed = true;
  for (const launch::Check &check : spec.checks) {
    const HostArray &output = outputs[check.output];
    std::vector<double> reference;
    std::string error;
    if (!computeReference(check, inputs, spec, reference, error)) {
      source.diag->error(check.loc, error);
      return 1;
    }
    Comparison result = compare(output, reference, check.tolerance);
    llvm::outs() << llvm::formatv(
        "check {0} against {1}: max |err| {2:e2}, rel err {3:e2}, "
        "{4} mismatches, {5} NaN (tol {6}): {7}\n",
        spec.buffers[check.output].name, check.reference, result.maxAbsError,
        result.relativeError, result.mismatches, result.nans,
        check.tolerance == 0 ? std::string("0, exact")
                             : llvm::formatv("{0:e1}", check.tolerance).str(),
        result.passed ? "PASS" : "FAIL");
    if (!result.passed && result.firstMismatch >= 0)
      llvm::outs() << llvm::formatv(
          "  first bad element {0}: got {1}, want {2}\n", result.firstMismatch,
          output.get(result.firstMismatch), reference[result.firstMismatch]);
    allPassed &= result.passed;
  }
  return allPassed ? 0 : 2;
}

/// --compare: the largest differences between the GPU's and the
/// interpreter's buffers, for each buffer either run wrote.
int reportDifferences(const launch::LaunchSpec &spec,
                      const std::vector<HostArray> &inputs,
                      const std::vector<HostArray> &gpu,
                      const std::vector<HostArray> &interpreted) {
  bool identical = true;
  for (size_t b = 0; b < inputs.size(); ++b) {
    if (gpu[b].bytes == inputs[b].bytes &&
        interpreted[b].bytes == inputs[b].bytes)
      continue; // an input neither run wrote
    double maxAbs = 0, maxRel = 0;
    int64_t nanMismatches = 0, worst = -1;
    for (int64_t i = 0; i < gpu[b].size(); ++i) {
      double x = gpu[b].get(i), y = interpreted[b].get(i);
      if (std::isnan(x) || std::isnan(y)) {
        nanMismatches += std::isnan(x) != std::isnan(y);
        continue;
      }
      double diff = std::fabs(x - y);
      if (diff > maxAbs) {
        maxAbs = diff;
        worst = i;
      }
      if (diff > 0)
        maxRel = std::max(maxRel, diff / std::max(std::fabs(x), std::fabs(y)));
    }
    identical &= maxAbs == 0 && nanMismatches == 0;
    llvm::outs() << llvm::formatv(
        "compare {0}: max |gpu - interpreter| {1:e2}, max rel {2:e2}, {3} NaN "
        "mismatches",
        spec.buffers[b].name, maxAbs, maxRel, nanMismatches);
    if (worst >= 0)
      llvm::outs() << llvm::formatv(" (element {0}: gpu {1}, interpreter {2})",
                                    worst, gpu[b].get(worst),
                                    interpreted[b].get(worst));
    llvm::outs() << "\n";
  }
  if (identical)
    llvm::outs() << "compare: GPU and interpreter agree exactly\n";
  return 0;
}

/// --print-buffer, --save and --save-dir.
int saveBuffers(const launch::LaunchSpec &spec,
                const std::vector<HostArray> &buffers) {
  for (const std::string &name : printBuffers) {
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return fail("--print-buffer " + name + ": no buffer of that name");
    const HostArray &array = buffers[it - spec.buffers.begin()];
    llvm::outs() << name << " =";
    for (int64_t i = 0; i < array.size(); ++i)
      llvm::outs() << " " << llvm::format("%.9g", array.get(i));
    llvm::outs() << "\n";
  }
  std::vector<std::pair<size_t, std::string>> targets;
  for (const std::string &option : npySaves) {
    std::string name, path;
    if (!splitAssignment("--save", option, name, path))
      return 1;
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return fail("--save " + name + ": no buffer of that name");
    targets.push_back({size_t(it - spec.buffers.begin()), path});
  }
  if (!saveDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(saveDir))
      return fail("cannot create '" + saveDir + "': " + ec.message());
    for (size_t b = 0; b < spec.buffers.size(); ++b) {
      llvm::SmallString<128> path(saveDir);
      llvm::sys::path::append(path, spec.buffers[b].name + ".npy");
      targets.push_back({b, std::string(path)});
    }
  }
  for (const auto &[b, path] : targets) {
    std::string error;
    if (!writeNpy(path, buffers[b], error))
      return fail(error);
  }
  return 0;
}

/// --list-interpreter-ops: the ops the interpreter executes, and every
/// registered tile-dialect op it would not (then exit 1).
int listOps(MLIRContext &context) {
  std::vector<std::string> handled = interp::getHandledOpNames();
  for (const std::string &name : handled)
    llvm::outs() << name << "\n";
  unsigned missing = 0, tileOps = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tile")
      continue;
    ++tileOps;
    if (!llvm::is_contained(handled, name.getStringRef().str())) {
      llvm::errs() << "tile-run: the interpreter does not handle "
                   << name.getStringRef() << "\n";
      ++missing;
    }
  }
  llvm::outs() << llvm::formatv("{0} of {1} tile-dialect ops handled\n",
                                tileOps - missing, tileOps);
  return missing ? 1 : 0;
}
/// Writes a module to -o.
int printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return writeOutput(text);
}

/// Compiles the kernel with `overrides` and runs, checks and times it (or
/// prints a stage, or the --info report). 0: all checks passed; 2: a check
/// failed; 1: an error.
int runKernel(Session &session, ArrayRef<launch::Override> overrides,
              RunResult &result, Stage stage = Stage::Run) {
  MLIRContext &context = session.context;
  Timings timings;
  auto start = Clock::now();
  Kernel kernel;
  bool isMLIR = llvm::StringRef(inputFile).ends_with(".mlir");
  if (!(isMLIR ? loadMLIRKernel(context, overrides, kernel)
               : loadTileKernel(context, overrides, kernel)))
    return 1;
  timings.frontEnd = msSince(start);
  llvm::append_range(kernel.argTypes, kernel.func.getArgumentTypes());
  const launch::LaunchSpec &spec = kernel.source->launch;
  result.variables = spec.variables;
  result.bytes = spec.bytes;
  result.flops = spec.flops;
  result.hasChecks = !spec.checks.empty();
  if (emit == Emit::Tile)
    return printModule(*kernel.module);

  // Where the kernel runs: the GPU unless --interpret, or no driver.
  rt::Driver *driver =
      emit == Emit::None && !interpret && stage != Stage::CompileOnly
          ? session.driver
          : nullptr;
  if (stage == Stage::Trial && !driver)
    return fail("internal error: a tuning trial needs the GPU");
  bool wantInfo = info != InfoFormat::None && stage == Stage::Run;
  std::vector<HostArray> inputs;
  if (stage == Stage::Trial && sameBuffers(session.tuneBuffers, spec.buffers)) {
    inputs = session.tuneInputs;
  } else if (emit == Emit::None && !wantInfo && stage != Stage::CompileOnly) {
    if (!makeInputs(spec, inputs))
      return 1;
    if (stage == Stage::Trial) {
      session.tuneBuffers = spec.buffers;
      session.tuneInputs = inputs;
    }
  }

  // The interpreter: one program at a time on the CPU, so num_sms() and
  // occupancy() are 1.
  if (emit == Emit::None && !driver && stage == Stage::Run) {
    if (!resolveGrid(kernel, overrides, launch::DeviceValues{1, 1}))
      return 1;
    std::vector<HostArray> interpreted = inputs;
    double wallMs = 0;
    if (int status = runInInterpreter(kernel, kernel.func, interpreted, wallMs))
      return status;
    result.ms = wallMs;
    int status = runChecks(*kernel.source, inputs, interpreted);
    if (int saveStatus = saveBuffers(spec, interpreted))
      return saveStatus;
    return status;
  }

  // --compare interprets the tile-dialect kernel after the GPU's grid is
  // known; the GPU path lowers the module in place, so keep a copy.
  OwningOpRef<ModuleOp> interpModule;
  func::FuncOp interpFunc;
  if (compareRuns && emit == Emit::None && stage == Stage::Run) {
    interpModule = kernel.module->clone();
    interpFunc =
        interpModule->lookupSymbol<func::FuncOp>(kernel.func.getSymName());
  }

  // The kernel cache: the PTX, and on a GPU the driver's cubin, which
  // skips the JIT too.
  cache::KernelCache *kernelCache =
      session.cache && session.cache->isEnabled() &&
              (emit == Emit::None || emit == Emit::PTX)
          ? session.cache.get()
          : nullptr;
  std::string ptxKey, cubinKey;
  if (kernelCache) {
    ptxKey = getPTXKey(kernel);
    if (driver && driver->canLink())
      cubinKey = getCubinKey(*driver, ptxKey);
  }
  LoadedKernel loaded;
  if (!cubinKey.empty())
    loadCachedCubin(*driver, *kernelCache, cubinKey, kernel, loaded, timings);
  if (!loaded.function) {
    std::string ptx;
    if (kernelCache) {
      start = Clock::now();
      std::optional<std::string> hit =
          kernelCache->lookup(cache::EntryKind::PTX, ptxKey);
      if (hit && hit->empty()) {
        kernelCache->discard(cache::EntryKind::PTX, ptxKey, "no PTX");
      } else if (hit) {
        ptx = std::move(*hit);
        timings.cacheUse = CacheUse::PTX;
        timings.cacheRead = msSince(start);
      }
    }
    if (ptx.empty()) {
      start = Clock::now();
      mlir::tile::CompileOptions options;
      options.numWarps = spec.numWarps;
      options.numStages = spec.numStages;
      options.target = target;
      PassManager toGPU(&context);
      mlir::tile::buildTileToTileGPUPipeline(toGPU, options);
      if (failed(toGPU.run(*kernel.module)))
        return 1;
      if (emit == Emit::GPU)
        return printModule(*kernel.module);
      PassManager toLLVM(&context);
      mlir::tile::buildTileGPUToLLVMPipeline(toLLVM);
      if (failed(toLLVM.run(*kernel.module)))
        return 1;
      timings.passes = msSince(start);

      start = Clock::now();
      if (emit == Emit::LLVM) {
        FailureOr<std::string> ir =
            mlir::tile::emitLLVMIR(*kernel.module, target);
        return failed(ir) ? 1 : writeOutput(*ir);
      }
      FailureOr<std::string> emitted =
          mlir::tile::emitPTX(*kernel.module, target);
      if (failed(emitted))
        return 1;
      ptx = std::move(*emitted);
      timings.codegen = msSince(start);
      if (kernelCache)
        kernelCache->store(cache::EntryKind::PTX, ptxKey, ptx);
    }
    if (emit == Emit::PTX)
      return writeOutput(ptx);
    if (stage == Stage::CompileOnly)
      return 0;
    result.phase = "load";
    if (int status = loadOnGPU(*driver, kernel, ptx, cubinKey, kernelCache,
                               loaded, timings))
      return status;
  }
  result.phase = "launch";
  // num_sms() and occupancy() for this kernel at the launch's num_warps.
  std::string error;
  int occupancy = 0;
  if (!driver->maxActiveBlocksPerSM(loaded.function, spec.numWarps * 32,
                                    loaded.dynamicSharedBytes, occupancy,
                                    error))
    return fail(error);
  // --info reports why nothing fits, with no grid to show.
  bool noGrid = spec.gridDeferred && occupancy == 0;
  if (noGrid && !wantInfo)
    return fail(llvm::formatv("occupancy() is 0: no program of {0} with "
                              "num_warps {1} fits on an SM (see --info)",
                              spec.kernel, spec.numWarps)
                    .str());
  if (!noGrid && !resolveGrid(kernel, overrides,
                              launch::DeviceValues{
                                  driver->multiprocessorCount(), occupancy}))
    return 1;

  if (wantInfo) {
    KernelReport report;
    if (!gatherKernelReport(*driver, loaded.module, loaded.function,
                            spec.kernel, spec.numWarps,
                            loaded.dynamicSharedBytes, report, error))
      return fail(error);
    if (!noGrid)
      report.grid = spec.grid;
    std::string text;
    llvm::raw_string_ostream os(text);
    if (info == InfoFormat::JSON)
      printKernelReportJSON(report, os);
    else
      printKernelReport(report, os);
    return writeOutput(text);
  }

  std::vector<HostArray> interpreted;
  if (compareRuns && stage == Stage::Run) {
    interpreted = inputs;
    double wallMs = 0;
    if (int status = runInInterpreter(kernel, interpFunc, interpreted, wallMs))
      return status;
  }
  std::vector<HostArray> outputs = inputs;
  result.onGPU = true;
  if (int status =
          runOnGPU(session, kernel, loaded, outputs, timings, result, stage))
    return status;
  if (stage == Stage::Trial)
    return 0;
  int status = noCheck ? 0 : runChecks(*kernel.source, inputs, outputs);
  if (compareRuns)
    reportDifferences(spec, inputs, outputs, interpreted);
  if (int saveStatus = saveBuffers(spec, outputs))
    return saveStatus;
  return status;
}

/// A tuning trial of one configuration: runKernel at `stage`, with what it
/// would print on stderr captured for the progress line.
tune::Trial runTrial(Session &session, ArrayRef<launch::Override> overrides,
                     Stage stage) {
  std::string captured;
  llvm::raw_string_ostream capture(captured);
  llvm::raw_ostream *saved = errorStream;
  errorStream = &capture;
  RunResult result;
  int status;
  {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &session.context, capture);
    status = runKernel(session, overrides, result, stage);
  }
  errorStream = saved;
  tune::Trial trial;
  if (status == 0) {
    trial.ms = result.ms;
    return trial;
  }
  llvm::StringRef message = llvm::StringRef(captured).trim();
  message = message.take_front(message.find('\n'));
  message.consume_front("tile-run: ");
  trial.error = std::string("failed to ") + result.phase + ": " +
                (message.empty() ? std::string("no message") : message.str());
  return trial;
}

/// A kernel argument's type for the autotune key, as Triton keys on dtypes.
std::string describeArgType(const launch::Value &value,
                            const launch::LaunchSpec &spec) {
  switch (value.kind) {
  case launch::Value::Kind::Buffer:
    return "*" + launch::getName(spec.buffers[value.buffer].dtype).str();
  case launch::Value::Kind::Int:
    return value.intValue >= INT32_MIN && value.intValue <= INT32_MAX ? "i32"
                                                                      : "i64";
  case launch::Value::Kind::Bool:
    return "i1";
  case launch::Value::Kind::Float:
    return "fp32";
  default:
    return value.describe();
  }
}

/// @triton.autotune: picks the configuration to run with and appends its
/// overrides to `chosen`. The kernel is tuned when the launch sets none of
/// the constexprs the configurations set (or with --autotune); a launch
/// that sets all of them runs as it is; setting some is an error. Returns
/// nonzero after an error.
int chooseConfig(Session &session, ArrayRef<launch::Override> overrides,
                 std::vector<launch::Override> &chosen) {
  if (llvm::StringRef(inputFile).ends_with(".mlir"))
    return 0;
  std::unique_ptr<TileSource> source = parseTileSource(inputFile, llvm::errs());
  if (!source)
    return 1;
  if (source->launch.kernel.empty())
    return 0; // the run reports it
  // A decorator tile-run cannot read (configs from a function) only stops
  // a run that asks for tuning; otherwise the launch's values run.
  std::string autotuneErrors;
  llvm::raw_string_ostream autotuneErrorStream(autotuneErrors);
  frontend::DiagEmitter autotuneDiag(source->sourceMgr, autotuneErrorStream);
  auto autotune = frontend::getAutotuneInfo(
      *source->module, source->launch.kernel, autotuneDiag);
  if (failed(autotune)) {
    if (forceAutotune) {
      llvm::errs() << autotuneErrors;
      return 1;
    }
    llvm::StringRef first = llvm::StringRef(autotuneErrors).trim();
    llvm::errs() << "tile-run: note: not tuning: "
                 << first.take_front(first.find('\n')) << "\n";
    return 0;
  }
  if (!*autotune || (*autotune)->configs.empty())
    return 0;
  std::vector<tune::Candidate> candidates = tune::expandConfigs(**autotune);
  std::vector<std::string> tuned = tune::getTunedNames(**autotune);
  size_t count = candidates.size();

  // Evaluate the launch with the first configuration's values for what the
  // command line leaves open (its grid may use them), to see which of them
  // the description itself sets.
  llvm::StringSet<> fromCommandLine;
  for (const launch::Override &o : overrides)
    fromCommandLine.insert(o.name);
  std::vector<launch::Override> probe(overrides.begin(), overrides.end());
  for (const launch::Override &o : candidates.front().overrides)
    if (llvm::is_contained(tuned, o.name) && !fromCommandLine.count(o.name))
      probe.push_back(o);
  if (!evaluateLaunch(*source, probe))
    return 1;
  const launch::LaunchSpec &spec = source->launch;
  std::vector<std::string> pinned, open;
  for (const std::string &name : tuned)
    (spec.assigned.count(name) || fromCommandLine.count(name) ? pinned : open)
        .push_back(name);
  if (!forceAutotune) {
    if (open.empty()) {
      if (emit == Emit::None && info == InfoFormat::None)
        llvm::outs() << "autotune: the launch sets " << llvm::join(pinned, ", ")
                     << "; not tuning (--autotune tunes)\n";
      return 0;
    }
    if (!pinned.empty()) {
      source->diag->error(
          spec.loc, "the launch sets " + llvm::join(pinned, ", ") +
                        " but not " + llvm::join(open, ", ") +
                        ", which @triton.autotune tunes: set all of them (no "
                        "tuning) or none (tuning), or pass --autotune");
      return 1;
    }
  }
  const tune::Candidate &first = candidates.front();
  if (emit != Emit::None) {
    llvm::errs() << llvm::formatv(
        "tile-run: note: autotune: --emit compiles config 1/{0}: {1} (--set "
        "its constexprs to pick another)\n",
        count, first.description);
    llvm::append_range(chosen, first.overrides);
    return 0;
  }
  bool useFixture = !autotuneFixture.empty();
  if (!useFixture && !session.driver) {
    llvm::outs() << llvm::formatv(
        "autotune: the interpreter cannot time configurations; running "
        "config 1/{0}: {1}\n",
        count, first.description);
    llvm::append_range(chosen, first.overrides);
    return 0;
  }
  tune::Fixture fixture;
  std::string error;
  if (useFixture && !tune::readFixture(autotuneFixture, fixture, error))
    return fail("--autotune-fixture: " + error);
  std::string device =
      useFixture ? fixture.device : session.driver->deviceName();

  // The choice's key: Triton's (the key arguments' values, the argument
  // types) plus the source, the device, the target and the compiler.
  std::vector<std::pair<std::string, std::string>> keyValues;
  cache::KeyBuilder key;
  key.add("compiler", cache::getCompilerVersion())
      .add("source",
           source->sourceMgr.getMemoryBuffer(source->bufferId)->getBuffer())
      .add("kernel", spec.kernel)
      .add("device", device)
      .add("target", target);
  for (const std::string &name : (*autotune)->key) {
    auto it = spec.variables.find(name);
    std::string value = it == spec.variables.end()
                            ? std::string("default")
                            : tune::formatKeyValue(it->second, spec);
    key.add("key " + name, value);
    keyValues.push_back({name, value});
  }
  for (const frontend::KernelParam &param : source->params) {
    auto it = spec.variables.find(param.name);
    if (!param.isConstexpr && it != spec.variables.end())
      key.add("type " + param.name, describeArgType(it->second, spec));
  }
  std::string choiceKey = key.digest();
  cache::KernelCache *kernelCache = session.cache && session.cache->isEnabled()
                                        ? session.cache.get()
                                        : nullptr;
  if (kernelCache && !retune) {
    if (std::optional<std::string> payload =
            kernelCache->lookup(cache::EntryKind::Autotune, choiceKey)) {
      size_t index = 0;
      double ms = 0;
      if (tune::parseChoice(*payload, candidates, index, ms, error)) {
        llvm::outs() << llvm::formatv(
            "autotune: cached choice config {0}/{1}: {2}: {3:f4} ms when "
            "tuned ({4}; --retune tunes again)\n",
            index + 1, count, candidates[index].description, ms,
            kernelCache->getPath(cache::EntryKind::Autotune, choiceKey));
        llvm::append_range(chosen, candidates[index].overrides);
        return 0;
      }
      kernelCache->discard(cache::EntryKind::Autotune, choiceKey, error);
    }
  }

  std::string keyText;
  for (const auto &keyValue : keyValues)
    keyText +=
        (keyText.empty() ? "" : ", ") + keyValue.first + "=" + keyValue.second;
  llvm::outs() << llvm::formatv(
      "autotune: {0} configurations of {1} on {2}, "
      "key {3}{4}\n",
      count, spec.kernel, device, keyText.empty() ? "()" : keyText,
      useFixture ? " (fake timings from the fixture)" : "");
  auto trial = [&](const tune::Candidate &candidate) {
    std::vector<launch::Override> trialOverrides(overrides.begin(),
                                                 overrides.end());
    llvm::append_range(trialOverrides, candidate.overrides);
    tune::Trial result =
        runTrial(session, trialOverrides,
                 useFixture ? Stage::CompileOnly : Stage::Trial);
    if (!useFixture || !result.error.empty())
      return result;
    auto it = fixture.trials.find(candidate.index + 1);
    if (it == fixture.trials.end())
      return tune::Trial{std::nullopt, "no time in the fixture"};
    return it->second;
  };
  std::optional<tune::Outcome> outcome =
      tune::tune(candidates, trial, llvm::outs());
  session.tuneBuffers.clear();
  session.tuneInputs.clear();
  if (!outcome)
    return fail("autotune: no configuration of " + spec.kernel +
                " compiled and ran");
  if (kernelCache)
    kernelCache->store(cache::EntryKind::Autotune, choiceKey,
                       tune::formatChoice(spec.kernel, device, keyValues,
                                          candidates, *outcome));
  llvm::append_range(chosen, candidates[outcome->best].overrides);
  return 0;
}

/// runKernel after @triton.autotune has picked the configuration.
int runTuned(Session &session, ArrayRef<launch::Override> overrides,
             RunResult &result) {
  std::vector<launch::Override> all(overrides.begin(), overrides.end());
  if (int status = chooseConfig(session, overrides, all))
    return status;
  return runKernel(session, all, result);
}

/// The sweep's column that --plot draws.
std::string getPlotColumn(bool hasBytes, bool hasFlops) {
  if (!plotY.empty())
    return plotY;
  return hasBytes ? "GB/s" : hasFlops ? "TFLOP/s" : "ms";
}

/// Draws the series of `ours` (a sweep's CSV) and of every --plot-ref.
int drawPlot(llvm::StringRef oursPath, const CSVTable &ours,
             llvm::StringRef column, llvm::StringRef defaultTitle) {
  std::string error;
  std::vector<Series> series;
  if (!getSeries(oursPath, ours, {column.str()}, series, error))
    return fail(error);
  series.back().title = plotSeries;
  for (const std::string &ref : plotRefs) {
    std::string path;
    std::vector<std::string> columns;
    splitPlotRef(ref, path, columns);
    CSVTable table;
    if (!readCSV(path, table, error) ||
        !getSeries(path, table, columns, series, error))
      return fail("--plot-ref: " + error);
  }
  PlotOptions options;
  options.output = plotFile;
  options.title = plotTitle.empty() ? defaultTitle.str() : plotTitle;
  options.xLabel = ours.header[0];
  options.yLabel = column.str();
  // On a GB/s plot, the copy ceiling the sweep measured: GB/s / fraction.
  auto gb = llvm::find(ours.header, "GB/s");
  auto fraction = llvm::find(ours.header, "ceiling_fraction");
  if (column == "GB/s" && gb != ours.header.end() &&
      fraction != ours.header.end()) {
    size_t g = gb - ours.header.begin(), f = fraction - ours.header.begin();
    for (const std::vector<std::string> &row : ours.rows) {
      double gbPerS, share;
      if (std::max(g, f) < row.size() &&
          !llvm::StringRef(row[g]).getAsDouble(gbPerS) &&
          !llvm::StringRef(row[f]).getAsDouble(share) && share > 0) {
        options.level = gbPerS / share;
        options.levelTitle = "copy ceiling";
        break;
      }
    }
  }
  if (!plotWithGnuplot(series, options, error))
    return fail("--plot: " + error);
  llvm::outs() << "plot: " << plotFile << "\n";
  return 0;
}

/// --plot-only: plots a CSV file an earlier sweep wrote.
int plotExisting() {
  if (plotFile.empty())
    return fail("--plot-only needs --plot FILE.png");
  CSVTable table;
  std::string error;
  if (!readCSV(plotOnly, table, error))
    return fail(error);
  auto has = [&](llvm::StringRef column) {
    auto it = llvm::find(table.header, column);
    if (it == table.header.end())
      return false;
    size_t c = it - table.header.begin();
    return llvm::any_of(table.rows, [&](const std::vector<std::string> &row) {
      return c < row.size() && !row[c].empty();
    });
  };
  return drawPlot(plotOnly, table, getPlotColumn(has("GB/s"), has("TFLOP/s")),
                  llvm::sys::path::stem(plotOnly));
}

/// --sweep: one run per value, then the table, --csv and --plot.
int runSweep(Session &session, std::vector<launch::Override> overrides) {
  std::string name, error;
  std::vector<std::string> values;
  if (!parseSweep(sweep, name, values, error))
    return fail(error);
  for (const launch::Override &o : overrides)
    if (o.name == name)
      return fail("--sweep " + name + " and --set " + name +
                  " both set it; drop one");
  if (emit != Emit::None || info != InfoFormat::None || compareRuns ||
      !npySaves.empty() || !saveDir.empty())
    return fail("--sweep runs and times the kernel: it does not combine with "
                "--emit, --info, --compare, --save or --save-dir");

  std::vector<SweepRow> rows;
  bool anyFailed = false, hasBytes = false, hasFlops = false;
  std::string kernelName;
  overrides.push_back({name, ""});
  for (const std::string &value : values) {
    overrides.back().expression = value;
    llvm::outs() << "== " << name << " = " << value << " ==\n";
    RunResult result;
    int status = runTuned(session, overrides, result);
    if (status == 1)
      return 1;
    const launch::Value &x = result.variables.lookup(name);
    if (!x.isNumber())
      return fail("--sweep " + name + ": the launch variable is " +
                  x.describe() + ", not a number");
    SweepRow row;
    row.x = x.asDouble();
    row.where = result.onGPU ? "gpu" : "interpreter";
    row.ms = result.ms;
    if (result.onGPU) {
      row.p20 = result.p20;
      row.p80 = result.p80;
    }
    if (result.ms && result.bytes) {
      row.gbPerS = *result.bytes / *result.ms * 1e-6;
      if (result.ceilingGBs)
        row.ceilingFraction = *row.gbPerS / *result.ceilingGBs;
    }
    if (result.ms && result.flops)
      row.tflopPerS = *result.flops / *result.ms * 1e-9;
    if (result.hasChecks)
      row.check = status == 2 ? "FAIL" : "PASS";
    anyFailed |= status == 2;
    hasBytes |= result.bytes.has_value();
    hasFlops |= result.flops.has_value();
    rows.push_back(row);
  }
  llvm::outs() << "\n";
  printSweepTable(name, rows, llvm::outs());

  std::string csvPath = csvFile;
  llvm::SmallString<128> tempCSV;
  if (csvPath.empty() && !plotFile.empty()) {
    // The plot reads the table back as any other CSV file.
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "tile-run-sweep", "csv", tempCSV))
      return fail("cannot create a temporary file: " + ec.message());
    csvPath = tempCSV.str().str();
  }
  int status = anyFailed ? 2 : 0;
  if (!csvPath.empty()) {
    if (!writeSweepCSV(csvPath, name, rows, error))
      return fail(error);
    if (!csvFile.empty())
      llvm::outs() << "csv: " << csvFile << "\n";
  }
  if (!plotFile.empty()) {
    CSVTable table;
    if (!readCSV(csvPath, table, error))
      status = fail(error);
    else if (int plotStatus =
                 drawPlot(csvPath, table, getPlotColumn(hasBytes, hasFlops),
                          llvm::sys::path::stem(inputFile).str() + ", " + name +
                              " sweep"))
      status = plotStatus;
  }
  if (!tempCSV.empty())
    llvm::sys::fs::remove(tempCSV);
  return status;
}
} // namespace

int main(int argc, char **argv) {
  auto processStart = Clock::now();
  llvm::InitLLVM initLLVM(argc, argv);
  // --help lists tile-run's options, not every option LLVM and MLIR
  // register (those still parse; --help-hidden lists them).
  cl::HideUnrelatedOptions(tileRunOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "Tile: compile, run, check and time a kernel\n");

  DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  interp::registerInterpretedDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics on ops (parse errors, interpreter errors) as
  // file:line:col: error: ..., with the source line.
  llvm::SourceMgr diagSourceMgr;
  SourceMgrDiagnosticHandler diagHandler(diagSourceMgr, &context);
  context.printOpOnDiagnostic(false);
  if (listInterpreterOps)
    return listOps(context);
  if (!infoFixture.empty()) {
    KernelReport report;
    std::string error;
    if (!readKernelReportFixture(infoFixture, report, error))
      return fail(error);
    if (info == InfoFormat::JSON)
      printKernelReportJSON(report, llvm::outs());
    else
      printKernelReport(report, llvm::outs());
    return 0;
  }
  if (!plotOnly.empty())
    return plotExisting();
  if (!summarizeTimes.empty())
    return summarizeTimesFile();
  if (cacheInfo) {
    cache::CacheLocation location = cache::getCacheLocation(noCache);
    llvm::outs() << "cache directory: "
                 << (location.dir.empty() ? "(none)" : location.dir) << "\n"
                 << "cache: "
                 << (location.disabledBecause.empty()
                         ? "on"
                         : "off (" + location.disabledBecause + ")")
                 << "\ncompiler: " << cache::getCompilerVersion() << "\n";
    return 0;
  }
  if (inputFile.empty())
    return fail("no input file (tile-run --help)");
  if (sweep.empty() && (!csvFile.empty() || !plotFile.empty()))
    return fail("--csv and --plot write a sweep's table: add --sweep "
                "NAME=VALUES (or plot a CSV file with --plot-only)");
  if (!sweep.empty() && !timesFile.empty())
    return fail("--times writes one run's times: drop --sweep");
  if (!timesFile.empty() && (noBench || interpret || compareRuns))
    return fail("--times keeps the GPU's timed runs: drop --no-bench, "
                "--interpret and --compare");
  if (!plotRefs.empty() && plotFile.empty())
    return fail("--plot-ref adds to a plot: add --plot FILE.png");

  std::vector<launch::Override> parsedOverrides;
  for (const std::string &text : overrides) {
    std::string name, expression;
    if (!splitAssignment("--set", text, name, expression))
      return 1;
    parsedOverrides.push_back({name, expression});
  }

  if (printAutotune) {
    std::unique_ptr<TileSource> source =
        loadTileSource(inputFile, parsedOverrides, llvm::errs());
    if (!source)
      return 1;
    auto info = frontend::getAutotuneInfo(*source->module,
                                          source->launch.kernel, *source->diag);
    if (llvm::failed(info))
      return 1;
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!*info) {
      os << source->launch.kernel << " has no @triton.autotune\n";
      return writeOutput(text);
    }
    os << "key:";
    for (const std::string &key : (*info)->key)
      os << " " << key;
    os << "\n";
    for (auto [index, config] : llvm::enumerate((*info)->configs)) {
      os << "config " << index << ":";
      for (const auto &[name, value] : config.kwargs) {
        os << " " << name << "=";
        std::visit(
            [&](const auto &v) {
              using T = std::decay_t<decltype(v)>;
              if constexpr (std::is_same_v<T, std::string>)
                os << "'" << v << "'";
              else if constexpr (std::is_same_v<T, bool>)
                os << (v ? "True" : "False");
              else
                os << v;
            },
            value);
      }
      os << " num_warps=" << config.numWarps
         << " num_stages=" << config.numStages << " num_ctas=" << config.numCtas
         << "\n";
    }
    return writeOutput(text);
  }

  if (interpret && compareRuns)
    return fail("--compare runs on the GPU and in the interpreter; drop "
                "--interpret");
  if (interpret && info != InfoFormat::None)
    return fail("--info reports on the kernel the GPU's JIT compiled; drop "
                "--interpret");

  Session session(context);
  session.processStart = processStart;
  session.cache = std::make_unique<cache::KernelCache>(
      cache::getCacheLocation(noCache), "tile-run", llvm::errs(), verboseCache);
  if (emit == Emit::None && !interpret) {
    auto contextStart = Clock::now();
    session.driver = rt::Driver::get(session.driverError);
    session.contextMs = msSince(contextStart);
    if (!session.driver && compareRuns)
      return fail("--compare runs the kernel on the GPU too: " +
                  session.driverError);
    if (!session.driver && !timesFile.empty())
      return fail("--times keeps the GPU's timed runs, and there is no GPU: " +
                  session.driverError);
    if (!session.driver && info != InfoFormat::None)
      return fail("--info reports on the kernel the GPU's JIT compiled, and "
                  "there is no GPU: " +
                  session.driverError);
    if (!session.driver)
      llvm::errs() << "tile-run: no CUDA driver found; running the kernel "
                      "in the CPU interpreter\n";
  }

  if (!sweep.empty())
    return runSweep(session, parsedOverrides);
  RunResult result;
  return runTuned(session, parsedOverrides, result);
}
