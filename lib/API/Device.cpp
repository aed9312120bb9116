//===- Device.cpp - tile::Device, Kernel and Buffer -----------------------===//
//
// The C++ API's GPU side over the runtime's CUDA driver layer: opening a
// device, loading a compiled kernel (through the kernel cache's cubins),
// typed launches on a stream, resources, device memory and tensor
// descriptors. A launch does no allocation and no driver call besides
// cuLaunchKernel, so that its cost stays close to the driver's own: a
// descriptor's tensor map is encoded once, when it is made, and a
// persistent kernel's launch size is found when it is loaded.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"

#include "DescriptorType.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Driver/KernelCache.h"
#include "tile/Driver/KernelInfo.h"
#include "tile/Interpreter/FloatFormats.h"
#include "tile/Runtime/CudaDriver.h"
#include "tile/Runtime/TensorMaps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <mutex>

using namespace tile;
namespace interp = mlir::tile::interp;

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
  F16,
  BF16,
  F32,
  F64,
  /// Base, extents, strides but the last, tensor map (the front end's
  /// arguments of a tensordesc<...> parameter).
  TensorDescriptor
};

std::optional<Slot> getSlot(const std::string &type) {
  if (parseDescriptorType(type))
    return Slot::TensorDescriptor;
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
  if (type == "fp16" || type == "f16")
    return Slot::F16;
  if (type == "bf16")
    return Slot::BF16;
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
  case Arg::Kind::TensorDescriptor:
    return "a tensor descriptor";
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
  case Slot::F16:
  case Slot::BF16:
    if (kind != Arg::Kind::Float)
      return false;
    // Rounded once, to nearest even, straight from the double (as Triton's
    // launcher packs a Python float), by the interpreter's formats.
    out = slot == Slot::F16
              ? interp::encodeF16(interp::roundToF16(arg.getFloat()))
              : interp::encodeBF16(interp::roundToBF16(arg.getFloat()));
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
  case Slot::TensorDescriptor:
    return false; // storeDescriptor's
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
/// The values a launch passes for a descriptor of `rank` dimensions.
size_t getDescriptorValues(size_t rank) { return 2 * rank + 1; }
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
  /// The values a launch passes: a slot each, a descriptor's several, and
  /// a persistent kernel's grid sizes.
  size_t values = 0;
  unsigned threads = 0;
  /// Asked by every launch where the kernel uses more than 48 KiB.
  unsigned dynamicSharedBytes = 0;
  /// A persistent kernel's most programs at once (SMs x occupancy); 0 for
  /// the others.
  int64_t persistentPrograms = 0;
  /// Which of the values the kernel's own arguments take are integers
  /// (scalars, a descriptor's extents and strides), and the tensor maps a
  /// launch encodes from them and passes after them
  /// (tilegpu-hoist-tensor-maps).
  std::vector<bool> integerValues;
  std::vector<mlir::tilegpu::TensorMapRecipe> tensorMaps;

  /// The maps the last launch encoded and the kernel's own values they
  /// came from: a launch that repeats those values passes the same maps
  /// without encoding them again (cuTensorMapEncodeTiled is host time on
  /// every launch otherwise). Launches come from the Device's thread; the
  /// lock keeps the maps whole where a program breaks that.
  std::mutex lastMapsLock;
  std::vector<uint64_t> lastMapValues;
  std::vector<rt::TensorMapBytes> lastMaps;

  /// Encodes the maps from the kernel's own `values` into `maps`.
  std::optional<std::string>
  encodeTensorMaps(const uint64_t *values,
                   std::vector<rt::TensorMapBytes> &maps) const;

  /// The maps for the kernel's own `values`: the last launch's where they
  /// are the same, else encoded.
  std::optional<std::string>
  getTensorMaps(const uint64_t *values, std::vector<rt::TensorMapBytes> &maps);

  /// Writes `descriptor`, the argument of parameter `index`, as its values
  /// from `values` on; an error where it does not fit the parameter.
  std::optional<std::string> storeDescriptor(size_t index, const Arg &arg,
                                             uint64_t *values) const;
};

std::optional<std::string>
Kernel::Impl::storeDescriptor(size_t index, const Arg &arg,
                              uint64_t *values) const {
  const Parameter &param = parameters[index];
  const TensorDescriptor *descriptor = arg.getTensorDescriptor();
  std::string which = "argument " + std::to_string(index) + " ('" + param.name +
                      "', " + param.type + ")";
  if (arg.getKind() != Arg::Kind::TensorDescriptor || !descriptor)
    return which + " is " + describe(arg.getKind());
  if (descriptor->elementType() != param.elementType ||
      descriptor->blockShape() != param.blockShape)
    return which + " is a " + descriptor->type();
  size_t rank = param.blockShape.size();
  values[0] = descriptor->base();
  for (size_t d = 0; d < rank; ++d) {
    int64_t extent = descriptor->shape()[d];
    if (extent > INT32_MAX)
      return which + " has an extent of " + std::to_string(extent) +
             "; kernels take 32-bit extents";
    if (param.shapeDivisibleBy16 && extent % 16 != 0)
      return which + " has an extent of " + std::to_string(extent) +
             ", which its ':16' says is divisible by 16";
    values[1 + d] = uint64_t(extent);
  }
  for (size_t d = 0; d + 1 < rank; ++d)
    values[1 + rank + d] = uint64_t(descriptor->strides()[d]);
  // The tensor map travels by value: its slot holds the bytes' address,
  // which the launch passes as the argument's pointer.
  values[2 * rank] =
      uint64_t(reinterpret_cast<uintptr_t>(descriptor->tensorMap()));
  return std::nullopt;
}

std::optional<std::string>
Kernel::Impl::encodeTensorMaps(const uint64_t *values,
                               std::vector<rt::TensorMapBytes> &maps) const {
  maps.assign(tensorMaps.size(), rt::TensorMapBytes());
  size_t own = integerValues.size();
  auto argument = [&](int64_t index) -> std::optional<int64_t> {
    if (index < 0 || size_t(index) >= own || !integerValues[index])
      return std::nullopt;
    return int64_t(values[index]);
  };
  for (size_t i = 0; i < tensorMaps.size(); ++i) {
    const mlir::tilegpu::TensorMapRecipe &recipe = tensorMaps[i];
    std::string which = "the kernel's tensor descriptor " + std::to_string(i) +
                        " (made in the kernel): ";
    if (recipe.argument != int64_t(own + i) || recipe.base < 0 ||
        size_t(recipe.base) >= own || integerValues[recipe.base])
      return which + "its recipe does not match the kernel's arguments";
    std::string error;
    if (!rt::encodeRecipeTensorMap(*driver, recipe, argument,
                                   rt::DevicePtr(values[recipe.base]), maps[i],
                                   error))
      return which + error;
  }
  return std::nullopt;
}

std::optional<std::string>
Kernel::Impl::getTensorMaps(const uint64_t *values,
                            std::vector<rt::TensorMapBytes> &maps) {
  size_t own = integerValues.size();
  std::lock_guard<std::mutex> lock(lastMapsLock);
  if (!lastMaps.empty() &&
      std::equal(values, values + own, lastMapValues.begin())) {
    maps = lastMaps;
    return std::nullopt;
  }
  if (std::optional<std::string> error = encodeTensorMaps(values, maps))
    return error;
  lastMapValues.assign(values, values + own);
  lastMaps = maps;
  return std::nullopt;
}

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
                           compiled.name + " has the type " + param.type +
                           ", which launches cannot pass");
    kernel->slots.push_back(*slot);
    if (*slot == Slot::TensorDescriptor) {
      // Base, extents, strides, tensor map.
      size_t rank = param.blockShape.size();
      kernel->integerValues.push_back(false);
      kernel->integerValues.insert(kernel->integerValues.end(), 2 * rank - 1,
                                   true);
      kernel->integerValues.push_back(false);
    } else {
      kernel->integerValues.push_back(*slot >= Slot::Int1 &&
                                      *slot <= Slot::Int64);
    }
    kernel->values += *slot == Slot::TensorDescriptor
                          ? getDescriptorValues(param.blockShape.size())
                          : 1;
  }
  if (compiled.persistentPrograms)
    kernel->values += 3;
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
  // The compile read the recipes of the maps the launch encodes from the
  // PTX already.
  if (!compiled.tensorMapRecipes.empty()) {
    auto recipes =
        mlir::tilegpu::parseTensorMapRecipes(compiled.tensorMapRecipes);
    if (!recipes)
      return Status::error(compiled.name +
                           ": the kernel's tensor map recipes are malformed");
    kernel->tensorMaps = std::move(*recipes);
  }
  kernel->values += kernel->tensorMaps.size();
  if (compiled.sharedBytes > mlir::tilegpu::kMaxStaticSharedBytes) {
    if (!driver.setMaxDynamicShared(kernel->function, int(compiled.sharedBytes),
                                    error))
      return Status::error(error + " (" + compiled.name + " needs " +
                           std::to_string(compiled.sharedBytes) +
                           " bytes of shared memory)");
    kernel->dynamicSharedBytes = compiled.sharedBytes;
  }
  if (compiled.persistentPrograms) {
    int occupancy = 0;
    if (!driver.maxActiveBlocksPerSM(kernel->function, int(kernel->threads),
                                     kernel->dynamicSharedBytes, occupancy,
                                     error))
      return Status::error(error);
    if (occupancy < 1)
      return Status::error(compiled.name + " does not fit on " +
                           driver.deviceName() + " (no program per SM)");
    kernel->persistentPrograms = getPersistentLaunchPrograms(
        INT64_MAX, driver.multiprocessorCount(), occupancy);
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
  constexpr size_t kInline = 48;
  uint64_t inlineValues[kInline];
  void *inlinePointers[kInline];
  std::vector<uint64_t> heapValues;
  std::vector<void *> heapPointers;
  uint64_t *values = inlineValues;
  void **pointers = inlinePointers;
  if (impl->values > kInline) {
    heapValues.resize(impl->values);
    heapPointers.resize(impl->values);
    values = heapValues.data();
    pointers = heapPointers.data();
  }
  size_t next = 0;
  // The slots that hold a tensor map's address rather than a value.
  llvm::SmallVector<size_t, 4> mapSlots;
  for (size_t i = 0; i < count; ++i) {
    if (impl->slots[i] == Slot::TensorDescriptor) {
      if (std::optional<std::string> error =
              impl->storeDescriptor(i, args[i], values + next))
        return Status::error(*error);
      size_t rank = impl->parameters[i].blockShape.size();
      mapSlots.push_back(next + 2 * rank);
      next += getDescriptorValues(rank);
      continue;
    }
    if (!store(impl->slots[i], args[i], values[next]))
      return Status::error("argument " + std::to_string(i) + " ('" +
                           impl->parameters[i].name + "', " +
                           impl->parameters[i].type + ") is " +
                           describe(args[i].getKind()));
    ++next;
  }
  // The maps of the descriptors the kernel makes follow its arguments.
  std::vector<rt::TensorMapBytes> maps;
  if (!impl->tensorMaps.empty()) {
    if (std::optional<std::string> error = impl->getTensorMaps(values, maps))
      return Status::error(*error);
    for (rt::TensorMapBytes &map : maps) {
      values[next] = uint64_t(reinterpret_cast<uintptr_t>(map.bytes));
      mapSlots.push_back(next++);
    }
  }
  // A persistent kernel takes the grid's sizes after its arguments and
  // runs the grid's programs on as many as fit at once.
  Grid launchGrid = grid;
  if (impl->persistentPrograms) {
    for (unsigned size : {grid.x, grid.y, grid.z}) {
      if (size > unsigned(INT32_MAX))
        return Status::error("a persistent kernel's grid sizes are at most "
                             "2^31 - 1, got " +
                             std::to_string(size));
      values[next++] = size;
    }
    int64_t programs = int64_t(grid.x) * grid.y * grid.z;
    if (programs > 0)
      launchGrid = {unsigned(std::min(programs, impl->persistentPrograms)), 1,
                    1};
  }
  for (size_t i = 0; i < next; ++i)
    pointers[i] = &values[i];
  for (size_t slot : mapSlots)
    pointers[slot] = reinterpret_cast<void *>(uintptr_t(values[slot]));
  std::string error;
  if (!impl->driver->launch(impl->function, launchGrid.x, launchGrid.y,
                            launchGrid.z, impl->threads,
                            impl->dynamicSharedBytes, pointers, error, stream))
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

//===----------------------------------------------------------------------===//
// TensorDescriptor
//===----------------------------------------------------------------------===//

std::string TensorDescriptor::type() const {
  return formatDescriptorType(element, block);
}

Status Device::makeTensorDescriptor(DevicePtr base,
                                    const std::string &elementType,
                                    std::vector<int64_t> shape,
                                    std::vector<int64_t> strides,
                                    std::vector<int64_t> blockShape,
                                    TensorDescriptor &out) {
  unsigned bytes = getElementBytes(elementType);
  if (!bytes)
    return Status::error("a tensor descriptor's element type is a scalar "
                         "type of the signatures (fp16, bf16, fp32, i8, "
                         "...), got '" +
                         elementType + "'");
  size_t rank = shape.size();
  if (rank < 1 || rank > 5 || strides.size() != rank ||
      blockShape.size() != rank)
    return Status::error("a tensor descriptor has 1 to 5 dimensions, with a "
                         "stride and a block extent for each; got " +
                         std::to_string(rank) + " extents, " +
                         std::to_string(strides.size()) + " strides and " +
                         std::to_string(blockShape.size()) + " block extents");
  for (size_t d = 0; d < rank; ++d) {
    if (shape[d] < 1)
      return Status::error("a tensor descriptor's extents are positive, got " +
                           std::to_string(shape[d]) + " in dimension " +
                           std::to_string(d));
    int64_t size = blockShape[d];
    if (size < 1 || (size & (size - 1)))
      return Status::error("a tensor descriptor's block holds powers of 2, "
                           "got " +
                           std::to_string(size) + " in dimension " +
                           std::to_string(d));
    if (d + 1 < rank && (strides[d] < 1 || strides[d] * bytes % 16 != 0))
      return Status::error(
          "a tensor descriptor's strides but the last are positive "
          "multiples of 16 bytes (TMA's rule), got " +
          std::to_string(strides[d]) + " elements in dimension " +
          std::to_string(d));
  }
  if (strides.back() != 1)
    return Status::error("a tensor descriptor's last stride is 1, got " +
                         std::to_string(strides.back()));
  if (blockShape.back() * bytes < 16)
    return Status::error("a tensor descriptor block's last dimension holds "
                         "at least 16 bytes");
  if (base % 16 != 0)
    return Status::error("a tensor descriptor's base is 16-byte aligned");

  TensorDescriptor descriptor;
  descriptor.baseAddress = base;
  descriptor.element = normalizeElementType(elementType);
  descriptor.extents = std::move(shape);
  descriptor.elementStrides = std::move(strides);
  descriptor.block = std::move(blockShape);
  // The tensor map, where the compiler copies the block with TMA (the
  // same rule); kernels ignore it elsewhere.
  TensorMapLayout layout =
      getTensorMapLayout(descriptor.element, descriptor.block);
  rt::Driver &driver = *impl->driver;
  if (layout.swizzleBytes && driver.canEncodeTensorMaps()) {
    std::string error;
    if (!driver.encodeTensorMap2D(
            descriptor.map, layout.dataType, base,
            uint64_t(descriptor.extents[0]), uint64_t(descriptor.extents[1]),
            uint64_t(descriptor.elementStrides[0]) * bytes, layout.boxRows,
            layout.boxInnerElements, layout.swizzleBytes, /*nanFill=*/false,
            error))
      return Status::error(error);
  }
  out = std::move(descriptor);
  return Status();
}
