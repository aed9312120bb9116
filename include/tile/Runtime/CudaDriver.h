//===- CudaDriver.h - the CUDA driver, loaded at run time -------*- C++ -*-===//
//
// A thin layer over the CUDA driver API that finds libcuda.so.1 with dlopen
// when first asked, so that Tile builds without the CUDA toolkit and runs on
// machines without a GPU, where every entry point reports "no CUDA driver
// found" instead of failing to load. It covers what running and timing a
// compiled kernel needs: the device's properties, JIT-loading PTX (or
// linking it into a cubin that can be kept and loaded later), device
// memory, launches, and event timing in the manner of
// triton.testing.do_bench.
//
// Nothing here throws. Fallible calls return false and describe the failure
// in their `error` argument, naming the driver call and the driver's own
// error name and text.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_CUDADRIVER_H
#define TILE_RUNTIME_CUDADRIVER_H

#include "tile/Runtime/TimingStats.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

// The driver's opaque handle types live in the global namespace, as in
// cuda.h (and as include/tile/Tile.h declares CUstream_st).
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUlinkState_st;

namespace tile::rt {

// The few driver types this layer needs, declared with the same layout as
// cuda.h so that no CUDA header is required.
using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdeviceptr = unsigned long long;
using CUlinkState = struct CUlinkState_st *;

using DevicePtr = CUdeviceptr;

/// A TMA tensor map (cuda.h's CUtensorMap): 128 bytes aligned to 64. A
/// kernel takes a host descriptor's map by value, so a launch's argument
/// slot points at these bytes.
struct TensorMapBytes {
  alignas(64) unsigned char bytes[128] = {};
};

class Driver;

/// Properties of the device, read once when the driver is opened.
struct DeviceInfo {
  std::string name;
  int ordinal = 0;
  int ccMajor = 0;
  int ccMinor = 0;
  int multiprocessorCount = 0;
  int l2CacheBytes = 0;
  int maxSharedPerBlockOptin = 0;
  // Per-multiprocessor resources, for the occupancy's limits.
  int warpSize = 32;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerSM = 0;
  int maxRegistersPerSM = 0;
  int maxRegistersPerBlock = 0;
  int maxSharedPerSM = 0;
  /// 0 where the driver is too old to say (before CUDA 11).
  int maxBlocksPerSM = 0;
  /// Shared memory the driver reserves per block (CUDA 11 and later).
  int reservedSharedPerBlock = 0;
  /// As cuDriverGetVersion reports it: 1000 * major + 10 * minor.
  int driverVersion = 0;
};

/// A kernel entry point in a loaded module. It stays valid as long as the
/// module it came from is loaded.
struct Function {
  CUfunction handle = nullptr;
  explicit operator bool() const { return handle != nullptr; }
};

/// The resources one kernel uses, as the JIT compiler decided them.
struct FuncInfo {
  int numRegs = 0;
  /// Statically allocated shared memory, in bytes per block.
  int sharedBytes = 0;
  /// Local memory (register spills, local arrays), in bytes per thread.
  int localBytes = 0;
  int maxThreadsPerBlock = 0;
  /// The current limit on dynamic shared memory for a launch.
  int maxDynamicSharedBytes = 0;
};

/// A module JIT-compiled from PTX; it is unloaded on destruction.
class Module {
public:
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  ~Module();

  CUmodule handle() const { return mod; }
  explicit operator bool() const { return mod != nullptr; }
  /// The JIT compiler's informational log (verbose: registers, spills).
  const std::string &infoLog() const { return log; }

  /// Unloads the module now; errors are ignored.
  void reset();

private:
  friend class Driver;
  Driver *driver = nullptr;
  CUmodule mod = nullptr;
  std::string log;
};

/// Device memory that is freed on destruction.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer();

  /// Frees what this buffer held, then allocates `bytes` bytes.
  bool allocate(Driver &driver, size_t bytes, std::string &error);
  /// Frees the memory now; errors are ignored.
  void reset();

  DevicePtr ptr() const { return devPtr; }
  size_t size() const { return bytes; }

private:
  Driver *driver = nullptr;
  DevicePtr devPtr = 0;
  size_t bytes = 0;
};

/// One device of the CUDA driver, with its primary context.
///
/// Calls work on the context that is current on the calling thread; get()
/// makes this device's context current, and makeCurrent() does so again
/// (after another thread or device was used).
class Driver {
public:
  /// Loads libcuda.so.1 (once per process), initializes the driver, retains
  /// the primary context of device `ordinal` and makes it current. Returns
  /// nullptr and sets `error` when there is no driver or no such device. The
  /// Driver lives until the process exits.
  static Driver *get(std::string &error, int ordinal = 0);

  Driver(const Driver &) = delete;
  Driver &operator=(const Driver &) = delete;

  const DeviceInfo &info() const { return devInfo; }
  const std::string &deviceName() const { return devInfo.name; }
  /// 10 * major + minor, e.g. 90 for sm_90.
  int computeCapability() const {
    return devInfo.ccMajor * 10 + devInfo.ccMinor;
  }
  int multiprocessorCount() const { return devInfo.multiprocessorCount; }
  int l2CacheBytes() const { return devInfo.l2CacheBytes; }
  int maxSharedPerBlockOptin() const { return devInfo.maxSharedPerBlockOptin; }
  int driverVersion() const { return devInfo.driverVersion; }

  bool makeCurrent(std::string &error);

  /// Loads a module from NUL-terminated PTX text, capturing the JIT logs
  /// (16 KiB each). On failure `error` ends with the JIT error log.
  bool loadModule(const std::string &ptx, Module &out, std::string &error,
                  bool verboseLog = true);
  /// Whether the driver has the linker (cuLinkCreate and friends).
  bool canLink() const;
  /// JIT-compiles PTX for this device with the driver's linker into a cubin
  /// that loadCubin loads without compiling again; `infoLog` receives the
  /// JIT's info log (verbose: ptxas's registers and spills). On failure
  /// `error` ends with the JIT error log. Refuses PTX that resizes
  /// registers (setmaxnreg), which the linker's relocatable compile would
  /// drop: loadModule compiles that whole.
  bool compileToCubin(const std::string &ptx, std::string &cubin,
                      std::string &infoLog, std::string &error,
                      bool verboseLog = true);
  /// Loads a cubin compileToCubin made; the module's infoLog() is `infoLog`.
  bool loadCubin(const std::string &cubin, const std::string &infoLog,
                 Module &out, std::string &error);
  /// The value of the 4-byte global `name` of `module`, or none where the
  /// module has no such global.
  bool readGlobalU32(const Module &module, const std::string &name,
                     std::optional<uint32_t> &out, std::string &error);
  /// The 8-byte words of the global `name` of `module`, or none where the
  /// module has no such global.
  bool readGlobalI64s(const Module &module, const std::string &name,
                      std::optional<std::vector<int64_t>> &out,
                      std::string &error);
  bool getFunction(const Module &module, const std::string &name, Function &out,
                   std::string &error);
  bool funcAttributes(Function func, FuncInfo &out, std::string &error);
  /// Allows launches of `func` with up to `bytes` of dynamic shared memory,
  /// needed for more than 48 KiB, and prefers shared memory over L1 for it.
  bool setMaxDynamicShared(Function func, int bytes, std::string &error);
  /// How many blocks of `func` fit on one multiprocessor at once, with
  /// `blockSize` threads and `dynamicShared` bytes of dynamic shared memory
  /// (cuOccupancyMaxActiveBlocksPerMultiprocessor).
  bool maxActiveBlocksPerSM(Function func, int blockSize, size_t dynamicShared,
                            int &blocks, std::string &error);

  /// Zero bytes allocate nothing and give the null pointer, which free()
  /// accepts.
  bool alloc(size_t bytes, DevicePtr &out, std::string &error);
  bool free(DevicePtr ptr, std::string &error);
  bool copyToDevice(DevicePtr dst, const void *src, size_t bytes,
                    std::string &error);
  bool copyToHost(void *dst, DevicePtr src, size_t bytes, std::string &error);
  /// Queued on the default stream like a launch.
  bool copyDeviceToDevice(DevicePtr dst, DevicePtr src, size_t bytes,
                          std::string &error);
  bool memsetD8(DevicePtr dst, unsigned char value, size_t bytes,
                std::string &error);
  /// Sets `count` 32-bit words.
  bool memsetD32(DevicePtr dst, unsigned value, size_t count,
                 std::string &error);

  /// Whether the driver encodes TMA tensor maps (cuTensorMapEncodeTiled,
  /// CUDA 12 and later).
  bool canEncodeTensorMaps() const;
  /// Encodes into `map` (128 bytes, 64-byte aligned) the tiled TMA tensor
  /// map of the row-major 2-D tensor at `base`: `rows` x `cols` elements
  /// of `dataType` (cuda.h's CUtensorMapDataType), rows `rowStrideBytes`
  /// apart, copied in boxes of `boxRows` x `boxCols` with the 128-, 64- or
  /// 32-byte swizzle `swizzleBytes`; out-of-bounds elements read as zeros,
  /// or NaN where `nanFill`.
  bool encodeTensorMap2D(void *map, int dataType, DevicePtr base, uint64_t rows,
                         uint64_t cols, uint64_t rowStrideBytes,
                         unsigned boxRows, unsigned boxCols,
                         unsigned swizzleBytes, bool nanFill,
                         std::string &error);

  /// Launches on `stream` (the default stream when null) with a
  /// one-dimensional block; each element of `kernelParams` points at one
  /// argument's value.
  bool launch(Function func, unsigned gridX, unsigned gridY, unsigned gridZ,
              unsigned blockX, unsigned sharedBytes, void **kernelParams,
              std::string &error, CUstream stream = nullptr);
  bool synchronize(std::string &error);

  /// Times the work `body` queues on the default stream, with a pair of
  /// events, and waits for it to finish.
  bool elapsedMs(const std::function<bool(std::string &)> &body, float &ms,
                 std::string &error);

  /// "CUDA_ERROR_NAME (description)" for a driver result code.
  std::string describe(CUresult result) const;

  /// The driver's entry points, resolved with dlsym; defined in
  /// CudaDriver.cpp.
  struct Api;
  const Api &getApi() const { return api; }
  /// Sets `error` to "<call> failed: <describe(result)>" unless `result` is
  /// success.
  bool check(CUresult result, const char *call, std::string &error) const;

private:
  Driver(const Api &resolved, int ordinal) : api(resolved) {
    devInfo.ordinal = ordinal;
  }

  const Api &api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  DeviceInfo devInfo;
};

/// Measures `launchOnce` the way triton.testing.do_bench does: estimates one
/// run from 5 runs, runs it for about `warmupMs` (at least once), then times
/// max(1, repMs / estimate) runs, each with its own pair of events. With
/// `flushL2`, a 256 MiB scratch buffer is overwritten before each run so that
/// every run starts with a cold L2. `timesMs` receives each run's time; the
/// median is quantile(timesMs, 0.5).
bool benchmarkMedian(Driver &driver,
                     const std::function<bool(std::string &)> &launchOnce,
                     int warmupMs, int repMs, bool flushL2,
                     std::vector<float> &timesMs, std::string &error);

/// The device's copy bandwidth, the ceiling of a kernel that reads and
/// writes memory once: the median time of cuMemcpyDtoD between two buffers of
/// `bytes` (far larger than the L2), timed as benchmarkMedian does, counted
/// as 2 * bytes moved. `gbPerS` is in 1e9 bytes per second.
bool measureCopyBandwidth(Driver &driver, size_t bytes, int warmupMs, int repMs,
                          double &gbPerS, std::string &error);

} // namespace tile::rt

#endif // TILE_RUNTIME_CUDADRIVER_H
