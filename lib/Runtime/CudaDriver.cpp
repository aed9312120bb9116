//===- CudaDriver.cpp - the CUDA driver, loaded at run time ---------------===//
//
// Opens libcuda.so.1 with dlopen and resolves the driver's entry points with
// dlsym, by the versioned names that cuda.h would have mapped them to, so
// that neither CUDA headers nor the toolkit are needed to build. On top of
// them sit the device, module, memory, launch and timing calls of Driver and
// a do_bench-style benchmark loop. Every failure is reported as text naming
// the driver call and the driver's error, never as an exception or abort.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/CudaDriver.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

using namespace tile;
using namespace tile::rt;

namespace {
// The values of the driver enums used here, as cuda.h defines them.
enum : int {
  CUDA_SUCCESS = 0,

  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,

  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,

  CU_FUNC_CACHE_PREFER_SHARED = 1,

  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
  CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,

  CU_EVENT_DEFAULT = 0,

  CU_JIT_INPUT_PTX = 1,
};

constexpr const char *kLibraryName = "libcuda.so.1";
constexpr size_t kJitLogBytes = 16 * 1024;
// Larger than the L2 of any current GPU (H100: 50 MiB, B200: 126 MiB).
constexpr size_t kFlushBytes = size_t(256) << 20;
// Bounds on the benchmark's run counts: a kernel too short for the events to
// resolve would otherwise ask for an unbounded number of runs.
constexpr double kMinEstimateMs = 1e-4;
constexpr long kMaxRuns = 100000;
} // namespace

struct Driver::Api {
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxDestroy)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule,
                                const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncSetCacheConfig)(CUfunction, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction,
                                                          int, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  // Optional: the linker, which JIT-compiles PTX into a cubin that can be
  // kept (null where the driver lacks them).
  CUresult (*cuLinkCreate)(unsigned, int *, void **, CUlinkState *) = nullptr;
  CUresult (*cuLinkAddData)(CUlinkState, int, void *, size_t, const char *,
                            unsigned, int *, void **) = nullptr;
  CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *) = nullptr;
  CUresult (*cuLinkDestroy)(CUlinkState) = nullptr;
  // Optional: TMA tensor maps (CUDA 12).
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                     const uint64_t *, const uint64_t *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int) = nullptr;
};

//===----------------------------------------------------------------------===//
// Loading the library
//===----------------------------------------------------------------------===//

namespace {
template <typename Fn>
bool resolve(void *library, const char *name, Fn &fn, std::string &error) {
  void *symbol = dlsym(library, name);
  if (!symbol) {
    error = std::string("the CUDA driver (") + kLibraryName + ") lacks " +
            name + "; it may be too old";
    return false;
  }
  fn = reinterpret_cast<Fn>(symbol);
  return true;
}

bool resolveAll(void *lib, Driver::Api &api, std::string &error) {
  return resolve(lib, "cuGetErrorName", api.cuGetErrorName, error) &&
         resolve(lib, "cuGetErrorString", api.cuGetErrorString, error) &&
         resolve(lib, "cuInit", api.cuInit, error) &&
         resolve(lib, "cuDriverGetVersion", api.cuDriverGetVersion, error) &&
         resolve(lib, "cuDeviceGet", api.cuDeviceGet, error) &&
         resolve(lib, "cuDeviceGetName", api.cuDeviceGetName, error) &&
         resolve(lib, "cuDeviceGetAttribute", api.cuDeviceGetAttribute,
                 error) &&
         resolve(lib, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain,
                 error) &&
         resolve(lib, "cuCtxSetCurrent", api.cuCtxSetCurrent, error) &&
         resolve(lib, "cuCtxDestroy_v2", api.cuCtxDestroy, error) &&
         resolve(lib, "cuCtxSynchronize", api.cuCtxSynchronize, error) &&
         resolve(lib, "cuModuleLoadDataEx", api.cuModuleLoadDataEx, error) &&
         resolve(lib, "cuModuleUnload", api.cuModuleUnload, error) &&
         resolve(lib, "cuModuleGetFunction", api.cuModuleGetFunction, error) &&
         resolve(lib, "cuModuleGetGlobal_v2", api.cuModuleGetGlobal, error) &&
         resolve(lib, "cuFuncGetAttribute", api.cuFuncGetAttribute, error) &&
         resolve(lib, "cuFuncSetAttribute", api.cuFuncSetAttribute, error) &&
         resolve(lib, "cuFuncSetCacheConfig", api.cuFuncSetCacheConfig,
                 error) &&
         resolve(lib, "cuLaunchKernel", api.cuLaunchKernel, error) &&
         resolve(lib, "cuMemAlloc_v2", api.cuMemAlloc, error) &&
         resolve(lib, "cuMemFree_v2", api.cuMemFree, error) &&
         resolve(lib, "cuMemcpyHtoD_v2", api.cuMemcpyHtoD, error) &&
         resolve(lib, "cuMemcpyDtoH_v2", api.cuMemcpyDtoH, error) &&
         resolve(lib, "cuMemcpyDtoD_v2", api.cuMemcpyDtoD, error) &&
         resolve(lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
                 api.cuOccupancyMaxActiveBlocksPerMultiprocessor, error) &&
         resolve(lib, "cuMemsetD8_v2", api.cuMemsetD8, error) &&
         resolve(lib, "cuMemsetD32_v2", api.cuMemsetD32, error) &&
         resolve(lib, "cuEventCreate", api.cuEventCreate, error) &&
         resolve(lib, "cuEventRecord", api.cuEventRecord, error) &&
         resolve(lib, "cuEventSynchronize", api.cuEventSynchronize, error) &&
         resolve(lib, "cuEventElapsedTime", api.cuEventElapsedTime, error) &&
         resolve(lib, "cuEventDestroy_v2", api.cuEventDestroy, error);
}

// The linker's entry points, by the names cuda.h maps them to; missing ones
// leave the linker unused.
void resolveOptional(void *lib, Driver::Api &api) {
  std::string ignored;
  if (!resolve(lib, "cuLinkCreate_v2", api.cuLinkCreate, ignored) ||
      !resolve(lib, "cuLinkAddData_v2", api.cuLinkAddData, ignored) ||
      !resolve(lib, "cuLinkComplete", api.cuLinkComplete, ignored) ||
      !resolve(lib, "cuLinkDestroy", api.cuLinkDestroy, ignored))
    api.cuLinkCreate = nullptr;
  if (!resolve(lib, "cuTensorMapEncodeTiled", api.cuTensorMapEncodeTiled,
               ignored))
    api.cuTensorMapEncodeTiled = nullptr;
}

std::string describeResult(const Driver::Api &api, CUresult result) {
  const char *name = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "unknown CUDA error " + std::to_string(result);
  std::string text = name;
  const char *description = nullptr;
  if (api.cuGetErrorString(result, &description) == CUDA_SUCCESS && description)
    text += std::string(" (") + description + ")";
  return text;
}

// Opens the library, resolves it and initializes the driver, once per
// process; a failure is remembered too, since retrying cannot help. The
// library is never closed: the driver's own teardown runs at exit. Called
// with Driver::get's lock held.
const Driver::Api *loadApi(std::string &error) {
  static Driver::Api api;
  static bool tried = false;
  static bool loaded = false;
  static std::string loadError;
  if (!tried) {
    tried = true;
    void *library = dlopen(kLibraryName, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *reason = dlerror();
      loadError = std::string("no CUDA driver found (") +
                  (reason ? reason : kLibraryName) + ")";
    } else if (resolveAll(library, api, loadError)) {
      resolveOptional(library, api);
      CUresult result = api.cuInit(0);
      if (result == CUDA_SUCCESS)
        loaded = true;
      else
        loadError = "cuInit failed: " + describeResult(api, result);
    }
  }
  if (!loaded) {
    error = loadError;
    return nullptr;
  }
  return &api;
}

// The text a JIT log buffer holds, without trailing blank space.
std::string logText(const std::vector<char> &buffer) {
  std::string text(buffer.data(), strnlen(buffer.data(), buffer.size()));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  return text;
}

// Events that are destroyed together.
class EventPool {
public:
  explicit EventPool(Driver &owner) : driver(owner) {}
  EventPool(const EventPool &) = delete;
  EventPool &operator=(const EventPool &) = delete;
  ~EventPool() {
    for (CUevent event : events)
      driver.getApi().cuEventDestroy(event);
  }

  bool create(size_t count, std::string &error) {
    events.reserve(events.size() + count);
    for (size_t i = 0; i < count; ++i) {
      CUevent event = nullptr;
      if (!driver.check(driver.getApi().cuEventCreate(&event, CU_EVENT_DEFAULT),
                        "cuEventCreate", error))
        return false;
      events.push_back(event);
    }
    return true;
  }

  // Records event `i` on the default stream.
  bool record(size_t i, std::string &error) {
    return driver.check(driver.getApi().cuEventRecord(events[i], nullptr),
                        "cuEventRecord", error);
  }

  bool elapsed(size_t start, size_t end, float &ms, std::string &error) {
    return driver.check(
        driver.getApi().cuEventElapsedTime(&ms, events[start], events[end]),
        "cuEventElapsedTime", error);
  }

  bool synchronize(size_t i, std::string &error) {
    return driver.check(driver.getApi().cuEventSynchronize(events[i]),
                        "cuEventSynchronize", error);
  }

private:
  Driver &driver;
  std::vector<CUevent> events;
};
} // namespace

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

Driver *Driver::get(std::string &error, int ordinal) {
  static std::mutex mutex;
  // Never destroyed: releasing contexts during exit would race the driver's
  // own teardown.
  static std::map<int, Driver *> drivers;
  std::lock_guard<std::mutex> lock(mutex);

  const Api *api = loadApi(error);
  if (!api)
    return nullptr;
  auto it = drivers.find(ordinal);
  if (it != drivers.end())
    return it->second->makeCurrent(error) ? it->second : nullptr;

  std::unique_ptr<Driver> driver(new Driver(*api, ordinal));
  if (!driver->check(api->cuDeviceGet(&driver->device, ordinal), "cuDeviceGet",
                     error))
    return nullptr;

  // The device's properties need no context, so read them first.
  DeviceInfo &info = driver->devInfo;
  char name[256] = {};
  if (!driver->check(api->cuDeviceGetName(name, sizeof(name), driver->device),
                     "cuDeviceGetName", error) ||
      !driver->check(api->cuDriverGetVersion(&info.driverVersion),
                     "cuDriverGetVersion", error))
    return nullptr;
  info.name = name;
  struct {
    int attribute;
    int *value;
  } attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessorCount},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2CacheBytes},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &info.maxSharedPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &info.warpSize},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info.maxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
       &info.maxThreadsPerSM},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
       &info.maxRegistersPerSM},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &info.maxRegistersPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
       &info.maxSharedPerSM},
  };
  for (const auto &attribute : attributes)
    if (!driver->check(api->cuDeviceGetAttribute(attribute.value,
                                                 attribute.attribute,
                                                 driver->device),
                       "cuDeviceGetAttribute", error))
      return nullptr;
  // Attributes that drivers before CUDA 11 do not know: 0 there.
  for (auto [attribute, value] :
       {std::pair{CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
                  &info.maxBlocksPerSM},
        std::pair{CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
                  &info.reservedSharedPerBlock}})
    if (api->cuDeviceGetAttribute(value, attribute, driver->device) !=
        CUDA_SUCCESS)
      *value = 0;

  // The primary context is the one the CUDA runtime would use too, so
  // memory and modules can be shared with runtime-based code.
  if (!driver->check(
          api->cuDevicePrimaryCtxRetain(&driver->context, driver->device),
          "cuDevicePrimaryCtxRetain", error) ||
      !driver->makeCurrent(error))
    return nullptr;
  drivers[ordinal] = driver.get();
  return driver.release();
}

std::string Driver::describe(CUresult result) const {
  return describeResult(api, result);
}

bool Driver::check(CUresult result, const char *call,
                   std::string &error) const {
  if (result == CUDA_SUCCESS)
    return true;
  error = std::string(call) + " failed: " + describe(result);
  return false;
}

bool Driver::makeCurrent(std::string &error) {
  return check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent", error);
}

bool Driver::loadModule(const std::string &ptx, Module &out, std::string &error,
                        bool verboseLog) {
  out.reset();
  std::vector<char> infoLog(kJitLogBytes, 0);
  std::vector<char> errorLog(kJitLogBytes, 0);
  int options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_LOG_VERBOSE};
  // Scalar option values travel in the pointer slots themselves.
  void *values[] = {
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      reinterpret_cast<void *>(uintptr_t(verboseLog ? 1 : 0))};
  CUmodule mod = nullptr;
  CUresult result = api.cuModuleLoadDataEx(&mod, ptx.c_str(),
                                           std::size(options), options, values);
  if (!check(result, "cuModuleLoadDataEx", error)) {
    std::string log = logText(errorLog);
    if (!log.empty())
      error += "\n" + log;
    return false;
  }
  out.driver = this;
  out.mod = mod;
  out.log = logText(infoLog);
  return true;
}

bool Driver::canLink() const { return api.cuLinkCreate != nullptr; }

bool Driver::compileToCubin(const std::string &ptx, std::string &cubin,
                            std::string &infoLog, std::string &error,
                            bool verboseLog) {
  if (!canLink()) {
    error = "the CUDA driver has no cuLinkCreate";
    return false;
  }
  // The log buffers must outlive the link state.
  std::vector<char> infoBuffer(kJitLogBytes, 0);
  std::vector<char> errorBuffer(kJitLogBytes, 0);
  int options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_LOG_VERBOSE};
  void *values[] = {
      infoBuffer.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      errorBuffer.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes)),
      reinterpret_cast<void *>(uintptr_t(verboseLog ? 1 : 0))};
  CUlinkState state = nullptr;
  if (!check(api.cuLinkCreate(std::size(options), options, values, &state),
             "cuLinkCreate", error))
    return false;
  auto withLog = [&](bool ok) {
    if (!ok) {
      std::string log = logText(errorBuffer);
      if (!log.empty())
        error += "\n" + log;
    }
    return ok;
  };
  // The PTX with its terminating NUL, as the driver expects text.
  bool ok = withLog(
      check(api.cuLinkAddData(state, CU_JIT_INPUT_PTX,
                              const_cast<char *>(ptx.c_str()), ptx.size() + 1,
                              "kernel.ptx", 0, nullptr, nullptr),
            "cuLinkAddData", error));
  void *image = nullptr;
  size_t imageBytes = 0;
  ok = ok && withLog(check(api.cuLinkComplete(state, &image, &imageBytes),
                           "cuLinkComplete", error));
  // The image belongs to the link state: copy it before destroying that.
  if (ok)
    cubin.assign(static_cast<const char *>(image), imageBytes);
  infoLog = logText(infoBuffer);
  api.cuLinkDestroy(state);
  return ok;
}

bool Driver::loadCubin(const std::string &cubin, const std::string &infoLog,
                       Module &out, std::string &error) {
  out.reset();
  CUmodule mod = nullptr;
  if (!check(api.cuModuleLoadDataEx(&mod, cubin.data(), 0, nullptr, nullptr),
             "cuModuleLoadDataEx (cubin)", error))
    return false;
  out.driver = this;
  out.mod = mod;
  out.log = infoLog;
  return true;
}

bool Driver::getFunction(const Module &module, const std::string &name,
                         Function &out, std::string &error) {
  out.handle = nullptr;
  std::string call = "cuModuleGetFunction(\"" + name + "\")";
  return check(
      api.cuModuleGetFunction(&out.handle, module.handle(), name.c_str()),
      call.c_str(), error);
}

bool Driver::readGlobalU32(const Module &module, const std::string &name,
                           std::optional<uint32_t> &out, std::string &error) {
  out.reset();
  CUdeviceptr address = 0;
  size_t bytes = 0;
  // Absent is an answer, not an error (CUDA_ERROR_NOT_FOUND = 500).
  CUresult status =
      api.cuModuleGetGlobal(&address, &bytes, module.handle(), name.c_str());
  if (status == 500)
    return true;
  std::string call = "cuModuleGetGlobal(\"" + name + "\")";
  if (!check(status, call.c_str(), error))
    return false;
  if (bytes != sizeof(uint32_t)) {
    error = "the module's global " + name + " has " + std::to_string(bytes) +
            " bytes, not 4";
    return false;
  }
  uint32_t value = 0;
  if (!check(api.cuMemcpyDtoH(&value, address, sizeof(value)), "cuMemcpyDtoH",
             error))
    return false;
  out = value;
  return true;
}

bool Driver::funcAttributes(Function func, FuncInfo &out, std::string &error) {
  struct {
    int attribute;
    int *value;
  } attributes[] = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, &out.numRegs},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &out.sharedBytes},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &out.localBytes},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out.maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
       &out.maxDynamicSharedBytes},
  };
  for (const auto &attribute : attributes)
    if (!check(api.cuFuncGetAttribute(attribute.value, attribute.attribute,
                                      func.handle),
               "cuFuncGetAttribute", error))
      return false;
  return true;
}

bool Driver::setMaxDynamicShared(Function func, int bytes, std::string &error) {
  // A kernel that needs this much shared memory gets the largest shared
  // part of the L1/shared split, as Triton's launcher asks: on the H100 the
  // matmul ran about 2% faster at 2048^3 than with the driver's choice.
  return check(api.cuFuncSetAttribute(
                   func.handle, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                   bytes),
               "cuFuncSetAttribute", error) &&
         check(
             api.cuFuncSetCacheConfig(func.handle, CU_FUNC_CACHE_PREFER_SHARED),
             "cuFuncSetCacheConfig", error);
}

bool Driver::maxActiveBlocksPerSM(Function func, int blockSize,
                                  size_t dynamicShared, int &blocks,
                                  std::string &error) {
  blocks = 0;
  return check(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                   &blocks, func.handle, blockSize, dynamicShared),
               "cuOccupancyMaxActiveBlocksPerMultiprocessor", error);
}

bool Driver::canEncodeTensorMaps() const {
  return api.cuTensorMapEncodeTiled != nullptr;
}

bool Driver::encodeTensorMap2D(void *map, int dataType, DevicePtr base,
                               uint64_t rows, uint64_t cols,
                               uint64_t rowStrideBytes, unsigned boxRows,
                               unsigned boxCols, unsigned swizzleBytes,
                               bool nanFill, std::string &error) {
  if (!api.cuTensorMapEncodeTiled) {
    error = "the CUDA driver cannot encode TMA tensor maps "
            "(cuTensorMapEncodeTiled needs CUDA 12)";
    return false;
  }
  // cuda.h's enums: innermost dimension first, no interleave, L2 promotion
  // of 128 bytes (as Triton's host descriptors), swizzle 1/2/3 for
  // 32/64/128 bytes.
  uint64_t dims[2] = {cols, rows};
  uint64_t strides[1] = {rowStrideBytes};
  unsigned box[2] = {boxCols, boxRows};
  unsigned elementStrides[2] = {1, 1};
  int swizzle = swizzleBytes == 128 ? 3 : swizzleBytes == 64 ? 2 : 1;
  const int kNoInterleave = 0, kL2Promotion128B = 2;
  return check(api.cuTensorMapEncodeTiled(
                   map, dataType, 2, reinterpret_cast<void *>(base), dims,
                   strides, box, elementStrides, kNoInterleave, swizzle,
                   kL2Promotion128B, nanFill ? 1 : 0),
               "cuTensorMapEncodeTiled", error);
}

bool Driver::alloc(size_t bytes, DevicePtr &out, std::string &error) {
  out = 0;
  // The driver rejects empty allocations; empty tensors are legitimate.
  if (bytes == 0)
    return true;
  if (check(api.cuMemAlloc(&out, bytes), "cuMemAlloc", error))
    return true;
  error += " allocating " + std::to_string(bytes) + " bytes";
  return false;
}

bool Driver::free(DevicePtr ptr, std::string &error) {
  return ptr == 0 || check(api.cuMemFree(ptr), "cuMemFree", error);
}

bool Driver::copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                          std::string &error) {
  return bytes == 0 ||
         check(api.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD", error);
}

bool Driver::copyToHost(void *dst, DevicePtr src, size_t bytes,
                        std::string &error) {
  return bytes == 0 ||
         check(api.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH", error);
}

bool Driver::copyDeviceToDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                                std::string &error) {
  return bytes == 0 ||
         check(api.cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD", error);
}

bool Driver::memsetD8(DevicePtr dst, unsigned char value, size_t bytes,
                      std::string &error) {
  return bytes == 0 ||
         check(api.cuMemsetD8(dst, value, bytes), "cuMemsetD8", error);
}

bool Driver::memsetD32(DevicePtr dst, unsigned value, size_t count,
                       std::string &error) {
  return count == 0 ||
         check(api.cuMemsetD32(dst, value, count), "cuMemsetD32", error);
}

bool Driver::launch(Function func, unsigned gridX, unsigned gridY,
                    unsigned gridZ, unsigned blockX, unsigned sharedBytes,
                    void **kernelParams, std::string &error, CUstream stream) {
  return check(api.cuLaunchKernel(func.handle, gridX, gridY, gridZ, blockX, 1,
                                  1, sharedBytes, stream, kernelParams,
                                  nullptr),
               "cuLaunchKernel", error);
}

bool Driver::synchronize(std::string &error) {
  return check(api.cuCtxSynchronize(), "cuCtxSynchronize", error);
}

bool Driver::elapsedMs(const std::function<bool(std::string &)> &body,
                       float &ms, std::string &error) {
  ms = 0;
  EventPool events(*this);
  return events.create(2, error) && events.record(0, error) && body(error) &&
         events.record(1, error) && events.synchronize(1, error) &&
         events.elapsed(0, 1, ms, error);
}

//===----------------------------------------------------------------------===//
// Module and DeviceBuffer
//===----------------------------------------------------------------------===//

Module::Module(Module &&other) noexcept
    : driver(other.driver), mod(other.mod), log(std::move(other.log)) {
  other.driver = nullptr;
  other.mod = nullptr;
}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    reset();
    std::swap(driver, other.driver);
    std::swap(mod, other.mod);
    std::swap(log, other.log);
  }
  return *this;
}

Module::~Module() { reset(); }

void Module::reset() {
  if (driver && mod)
    driver->getApi().cuModuleUnload(mod);
  driver = nullptr;
  mod = nullptr;
  log.clear();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : driver(other.driver), devPtr(other.devPtr), bytes(other.bytes) {
  other.driver = nullptr;
  other.devPtr = 0;
  other.bytes = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    std::swap(driver, other.driver);
    std::swap(devPtr, other.devPtr);
    std::swap(bytes, other.bytes);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

bool DeviceBuffer::allocate(Driver &newDriver, size_t newBytes,
                            std::string &error) {
  reset();
  if (!newDriver.alloc(newBytes, devPtr, error))
    return false;
  driver = &newDriver;
  bytes = newBytes;
  return true;
}

void DeviceBuffer::reset() {
  // A failure here has no one to report to; after a sticky launch error
  // the context refuses everything anyway.
  std::string ignored;
  if (driver)
    driver->free(devPtr, ignored);
  driver = nullptr;
  devPtr = 0;
  bytes = 0;
}

//===----------------------------------------------------------------------===//
// Benchmarking
//===----------------------------------------------------------------------===//

bool rt::benchmarkMedian(Driver &driver,
                         const std::function<bool(std::string &)> &launchOnce,
                         int warmupMs, int repMs, bool flushL2,
                         std::vector<float> &timesMs, std::string &error) {
  timesMs.clear();
  if (!driver.synchronize(error))
    return false;
  DeviceBuffer scratch;
  if (flushL2 && !scratch.allocate(driver, kFlushBytes, error))
    return false;
  // Overwriting more than the L2 holds evicts whatever the last run left.
  auto flush = [&](std::string &err) {
    return !flushL2 || driver.memsetD32(scratch.ptr(), 0,
                                        kFlushBytes / sizeof(unsigned), err);
  };

  // As in do_bench, the estimate includes the flush: it sizes the run
  // counts to the wall time that is spent.
  float estimateMs = 0;
  auto fiveRuns = [&](std::string &err) {
    for (int i = 0; i < 5; ++i)
      if (!flush(err) || !launchOnce(err))
        return false;
    return true;
  };
  if (!driver.elapsedMs(fiveRuns, estimateMs, error))
    return false;
  double perRunMs = std::max(double(estimateMs) / 5, kMinEstimateMs);
  auto runsFor = [&](int ms) {
    return long(std::clamp(std::floor(ms / perRunMs), 1.0, double(kMaxRuns)));
  };
  long warmupRuns = runsFor(warmupMs);
  long repRuns = runsFor(repMs);

  // All events are made before the timed loop so that creating them does
  // not open gaps between launches.
  EventPool events(driver);
  if (!events.create(2 * size_t(repRuns), error))
    return false;
  for (long i = 0; i < warmupRuns; ++i)
    if (!launchOnce(error))
      return false;
  for (long i = 0; i < repRuns; ++i)
    if (!flush(error) || !events.record(2 * i, error) || !launchOnce(error) ||
        !events.record(2 * i + 1, error))
      return false;
  if (!driver.synchronize(error))
    return false;

  timesMs.resize(repRuns);
  for (long i = 0; i < repRuns; ++i)
    if (!events.elapsed(2 * i, 2 * i + 1, timesMs[i], error)) {
      timesMs.clear();
      return false;
    }
  return true;
}

bool rt::measureCopyBandwidth(Driver &driver, size_t bytes, int warmupMs,
                              int repMs, double &gbPerS, std::string &error) {
  gbPerS = 0;
  DeviceBuffer source, destination;
  if (!source.allocate(driver, bytes, error) ||
      !destination.allocate(driver, bytes, error) ||
      !driver.memsetD8(source.ptr(), 0x5a, bytes, error))
    return false;
  auto copy = [&](std::string &err) {
    return driver.copyDeviceToDevice(destination.ptr(), source.ptr(), bytes,
                                     err);
  };
  // The buffers are far larger than the L2, so no flush is needed.
  std::vector<float> times;
  if (!benchmarkMedian(driver, copy, warmupMs, repMs, /*flushL2=*/false, times,
                       error))
    return false;
  double ms = quantile(times, 0.5);
  if (!(ms > 0)) {
    error = "the copy-bandwidth measurement took no measurable time";
    return false;
  }
  gbPerS = 2.0 * double(bytes) / ms * 1e-6;
  return true;
}
