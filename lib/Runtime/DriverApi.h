//===- DriverApi.h - the driver's entry points, for lib/Runtime -*- C++ -*-===//
//
// Private to the runtime: the driver enum values used here (as cuda.h
// defines them), the table of entry points Driver::get fills with dlsym
// (DriverApi.cpp), and the limits the driver calls share. CudaDriver.cpp
// builds the Driver on it, Benchmark.cpp the event timing.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_RUNTIME_DRIVERAPI_H
#define TILE_LIB_RUNTIME_DRIVERAPI_H

#include "tile/Runtime/CudaDriver.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace tile::rt {
namespace driver_enums {
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
} // namespace driver_enums

/// The JIT's log buffers.
constexpr size_t kJitLogBytes = 16 * 1024;

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

/// Opens libcuda.so.1, resolves its entry points and initializes the
/// driver, once per process (a failure is remembered too); null with
/// `error` set when that fails. Called with Driver::get's lock held.
const Driver::Api *loadDriverApi(std::string &error);

/// The driver's name and text for `result`.
std::string describeDriverResult(const Driver::Api &api, CUresult result);
} // namespace tile::rt

#endif // TILE_LIB_RUNTIME_DRIVERAPI_H
