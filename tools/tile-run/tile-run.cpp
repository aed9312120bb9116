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
// This file reads the command line into RunOptions and dispatches; the
// work is the driver library's (include/tile/Driver/Run.h, lib/Driver/).
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

#include "tile/Driver/Run.h"
#include "tile/InitTile.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Target/EmitPTX.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace mlir;
using namespace ::tile;
namespace cl = llvm::cl;
namespace interp = mlir::tile::interp;

namespace {
cl::OptionCategory tileRunOptions("tile-run options");

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
cl::opt<bool> autotuneSchedules(
    "autotune-schedules",
    cl::desc("While tuning, also try each configuration with the compiler's "
             "warp-specialized schedule (warp_specialize_all=True; sm_90+), "
             "with and without ping-pong (ping_pong=False)"),
    cl::cat(tileRunOptions));
cl::opt<unsigned> autotuneConfirm(
    "autotune-confirm",
    cl::desc("While tuning, time the configurations within 5% of the best "
             "N more times, taking turns, and choose the lowest median"),
    cl::value_desc("N"), cl::init(0), cl::cat(tileRunOptions));
cl::opt<bool> retune("retune",
                     cl::desc("Tune again instead of using the cached "
                              "choice"),
                     cl::cat(tileRunOptions));
cl::opt<int> tuneWarmupMs("tune-warmup-ms",
                          cl::desc("Warm-up time per configuration while "
                                   "tuning"),
                          cl::init(25), cl::cat(tileRunOptions));
cl::opt<int> tuneRepMs("tune-rep-ms",
                       cl::desc("Timed repetitions per configuration while "
                                "tuning, in ms"),
                       cl::init(100), cl::cat(tileRunOptions));
cl::opt<std::string> autotuneFixture(
    "autotune-fixture", cl::Hidden,
    cl::desc("Tune with fake timings from a file instead of the GPU (tests)"),
    cl::value_desc("file"), cl::cat(tileRunOptions));
cl::opt<bool> listInterpreterOps(
    "list-interpreter-ops",
    cl::desc("Print the ops the interpreter executes; fail if a tile-dialect "
             "op is not among them"),
    cl::cat(tileRunOptions));

/// The command line as RunOptions.
RunOptions getRunOptions() {
  RunOptions options;
  options.inputFile = inputFile;
  options.emit = emit;
  options.overrides.assign(overrides.begin(), overrides.end());
  options.target = target;
  options.outputFile = outputFile;
  options.seed = seed;
  options.noBench = noBench;
  options.noCheck = noCheck;
  options.warmupMs = warmupMs;
  options.repMs = repMs;
  options.interpret = interpret;
  options.compare = compareRuns;
  options.npyInputs.assign(npyInputs.begin(), npyInputs.end());
  options.npySaves.assign(npySaves.begin(), npySaves.end());
  options.saveDir = saveDir;
  options.printBuffers.assign(printBuffers.begin(), printBuffers.end());
  options.info = info;
  options.noCeiling = noCeiling;
  options.timesFile = timesFile;
  options.sweep = sweep;
  options.csvFile = csvFile;
  options.plotFile = plotFile;
  options.plotRefs.assign(plotRefs.begin(), plotRefs.end());
  options.plotY = plotY;
  options.plotTitle = plotTitle;
  options.plotSeries = plotSeries;
  options.noCache = noCache;
  options.verboseCache = verboseCache;
  options.forceAutotune = forceAutotune;
  options.retune = retune;
  options.tuneWarmupMs = tuneWarmupMs;
  options.tuneRepMs = tuneRepMs;
  options.autotuneFixture = autotuneFixture;
  options.autotuneSchedules = autotuneSchedules;
  options.autotuneConfirm = autotuneConfirm;
  return options;
}

/// Flags that do not combine; an error message, or empty.
std::string checkFlagCombinations() {
  if (sweep.empty() && (!csvFile.empty() || !plotFile.empty()))
    return "--csv and --plot write a sweep's table: add --sweep "
           "NAME=VALUES (or plot a CSV file with --plot-only)";
  if (!sweep.empty() && !timesFile.empty())
    return "--times writes one run's times: drop --sweep";
  if (!timesFile.empty() && (noBench || interpret || compareRuns))
    return "--times keeps the GPU's timed runs: drop --no-bench, "
           "--interpret and --compare";
  if (!plotRefs.empty() && plotFile.empty())
    return "--plot-ref adds to a plot: add --plot FILE.png";
  // --emit prints a stage and runs nothing: flags about a run conflict.
  if (emit != Emit::None) {
    for (auto [given, flag] :
         {std::pair{bool(interpret), "--interpret"},
          std::pair{bool(compareRuns), "--compare"},
          std::pair{info != InfoFormat::None, "--info"},
          std::pair{!npyInputs.empty(), "--input"},
          std::pair{!npySaves.empty(), "--save"},
          std::pair{!saveDir.empty(), "--save-dir"},
          std::pair{!printBuffers.empty(), "--print-buffer"},
          std::pair{!timesFile.empty(), "--times"},
          std::pair{bool(retune), "--retune"}})
      if (given)
        return std::string("--emit prints a stage without running the "
                           "kernel: drop ") +
               flag;
  }
  if (outputFile.getNumOccurrences() && emit == Emit::None &&
      info == InfoFormat::None)
    return "-o writes what --emit or --info prints: add one of them";
  return "";
}
} // namespace

int main(int argc, char **argv) {
  auto processStart = std::chrono::steady_clock::now();
#ifdef __GLIBC__
  // The interpreter makes and frees a tensor for each op it runs. By
  // default glibc hands the heap's top back to the system on such frees
  // (and maps tensors from 128 KiB up afresh), so the next op faults its
  // pages in again: a third of an interpreted layer norm's time.
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
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

  RunOptions options = getRunOptions();
  RunContext run(context, options);
  run.processStart = processStart;
  if (listInterpreterOps)
    return printInterpreterOps(run);
  if (!infoFixture.empty())
    return printInfoFixture(run, infoFixture);
  if (!plotOnly.empty())
    return plotExisting(run, plotOnly);
  if (!summarizeTimes.empty())
    return summarizeTimesFile(run, summarizeTimes);
  if (cacheInfo)
    return printCacheInfo(run);
  if (inputFile.empty())
    return run.fail("no input file (tile-run --help)");
  std::string combination = checkFlagCombinations();
  if (!combination.empty())
    return run.fail(combination);
  std::string badTarget = mlir::tile::checkTarget(target);
  if (!badTarget.empty())
    return run.fail("--target: " + badTarget);

  std::vector<launch::Override> parsedOverrides;
  for (const std::string &text : overrides) {
    std::string name, expression;
    if (!splitAssignment(run, "--set", text, name, expression))
      return 1;
    parsedOverrides.push_back({name, expression});
  }
  if (printAutotune)
    return printAutotuneConfigs(run, parsedOverrides);

  if (interpret && compareRuns)
    return run.fail("--compare runs on the GPU and in the interpreter; drop "
                    "--interpret");
  if (interpret && info != InfoFormat::None)
    return run.fail("--info reports on the kernel the GPU's JIT compiled; "
                    "drop --interpret");

  run.openCache();
  if (emit == Emit::None && !interpret) {
    run.openDriver();
    if (!run.driver && compareRuns)
      return run.fail("--compare runs the kernel on the GPU too: " +
                      run.driverError);
    if (!run.driver && !timesFile.empty())
      return run.fail(
          "--times keeps the GPU's timed runs, and there is no GPU: " +
          run.driverError);
    if (!run.driver && info != InfoFormat::None)
      return run.fail("--info reports on the kernel the GPU's JIT compiled, "
                      "and there is no GPU: " +
                      run.driverError);
    if (!run.driver)
      llvm::errs() << "tile-run: no CUDA driver found; running the kernel "
                      "in the CPU interpreter\n";
  }

  if (!sweep.empty())
    return runSweep(run, parsedOverrides);
  RunResult result;
  return runTuned(run, parsedOverrides, result);
}
