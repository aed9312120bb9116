//===- Launch.cpp - load and launch a compiled kernel ---------------------===//
//
// Loads a kernel's PTX on the GPU (through the driver's JIT, or from a
// cubin the kernel cache kept), launches it on the launch's buffers and
// times it; or runs the tile-dialect kernel in the CPU interpreter.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Runtime/TensorMaps.h"
#include "tile/Target/Libdevice.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
namespace interp = mlir::tile::interp;

namespace tile {
namespace {
/// The i32 global `symbol` of the loaded module, if it declares one. The
/// module is asked only where its image (PTX, or the cubin's symbol names)
/// holds the symbol: asking for one it lacks is a driver API error, which
/// compute-sanitizer reports as the user's.
bool readDeclaredU32(rt::Driver &driver, const LoadedKernel &loaded,
                     llvm::StringRef image, llvm::StringRef symbol,
                     std::optional<uint32_t> &value, std::string &error) {
  return !image.contains(symbol) ||
         driver.readGlobalU32(loaded.module, symbol.str(), value, error);
}

/// Reads what the module declares for its launch: the dynamic shared memory
/// (and opts the kernel in to it) and a warp-specialized kernel's added
/// warps.
bool readLaunchGlobals(rt::Driver &driver, LoadedKernel &loaded,
                       llvm::StringRef image, std::string &error) {
  std::optional<uint32_t> bytes, producerWarps, persistent;
  if (!readDeclaredU32(driver, loaded, image,
                       mlir::tilegpu::kDynamicSharedBytesSymbol, bytes,
                       error) ||
      !readDeclaredU32(driver, loaded, image,
                       mlir::tilegpu::kProducerWarpsSymbol, producerWarps,
                       error) ||
      !readDeclaredU32(driver, loaded, image,
                       mlir::tilegpu::kPersistentProgramsSymbol, persistent,
                       error))
    return false;
  loaded.dynamicSharedBytes = bytes.value_or(0);
  loaded.producerWarps = producerWarps.value_or(0);
  loaded.persistentPrograms = persistent.value_or(0) != 0;
  if (!rt::readTensorMapRecipes(driver, loaded.module, image, loaded.tensorMaps,
                                error))
    return false;
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

/// Encodes the TMA tensor map of each host tensor descriptor among `args`
/// (the slot after its strides), in order: 128 bytes that the launch passes
/// by value (the kernel takes them as a grid constant). A descriptor whose
/// block is no TMA box (TensorMapBox.h), or whose element type is not f16
/// or bf16, gets zeros: the kernel then never uses its tensor map, by the
/// same rule (tilegpu-pipeline's isTmaLoad). So does every descriptor where
/// the driver predates cuTensorMapEncodeTiled (CUDA 11), which no GPU with
/// TMA runs on.
bool encodeTensorMaps(rt::Driver &driver, const launch::LaunchSpec &spec,
                      ArrayRef<launch::Value> args,
                      const std::vector<rt::DeviceBuffer> &deviceBuffers,
                      std::vector<rt::TensorMapBytes> &tensorMaps,
                      std::string &error) {
  for (const launch::Value &value : args) {
    if (value.kind != launch::Value::Kind::TensorDescriptor)
      continue;
    tensorMaps.emplace_back();
    const launch::BufferSpec &buffer = spec.buffers[value.buffer];
    using mlir::tilegpu::TensorMapElement;
    int dataType = buffer.dtype == launch::DType::F16
                       ? getTensorMapDataType(TensorMapElement::Float16)
                   : buffer.dtype == launch::DType::BF16
                       ? getTensorMapDataType(TensorMapElement::BFloat16)
                       : -1;
    SmallVector<int64_t> block;
    for (const launch::Value &extent : value.elements)
      block.push_back(extent.intValue);
    std::optional<mlir::tilegpu::TensorMapBox> box =
        mlir::tilegpu::getTensorMapBox(block, 2);
    // (A box is 2-D, so the descriptor's shape is too.)
    if (dataType < 0 || !box || !driver.canEncodeTensorMaps())
      continue;
    if (!driver.encodeTensorMap2D(
            tensorMaps.back().bytes, dataType,
            deviceBuffers[value.buffer].ptr(), uint64_t(value.shape[0]),
            uint64_t(value.shape[1]),
            uint64_t(value.getDescriptorStride(0)) * 2, unsigned(box->rows),
            unsigned(box->innerElements), box->swizzleBytes,
            /*nanFill=*/false, error))
      return false;
  }
  return true;
}

/// Encodes the tensor maps of the descriptors the kernel makes from its
/// arguments (tilegpu-hoist-tensor-maps), from the values the launch passes
/// them.
bool encodeKernelTensorMaps(rt::Driver &driver, const Kernel &kernel,
                            const LoadedKernel &loaded,
                            const std::vector<rt::DeviceBuffer> &deviceBuffers,
                            std::vector<rt::TensorMapBytes> &maps,
                            std::string &error) {
  maps.assign(loaded.tensorMaps.size(), rt::TensorMapBytes());
  auto argument = [&](int64_t index) -> std::optional<int64_t> {
    if (index < 0 || size_t(index) >= kernel.args.size() ||
        !isa<IntegerType>(kernel.argTypes[index]))
      return std::nullopt;
    return kernel.args[index].intValue;
  };
  const std::string &name = kernel.source->launch.kernel;
  for (auto [i, recipe] : llvm::enumerate(loaded.tensorMaps)) {
    std::string which =
        llvm::formatv(
            "{0}'s tensor descriptor {1} (made in the kernel): ", name, i)
            .str();
    if (recipe.argument != int64_t(kernel.args.size() + i) || recipe.base < 0 ||
        size_t(recipe.base) >= kernel.args.size() ||
        kernel.args[recipe.base].kind != launch::Value::Kind::Buffer) {
      error = which + "its recipe does not match the kernel's arguments";
      return false;
    }
    if (!rt::encodeRecipeTensorMap(
            driver, recipe, argument,
            deviceBuffers[kernel.args[recipe.base].buffer].ptr(), maps[i],
            error)) {
      error = which + error;
      return false;
    }
  }
  return true;
}

/// Writes into each pointer table (`ptrs(...)`) the addresses at which the
/// run sees its buffers.
void fillPointerTables(const launch::LaunchSpec &spec,
                       std::vector<HostArray> &buffers,
                       llvm::function_ref<uint64_t(unsigned)> addressOf) {
  for (auto [table, buffer] : llvm::zip(spec.buffers, buffers)) {
    if (table.init != launch::BufferSpec::Init::Pointers)
      continue;
    for (auto [i, pointee] : llvm::enumerate(table.pointees)) {
      uint64_t address = addressOf(pointee);
      std::memcpy(buffer.bytes.data() + i * sizeof(address), &address,
                  sizeof(address));
    }
  }
}
} // namespace

/// Its source text, its specialization, the compile options and the
/// compiler.
std::string getPTXKey(const RunContext &context, const Kernel &kernel) {
  const TileSource &source = *kernel.source;
  const launch::LaunchSpec &spec = source.launch;
  std::string libdevice = mlir::tile::getLibdeviceIdentity();
  cache::PTXKeyFields fields;
  fields.input = isMLIRInput(context.options) ? "mlir" : "tile";
  fields.source =
      source.sourceMgr.getMemoryBuffer(source.bufferId)->getBuffer();
  fields.kernel = spec.kernel;
  fields.specialization = kernel.specializationKey;
  fields.numWarps = spec.numWarps;
  fields.numStages = spec.numStages;
  fields.target = context.options.target;
  fields.wideOffsets = needsWideOffsets(spec);
  fields.warpSpecializeAll = spec.warpSpecializeAll;
  fields.pingPong = spec.pingPong;
  fields.persistentPrograms = true;
  fields.hoistTensorMaps = true;
  fields.libdevice = libdevice;
  return cache::getPTXKey(fields);
}

std::string getCubinKey(const rt::Driver &driver, llvm::StringRef ptxKey) {
  cache::KeyBuilder key;
  key.add("ptx", ptxKey)
      .add("driver", driver.driverVersion())
      .add("device", driver.deviceName())
      .add("cc", driver.computeCapability());
  return key.digest();
}

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
      !readLaunchGlobals(driver, loaded, cubin, error)) {
    loaded.module.reset();
    loaded.function = rt::Function();
    kernelCache.discard(cache::EntryKind::Cubin, key,
                        "the driver refused it: " + error);
    return;
  }
  timings.cacheUse = CacheUse::Cubin;
  timings.load = msSince(start);
}

/// Through the driver's linker into a cubin that the cache keeps (under
/// `cubinKey`, unless empty), or, where the driver has no linker or the
/// link fails, by loading the PTX.
int loadOnGPU(RunContext &context, Kernel &kernel, const std::string &ptx,
              llvm::StringRef cubinKey, cache::KernelCache *kernelCache,
              LoadedKernel &loaded, Timings &timings) {
  rt::Driver &driver = *context.driver;
  std::string error, cubin, log;
  auto loadStart = Clock::now();
  bool linked = driver.canLink() &&
                driver.compileToCubin(ptx, cubin, log, error) &&
                driver.loadCubin(cubin, log, loaded.module, error);
  if (!linked) {
    if (driver.canLink() && context.options.verboseCache)
      llvm::errs() << context.options.toolName << ": cache: no cubin (" << error
                   << "); loading the PTX\n";
    cubin.clear();
    error.clear();
    if (!driver.loadModule(ptx, loaded.module, error))
      return context.fail(error);
  }
  if (!driver.getFunction(loaded.module, kernel.source->launch.kernel,
                          loaded.function, error) ||
      !readLaunchGlobals(driver, loaded, ptx, error))
    return context.fail(error);
  timings.load = msSince(loadStart);
  if (kernelCache && !cubinKey.empty() && !cubin.empty())
    kernelCache->store(cache::EntryKind::Cubin, cubinKey,
                       cache::packCubin(cubin, log));
  return 0;
}

int runOnGPU(RunContext &context, Kernel &kernel, LoadedKernel &loaded,
             std::vector<HostArray> &buffers, Timings &timings,
             RunResult &result, Stage stage) {
  const RunOptions &options = context.options;
  rt::Driver &driver = *context.driver;
  const launch::LaunchSpec &spec = kernel.source->launch;
  std::string error;
  double processMs = msSince(context.processStart);

  // A tuning trial reuses the device buffers of the trial before it when
  // it was given no host buffers (runKernel saw the same buffers).
  bool reuse = stage == Stage::Trial && context.tuneDevice && buffers.empty() &&
               context.tuneDevice->buffers.size() == spec.buffers.size();
  std::vector<rt::DeviceBuffer> ownBuffers;
  std::vector<rt::DeviceBuffer> &deviceBuffers =
      reuse ? context.tuneDevice->buffers : ownBuffers;
  if (!reuse) {
    ownBuffers.resize(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i)
      if (!deviceBuffers[i].allocate(driver, buffers[i].bytes.size(), error))
        return context.fail(error);
    fillPointerTables(spec, buffers, [&](unsigned buffer) {
      return uint64_t(deviceBuffers[buffer].ptr());
    });
    for (size_t i = 0; i < buffers.size(); ++i)
      if (!driver.copyToDevice(deviceBuffers[i].ptr(), buffers[i].bytes.data(),
                               buffers[i].bytes.size(), error))
        return context.fail(error);
  }

  // Kernel arguments, as the function's argument types say.
  std::vector<rt::TensorMapBytes> tensorMaps;
  if (!encodeTensorMaps(driver, spec, kernel.args, deviceBuffers, tensorMaps,
                        error))
    return context.fail(error);
  std::vector<uint64_t> storage(kernel.args.size());
  std::vector<void *> args;
  unsigned tensorMapIndex = 0;
  for (auto [i, value] : llvm::enumerate(kernel.args)) {
    Type type = kernel.argTypes[i];
    void *slot = &storage[i];
    if (value.kind == launch::Value::Kind::Buffer)
      *static_cast<uint64_t *>(slot) = deviceBuffers[value.buffer].ptr();
    else if (value.kind == launch::Value::Kind::TensorDescriptor)
      slot = tensorMaps[tensorMapIndex++].bytes;
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
  // The maps of the descriptors the kernel makes follow its arguments.
  std::vector<rt::TensorMapBytes> kernelMaps;
  if (!encodeKernelTensorMaps(driver, kernel, loaded, deviceBuffers, kernelMaps,
                              error))
    return context.fail(error);
  for (rt::TensorMapBytes &map : kernelMaps)
    args.push_back(map.bytes);
  unsigned threads = (spec.numWarps + loaded.producerWarps) * 32;
  // A persistent kernel takes the grid's sizes after its arguments and runs
  // its programs on as many as fit at once.
  std::array<int64_t, 3> launchGrid = spec.grid;
  std::array<int32_t, 3> gridSizes;
  if (loaded.persistentPrograms) {
    int64_t programs = spec.grid[0] * spec.grid[1] * spec.grid[2];
    for (unsigned axis = 0; axis < 3; ++axis) {
      gridSizes[axis] = int32_t(spec.grid[axis]);
      args.push_back(&gridSizes[axis]);
    }
    if (programs > 0)
      launchGrid = {getPersistentLaunchPrograms(programs,
                                                driver.multiprocessorCount(),
                                                loaded.occupancy),
                    1, 1};
  }
  rt::Function function = loaded.function;
  auto launchOnce = [&](std::string &err) {
    return driver.launch(function, launchGrid[0], launchGrid[1], launchGrid[2],
                         threads, loaded.dynamicSharedBytes, args.data(), err);
  };

  if (stage == Stage::Trial) {
    // A tuning trial: one launch that must succeed, then a short timing.
    std::vector<float> times;
    if (!launchOnce(error) || !driver.synchronize(error) ||
        !rt::benchmarkMedian(driver, launchOnce, options.tuneWarmupMs,
                             options.tuneRepMs,
                             /*flushL2=*/true, times, error))
      return context.fail(error);
    result.ms = rt::quantile(times, 0.5);
    if (!reuse) {
      context.tuneDevice = std::make_shared<TuneDeviceBuffers>();
      context.tuneDevice->buffers = std::move(ownBuffers);
    }
    return 0;
  }
  llvm::outs() << llvm::formatv(
      "{0} on {1}: grid ({2}, {3}, {4}){5}, "
      "num_warps {6}{7}\n",
      spec.kernel, driver.deviceName(), spec.grid[0], spec.grid[1],
      spec.grid[2], describeGridSource(kernel, false), spec.numWarps,
      loaded.persistentPrograms
          ? llvm::formatv(", persistent on {0} programs", launchGrid[0]).str()
          : std::string());
  // The kernel's tl.device_print lines reach the C stdout when the launch
  // is synchronized: flush ours before it and theirs after it, so that both
  // appear in order.
  llvm::outs().flush();
  if (!launchOnce(error) || !driver.synchronize(error))
    return context.fail(error);
  std::fflush(stdout);
  for (size_t i = 0; i < buffers.size(); ++i)
    if (!driver.copyToHost(buffers[i].bytes.data(), deviceBuffers[i].ptr(),
                           buffers[i].bytes.size(), error))
      return context.fail(error);

  if (!options.noBench && !options.compare) {
    // The ceiling first: its own buffers are freed before the kernel's
    // timing starts.
    std::optional<double> ceiling =
        spec.bytes ? getCopyCeiling(context) : std::nullopt;
    std::vector<float> times;
    if (!rt::benchmarkMedian(driver, launchOnce, options.warmupMs,
                             options.repMs,
                             /*flushL2=*/true, times, error))
      return context.fail(error);
    if (int status = reportTimes(context, spec, times, ceiling, result))
      return status;
  }
  reportCompileTimes(context, timings, processMs);
  return 0;
}

int runInInterpreter(RunContext &context, Kernel &kernel, func::FuncOp func,
                     std::vector<HostArray> &buffers, double &wallMs) {
  const launch::LaunchSpec &spec = kernel.source->launch;
  fillPointerTables(spec, buffers, interp::getBufferAddress);
  std::vector<interp::Buffer> views;
  for (auto [i, buffer] : llvm::enumerate(buffers))
    views.push_back({spec.buffers[i].name, buffer.bytes});
  std::vector<interp::Argument> args;
  for (const launch::Value &value : kernel.args) {
    interp::Argument arg;
    // A descriptor's tensor map: the interpreter reads through the
    // pointers, so the slot gets the tensor's buffer, never dereferenced.
    if (value.kind == launch::Value::Kind::Buffer ||
        value.kind == launch::Value::Kind::TensorDescriptor) {
      arg.kind = interp::Argument::Kind::Buffer;
      arg.buffer = value.buffer;
    } else if (value.kind == launch::Value::Kind::Float) {
      arg.kind = interp::Argument::Kind::Float;
      arg.floatValue = value.floatValue;
    } else if (value.kind == launch::Value::Kind::Int ||
               value.kind == launch::Value::Kind::Bool) {
      arg.intValue = value.intValue;
    } else {
      return context.fail("kernel argument " + std::to_string(args.size()) +
                          " must be a buffer or a number, got " +
                          value.describe());
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
} // namespace tile
