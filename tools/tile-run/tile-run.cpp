//===- tile-run.cpp - compile, run, check and time a .tile kernel ---------===//
//
//   tile-run kernels/add.tile                  compile, launch, check, time
//   tile-run kernels/add.tile --set n=2**27    override a launch variable
//   tile-run kernels/add.tile --emit=ptx       print a stage and exit
//
// The launch (buffers, sizes, grid, constexprs, num_warps, reference check)
// comes from the file's `# tile-run:` description. --emit works without a
// GPU; running needs the CUDA driver (libcuda.so.1), loaded at run time.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"
#include "References.h"
#include "tile/Driver/Compile.h"
#include "tile/InitTile.h"
#include "tile/Runtime/CudaDriver.h"
#include "tile/Target/EmitPTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
using namespace ::tile;
namespace cl = llvm::cl;

namespace {
enum class Emit { None, Tile, GPU, LLVM, PTX };

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.tile>"),
                               cl::Required);
cl::opt<Emit>
    emit("emit", cl::desc("Print one stage and exit (no GPU needed)"),
         cl::init(Emit::None),
         cl::values(clEnumValN(Emit::Tile, "tile", "the tile dialect"),
                    clEnumValN(Emit::GPU, "gpu", "tilegpu, with layouts"),
                    clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
                    clEnumValN(Emit::PTX, "ptx", "PTX assembly")));
cl::list<std::string>
    overrides("set",
              cl::desc("Override a launch-description variable: --set n=2**20"),
              cl::value_desc("name=expr"));
cl::opt<std::string> target("target", cl::desc("GPU architecture"),
                            cl::init("sm_90a"));
cl::opt<std::string> outputFile("o", cl::desc("Output file for --emit"),
                                cl::init("-"));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                       cl::init(0x7113));
cl::opt<bool> noBench("no-bench", cl::desc("Run and check, do not time"));
cl::opt<int> warmupMs("warmup-ms", cl::desc("Warm-up time"), cl::init(25));
cl::opt<int> repMs("rep-ms", cl::desc("Timed repetitions, in ms"),
                   cl::init(100));
cl::opt<bool> printAutotune(
    "print-autotune",
    cl::desc("Print the kernel's @triton.autotune configurations and exit"));

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "tile-run: " << message << "\n";
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

struct Timings {
  double frontEnd = 0, passes = 0, codegen = 0, load = 0;
};

/// Runs the compiled kernel: allocate, fill, launch, check, time.
int runOnGPU(TileSource &source,
             const frontend::KernelSpecialization &specialization,
             const std::string &ptx, Timings &timings,
             Clock::time_point processStart) {
  const launch::LaunchSpec &spec = source.launch;
  std::string error;
  auto contextStart = Clock::now();
  rt::Driver *driver = rt::Driver::get(error);
  if (!driver)
    return fail(error + "\n  (--emit=tile|gpu|llvm|ptx work without a GPU)");
  double contextMs = msSince(contextStart);
  auto loadStart = Clock::now();
  rt::Module module;
  rt::Function function;
  if (!driver->loadModule(ptx, module, error) ||
      !driver->getFunction(module, spec.kernel, function, error))
    return fail(error);
  timings.load = msSince(loadStart);
  double processMs = msSince(processStart);

  // Inputs on the host (kept for the references) and on the device.
  std::vector<HostArray> hostInputs;
  std::vector<rt::DeviceBuffer> deviceBuffers(spec.buffers.size());
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    hostInputs.push_back(makeHostArray(spec.buffers[i], seed + 977 * i));
    const HostArray &host = hostInputs.back();
    if (!deviceBuffers[i].allocate(*driver, host.bytes.size(), error) ||
        !driver->copyToDevice(deviceBuffers[i].ptr(), host.bytes.data(),
                              host.bytes.size(), error))
      return fail(error);
  }

  // Kernel arguments, in the order of the kernel's non-constexpr params.
  std::vector<uint64_t> storage(specialization.params.size());
  std::vector<void *> args;
  for (auto [i, param] : llvm::enumerate(specialization.params)) {
    if (param.type == "constexpr" || param.equalsOne)
      continue;
    const launch::Value &value = spec.variables.lookup(param.name);
    void *slot = &storage[i];
    if (value.kind == launch::Value::Kind::Buffer)
      *static_cast<uint64_t *>(slot) = deviceBuffers[value.buffer].ptr();
    else if (param.type == "i32" || param.type == "i1")
      *static_cast<int32_t *>(slot) = int32_t(value.intValue);
    else if (param.type == "i64")
      *static_cast<int64_t *>(slot) = value.intValue;
    else if (param.type == "fp32")
      *static_cast<float *>(slot) = float(value.asDouble());
    args.push_back(slot);
  }
  unsigned threads = spec.numWarps * 32;
  auto launchOnce = [&](std::string &err) {
    return driver->launch(function, spec.grid[0], spec.grid[1], spec.grid[2],
                          threads, 0, args.data(), err);
  };

  llvm::outs() << llvm::formatv("{0} on {1}: grid ({2}, {3}, {4}), "
                                "num_warps {5}\n",
                                spec.kernel, driver->deviceName(), spec.grid[0],
                                spec.grid[1], spec.grid[2], spec.numWarps);
  if (!launchOnce(error) || !driver->synchronize(error))
    return fail(error);

  bool allPassed = true;
  for (const launch::Check &check : spec.checks) {
    HostArray output = hostInputs[check.output];
    if (!driver->copyToHost(output.bytes.data(),
                            deviceBuffers[check.output].ptr(),
                            output.bytes.size(), error))
      return fail(error);
    std::vector<double> reference;
    if (!computeReference(check, hostInputs, spec, reference, error)) {
      source.diag->error(check.loc, error);
      return 1;
    }
    Comparison result = compare(output, reference, check.tolerance);
    llvm::outs() << llvm::formatv(
        "check {0} against {1}: max |err| {2:e2}, rel err {3:e2}, "
        "{4} mismatches, {5} NaN (tol {6}): {7}\n",
        spec.buffers[check.output].name, check.reference, result.maxAbsError,
        result.relativeError, result.mismatches, result.nans, check.tolerance,
        result.passed ? "PASS" : "FAIL");
    if (!result.passed && result.firstMismatch >= 0)
      llvm::outs() << llvm::formatv(
          "  first bad element {0}: got {1}, want {2}\n", result.firstMismatch,
          output.get(result.firstMismatch), reference[result.firstMismatch]);
    allPassed &= result.passed;
  }

  if (!noBench) {
    std::vector<float> times;
    if (!rt::benchmarkMedian(*driver, launchOnce, warmupMs, repMs,
                             /*flushL2=*/true, times, error))
      return fail(error);
    double median = rt::quantile(times, 0.5);
    llvm::outs() << llvm::formatv(
        "time: median {0:f4} ms (p20 {1:f4}, p80 {2:f4}) over {3} runs, L2 "
        "flushed",
        median, rt::quantile(times, 0.2), rt::quantile(times, 0.8),
        times.size());
    if (spec.bytes)
      llvm::outs() << llvm::formatv("; {0:f1} GB/s",
                                    *spec.bytes / median * 1e-6);
    if (spec.flops)
      llvm::outs() << llvm::formatv("; {0:f1} TFLOP/s",
                                    *spec.flops / median * 1e-9);
    llvm::outs() << "\n";
  }
  // The compile proper; creating the CUDA context is a once-per-process
  // cost that any program using the GPU pays, Triton's callers included.
  double compileMs =
      timings.frontEnd + timings.passes + timings.codegen + timings.load;
  llvm::outs() << llvm::formatv(
      "cold compile, .tile to a loaded module: {0:f1} ms (front end {1:f1}, "
      "passes {2:f1}, LLVM to PTX {3:f1}, driver JIT and load {4:f1}); "
      "CUDA context creation {5:f1} ms; process start to loaded {6:f1} ms\n",
      compileMs, timings.frontEnd, timings.passes, timings.codegen,
      timings.load, contextMs, processMs);
  return allPassed ? 0 : 2;
}
} // namespace

int main(int argc, char **argv) {
  auto processStart = Clock::now();
  llvm::InitLLVM initLLVM(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Tile: compile, run, check and time a kernel\n");
  Timings timings;

  std::vector<launch::Override> parsedOverrides;
  for (const std::string &text : overrides) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
      return fail("--set expects name=expression, got '" + text + "'");
    parsedOverrides.push_back(
        {llvm::StringRef(text).take_front(eq).trim().str(),
         text.substr(eq + 1)});
  }

  auto start = Clock::now();
  std::unique_ptr<TileSource> source =
      loadTileSource(inputFile, parsedOverrides, llvm::errs());
  if (!source)
    return 1;
  if (printAutotune) {
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
  std::optional<frontend::KernelSpecialization> specialization =
      specialize(*source);
  if (!specialization)
    return 1;

  DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      buildTileModule(context, *source, *specialization);
  if (!module)
    return 1;
  timings.frontEnd = msSince(start);
  auto print = [&](ModuleOp m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    m.print(os);
    return writeOutput(text);
  };
  if (emit == Emit::Tile)
    return print(*module);

  start = Clock::now();
  mlir::tile::CompileOptions options;
  options.numWarps = source->launch.numWarps;
  options.target = target;
  PassManager toGPU(&context);
  mlir::tile::buildTileToTileGPUPipeline(toGPU, options);
  if (failed(toGPU.run(*module)))
    return 1;
  if (emit == Emit::GPU)
    return print(*module);
  PassManager toLLVM(&context);
  mlir::tile::buildTileGPUToLLVMPipeline(toLLVM);
  if (failed(toLLVM.run(*module)))
    return 1;
  timings.passes = msSince(start);

  start = Clock::now();
  if (emit == Emit::LLVM) {
    FailureOr<std::string> ir = mlir::tile::emitLLVMIR(*module, target);
    return failed(ir) ? 1 : writeOutput(*ir);
  }
  FailureOr<std::string> ptx = mlir::tile::emitPTX(*module, target);
  if (failed(ptx))
    return 1;
  timings.codegen = msSince(start);
  if (emit == Emit::PTX)
    return writeOutput(*ptx);
  return runOnGPU(*source, *specialization, *ptx, timings, processStart);
}
