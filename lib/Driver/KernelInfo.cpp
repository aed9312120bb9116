//===- KernelInfo.cpp - tile-run --info: the compiled kernel's resources --===//

#include "tile/Driver/KernelInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace tile;

namespace {
/// The number just before `word` in `line` ("... 24 bytes spill stores"),
/// or nullopt.
std::optional<int> numberBefore(llvm::StringRef line, llvm::StringRef word) {
  size_t at = line.find(word);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef before = line.take_front(at).rtrim();
  size_t start = before.find_last_not_of("0123456789");
  llvm::StringRef digits =
      start == llvm::StringRef::npos ? before : before.substr(start + 1);
  int value;
  if (digits.empty() || digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

/// The kernel name a log line introduces, if it is one of ptxas's
/// "Compiling entry function 'K' for 'sm_90a'" or "Function properties for
/// K" lines.
std::optional<llvm::StringRef> functionOf(llvm::StringRef line) {
  llvm::StringRef rest;
  if (size_t at = line.find("Compiling entry function '");
      at != llvm::StringRef::npos) {
    rest = line.substr(at + strlen("Compiling entry function '"));
    return rest.take_until([](char c) { return c == '\''; });
  }
  if (size_t at = line.find("Function properties for ");
      at != llvm::StringRef::npos)
    return line.substr(at + strlen("Function properties for ")).trim();
  return std::nullopt;
}

/// Fields shared by the fixture reader and the JSON writer.
struct IntField {
  const char *name;
  int *value;
};

std::vector<IntField> intFields(KernelReport &r) {
  return {
      {"num_sms", &r.device.multiprocessorCount},
      {"cc_major", &r.device.ccMajor},
      {"cc_minor", &r.device.ccMinor},
      {"warp_size", &r.device.warpSize},
      {"max_threads_per_sm", &r.device.maxThreadsPerSM},
      {"max_registers_per_sm", &r.device.maxRegistersPerSM},
      {"max_shared_per_sm", &r.device.maxSharedPerSM},
      {"max_blocks_per_sm", &r.device.maxBlocksPerSM},
      {"reserved_shared_per_block", &r.device.reservedSharedPerBlock},
      {"registers_per_thread", &r.func.numRegs},
      {"static_shared_bytes", &r.func.sharedBytes},
      {"local_bytes_per_thread", &r.func.localBytes},
      {"max_threads_per_block", &r.func.maxThreadsPerBlock},
      {"dynamic_shared_bytes", &r.dynamicSharedBytes},
      {"occupancy", &r.occupancy},
  };
}

/// "shared memory" as a JSON key: "shared_memory".
std::string jsonKey(llvm::StringRef resource) {
  std::string key = resource.str();
  std::replace(key.begin(), key.end(), ' ', '_');
  return key;
}

std::string describeLimited(const KernelReport &report,
                            const std::vector<OccupancyLimit> &limits,
                            std::vector<std::string> &limitedBy) {
  std::optional<int> lowest;
  for (const OccupancyLimit &limit : limits)
    if (limit.programs)
      lowest = lowest ? std::min(*lowest, *limit.programs) : *limit.programs;
  for (const OccupancyLimit &limit : limits)
    if (limit.programs && *limit.programs == report.occupancy)
      limitedBy.push_back(limit.resource);
  if (!limitedBy.empty())
    return "limited by " + llvm::join(limitedBy, " and ");
  if (lowest && report.occupancy < *lowest)
    return llvm::formatv("below every limit computed here (the lowest is {0}): "
                         "the driver's shared-memory carveout or a limit not "
                         "modelled here",
                         *lowest)
        .str();
  return llvm::formatv("above the lowest limit computed here ({0}): the "
                       "driver knows better",
                       lowest ? *lowest : 0)
      .str();
}
} // namespace

JitLogInfo tile::parseJitInfoLog(llvm::StringRef log, llvm::StringRef kernel) {
  JitLogInfo info;
  std::optional<llvm::StringRef> current;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (std::optional<llvm::StringRef> function = functionOf(line)) {
      current = *function;
      continue;
    }
    if (current && *current != kernel)
      continue;
    if (std::optional<int> regs = numberBefore(line, " registers");
        regs && line.contains("Used "))
      info.registers = regs;
    if (std::optional<int> bytes = numberBefore(line, " bytes stack frame"))
      info.stackFrameBytes = bytes;
    if (std::optional<int> bytes = numberBefore(line, " bytes spill stores"))
      info.spillStoreBytes = bytes;
    if (std::optional<int> bytes = numberBefore(line, " bytes spill loads"))
      info.spillLoadBytes = bytes;
  }
  return info;
}

std::vector<OccupancyLimit>
tile::computeOccupancyLimits(const KernelReport &report) {
  const rt::DeviceInfo &device = report.device;
  std::vector<OccupancyLimit> limits;
  int threads = report.threadsPerBlock();

  // Registers are allocated per warp in units of 256.
  OccupancyLimit registers{"registers", std::nullopt, "the kernel uses none"};
  if (report.func.numRegs > 0 && device.maxRegistersPerSM > 0) {
    int perWarp = llvm::alignTo(report.func.numRegs * device.warpSize, 256);
    int warps = device.maxRegistersPerSM / perWarp;
    registers.programs = warps / int(report.warpsPerProgram());
    registers.reason = llvm::formatv(
        "{0} per SM / ({1} warps x {2} per warp: {3} per thread x {4} "
        "threads, allocated in units of 256)",
        device.maxRegistersPerSM, report.warpsPerProgram(), perWarp,
        report.func.numRegs, device.warpSize);
  }
  limits.push_back(registers);

  int perBlock = report.func.sharedBytes + report.dynamicSharedBytes +
                 device.reservedSharedPerBlock;
  OccupancyLimit shared{"shared memory", std::nullopt, "the kernel uses none"};
  if (perBlock > 0 && device.maxSharedPerSM > 0) {
    shared.programs = device.maxSharedPerSM / perBlock;
    shared.reason = llvm::formatv(
        "{0} bytes per SM / {1} per program ({2} static + {3} dynamic + {4} "
        "reserved by the driver)",
        device.maxSharedPerSM, perBlock, report.func.sharedBytes,
        report.dynamicSharedBytes, device.reservedSharedPerBlock);
  }
  limits.push_back(shared);

  OccupancyLimit threadLimit{"threads", std::nullopt, ""};
  if (threads > 0 && device.maxThreadsPerSM > 0) {
    threadLimit.programs = device.maxThreadsPerSM / threads;
    threadLimit.reason = llvm::formatv(
        "{0} per SM / {1} per program ({2} warps)", device.maxThreadsPerSM,
        threads, report.warpsPerProgram());
  }
  limits.push_back(threadLimit);

  OccupancyLimit blocks{"blocks", std::nullopt,
                        "the driver does not report it"};
  if (device.maxBlocksPerSM > 0) {
    blocks.programs = device.maxBlocksPerSM;
    blocks.reason = "the device's most resident blocks per SM";
  }
  limits.push_back(blocks);
  return limits;
}

bool tile::gatherKernelReport(rt::Driver &driver, const rt::Module &module,
                              rt::Function function, const std::string &kernel,
                              unsigned numWarps, unsigned producerWarps,
                              unsigned dynamicSharedBytes, KernelReport &report,
                              std::string &error) {
  report.kernel = kernel;
  report.device = driver.info();
  report.numWarps = numWarps;
  report.producerWarps = producerWarps;
  report.dynamicSharedBytes = int(dynamicSharedBytes);
  report.jit = parseJitInfoLog(module.infoLog(), kernel);
  return driver.funcAttributes(function, report.func, error) &&
         driver.maxActiveBlocksPerSM(function, report.threadsPerBlock(),
                                     report.dynamicSharedBytes,
                                     report.occupancy, error);
}

bool tile::readKernelReportFixture(llvm::StringRef path, KernelReport &report,
                                   std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = "cannot read '" + path.str() + "': " + buffer.getError().message();
    return false;
  }
  llvm::StringRef text = (*buffer)->getBuffer();
  std::vector<IntField> fields = intFields(report);
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    if (line == "jit_log:") {
      report.jit = parseJitInfoLog(text, report.kernel);
      return true;
    }
    // Plain variables: lambdas below capture them (clang 14 cannot capture
    // structured bindings).
    llvm::StringRef key = line.split('=').first.trim();
    llvm::StringRef value = line.split('=').second.trim();
    if (key == "kernel") {
      report.kernel = value.str();
      continue;
    }
    if (key == "device") {
      report.device.name = value.str();
      continue;
    }
    if (key == "num_warps" || key == "producer_warps" ||
        key == "producer_registers" || key == "consumer_registers") {
      unsigned &warps = key == "num_warps"        ? report.numWarps
                        : key == "producer_warps" ? report.producerWarps
                        : key == "producer_registers"
                            ? report.tma.producerRegisters
                            : report.tma.consumerRegisters;
      if (value.getAsInteger(10, warps)) {
        error = path.str() + ": '" + key.str() + "' needs an integer";
        return false;
      }
      report.tma.producerWarps = report.producerWarps;
      continue;
    }
    if (key == "persistent_programs") {
      report.tma.persistentPrograms = value == "1";
      continue;
    }
    if (key == "launch_tensor_map") {
      report.tma.launchTensorMaps.push_back(value.str());
      continue;
    }
    if (key == "tma_tensor_maps" || key == "tma_mbarriers") {
      unsigned &count = key == "tma_tensor_maps" ? report.tma.tensorMaps
                                                 : report.tma.mbarriers;
      if (value.getAsInteger(10, count)) {
        error = path.str() + ": '" + key.str() + "' needs an integer";
        return false;
      }
      continue;
    }
    if (key == "tma_buffer" || key == "tma_store_buffer") {
      // stages rows cols element swizzle_bytes copies_per_stage
      llvm::SmallVector<llvm::StringRef> parts;
      value.split(parts, ' ', -1, /*KeepEmpty=*/false);
      TmaBuffer buffer;
      if (parts.size() != 6 || parts[0].getAsInteger(10, buffer.stages) ||
          parts[1].getAsInteger(10, buffer.rows) ||
          parts[2].getAsInteger(10, buffer.cols) ||
          parts[4].getAsInteger(10, buffer.swizzleBytes) ||
          parts[5].getAsInteger(10, buffer.copiesPerStage)) {
        error = path.str() + ": '" + key.str() +
                "' needs stages rows cols element swizzle_bytes "
                "copies_per_stage";
        return false;
      }
      buffer.element = parts[3].str();
      (key == "tma_buffer" ? report.tma.buffers : report.tma.storedBuffers)
          .push_back(buffer);
      continue;
    }
    if (key == "grid") {
      llvm::SmallVector<llvm::StringRef> dims;
      value.split(dims, ',');
      report.grid = {1, 1, 1};
      for (auto [i, dim] : llvm::enumerate(dims))
        if (i >= 3 || dim.trim().getAsInteger(10, (*report.grid)[i])) {
          error = path.str() + ": bad grid '" + value.str() + "'";
          return false;
        }
      continue;
    }
    auto field =
        llvm::find_if(fields, [&](const IntField &f) { return key == f.name; });
    if (field == fields.end()) {
      error = path.str() + ": unknown key '" + key.str() + "'";
      return false;
    }
    if (value.getAsInteger(10, *field->value)) {
      error = path.str() + ": '" + key.str() + "' needs an integer";
      return false;
    }
  }
  error = path.str() + ": no 'jit_log:' line";
  return false;
}

namespace {
int64_t getGridPrograms(const KernelReport &report) {
  return (*report.grid)[0] * (*report.grid)[1] * (*report.grid)[2];
}

std::optional<int64_t> getLaunchedPrograms(const KernelReport &report) {
  if (!report.tma.persistentPrograms || !report.grid)
    return std::nullopt;
  return getPersistentLaunchPrograms(getGridPrograms(report),
                                     report.device.multiprocessorCount,
                                     report.occupancy);
}
} // namespace

void tile::printKernelReport(const KernelReport &report,
                             llvm::raw_ostream &os) {
  const rt::DeviceInfo &device = report.device;
  const JitLogInfo &jit = report.jit;
  auto orUnknown = [](std::optional<int> v) {
    return v ? std::to_string(*v) : std::string("?");
  };
  os << llvm::formatv("{0} on {1} (sm_{2}{3}, {4} SMs)\n", report.kernel,
                      device.name, device.ccMajor, device.ccMinor,
                      device.multiprocessorCount);
  std::string grid =
      report.grid ? llvm::formatv("grid ({0}, {1}, {2})", (*report.grid)[0],
                                  (*report.grid)[1], (*report.grid)[2])
                        .str()
                  : "no grid (occupancy() is 0)";
  os << llvm::formatv("  {0}, num_warps {1}: {2} threads per program (the "
                      "kernel allows up to {3})\n",
                      grid, report.numWarps, report.threadsPerBlock(),
                      report.func.maxThreadsPerBlock);
  if (report.producerWarps)
    os << llvm::formatv(
        "  warp roles: {0} consumer warps (wait for stages, compute, release "
        "them) with {1} registers per thread, and {2} producer warps (issue "
        "the TMA copies) with {3}; setmaxnreg moves them from the launch's "
        "even share below\n",
        report.numWarps, report.tma.consumerRegisters, report.producerWarps,
        report.tma.producerRegisters);
  if (std::optional<int64_t> launched = getLaunchedPrograms(report))
    os << llvm::formatv(
        "  persistent: the launch starts {0} programs (the grid's {1}, at "
        "most {2} SMs x occupancy {3}), each runs the grid's programs in "
        "turn\n",
        *launched, getGridPrograms(report), device.multiprocessorCount,
        report.occupancy);
  os << llvm::formatv("  registers: {0} per thread", report.func.numRegs);
  if (jit.registers && *jit.registers != report.func.numRegs)
    os << llvm::formatv(" (the JIT log says {0})", *jit.registers);
  os << "\n";
  os << llvm::formatv("  spills: {0} bytes stores, {1} bytes loads; stack "
                      "frame {2} bytes; local memory {3} bytes per thread\n",
                      orUnknown(jit.spillStoreBytes),
                      orUnknown(jit.spillLoadBytes),
                      orUnknown(jit.stackFrameBytes), report.func.localBytes);
  os << llvm::formatv("  shared memory: {0} bytes static, {1} bytes dynamic "
                      "per program\n",
                      report.func.sharedBytes, report.dynamicSharedBytes);
  std::vector<OccupancyLimit> limits = computeOccupancyLimits(report);
  std::vector<std::string> limitedBy;
  std::string limited = describeLimited(report, limits, limitedBy);
  os << llvm::formatv("  occupancy: {0} programs per SM "
                      "(cuOccupancyMaxActiveBlocksPerMultiprocessor), {1}\n",
                      report.occupancy, limited);
  for (const OccupancyLimit &limit : limits) {
    std::string programs =
        limit.programs ? std::to_string(*limit.programs) : "no limit";
    os << llvm::formatv("    {0,-14} {1,-9} {2}\n",
                        (llvm::Twine(limit.resource) + ":").str(), programs,
                        limit.reason);
  }
  os << llvm::formatv("  resident programs on the device: {0} ({1} SMs x "
                      "{2}): num_sms() * occupancy()\n",
                      int64_t(device.multiprocessorCount) * report.occupancy,
                      device.multiprocessorCount, report.occupancy);
  printTmaUsage(report.tma, os, "  ");
}

void tile::printTmaUsage(const TmaUsage &tma, llvm::raw_ostream &os,
                         llvm::StringRef linePrefix) {
  if (tma.buffers.empty() && tma.storedBuffers.empty()) {
    os << linePrefix
       << "TMA: none (no staged load or store uses a host descriptor)\n";
    return;
  }
  auto printBuffers = [&](const std::vector<TmaBuffer> &buffers) {
    for (const TmaBuffer &buffer : buffers)
      os << linePrefix
         << llvm::formatv("  {0} stage{7} of {1}x{2}x{3}, {4} cop{8} of "
                          "{1}x{5} per stage ({6}-byte swizzle)\n",
                          buffer.stages, buffer.rows, buffer.cols,
                          buffer.element, buffer.copiesPerStage,
                          buffer.cols / std::max(1u, buffer.copiesPerStage),
                          buffer.swizzleBytes, buffer.stages == 1 ? "" : "s",
                          buffer.copiesPerStage == 1 ? "y" : "ies");
  };
  os << linePrefix
     << llvm::formatv("TMA: {0} tensor maps, {1} mbarriers ({2} bytes of "
                      "shared memory)",
                      tma.tensorMaps, tma.mbarriers, tma.mbarriers * 8);
  if (!tma.buffers.empty()) {
    os << "; buffers filled by TMA copies:\n";
    printBuffers(tma.buffers);
  } else {
    os << "\n";
  }
  if (!tma.storedBuffers.empty()) {
    os << linePrefix << "buffers written out by TMA stores:\n";
    printBuffers(tma.storedBuffers);
  }
  if (!tma.launchTensorMaps.empty()) {
    os << linePrefix
       << "tensor maps the launch encodes for descriptors the kernel makes "
          "(tilegpu-hoist-tensor-maps), passed after its arguments:\n";
    for (const std::string &map : tma.launchTensorMaps)
      os << linePrefix << "  " << map << "\n";
  }
  if (tma.producerWarps)
    os << linePrefix
       << llvm::formatv("warp-specialized (the scf.if marked "
                        "tilegpu.warp_roles): {0} producer warps issue the "
                        "copies with {1} registers per thread, the others "
                        "compute with {2} (setmaxnreg)\n",
                        tma.producerWarps, tma.producerRegisters,
                        tma.consumerRegisters);
  if (tma.turns)
    os << linePrefix
       << llvm::formatv("ping-pong (tilegpu-ping-pong): the two consumer "
                        "warpgroups issue their dots in turns ({0} "
                        "tilegpu.take_turn; named barriers 2 and 3)\n",
                        tma.turns);
  if (tma.persistentPrograms)
    os << linePrefix
       << "persistent (tilegpu-persistent-programs): the launch starts SMs "
          "x occupancy programs, each loops over the grid's programs, and "
          "the stages carry from one to the next\n";
}

void tile::printKernelReportJSON(const KernelReport &report,
                                 llvm::raw_ostream &os) {
  KernelReport copy = report; // intFields hands out pointers
  std::vector<OccupancyLimit> limits = computeOccupancyLimits(report);
  std::vector<std::string> limitedBy;
  describeLimited(report, limits, limitedBy);
  auto optional = [](std::optional<int> v) -> llvm::json::Value {
    return v ? llvm::json::Value(*v) : llvm::json::Value(nullptr);
  };
  llvm::json::OStream json(os, 2);
  json.object([&] {
    json.attribute("kernel", report.kernel);
    json.attribute("device", report.device.name);
    for (const IntField &field : intFields(copy))
      json.attribute(field.name, *field.value);
    json.attribute("num_warps", int64_t(report.numWarps));
    json.attribute("producer_warps", int64_t(report.producerWarps));
    json.attributeArray("warp_roles", [&] {
      auto role = [&](llvm::StringRef name, unsigned warps, int registers) {
        json.object([&] {
          json.attribute("role", name);
          json.attribute("warps", int64_t(warps));
          json.attribute("registers", int64_t(registers));
        });
      };
      if (!report.producerWarps) {
        role("all", report.numWarps, report.func.numRegs);
        return;
      }
      role("consumer", report.numWarps, report.tma.consumerRegisters);
      role("producer", report.producerWarps, report.tma.producerRegisters);
    });
    json.attribute("threads_per_block", report.threadsPerBlock());
    if (report.grid)
      json.attributeArray("grid", [&] {
        for (int64_t dim : *report.grid)
          json.value(dim);
      });
    else
      json.attribute("grid", nullptr);
    json.attribute("jit_registers", optional(report.jit.registers));
    json.attribute("spill_store_bytes", optional(report.jit.spillStoreBytes));
    json.attribute("spill_load_bytes", optional(report.jit.spillLoadBytes));
    json.attribute("stack_frame_bytes", optional(report.jit.stackFrameBytes));
    json.attribute("resident_programs",
                   int64_t(report.device.multiprocessorCount) *
                       report.occupancy);
    json.attributeObject("limits", [&] {
      for (const OccupancyLimit &limit : limits)
        json.attribute(jsonKey(limit.resource), optional(limit.programs));
    });
    json.attributeObject("tma", [&] {
      json.attribute("tensor_maps", int64_t(report.tma.tensorMaps));
      json.attribute("mbarriers", int64_t(report.tma.mbarriers));
      auto bufferArray = [&](llvm::StringRef key,
                             const std::vector<TmaBuffer> &buffers) {
        json.attributeArray(key, [&] {
          for (const TmaBuffer &buffer : buffers)
            json.object([&] {
              json.attribute("stages", buffer.stages);
              json.attribute("rows", buffer.rows);
              json.attribute("cols", buffer.cols);
              json.attribute("element", buffer.element);
              json.attribute("swizzle_bytes", int64_t(buffer.swizzleBytes));
              json.attribute("copies_per_stage",
                             int64_t(buffer.copiesPerStage));
            });
        });
      };
      bufferArray("buffers", report.tma.buffers);
      bufferArray("stored_buffers", report.tma.storedBuffers);
      json.attributeArray("launch_tensor_maps", [&] {
        for (const std::string &map : report.tma.launchTensorMaps)
          json.value(map);
      });
    });
    json.attributeArray("limited_by", [&] {
      for (const std::string &resource : limitedBy)
        json.value(jsonKey(resource));
    });
    json.attribute("persistent_programs", report.tma.persistentPrograms);
    if (std::optional<int64_t> launched = getLaunchedPrograms(report))
      json.attribute("launched_programs", *launched);
  });
  os << "\n";
}
