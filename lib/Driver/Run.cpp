//===- Run.cpp - compile, run, check and time one kernel ------------------===//
//
// runKernel: reads the kernel and its launch, compiles it through the
// pipeline (or takes its PTX or cubin from the kernel cache), then runs it
// on the GPU or in the interpreter, checks its results and times it; or
// prints a stage (--emit) or the compiled kernel's resources (--info).
// Also the RunContext every run of a process shares.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Driver/KernelInfo.h"
#include "tile/InitTile.h"
#include "tile/Target/EmitPTX.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;

namespace tile {
RunContext::RunContext(MLIRContext &mlirContext, const RunOptions &options)
    : mlirContext(mlirContext), options(options) {}

RunContext::~RunContext() = default;

int RunContext::fail(const llvm::Twine &message) {
  *errorStream << options.toolName << ": " << message << "\n";
  return kRunError;
}

void RunContext::openCache() {
  cache = std::make_unique<cache::KernelCache>(
      cache::getCacheLocation(options.noCache), options.toolName, llvm::errs(),
      options.verboseCache);
}

void RunContext::openDriver() {
  auto contextStart = Clock::now();
  driver = rt::Driver::get(driverError);
  contextMs = msSince(contextStart);
}

bool splitAssignment(RunContext &context, llvm::StringRef option,
                     llvm::StringRef text, std::string &name,
                     std::string &value) {
  size_t eq = text.find('=');
  if (eq == llvm::StringRef::npos || eq == 0) {
    context.fail(option + " expects name=value, got '" + text + "'");
    return false;
  }
  name = text.take_front(eq).trim().str();
  value = text.substr(eq + 1).str();
  return true;
}

int writeOutput(RunContext &context, llvm::StringRef text) {
  std::string error;
  auto output = mlir::openOutputFile(context.options.outputFile, &error);
  if (!output)
    return context.fail(error);
  output->os() << text;
  output->keep();
  return 0;
}

namespace {
/// Writes a module to -o.
/// `module` after `header` (comment lines, so tile-opt still parses it).
int printModule(RunContext &context, ModuleOp module,
                llvm::StringRef header = "") {
  std::string text = header.str();
  llvm::raw_string_ostream os(text);
  module.print(os);
  return writeOutput(context, text);
}

/// --emit=gpu's header: the kernel, target and warps, and what the kernel
/// does with TMA (as --info says), so that a reader finds its tensor maps,
/// mbarriers and TMA buffers without reading every op.
std::string describeTileGPUModule(ModuleOp module, llvm::StringRef kernelName,
                                  llvm::StringRef target, unsigned numWarps) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("// {0}: tilegpu form for {1}, {2} warps\n", kernelName,
                      target, numWarps);
  printTmaUsage(gatherTmaUsage(module), os, "// ");
  return text;
}
} // namespace

/// 0: all checks passed; 2: a check failed; 1: an error.
int runKernel(RunContext &context, ArrayRef<launch::Override> overrides,
              RunResult &result, Stage stage) {
  const RunOptions &options = context.options;
  Emit emit = options.emit;
  Timings timings;
  auto start = Clock::now();
  Kernel kernel;
  if (!loadKernel(context, overrides, kernel))
    return 1;
  timings.frontEnd = msSince(start);
  llvm::append_range(kernel.argTypes, kernel.func.getArgumentTypes());
  const launch::LaunchSpec &spec = kernel.source->launch;
  result.variables = spec.variables;
  result.bytes = spec.bytes;
  result.flops = spec.flops;
  result.hasChecks = !spec.checks.empty();
  if (emit == Emit::Tile)
    return printModule(context, *kernel.module);

  // Where the kernel runs: the GPU unless --interpret, or no driver.
  bool compileOnly = stage == Stage::CompileOnly || stage == Stage::Precompile;
  rt::Driver *driver = emit == Emit::None && !options.interpret && !compileOnly
                           ? context.driver
                           : nullptr;
  if (stage == Stage::Trial && !driver)
    return context.fail("internal error: a tuning trial needs the GPU");
  bool wantInfo = options.info != InfoFormat::None && stage == Stage::Run;
  // Python's launch needs a grid too: one program by default would hide a
  // forgotten line.
  if (emit == Emit::None && !wantInfo && !compileOnly && !spec.hasGrid) {
    kernel.source->diag->error(spec.loc,
                               "the launch description sets no grid (add "
                               "e.g. `grid = (cdiv(n, BLOCK_SIZE),)`)");
    return 1;
  }
  std::vector<HostArray> inputs;
  // A trial on the buffers of the one before runs on its device buffers
  // where that trial kept them (no inputs to make or upload), else on its
  // inputs.
  bool sameAsTrialBefore =
      stage == Stage::Trial && sameBuffers(context.tuneBuffers, spec.buffers);
  if (sameAsTrialBefore) {
    if (!context.tuneDevice)
      inputs = context.tuneInputs;
  } else if (emit == Emit::None && !wantInfo && !compileOnly) {
    if (!makeInputs(context, *kernel.source->diag, spec, inputs))
      return 1;
    if (stage == Stage::Trial) {
      context.tuneBuffers = spec.buffers;
      context.tuneInputs = inputs;
    }
  }

  // The interpreter: one program at a time on the CPU, so num_sms() and
  // occupancy() are 1.
  if (emit == Emit::None && !driver && stage == Stage::Run) {
    if (!resolveGrid(context, kernel, overrides, launch::DeviceValues{1, 1}))
      return 1;
    std::vector<HostArray> interpreted = inputs;
    double wallMs = 0;
    if (int status =
            runInInterpreter(context, kernel, kernel.func, interpreted, wallMs))
      return status;
    result.ms = wallMs;
    int status =
        options.noCheck ? 0 : runChecks(*kernel.source, inputs, interpreted);
    if (int saveStatus = saveBuffers(context, spec, interpreted))
      return saveStatus;
    return status;
  }

  // --compare interprets the tile-dialect kernel after the GPU's grid is
  // known; the GPU path lowers the module in place, so keep a copy.
  OwningOpRef<ModuleOp> interpModule;
  func::FuncOp interpFunc;
  if (options.compare && emit == Emit::None && stage == Stage::Run) {
    interpModule = kernel.module->clone();
    interpFunc =
        interpModule->lookupSymbol<func::FuncOp>(kernel.func.getSymName());
  }

  mlir::tile::CompileOptions compileOptions;
  compileOptions.numWarps = spec.numWarps;
  compileOptions.numStages = spec.numStages;
  compileOptions.target = options.target;
  compileOptions.wideOffsets = needsWideOffsets(spec);
  compileOptions.warpSpecializeAll = spec.warpSpecializeAll;
  compileOptions.pingPong = spec.pingPong;
  compileOptions.persistentPrograms = true; // runOnGPU launches them so
  compileOptions.hoistTensorMaps = true; // and passes their maps
  // --info reports the kernel's use of TMA from its tilegpu form (the PTX
  // may come from the cache).
  TmaUsage tmaUsage;
  if (wantInfo) {
    OwningOpRef<ModuleOp> gpuModule = kernel.module->clone();
    if (failed(mlir::tile::lowerToTileGPU(*gpuModule, compileOptions)))
      return 1;
    tmaUsage = gatherTmaUsage(*gpuModule);
  }

  // The kernel cache: the PTX, and on a GPU the driver's cubin, which
  // skips the JIT too.
  cache::KernelCache *kernelCache =
      context.cache && context.cache->isEnabled() &&
              (emit == Emit::None || emit == Emit::PTX)
          ? context.cache.get()
          : nullptr;
  std::string ptxKey, cubinKey;
  // A precompile links the cubin the trial will load, with the driver that
  // runs the trials.
  rt::Driver *linker = stage == Stage::Precompile ? context.driver : driver;
  if (kernelCache) {
    ptxKey = getPTXKey(context, kernel);
    if (linker && linker->canLink())
      cubinKey = getCubinKey(*linker, ptxKey);
  }
  if (stage == Stage::Precompile && !cubinKey.empty() &&
      kernelCache->lookup(cache::EntryKind::Cubin, cubinKey))
    return 0;
  LoadedKernel loaded;
  if (!cubinKey.empty() && stage != Stage::Precompile)
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
      std::string kernelName = kernel.func.getSymName().str();
      if (failed(mlir::tile::lowerToTileGPU(*kernel.module, compileOptions)))
        return 1;
      if (emit == Emit::GPU)
        return printModule(context, *kernel.module,
                           describeTileGPUModule(*kernel.module, kernelName,
                                                 options.target,
                                                 spec.numWarps));
      if (failed(mlir::tile::lowerToLLVMDialect(*kernel.module)))
        return 1;
      timings.passes = msSince(start);

      start = Clock::now();
      if (emit == Emit::LLVM) {
        FailureOr<std::string> ir =
            mlir::tile::emitLLVMIR(*kernel.module, options.target);
        return failed(ir) ? 1 : writeOutput(context, *ir);
      }
      FailureOr<std::string> emitted =
          mlir::tile::emitPTX(*kernel.module, options.target);
      if (failed(emitted))
        return 1;
      ptx = std::move(*emitted);
      timings.codegen = msSince(start);
      if (kernelCache)
        kernelCache->store(cache::EntryKind::PTX, ptxKey, ptx);
    }
    result.ptxHash = llvm::xxh3_64bits(ptx);
    if (emit == Emit::PTX)
      return writeOutput(context, ptx);
    if (stage == Stage::CompileOnly)
      return 0;
    if (stage == Stage::Precompile) {
      // A link that fails here is left to the trial, which reports it.
      std::string cubin, log, error;
      if (!cubinKey.empty() && linker->compileToCubin(ptx, cubin, log, error))
        kernelCache->store(cache::EntryKind::Cubin, cubinKey,
                           cache::packCubin(cubin, log));
      return 0;
    }
    result.phase = "load";
    if (int status = loadOnGPU(context, kernel, ptx, cubinKey, kernelCache,
                               loaded, timings))
      return status;
  }
  result.phase = "launch";
  // num_sms() and occupancy() for this kernel at the launch's num_warps.
  std::string error;
  int occupancy = 0;
  if (!driver->maxActiveBlocksPerSM(
          loaded.function, (spec.numWarps + loaded.producerWarps) * 32,
          loaded.dynamicSharedBytes, occupancy, error))
    return context.fail(error);
  loaded.occupancy = occupancy;
  // --info reports why nothing fits, with no grid to show.
  bool noGrid = spec.gridDeferred && occupancy == 0;
  if (noGrid && !wantInfo)
    return context.fail(
        llvm::formatv("occupancy() is 0: no program of {0} with "
                      "num_warps {1} fits on an SM (see --info)",
                      spec.kernel, spec.numWarps)
            .str());
  if (!noGrid && !resolveGrid(context, kernel, overrides,
                              launch::DeviceValues{
                                  driver->multiprocessorCount(), occupancy}))
    return 1;

  if (wantInfo) {
    KernelReport report;
    if (!gatherKernelReport(*driver, loaded.module, loaded.function,
                            spec.kernel, spec.numWarps, loaded.producerWarps,
                            loaded.dynamicSharedBytes, report, error))
      return context.fail(error);
    if (!noGrid)
      report.grid = spec.grid;
    report.tma = tmaUsage;
    std::string text;
    llvm::raw_string_ostream os(text);
    if (options.info == InfoFormat::JSON)
      printKernelReportJSON(report, os);
    else
      printKernelReport(report, os);
    return writeOutput(context, text);
  }

  std::vector<HostArray> interpreted;
  if (options.compare && stage == Stage::Run) {
    interpreted = inputs;
    double wallMs = 0;
    if (int status =
            runInInterpreter(context, kernel, interpFunc, interpreted, wallMs))
      return status;
  }
  std::vector<HostArray> outputs = inputs;
  result.onGPU = true;
  if (int status =
          runOnGPU(context, kernel, loaded, outputs, timings, result, stage))
    return status;
  if (stage == Stage::Trial)
    return 0;
  int status = options.noCheck ? 0 : runChecks(*kernel.source, inputs, outputs);
  if (options.compare)
    reportDifferences(spec, inputs, outputs, interpreted);
  if (int saveStatus = saveBuffers(context, spec, outputs))
    return saveStatus;
  return status;
}
} // namespace tile
