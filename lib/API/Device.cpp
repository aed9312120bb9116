//===- Device.cpp - tile::Device, Kernel and Buffer -----------------------===//
//
// The C++ API's GPU side over the runtime's CUDA driver layer: opening a
// device, loading a compiled kernel (through the kernel cache's cubins),
// typed launches on a stream, resources, and device memory. A launch does
// no allocation and no driver call besides cuLaunchKernel, so that its cost
// stays close to the driver's own.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"

#include "tile/Analysis/Allocation.h"
#include "tile/Driver/KernelCache.h"
#include "tile/Runtime/CudaDriver.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace tile;

namespace {
/// How a launch passes one parameter: its width in bytes, and whether it
/// takes a pointer, an integer or a float.
enum class Slot : uint8_t {
  Pointer,
  Int1,
  Int8,
  Int16,
  Int32,
  Int64,
  F32,
  F64
};

std::optional<Slot> getSlot(const std::string &type) {
  if (!type.empty() && type[0] == '*')
    return Slot::Pointer;
  if (type == "i1" || type == "u1" || type == "B")
    return Slot::Int1;
  if (type == "i8" || type == "u8")
    return Slot::Int8;
  if (type == "i16" || type == "u16")
    return Slot::Int16;
  if (type == "i32" || type == "u32")
    return Slot::Int32;
  if (type == "i64" || type == "u64")
    return Slot::Int64;
  if (type == "fp32" || type == "f32")
    return Slot::F32;
  if (type == "fp64" || type == "f64")
    return Slot::F64;
  return std::nullopt;
}

const char *describe(Arg::Kind kind) {
  switch (kind) {
  case Arg::Kind::Pointer:
    return "a pointer";
  case Arg::Kind::Integer:
    return "an integer";
  case Arg::Kind::Float:
    return "a float";
  case Arg::Kind::Bool:
    return "a bool";
  }
  return "a value";
}

/// Writes `arg` into `out` as the parameter's type; false when the kinds
/// do not match.
bool store(Slot slot, const Arg &arg, uint64_t &out) {
  Arg::Kind kind = arg.getKind();
  out = 0;
  switch (slot) {
  case Slot::Pointer:
    if (kind != Arg::Kind::Pointer)
      return false;
    out = arg.getPointer();
    return true;
  case Slot::F32: {
    if (kind != Arg::Kind::Float)
      return false;
    float v = float(arg.getFloat());
    std::memcpy(&out, &v, sizeof(v));
    return true;
  }
  case Slot::F64: {
    if (kind != Arg::Kind::Float)
      return false;
    double v = arg.getFloat();
    std::memcpy(&out, &v, sizeof(v));
    return true;
  }
  default:
    if (kind != Arg::Kind::Integer && kind != Arg::Kind::Bool)
      return false;
    // Little-endian: the low bytes of the 64-bit value are the narrower
    // integer the parameter reads.
    out =
        uint64_t(slot == Slot::Int1 ? arg.getInteger() != 0 : arg.getInteger());
    return true;
  }
  return false;
}
} // namespace

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

struct Device::Impl {
  rt::Driver *driver = nullptr;
};

Device::Device(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Device::~Device() = default;

Status Device::open(int ordinal, std::unique_ptr<Device> &out) {
  std::string error;
  rt::Driver *driver = rt::Driver::get(error, ordinal);
  if (!driver)
    return Status::error(error);
  auto impl = std::make_unique<Impl>();
  impl->driver = driver;
  out.reset(new Device(std::move(impl)));
  return Status();
}

std::string Device::name() const { return impl->driver->deviceName(); }
int Device::computeCapability() const {
  return impl->driver->computeCapability();
}
int Device::multiprocessorCount() const {
  return impl->driver->multiprocessorCount();
}

Status Device::allocate(size_t bytes, Buffer &out) {
  std::string error;
  DevicePtr address = 0;
  if (!impl->driver->alloc(bytes, address, error))
    return Status::error(error);
  out = Buffer();
  out.device = this;
  out.addr = address;
  out.bytes = bytes;
  return Status();
}

Status Device::copyToDevice(DevicePtr dst, const void *src, size_t bytes) {
  std::string error;
  if (!impl->driver->copyToDevice(dst, src, bytes, error))
    return Status::error(error);
  return Status();
}

Status Device::copyToHost(void *dst, DevicePtr src, size_t bytes) {
  std::string error;
  if (!impl->driver->copyToHost(dst, src, bytes, error))
    return Status::error(error);
  return Status();
}

Status Device::synchronize() {
  std::string error;
  if (!impl->driver->synchronize(error))
    return Status::error(error);
  return Status();
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Buffer::Buffer(Buffer &&other) noexcept
    : device(other.device), addr(other.addr), bytes(other.bytes) {
  other.device = nullptr;
  other.addr = 0;
  other.bytes = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  std::swap(device, other.device);
  std::swap(addr, other.addr);
  std::swap(bytes, other.bytes);
  return *this;
}

Buffer::~Buffer() {
  if (device && addr) {
    std::string ignored;
    device->impl->driver->free(addr, ignored);
  }
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

struct Kernel::Impl {
  rt::Driver *driver = nullptr;
  rt::Module module;
  rt::Function function;
  std::vector<Parameter> parameters;
  std::vector<Slot> slots;
  unsigned threads = 0;
  /// Asked by every launch where the kernel uses more than 48 KiB.
  unsigned dynamicSharedBytes = 0;
};

Kernel::Kernel() = default;
Kernel::Kernel(Kernel &&) noexcept = default;
Kernel &Kernel::operator=(Kernel &&) noexcept = default;
Kernel::~Kernel() = default;

const std::vector<Parameter> &Kernel::parameters() const {
  static const std::vector<Parameter> none;
  return impl ? impl->parameters : none;
}

Status Device::load(const CompiledKernel &compiled, Kernel &out) {
  auto kernel = std::make_unique<Kernel::Impl>();
  rt::Driver &driver = *impl->driver;
  kernel->driver = &driver;
  kernel->parameters = compiled.parameters;
  for (const Parameter &param : compiled.parameters) {
    std::optional<Slot> slot = getSlot(param.type);
    if (!slot)
      return Status::error("parameter '" + param.name + "' of " +
                           compiled.name + " is a " + param.type +
                           " scalar, which launches do not pass yet (pass "
                           "fp32, fp64 or an integer)");
    kernel->slots.push_back(*slot);
  }
  kernel->threads = unsigned(compiled.numWarps + compiled.producerWarps) * 32;

  std::string error;
  if (!driver.makeCurrent(error))
    return Status::error(error);
  // The driver's cubin of this PTX, from the kernel cache where it has one;
  // otherwise the driver's JIT makes it (and the cache keeps it).
  std::string noteText;
  llvm::raw_string_ostream notes(noteText);
  cache::KernelCache kernelCache(cache::getCacheLocation(false), "tile", notes,
                                 /*verbose=*/false);
  std::string key;
  if (kernelCache.isEnabled() && driver.canLink())
    key = cache::KeyBuilder()
              .add("ptx", compiled.ptx)
              .add("driver", driver.driverVersion())
              .add("device", driver.deviceName())
              .add("cc", driver.computeCapability())
              .digest();
  bool loaded = false;
  if (!key.empty()) {
    if (std::optional<std::string> payload =
            kernelCache.lookup(cache::EntryKind::Cubin, key)) {
      std::string cubin, log;
      loaded = cache::unpackCubin(*payload, cubin, log) &&
               driver.loadCubin(cubin, log, kernel->module, error);
      if (!loaded)
        kernelCache.discard(cache::EntryKind::Cubin, key,
                            "the driver refused it: " + error);
    }
  }
  if (!loaded && !key.empty()) {
    std::string cubin, log;
    error.clear();
    if (driver.compileToCubin(compiled.ptx, cubin, log, error) &&
        driver.loadCubin(cubin, log, kernel->module, error)) {
      loaded = true;
      kernelCache.store(cache::EntryKind::Cubin, key,
                        cache::packCubin(cubin, log));
    }
  }
  if (!loaded) {
    error.clear();
    if (!driver.loadModule(compiled.ptx, kernel->module, error))
      return Status::error(error);
  }
  if (!driver.getFunction(kernel->module, compiled.name, kernel->function,
                          error))
    return Status::error(error);
  if (compiled.sharedBytes > mlir::tilegpu::kMaxStaticSharedBytes) {
    if (!driver.setMaxDynamicShared(kernel->function, int(compiled.sharedBytes),
                                    error))
      return Status::error(error + " (" + compiled.name + " needs " +
                           std::to_string(compiled.sharedBytes) +
                           " bytes of shared memory)");
    kernel->dynamicSharedBytes = compiled.sharedBytes;
  }
  out.impl = std::move(kernel);
  return Status();
}

Status Kernel::launch(Grid grid, std::initializer_list<Arg> args,
                      Stream stream) const {
  return launch(grid, args.begin(), args.size(), stream);
}

Status Kernel::launch(Grid grid, const Arg *args, size_t count,
                      Stream stream) const {
  if (!impl)
    return Status::error("launch of a kernel that is not loaded");
  if (count != impl->slots.size())
    return Status::error(
        "the kernel takes " + std::to_string(impl->slots.size()) +
        " arguments; the launch gives " + std::to_string(count));
  // Most kernels take a few arguments: keep them on the stack.
  constexpr size_t kInline = 32;
  uint64_t inlineValues[kInline];
  void *inlinePointers[kInline];
  std::vector<uint64_t> heapValues;
  std::vector<void *> heapPointers;
  uint64_t *values = inlineValues;
  void **pointers = inlinePointers;
  if (count > kInline) {
    heapValues.resize(count);
    heapPointers.resize(count);
    values = heapValues.data();
    pointers = heapPointers.data();
  }
  for (size_t i = 0; i < count; ++i) {
    if (!store(impl->slots[i], args[i], values[i]))
      return Status::error("argument " + std::to_string(i) + " ('" +
                           impl->parameters[i].name + "', " +
                           impl->parameters[i].type + ") is " +
                           describe(args[i].getKind()));
    pointers[i] = &values[i];
  }
  std::string error;
  if (!impl->driver->launch(impl->function, grid.x, grid.y, grid.z,
                            impl->threads, impl->dynamicSharedBytes, pointers,
                            error, stream))
    return Status::error(error);
  return Status();
}

Resources Kernel::resources() const {
  Resources resources;
  if (!impl)
    return resources;
  rt::FuncInfo info;
  std::string error;
  if (impl->driver->funcAttributes(impl->function, info, error)) {
    resources.registersPerThread = info.numRegs;
    resources.sharedBytes = info.sharedBytes + int(impl->dynamicSharedBytes);
    resources.localBytes = info.localBytes;
  }
  resources.threadsPerProgram = int(impl->threads);
  impl->driver->maxActiveBlocksPerSM(impl->function, int(impl->threads),
                                     impl->dynamicSharedBytes,
                                     resources.programsPerSM, error);
  return resources;
}
