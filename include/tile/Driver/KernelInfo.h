//===- KernelInfo.h - tile-run --info: the compiled kernel's resources ----===//
//
// What the driver's JIT made of a kernel (registers, spills, shared memory)
// and how many of its programs fit on one multiprocessor at once, with the
// limit each resource sets, as Triton's softmax tutorial computes occupancy
// from n_regs and the shared memory size.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_KERNELINFO_H
#define TILE_DRIVER_KERNELINFO_H

#include "tile/Runtime/CudaDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tile {

/// The figures ptxas prints in the JIT's verbose info log for one function.
struct JitLogInfo {
  std::optional<int> registers;
  std::optional<int> stackFrameBytes;
  std::optional<int> spillStoreBytes;
  std::optional<int> spillLoadBytes;
};

/// Reads `log` for `kernel`'s lines ("Function properties for K", "N bytes
/// stack frame, N bytes spill stores, N bytes spill loads", "Used N
/// registers"); lines before any function name count for every kernel.
JitLogInfo parseJitInfoLog(llvm::StringRef log, llvm::StringRef kernel);

/// One shared-memory buffer that TMA copies fill: `stages` stages of
/// rows x cols elements, each stage `copiesPerStage` boxes wide.
struct TmaBuffer {
  int64_t stages = 0, rows = 0, cols = 0;
  std::string element;
  unsigned swizzleBytes = 0, copiesPerStage = 0;
};

/// What the compiled kernel does with TMA: the tensor maps its copies read
/// and its stores write (kernel arguments of host descriptors), the buffers
/// the copies fill, the mbarriers they complete on, and the buffers TMA
/// stores write out.
struct TmaUsage {
  unsigned tensorMaps = 0;
  unsigned mbarriers = 0;
  std::vector<TmaBuffer> buffers;
  std::vector<TmaBuffer> storedBuffers;
  /// A warp-specialized kernel's split (tilegpu-warp-specialize): the warps
  /// that issue the copies and the registers setmaxnreg gives each role
  /// (0 where the kernel is not split).
  unsigned producerWarps = 0;
  unsigned producerRegisters = 0;
  unsigned consumerRegisters = 0;
  /// A persistent kernel (tilegpu-persistent-programs).
  bool persistentPrograms = false;
  /// The consumer warpgroups' turns at their dots (tilegpu-ping-pong): the
  /// tilegpu.take_turn ops, 0 without them.
  unsigned turns = 0;
  /// The tensor maps the launch encodes for descriptors the kernel makes
  /// (tilegpu-hoist-tensor-maps), each described in a line
  /// (describeTensorMapRecipe).
  std::vector<std::string> launchTensorMaps;
};

/// The programs a persistent kernel's launch starts
/// (tilegpu-persistent-programs): the grid's, at most SMs x occupancy (at
/// least one per SM where the occupancy is unknown). tile-run's launches,
/// its --info and the C++ API's launches all count them so.
inline int64_t getPersistentLaunchPrograms(int64_t gridPrograms, int numSMs,
                                           int occupancy) {
  return std::min(gridPrograms, int64_t(numSMs) * std::max(occupancy, 1));
}

/// Everything --info prints.
struct KernelReport {
  std::string kernel;
  rt::DeviceInfo device;
  rt::FuncInfo func;
  JitLogInfo jit;
  unsigned numWarps = 4;
  /// The warps a warp-specialized kernel adds to numWarps: its TMA
  /// producer (tilegpu-warp-specialize).
  unsigned producerWarps = 0;
  int dynamicSharedBytes = 0;
  /// cuOccupancyMaxActiveBlocksPerMultiprocessor's answer.
  int occupancy = 0;
  /// None where the grid uses occupancy() and that is 0.
  std::optional<std::array<int64_t, 3>> grid;
  TmaUsage tma;

  unsigned warpsPerProgram() const { return numWarps + producerWarps; }
  int threadsPerBlock() const {
    return int(warpsPerProgram()) * device.warpSize;
  }
};

/// The most programs per multiprocessor one resource allows; nullopt where
/// it sets no limit (a kernel without shared memory, a driver that does not
/// report the block limit).
struct OccupancyLimit {
  const char *resource;
  std::optional<int> programs;
  std::string reason;
};

/// The limits of registers (allocated per warp, in units of 256), shared
/// memory (static, dynamic and the driver's reserve per block), threads and
/// blocks per multiprocessor, from the device's attributes.
std::vector<OccupancyLimit> computeOccupancyLimits(const KernelReport &report);

/// Fills `report` for a loaded kernel launched with `numWarps` warps (plus
/// its `producerWarps`) and `dynamicSharedBytes` of dynamic shared memory.
bool gatherKernelReport(rt::Driver &driver, const rt::Module &module,
                        rt::Function function, const std::string &kernel,
                        unsigned numWarps, unsigned producerWarps,
                        unsigned dynamicSharedBytes, KernelReport &report,
                        std::string &error);

/// Reads a report from a `key = value` file (the field names of --info=json)
/// whose `jit_log:` line starts the JIT log; for tests without a GPU.
bool readKernelReportFixture(llvm::StringRef path, KernelReport &report,
                             std::string &error);

void printKernelReport(const KernelReport &report, llvm::raw_ostream &os);

/// The TMA lines of the report (tensor maps, mbarriers, the buffers copies
/// fill and stores write out), each line starting with `linePrefix`; the
/// buffers' lines are indented two spaces further.
void printTmaUsage(const TmaUsage &tma, llvm::raw_ostream &os,
                   llvm::StringRef linePrefix);
void printKernelReportJSON(const KernelReport &report, llvm::raw_ostream &os);

} // namespace tile

#endif // TILE_DRIVER_KERNELINFO_H
