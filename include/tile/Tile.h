//===- Tile.h - Tile's C++ API ----------------------------------*- C++ -*-===//
//
// The stable way to use Tile from a C++ program: compile a .tile kernel
// (from a file or a string) for one specialization, get its diagnostics as
// values, load it on a GPU through the CUDA driver (libcuda.so.1, loaded at
// run time: no CUDA toolkit), launch it on a stream with typed arguments,
// and read its resources. Compiled kernels go through Tile's on-disk kernel
// cache, as tile-run's do.
//
// This header needs only the C++17 standard library; link Tile::Tile
// (find_package(Tile)). Nothing here throws, prints or exits: failures are
// Diagnostics (compiling) or a Status (the GPU).
//
//   tile::Specialization spec;
//   spec.signature = {"*fp32:16", "*fp32:16", "*fp32:16", "i32", "1024"};
//   tile::CompileResult compiled = tile::compileFile("add.tile", spec);
//   if (!compiled.ok())
//     for (const tile::Diagnostic &d : compiled.diagnostics)
//       std::cerr << d.str() << "\n";
//   std::unique_ptr<tile::Device> device;
//   tile::Status s = tile::Device::open(0, device);
//   tile::Kernel add;
//   s = device->load(*compiled.kernel, add);
//   s = add.launch({blocks}, {tile::ptr(x), tile::ptr(y), tile::ptr(out), n});
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TILE_H
#define TILE_TILE_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

struct CUstream_st;

namespace tile {

class TensorDescriptor;

/// The version of this API (and of Tile).
const char *version();

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// One message of a compile, at its place in the source where it has one.
struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  /// The file (or the name given to compileString); empty, with line and
  /// column 0, for messages that belong to no position.
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;

  /// "file:line:col: error: message", as the tools print it.
  std::string str() const;
};

/// What to compile, in the terms of Triton's ahead-of-time compiler.
struct Specialization {
  /// The @triton.jit function; empty means the one the source's
  /// `# tile-run:` launch description names, or its only one.
  std::string kernel;
  /// One entry per parameter of the kernel, in order. A runtime parameter
  /// takes its type: "*fp16", "*fp32", "*bf16", "*fp64", "*i8" ... "*u64"
  /// for pointers, "i1", "i32", "i64", "fp32", "fp64" for scalars, with
  /// ":16" when the value (a pointer's address) is divisible by 16, or ":1"
  /// for an integer that is always 1 (it is then folded into the kernel and
  /// is no launch argument). A tl.constexpr parameter takes its value: an
  /// integer, a float, True or False, or a quoted string; "_" keeps the
  /// parameter's default.
  std::vector<std::string> signature;
  int numWarps = 4;
  /// Triton's num_stages: the software pipeline's depth.
  int numStages = 3;
  /// sm_80, sm_89, sm_90a, ...
  std::string target = "sm_90a";
  /// Pointer offsets computed in 64 bits, for buffers of 2^31 elements or
  /// more (in 32 bits, Triton's, they would wrap).
  bool wideOffsets = false;
  /// Split every loop that can be warp-specialized (a producer warpgroup
  /// issuing its TMA copies), not only those whose tl.range asks.
  bool warpSpecializeAll = false;
  /// In a split kernel with two consumer warpgroups, let them take turns at
  /// their chained dots (tilegpu-ping-pong); false issues both at once.
  bool pingPong = true;
  /// Let a warp-specialized kernel whose one loop does the same work in
  /// every program run persistent (tilegpu-persistent-programs), as
  /// tile-run's kernels do: Kernel::launch then starts as many programs as
  /// fit on the GPU at once, each running the grid's programs in turn, and
  /// passes the grid's sizes (CompiledKernel::persistentPrograms).
  bool persistentPrograms = true;
  /// Give each tensor descriptor the kernel makes from its arguments
  /// (tl.make_tensor_descriptor of an argument's base, shape and strides) a
  /// TMA tensor map that Kernel::launch encodes and passes after the
  /// kernel's arguments (tilegpu-hoist-tensor-maps), so its loads and
  /// stores go by TMA as a host descriptor's do. tile-compile's launchers
  /// do not encode them yet: it compiles with false.
  bool hoistTensorMaps = true;
  /// Use the kernel cache ($TILE_CACHE_DIR, else ~/.cache/tile).
  bool useCache = true;
};

/// How a tensor descriptor parameter's block is copied with TMA, which the
/// descriptor's tensor map must say (Device::makeTensorDescriptor and
/// tile-compile's launchers encode it so): cuda.h's CUtensorMapDataType of
/// the element, the swizzle, and the box, one per swizzle-wide column
/// block. swizzleBytes 0: no tensor map (the kernel reads the descriptor
/// with ordinary loads).
struct TensorMapLayout {
  unsigned elementBytes = 0;
  int dataType = -1;
  unsigned swizzleBytes = 0;
  unsigned boxRows = 0;
  unsigned boxInnerElements = 0;
};

/// One launch argument of a compiled kernel.
struct Parameter {
  std::string name;
  /// As in Specialization::signature, without hints: "*fp32", "i32",
  /// "tensordesc<fp16[128, 64]>", ...
  std::string type;
  /// A tensor descriptor's element type ("fp16") and block shape, and its
  /// ":16": every extent of its shape divisible by 16 (launches check it).
  std::string elementType;
  std::vector<int64_t> blockShape;
  bool shapeDivisibleBy16 = false;
  TensorMapLayout tensorMap;
  bool isPointer() const { return !type.empty() && type[0] == '*'; }
  bool isTensorDescriptor() const { return type.rfind("tensordesc<", 0) == 0; }
};

/// A kernel compiled to PTX, ready to load on any device of its target.
struct CompiledKernel {
  /// The PTX entry point (the kernel's name).
  std::string name;
  std::string target;
  std::string ptx;
  int numWarps = 4;
  /// Warps a warp-specialized kernel adds to numWarps (its TMA producer);
  /// each launch starts numWarps + producerWarps warps.
  int producerWarps = 0;
  /// Shared memory one program uses, in bytes. Above 48 KiB it is dynamic
  /// shared memory, which each launch asks for (Kernel does).
  unsigned sharedBytes = 0;
  /// The launch arguments, in order: the runtime parameters that are not
  /// folded (constexprs and ":1" integers are not among them).
  std::vector<Parameter> parameters;
  /// Whether the kernel runs its grid's programs in a loop
  /// (Specialization::persistentPrograms): its PTX entry then takes three
  /// i32 arguments more, the grid's sizes, and a launch starts at most the
  /// SMs times the programs that fit on one. Kernel::launch does both.
  bool persistentPrograms = false;
  /// The TMA tensor maps of descriptors the kernel makes from its arguments
  /// (Specialization::hoistTensorMaps), which a launch encodes and passes
  /// after the arguments (Kernel::launch does): their recipes as the PTX's
  /// tile_tensor_maps global holds them (count, then per map its argument,
  /// base argument, element, block and the steps of its extents and row
  /// stride; include/tile/Dialect/TileGPU/IR/TensorMapRecipe.h), which
  /// Device::load takes from here. Empty where there are none.
  std::vector<int64_t> tensorMapRecipes;
  /// Whether the PTX came from the kernel cache.
  bool fromCache = false;
};

/// A compile's outcome: a kernel, or the errors that prevented one. Either
/// way, every diagnostic the compile produced.
struct CompileResult {
  std::optional<CompiledKernel> kernel;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return kernel.has_value(); }
  /// All diagnostics, one str() per line.
  std::string describe() const;
};

/// Compiles the kernel in the .tile file at `path`.
CompileResult compileFile(const std::string &path, const Specialization &spec);
/// Compiles the kernel in `source`; diagnostics name it `name`.
CompileResult compileString(std::string_view source, const std::string &name,
                            const Specialization &spec);

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// Success, or what went wrong (naming the driver call and its error).
class Status {
public:
  Status() = default;
  static Status error(std::string message) {
    Status s;
    s.text = std::move(message);
    s.failed = true;
    return s;
  }
  bool ok() const { return !failed; }
  explicit operator bool() const { return ok(); }
  const std::string &message() const { return text; }

private:
  std::string text;
  bool failed = false;
};

/// A device address (CUdeviceptr).
using DevicePtr = unsigned long long;
/// A CUDA stream (CUstream); null is the default stream.
using Stream = CUstream_st *;

/// A kernel argument, with its kind: a pointer (tile::ptr), an integer, a
/// float or a bool. A launch checks each against the kernel's parameter and
/// converts it to the parameter's width.
class Arg {
public:
  enum class Kind : uint8_t { Pointer, Integer, Float, Bool, TensorDescriptor };
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  Arg(T v) : kind(Kind::Integer) {
    value.integer = int64_t(v);
  }
  Arg(float v) : kind(Kind::Float) { value.real = v; }
  Arg(double v) : kind(Kind::Float) { value.real = v; }
  Arg(bool v) : kind(Kind::Bool) { value.integer = v; }
  /// A descriptor made by Device::makeTensorDescriptor; it must outlive the
  /// launch call (not the kernel's run: the launch copies what it passes).
  Arg(const TensorDescriptor &descriptor) : kind(Kind::TensorDescriptor) {
    value.descriptor = &descriptor;
  }
  /// Host pointers are no kernel arguments: pass tile::ptr(address).
  template <typename T> Arg(T *) = delete;
  static Arg pointer(DevicePtr p) {
    Arg a(false);
    a.kind = Kind::Pointer;
    a.value.address = p;
    return a;
  }
  Kind getKind() const { return kind; }
  DevicePtr getPointer() const { return value.address; }
  int64_t getInteger() const { return value.integer; }
  double getFloat() const { return value.real; }
  const TensorDescriptor *getTensorDescriptor() const {
    return value.descriptor;
  }

private:
  union {
    DevicePtr address;
    int64_t integer;
    double real;
    const TensorDescriptor *descriptor;
  } value;
  Kind kind;
};
inline Arg ptr(DevicePtr p) { return Arg::pointer(p); }

struct Grid {
  unsigned x = 1, y = 1, z = 1;
};

/// What one program of a loaded kernel uses, as the driver's JIT decided.
struct Resources {
  int registersPerThread = 0;
  /// Shared memory per program: static plus the dynamic that launches ask.
  int sharedBytes = 0;
  /// Local memory (spills) per thread.
  int localBytes = 0;
  int threadsPerProgram = 0;
  /// Programs that fit on one multiprocessor at once.
  int programsPerSM = 0;
};

class Device;

/// A kernel loaded on a device. Movable; unloaded on destruction.
class Kernel {
public:
  Kernel();
  Kernel(Kernel &&) noexcept;
  Kernel &operator=(Kernel &&) noexcept;
  ~Kernel();

  explicit operator bool() const { return impl != nullptr; }
  const std::vector<Parameter> &parameters() const;

  /// Queues one launch on `stream`. The arguments must match parameters()
  /// in number and kind (a pointer for "*T", an integer for iN, a float for
  /// fpN, a TensorDescriptor of the same element type and block shape for
  /// "tensordesc<...>"; integers and floats convert to the parameter's
  /// width). A persistent kernel's launch starts min(grid, SMs x
  /// programsPerSM) programs and passes the grid's sizes.
  Status launch(Grid grid, std::initializer_list<Arg> args,
                Stream stream = nullptr) const;
  Status launch(Grid grid, const Arg *args, size_t count,
                Stream stream = nullptr) const;
  Resources resources() const;

private:
  friend class Device;
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Device memory, freed on destruction.
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer &&) noexcept;
  Buffer &operator=(Buffer &&) noexcept;
  ~Buffer();
  DevicePtr address() const { return addr; }
  size_t size() const { return bytes; }

private:
  friend class Device;
  Device *device = nullptr;
  DevicePtr addr = 0;
  size_t bytes = 0;
};

/// Triton's host-side TensorDescriptor: a strided view of device memory
/// that kernels read and write a block at a time (desc.load, desc.store),
/// through the Tensor Memory Accelerator where the block makes a TMA box.
/// Device::makeTensorDescriptor encodes its TMA tensor map once; launches
/// pass the map's 128 bytes by value, as CUDA passes a __grid_constant__
/// CUtensorMap. A plain value: it owns no device memory.
class TensorDescriptor {
public:
  DevicePtr base() const { return baseAddress; }
  const std::string &elementType() const { return element; }
  /// Extents, strides (in elements; the last is 1) and block, outermost
  /// dimension first.
  const std::vector<int64_t> &shape() const { return extents; }
  const std::vector<int64_t> &strides() const { return elementStrides; }
  const std::vector<int64_t> &blockShape() const { return block; }
  /// The signature type of the parameters it fits:
  /// "tensordesc<fp16[128, 64]>".
  std::string type() const;
  /// Its TMA tensor map: the 128 bytes a launch passes by value (kernels
  /// take them as a grid constant); zeros where the block makes no TMA box
  /// (kernels then read the tensor with ordinary loads).
  const void *tensorMap() const { return map; }

private:
  friend class Device;
  DevicePtr baseAddress = 0;
  alignas(64) unsigned char map[128] = {};
  std::string element;
  std::vector<int64_t> extents, elementStrides, block;
};

/// A GPU, through the CUDA driver's primary context of that device.
class Device {
public:
  /// Loads libcuda.so.1 and opens device `ordinal`; fails (no exception)
  /// where there is no driver or no such device.
  static Status open(int ordinal, std::unique_ptr<Device> &out);
  ~Device();

  std::string name() const;
  /// 10 * major + minor: 90 for sm_90.
  int computeCapability() const;
  int multiprocessorCount() const;

  /// Loads `kernel` (its PTX through the driver's JIT, or the cubin the
  /// kernel cache kept of it) and prepares its shared memory.
  Status load(const CompiledKernel &kernel, Kernel &out);

  Status allocate(size_t bytes, Buffer &out);
  /// A tensor descriptor of the `elementType` ("fp16", "bf16", "fp32", ...)
  /// elements at `base`, as Triton's TensorDescriptor(base, shape, strides,
  /// block_shape): 1 to 5 dimensions, strides in elements with the last 1
  /// and the others multiples of 16 bytes, a 16-byte aligned base, a block
  /// of powers of 2 whose last dimension holds 16 bytes or more (TMA's
  /// rules). Where the block makes a TMA box (two dimensions, fp16 or bf16,
  /// as tile-run's descriptors), its tensor map is encoded
  /// (cuTensorMapEncodeTiled) and copied to the device.
  Status makeTensorDescriptor(DevicePtr base, const std::string &elementType,
                              std::vector<int64_t> shape,
                              std::vector<int64_t> strides,
                              std::vector<int64_t> blockShape,
                              TensorDescriptor &out);
  Status copyToDevice(DevicePtr dst, const void *src, size_t bytes);
  Status copyToHost(void *dst, DevicePtr src, size_t bytes);
  /// Waits for all work queued on the device.
  Status synchronize();

private:
  friend class Buffer;
  struct Impl;
  explicit Device(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace tile

#endif // TILE_TILE_H
