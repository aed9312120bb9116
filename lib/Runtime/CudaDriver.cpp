//===- CudaDriver.cpp - the CUDA driver, loaded at run time ---------------===//
//
// The device, module, memory, TMA tensor-map and launch calls of Driver, on
// the entry points DriverApi.cpp resolves; the event timing and the
// benchmark loop are in Benchmark.cpp. Every failure is reported as text naming
// the driver call and the driver's error, never as an exception or abort.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>

using namespace tile;
using namespace tile::rt;
using namespace tile::rt::driver_enums;

namespace {
// The text a JIT log buffer holds, without trailing blank space.
std::string logText(const std::vector<char> &buffer) {
  std::string text(buffer.data(), strnlen(buffer.data(), buffer.size()));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  return text;
}

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

  const Api *api = loadDriverApi(error);
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
  return describeDriverResult(api, result);
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
  // The linker compiles PTX as relocatable code, where ptxas cannot know a
  // kernel's registers at entry and drops setmaxnreg (C7508): such a
  // kernel's warps would keep the launch's even share and spill. Loading
  // the PTX (loadModule) compiles it whole.
  if (ptx.find("setmaxnreg") != std::string::npos) {
    error = "the PTX resizes registers (setmaxnreg), which the linker's "
            "relocatable compile drops";
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

/// The bytes of the global `name` of `module`, or none where the module has
/// no such global (CUDA_ERROR_NOT_FOUND = 500: absent is an answer, not an
/// error).
static bool readGlobal(const Driver &driver, const Module &module,
                       const std::string &name,
                       std::optional<std::vector<uint8_t>> &out,
                       std::string &error) {
  const Driver::Api &api = driver.getApi();
  out.reset();
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CUresult status =
      api.cuModuleGetGlobal(&address, &bytes, module.handle(), name.c_str());
  if (status == 500)
    return true;
  std::string call = "cuModuleGetGlobal(\"" + name + "\")";
  if (!driver.check(status, call.c_str(), error))
    return false;
  std::vector<uint8_t> data(bytes);
  if (bytes && !driver.check(api.cuMemcpyDtoH(data.data(), address, bytes),
                             "cuMemcpyDtoH", error))
    return false;
  out = std::move(data);
  return true;
}

bool Driver::readGlobalU32(const Module &module, const std::string &name,
                           std::optional<uint32_t> &out, std::string &error) {
  out.reset();
  std::optional<std::vector<uint8_t>> data;
  if (!readGlobal(*this, module, name, data, error))
    return false;
  if (!data)
    return true;
  if (data->size() != sizeof(uint32_t)) {
    error = "the module's global " + name + " has " +
            std::to_string(data->size()) + " bytes, not 4";
    return false;
  }
  uint32_t value = 0;
  std::memcpy(&value, data->data(), sizeof(value));
  out = value;
  return true;
}

bool Driver::readGlobalI64s(const Module &module, const std::string &name,
                            std::optional<std::vector<int64_t>> &out,
                            std::string &error) {
  out.reset();
  std::optional<std::vector<uint8_t>> data;
  if (!readGlobal(*this, module, name, data, error))
    return false;
  if (!data)
    return true;
  if (data->size() % sizeof(int64_t) != 0) {
    error = "the module's global " + name + " has " +
            std::to_string(data->size()) +
            " bytes, not a whole number of 8-byte words";
    return false;
  }
  std::vector<int64_t> words(data->size() / sizeof(int64_t));
  std::memcpy(words.data(), data->data(), data->size());
  out = std::move(words);
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
