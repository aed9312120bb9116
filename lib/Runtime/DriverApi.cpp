//===- DriverApi.cpp - open libcuda.so.1 and resolve its entry points ----===//
//
// dlopen and dlsym, by the versioned names that cuda.h would have mapped
// the entry points to, so that neither CUDA headers nor the toolkit are
// needed to build.
//
//===----------------------------------------------------------------------===//

#include "DriverApi.h"

#include <dlfcn.h>

using namespace tile;
using namespace tile::rt;
using namespace tile::rt::driver_enums;

namespace {
constexpr const char *kLibraryName = "libcuda.so.1";

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

} // namespace

std::string tile::rt::describeDriverResult(const Driver::Api &api,
                                           CUresult result) {
  const char *name = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "unknown CUDA error " + std::to_string(result);
  std::string text = name;
  const char *description = nullptr;
  if (api.cuGetErrorString(result, &description) == CUDA_SUCCESS && description)
    text += std::string(" (") + description + ")";
  return text;
}

// A failure is remembered since retrying cannot help. The library is never
// closed: the driver's own teardown runs at exit.
const Driver::Api *tile::rt::loadDriverApi(std::string &error) {
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
        loadError = "cuInit failed: " + describeDriverResult(api, result);
    }
  }
  if (!loaded) {
    error = loadError;
    return nullptr;
  }
  return &api;
}
