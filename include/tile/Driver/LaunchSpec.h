//===- LaunchSpec.h - the launch description a .tile file carries -*- C++
//-*-===//
//
// A kernel file says how to run itself in a comment block that starts with
// `# tile-run: <kernel>`, followed by Python assignments, one per comment
// line:
//
//   # tile-run: add_kernel
//   #   n = 98432                          (a size; --set n=... overrides)
//   #   x_ptr = rand(fp32, n)              (a kernel parameter: a buffer)
//   #   n_elements = n                     (a kernel parameter: a scalar)
//   #   BLOCK_SIZE = 1024                  (a constexpr parameter)
//   #   grid = (cdiv(n, BLOCK_SIZE),)
//   #   num_warps = 4
//   #   check(output_ptr, ref_add(x_ptr, y_ptr), tol=0)
//   #   bytes = 3 * 4 * n                  (bytes one launch moves: GB/s)
//
// The statements are parsed by the front end's own Python parser and
// evaluated here, in order. Buffers: rand/randn/zeros/empty(dtype, *shape);
// stride(buf, axis); helpers cdiv, next_power_of_2, min, max; Python
// arithmetic and conditional expressions. Element-wise expressions of
// buffers (`keep = (rand(fp32, n) > p).to(i32)`, `check(out, where(keep, x /
// (1 - p), 0), tol=1e-6)`) make derived buffers and check references.
//
// num_sms() and occupancy() describe the compiled kernel on the device, so
// they are known only after compiling, which itself needs the rest of the
// launch. A first evaluation without them gives Deferred values, which only
// the grid may depend on; once the kernel is loaded, a second evaluation with
// DeviceValues gives the grid.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_LAUNCHSPEC_H
#define TILE_DRIVER_LAUNCHSPEC_H

#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tile::launch {

enum class DType {
  F16,
  BF16,
  F32,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  Bool,
  F8E4NV, // torch.float8_e4m3fn, Triton's fp8e4nv
  F8E5    // torch.float8_e5m2, Triton's fp8e5
};

/// "fp32" and friends, as in Triton's signatures.
llvm::StringRef getName(DType type);
std::optional<DType> parseDType(llvm::StringRef name);
/// triton.language's name of the dtype ("int16" for i16).
std::string getTritonName(DType type);
unsigned getByteWidth(DType type);
bool isFloat(DType type);

/// An element-wise expression of buffers (lib/Driver/Elementwise.h): a
/// derived buffer's contents or a check's reference.
struct ElemExpr;
using ElemExprPtr = std::shared_ptr<const ElemExpr>;

struct BufferSpec {
  std::string name; // the variable it was first bound to
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// Pointers: a table of the addresses of `pointees`, filled at launch
  /// (`ptrs(a, b, ...)`; i64 elements, as torch's int64 tensor of
  /// data_ptr()s).
  /// Values: the numbers `values` lists (`values(i32, 1024, 512, ...)`,
  /// as a small torch.tensor([...]) of sizes or strides). Derived: computed
  /// from `derived`, an element-wise expression of earlier buffers, before
  /// the launch (`x2 = x * 2`).
  enum class Init {
    Rand,
    Randn,
    Zeros,
    Empty,
    Pointers,
    Values,
    Derived,
    /// Element i (in row-major order) is i: arange(i32, 3, 4, 5).
    Arange
  } init = Init::Empty;
  std::vector<unsigned> pointees;
  std::vector<double> values;
  ElemExprPtr derived;
  /// Where a derived buffer is assigned, for errors computing it.
  frontend::SourceLocation loc;

  int64_t getNumElements() const;
  /// Row-major strides, in elements.
  int64_t getStride(unsigned axis) const;
};

struct Value {
  /// Deferred: computed from num_sms() or occupancy() before they are known.
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    String,
    DType,
    Buffer,
    Tuple,
    Deferred,
    /// An element-wise expression of buffers (`expr`), not yet a buffer:
    /// an assignment makes it one, check() takes it as a reference.
    Elementwise,
    /// `tensor_descriptor(buffer, block_shape[, shape])`: Triton's
    /// host-side TensorDescriptor of a whole buffer (`buffer`), its block
    /// shape in `elements` (Ints), the shape it describes (the buffer's,
    /// or a reshape of it) in `shape`, row-major and contiguous.
    TensorDescriptor
  };
  Kind kind = Kind::None;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string stringValue;
  DType dtype = DType::F32;
  unsigned buffer = 0; // index into LaunchSpec::buffers
  std::vector<Value> elements;
  std::vector<int64_t> shape; // TensorDescriptor
  ElemExprPtr expr;

  /// A TensorDescriptor's row-major stride of dimension `axis`, in elements.
  int64_t getDescriptorStride(unsigned axis) const;

  static Value getInt(int64_t v);
  static Value getFloat(double v);
  static Value getBool(bool v);
  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  double asDouble() const;
  std::string describe() const;
  /// Whether this value or a tuple element is Deferred.
  bool isDeferred() const;
};

/// `check(output, ref_name(args...), tol=...)` or `check(output, EXPR,
/// tol=...)`.
struct Check {
  unsigned output = 0; // buffer
  /// The ref_* function, or the printed expression where `expr` is set.
  std::string reference;
  std::vector<Value> args;
  /// An element-wise reference (which may call ref_* functions).
  ElemExprPtr expr;
  double tolerance = 0; // relative L2 error allowed; 0 means exact
  frontend::SourceLocation loc;
};

struct LaunchSpec {
  std::string kernel;
  frontend::SourceLocation loc;
  std::vector<BufferSpec> buffers;
  llvm::StringMap<Value> variables;
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// The grid depends on num_sms() or occupancy(): `grid` is not yet set.
  bool gridDeferred = false;
  /// The description sets `grid` (a launch needs it; --emit does not).
  bool hasGrid = false;
  unsigned numWarps = 4;
  /// Triton's default; recorded (cache keys, autotuning) but not yet used by
  /// the pipeline.
  unsigned numStages = 3;
  /// warp_specialize_all = True: the compiler splits every loop it can into
  /// a TMA producer and consumers (CompileOptions::warpSpecializeAll).
  bool warpSpecializeAll = false;
  /// ping_pong = False: a split kernel's two consumer warpgroups issue their
  /// dots at once instead of in turns (CompileOptions::pingPong).
  bool pingPong = true;
  std::vector<Check> checks;
  /// Every name the description's own statements assign, also those an
  /// override replaced.
  llvm::StringSet<> assigned;
  /// Where each variable got its value: the expression assigned to it in
  /// the description or on the command line (--set), for errors about it.
  llvm::StringMap<frontend::SourceLocation> locations;
  /// Where `name` was assigned, or the description's first line.
  frontend::SourceLocation getLocation(llvm::StringRef name) const {
    auto it = locations.find(name);
    return it != locations.end() ? it->second : loc;
  }
  std::optional<double> bytes;
  std::optional<double> flops;
};

/// A `name=expression` override from the command line.
struct Override {
  std::string name;
  std::string expression;
};

/// What num_sms() and occupancy() return: the device's multiprocessors and
/// how many programs of the compiled kernel fit on one at a time.
struct DeviceValues {
  int64_t numSMs = 1;
  int64_t occupancy = 1;
};

/// Finds and evaluates the launch description of buffer `bufferId`: the
/// comment block whose lines start with `commentPrefix` ("#" in .tile files,
/// "//" in .mlir files). Overridden variables keep the command line's
/// value. Without `device`, num_sms() and occupancy() are Deferred (see
/// above). Reports problems through `diag` and returns nullopt.
std::optional<LaunchSpec> parseLaunchSpec(llvm::SourceMgr &sourceMgr,
                                          unsigned bufferId,
                                          frontend::DiagEmitter &diag,
                                          llvm::ArrayRef<Override> overrides,
                                          llvm::StringRef commentPrefix = "#",
                                          const DeviceValues *device = nullptr);

/// The kernel named after the `<commentPrefix> tile-run:` marker of `text`;
/// empty when the marker names none or is missing.
std::string findKernelName(llvm::StringRef text,
                           llvm::StringRef commentPrefix = "#");

} // namespace tile::launch

#endif // TILE_DRIVER_LAUNCHSPEC_H
