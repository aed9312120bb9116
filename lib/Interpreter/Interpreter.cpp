//===- Interpreter.cpp - run a tile-dialect kernel on the CPU -------------===//
//
// Every SSA value of the running program is an Array: its shape and its
// elements, floats as doubles (exactly representable in the element type)
// and integers and pointers as 64-bit patterns zero-extended from their
// width. Ops are looked up once per op name in one table, which is also the
// list of ops the interpreter claims to handle; each handler computes a
// whole block. Elementwise handlers take their shapes from the runtime
// values, so combine regions of tile.reduce and tile.scan run on vectors of
// many lanes at once (log2(n) region runs per reduction, not n).
//
//===----------------------------------------------------------------------===//

#include "tile/Interpreter/Interpreter.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Interpreter/FloatFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

namespace {

//===----------------------------------------------------------------------===//
// Element types and values
//===----------------------------------------------------------------------===//

enum class Kind : uint8_t { F16, BF16, F32, F64, Int, Ptr };

/// How an element type is held and stored.
struct Elem {
  Kind kind = Kind::Int;
  unsigned width = 32; // bits of an integer; 64 for pointers and index
  bool isFloat() const { return kind <= Kind::F64; }
  /// Bytes in memory (i1 is a byte, as Triton stores bools).
  unsigned bytes() const {
    switch (kind) {
    case Kind::F16:
    case Kind::BF16:
      return 2;
    case Kind::F32:
      return 4;
    case Kind::F64:
    case Kind::Ptr:
      return 8;
    case Kind::Int:
      return width <= 8 ? 1 : width / 8;
    }
    return 4;
  }
};

Elem classify(Type type) {
  type = getElementTypeOrSelf(type);
  if (type.isF16())
    return {Kind::F16, 16};
  if (type.isBF16())
    return {Kind::BF16, 16};
  if (type.isF32())
    return {Kind::F32, 32};
  if (type.isF64())
    return {Kind::F64, 64};
  if (auto intType = dyn_cast<IntegerType>(type))
    return {Kind::Int, intType.getWidth()};
  if (isa<PointerType>(type))
    return {Kind::Ptr, 64};
  return {Kind::Int, 64}; // index
}

double roundTo(Kind kind, double x) {
  switch (kind) {
  case Kind::F16:
    return roundToF16(x);
  case Kind::BF16:
    return roundToBF16(x);
  case Kind::F32:
    return roundToF32(x);
  default:
    return x;
  }
}

uint64_t truncBits(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return int64_t(v);
  unsigned shift = 64 - width;
  return int64_t(v << shift) >> shift;
}

/// The value of one SSA value in one program: a scalar has an empty shape.
struct Array {
  SmallVector<int64_t, 4> shape;
  bool isFloat = false;
  std::vector<double> f;
  std::vector<uint64_t> i;

  int64_t size() const { return isFloat ? f.size() : i.size(); }

  static Array make(bool isFloat, ArrayRef<int64_t> shape) {
    Array b;
    b.isFloat = isFloat;
    b.shape.assign(shape.begin(), shape.end());
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    if (isFloat)
      b.f.resize(n);
    else
      b.i.resize(n);
    return b;
  }
  static Array scalarInt(uint64_t v) {
    Array b;
    b.i = {v};
    return b;
  }
};

ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Calls fn on the storage of `b` (the double or the integer vector).
template <typename Fn> void visitStorage(Array &b, Fn &&fn) {
  if (b.isFloat)
    fn(b.f);
  else
    fn(b.i);
}

/// Row-major strides of `shape`.
SmallVector<int64_t, 4> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t, 4> strides(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Gathers `src` into a block of `shape`: element k of the result is
/// src[sum(index_d(k) * srcStrides[d])]. Broadcast and transpose are this
/// with zero or permuted strides.
template <typename T>
std::vector<T> gather(const std::vector<T> &src, ArrayRef<int64_t> shape,
                      ArrayRef<int64_t> srcStrides) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<T> out(n);
  if (shape.empty()) {
    out[0] = src[0];
    return out;
  }
  unsigned rank = shape.size();
  SmallVector<int64_t, 4> index(rank, 0);
  int64_t inner = shape.back(), innerStride = srcStrides.back();
  int64_t base = 0;
  for (int64_t k = 0; k < n; k += inner) {
    for (int64_t j = 0; j < inner; ++j)
      out[k + j] = src[base + j * innerStride];
    // Advance the outer index.
    for (int d = int(rank) - 2; d >= 0; --d) {
      base += srcStrides[d];
      if (++index[d] < shape[d])
        break;
      base -= srcStrides[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

Array gatherBlock(const Array &src, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> srcStrides) {
  Array out;
  out.isFloat = src.isFloat;
  out.shape.assign(shape.begin(), shape.end());
  if (src.isFloat)
    out.f = gather(src.f, shape, srcStrides);
  else
    out.i = gather(src.i, shape, srcStrides);
  return out;
}

/// Moves `axis` of `src` to the front: the result is [K, M] row-major with
/// M the product of the other dimensions, in their order.
Array axisToFront(const Array &src, unsigned axis) {
  SmallVector<int64_t, 4> shape{src.shape[axis]};
  SmallVector<int64_t, 4> strides = stridesOf(src.shape);
  SmallVector<int64_t, 4> permuted{strides[axis]};
  for (unsigned d = 0; d < src.shape.size(); ++d)
    if (d != axis) {
      shape.push_back(src.shape[d]);
      permuted.push_back(strides[d]);
    }
  return gatherBlock(src, shape, permuted);
}

/// The inverse of axisToFront, back to `shape`.
Array axisFromFront(const Array &src, ArrayRef<int64_t> shape, unsigned axis) {
  // src is [K, rest...]; result dimension d reads src dimension 0 for the
  // axis and 1 + its position among the others otherwise.
  SmallVector<int64_t, 4> srcShape{shape[axis]};
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != axis)
      srcShape.push_back(shape[d]);
  SmallVector<int64_t, 4> srcStrides = stridesOf(srcShape);
  SmallVector<int64_t, 4> strides;
  unsigned next = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    strides.push_back(d == axis ? srcStrides[0] : srcStrides[next++]);
  return gatherBlock(src, shape, strides);
}

template <typename T>
std::vector<T> copyRows(const std::vector<T> &from, int64_t m, int64_t begin,
                        int64_t count, int64_t step) {
  std::vector<T> out(count * m);
  for (int64_t r = 0; r < count; ++r)
    std::copy_n(from.begin() + (begin + r * step) * m, m, out.begin() + r * m);
  return out;
}

/// Rows begin, begin + step, ... before end of a [K, M] block, as a 1-D
/// block.
Array rows(const Array &src, int64_t m, int64_t begin, int64_t end,
           int64_t step = 1) {
  Array out;
  out.isFloat = src.isFloat;
  int64_t count = (end - begin + step - 1) / step;
  out.shape = {count * m};
  if (src.isFloat)
    out.f = copyRows(src.f, m, begin, count, step);
  else
    out.i = copyRows(src.i, m, begin, count, step);
  return out;
}

/// Repeats a one-element block to n elements (a combine region may yield a
/// constant).
void stretch(Array &b, int64_t n) {
  if (b.size() == n)
    return;
  visitStorage(b, [&](auto &vec) { vec.assign(n, vec[0]); });
  b.shape = {n};
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interpreter;
using Handler = LogicalResult (*)(Interpreter &, Operation *);
const llvm::StringMap<Handler> &getHandlers();

constexpr unsigned kAddressShift = 40;

class Interpreter {
public:
  Interpreter(ArrayRef<Buffer> buffers, const LaunchOptions &options)
      : buffers(buffers), options(options) {}

  LogicalResult runProgram(func::FuncOp kernel, ArrayRef<Array> args,
                           std::array<int64_t, 3> programId);

  const Array &get(Value v) {
    auto it = env.find(v.getAsOpaquePointer());
    assert(it != env.end() && "value used before defined");
    return it->second;
  }
  void set(Value v, Array b) { env[v.getAsOpaquePointer()] = std::move(b); }

  /// Runs `block` with `args` bound to its arguments and returns the
  /// operands of its terminator in `results`.
  LogicalResult runBlock(mlir::Block &block, ArrayRef<Array> args,
                         SmallVectorImpl<Array> &results);

  InFlightDiagnostic error(Operation *op) {
    return op->emitError() << "in program " << programName() << ": ";
  }
  std::string programName() const {
    return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
           std::to_string(pid[2]) + ")";
  }

  static uint64_t bufferAddress(unsigned index) {
    return uint64_t(index + 1) << kAddressShift;
  }
  /// The host bytes behind [address, address + size), or null after
  /// reporting which buffer it misses.
  uint8_t *resolve(Operation *op, uint64_t address, unsigned size,
                   int64_t element);

  std::array<int64_t, 3> pid{0, 0, 0};
  ArrayRef<Buffer> buffers;
  const LaunchOptions &options;

private:
  std::unordered_map<const void *, Array> env;
  llvm::DenseMap<const void *, Handler> handlerCache;
};

uint8_t *Interpreter::resolve(Operation *op, uint64_t address, unsigned size,
                              int64_t element) {
  uint64_t index = address >> kAddressShift;
  uint64_t offset = address & ((uint64_t(1) << kAddressShift) - 1);
  if (index >= 1 && index <= buffers.size()) {
    MutableArrayRef<uint8_t> bytes = buffers[index - 1].bytes;
    if (offset + size <= bytes.size()) {
      if (offset % size != 0) {
        error(op) << "misaligned " << size << "-byte " << op->getName()
                  << " at byte offset " << offset << " of buffer '"
                  << buffers[index - 1].name << "' (element " << element
                  << " of the block)";
        return nullptr;
      }
      return bytes.data() + offset;
    }
  }
  InFlightDiagnostic diag = error(op);
  diag << "out-of-bounds " << op->getName() << " by element " << element
       << " of the block: ";
  // Describe the address relative to the nearest buffer.
  uint64_t half = uint64_t(1) << (kAddressShift - 1);
  if (index >= 1 && index <= buffers.size() && offset < half)
    diag << "byte offset " << offset << " of buffer '"
         << buffers[index - 1].name << "', which has "
         << buffers[index - 1].bytes.size() << " bytes";
  else if (index < buffers.size() && offset >= half)
    diag << (bufferAddress(index) - address) << " bytes before buffer '"
         << buffers[index].name << "'";
  else
    diag << "address 0x" << llvm::utohexstr(address)
         << " is in no buffer of the launch";
  return nullptr;
}

LogicalResult Interpreter::runBlock(mlir::Block &block, ArrayRef<Array> args,
                                    SmallVectorImpl<Array> &results) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      results.clear();
      for (Value operand : op.getOperands())
        results.push_back(get(operand));
      return success();
    }
    const void *key = op.getName().getAsOpaquePointer();
    auto it = handlerCache.find(key);
    if (it == handlerCache.end()) {
      auto found = getHandlers().find(op.getName().getStringRef());
      if (found == getHandlers().end())
        return op.emitError()
               << "the interpreter does not support '" << op.getName() << "'";
      it = handlerCache.try_emplace(key, found->second).first;
    }
    if (failed(it->second(*this, &op)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runProgram(func::FuncOp kernel, ArrayRef<Array> args,
                                      std::array<int64_t, 3> programId) {
  pid = programId;
  env.clear();
  SmallVector<Array> results;
  return runBlock(kernel.getBody().front(), args, results);
}

//===----------------------------------------------------------------------===//
// Elementwise helpers
//===----------------------------------------------------------------------===//

/// The shape of an elementwise result: the operand with the most elements
/// (one-element operands stretch to it).
ArrayRef<int64_t> resultShape(ArrayRef<const Array *> operands) {
  const Array *largest = operands.front();
  for (const Array *b : operands)
    if (b->size() > largest->size())
      largest = b;
  return largest->shape;
}

template <typename Fn>
LogicalResult floatUnary(Interpreter &I, Operation *op, Fn fn) {
  const Array &a = I.get(op->getOperand(0));
  Kind kind = classify(op->getResult(0).getType()).kind;
  Array out = Array::make(true, a.shape);
  for (int64_t k = 0, n = a.size(); k < n; ++k)
    out.f[k] = roundTo(kind, fn(a.f[k]));
  I.set(op->getResult(0), std::move(out));
  return success();
}

template <typename Fn>
LogicalResult floatBinary(Interpreter &I, Operation *op, Fn fn) {
  const Array &a = I.get(op->getOperand(0)), &b = I.get(op->getOperand(1));
  Kind kind = classify(op->getResult(0).getType()).kind;
  Array out = Array::make(true, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.f[k] = roundTo(kind, fn(a.f[k * sa], b.f[k * sb]));
  I.set(op->getResult(0), std::move(out));
  return success();
}

template <typename Fn>
LogicalResult floatTernary(Interpreter &I, Operation *op, Fn fn) {
  const Array &a = I.get(op->getOperand(0)), &b = I.get(op->getOperand(1)),
              &c = I.get(op->getOperand(2));
  Kind kind = classify(op->getResult(0).getType()).kind;
  Array out = Array::make(true, resultShape({&a, &b, &c}));
  int64_t sa = a.size() > 1, sb = b.size() > 1, sc = c.size() > 1;
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.f[k] = roundTo(kind, fn(a.f[k * sa], b.f[k * sb], c.f[k * sc]));
  I.set(op->getResult(0), std::move(out));
  return success();
}

/// fn(a, b, width) on zero-extended patterns; the result is truncated.
template <typename Fn>
LogicalResult intBinary(Interpreter &I, Operation *op, Fn fn) {
  const Array &a = I.get(op->getOperand(0)), &b = I.get(op->getOperand(1));
  unsigned width = classify(op->getResult(0).getType()).width;
  Array out = Array::make(false, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = truncBits(fn(a.i[k * sa], b.i[k * sb], width), width);
  I.set(op->getResult(0), std::move(out));
  return success();
}

template <typename Fn>
LogicalResult intUnary(Interpreter &I, Operation *op, Fn fn) {
  const Array &a = I.get(op->getOperand(0));
  unsigned width = classify(op->getResult(0).getType()).width;
  Array out = Array::make(false, a.shape);
  for (int64_t k = 0, n = a.size(); k < n; ++k)
    out.i[k] = truncBits(fn(a.i[k], width), width);
  I.set(op->getResult(0), std::move(out));
  return success();
}

/// Converts each element with fn(int pattern or double) -> int pattern or
/// double, as the operand and result kinds say.
LogicalResult
runCast(Interpreter &I, Operation *op,
        function_ref<void(const Array &, Array &, Elem, Elem)> fn) {
  const Array &a = I.get(op->getOperand(0));
  Elem from = classify(op->getOperand(0).getType());
  Elem to = classify(op->getResult(0).getType());
  Array out = Array::make(to.isFloat(), a.shape);
  fn(a, out, from, to);
  I.set(op->getResult(0), std::move(out));
  return success();
}

/// Float to integer as PTX cvt.rzi: toward zero, saturated, NaN to 0.
uint64_t floatToInt(double x, unsigned width, bool isSigned) {
  if (std::isnan(x))
    return 0;
  x = std::trunc(x);
  if (width == 1)
    return x != 0;
  if (isSigned) {
    double lo = -std::ldexp(1.0, width - 1), hi = std::ldexp(1.0, width - 1);
    if (x < lo)
      return truncBits(uint64_t(1) << (width - 1), width);
    if (x >= hi)
      return truncBits((uint64_t(1) << (width - 1)) - 1, width);
    return truncBits(uint64_t(int64_t(x)), width);
  }
  if (x <= 0)
    return 0;
  if (x >= std::ldexp(1.0, width))
    return truncBits(~uint64_t(0), width);
  return uint64_t(x);
}

double intToFloat(uint64_t v, unsigned width, bool isSigned, Kind to) {
  if (isSigned) {
    int64_t s = width == 1 ? -int64_t(v) : signExtend(v, width);
    return to == Kind::F32 ? double(float(s)) : roundTo(to, double(s));
  }
  return to == Kind::F32 ? double(float(v)) : roundTo(to, double(v));
}

uint64_t floatBits(double x, Kind kind) {
  switch (kind) {
  case Kind::F16:
    return encodeF16(x);
  case Kind::BF16:
    return encodeBF16(x);
  case Kind::F32: {
    float f = float(x);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  default: {
    uint64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits;
  }
  }
}

double bitsToFloat(uint64_t bits, Kind kind) {
  switch (kind) {
  case Kind::F16:
    return decodeF16(uint16_t(bits));
  case Kind::BF16:
    return decodeBF16(uint16_t(bits));
  case Kind::F32: {
    uint32_t narrow = uint32_t(bits);
    float f;
    std::memcpy(&f, &narrow, 4);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
}

bool compareInt(arith::CmpIPredicate predicate, uint64_t a, uint64_t b,
                unsigned width) {
  int64_t sa = signExtend(a, width), sb = signExtend(b, width);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return sa < sb;
  case arith::CmpIPredicate::sle:
    return sa <= sb;
  case arith::CmpIPredicate::sgt:
    return sa > sb;
  case arith::CmpIPredicate::sge:
    return sa >= sb;
  case arith::CmpIPredicate::ult:
    return a < b;
  case arith::CmpIPredicate::ule:
    return a <= b;
  case arith::CmpIPredicate::ugt:
    return a > b;
  case arith::CmpIPredicate::uge:
    return a >= b;
  }
  return false;
}

bool compareFloat(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

/// IEEE maximum/minimum: NaN propagates, -0 < +0.
double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// Integer division as the GPU does it without trapping: by zero gives all
// ones (div) or the dividend (rem); INT_MIN / -1 wraps.
uint64_t divSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0)
    return ~uint64_t(0);
  if (y == -1)
    return uint64_t(0) - uint64_t(x);
  return uint64_t(x / y);
}
uint64_t remSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0)
    return a;
  if (y == -1)
    return 0;
  return uint64_t(x % y);
}
uint64_t floorDivSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0 || y == -1)
    return divSigned(a, b, w);
  int64_t q = x / y;
  return uint64_t((x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q);
}
uint64_t ceilDivSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0 || y == -1)
    return divSigned(a, b, w);
  int64_t q = x / y;
  return uint64_t((x % y != 0 && ((x < 0) == (y < 0))) ? q + 1 : q);
}

/// Shifts as PTX: amounts of the width or more give 0 (or the sign).
uint64_t shiftLeft(uint64_t a, uint64_t b, unsigned w) {
  return b >= w ? 0 : a << b;
}
uint64_t shiftRightUnsigned(uint64_t a, uint64_t b, unsigned w) {
  return b >= w ? 0 : a >> b;
}
uint64_t shiftRightSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w);
  return uint64_t(b >= w ? (x < 0 ? -1 : 0) : x >> b);
}

uint64_t mulHigh(uint64_t a, uint64_t b, unsigned w) {
  if (w == 64)
    return uint64_t((unsigned __int128)a * b >> 64);
  return (a * b) >> w; // w <= 32: the product fits
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

LogicalResult runConstant(Interpreter &I, Operation *op) {
  Attribute attr = cast<arith::ConstantOp>(op).getValue();
  Type type = op->getResult(0).getType();
  Elem elem = classify(type);
  Array out = Array::make(elem.isFloat(), shapeOf(type));
  auto fromInt = [&](const APInt &v) {
    return truncBits(v.getZExtValue(), elem.width);
  };
  // Every element type (f16, bf16, f32, f64) converts to double exactly.
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    out.i[0] = fromInt(intAttr.getValue());
  } else if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    out.f[0] = floatAttr.getValueAsDouble();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (elem.isFloat()) {
      if (dense.isSplat())
        std::fill(out.f.begin(), out.f.end(),
                  FloatAttr::getValueAsDouble(dense.getSplatValue<APFloat>()));
      else
        for (auto [k, v] : llvm::enumerate(dense.getValues<APFloat>()))
          out.f[k] = FloatAttr::getValueAsDouble(v);
    } else {
      if (dense.isSplat())
        std::fill(out.i.begin(), out.i.end(),
                  fromInt(dense.getSplatValue<APInt>()));
      else
        for (auto [k, v] : llvm::enumerate(dense.getValues<APInt>()))
          out.i[k] = fromInt(v);
    }
  } else {
    return I.error(op) << "unsupported constant " << attr;
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runCmpI(Interpreter &I, Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  const Array &a = I.get(cmp.getLhs()), &b = I.get(cmp.getRhs());
  unsigned width = classify(cmp.getLhs().getType()).width;
  Array out = Array::make(false, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  arith::CmpIPredicate predicate = cmp.getPredicate();
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = compareInt(predicate, a.i[k * sa], b.i[k * sb], width);
  I.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult runCmpF(Interpreter &I, Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  const Array &a = I.get(cmp.getLhs()), &b = I.get(cmp.getRhs());
  Array out = Array::make(false, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  arith::CmpFPredicate predicate = cmp.getPredicate();
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = compareFloat(predicate, a.f[k * sa], b.f[k * sb]);
  I.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult runSelect(Interpreter &I, Operation *op) {
  const Array &c = I.get(op->getOperand(0)), &a = I.get(op->getOperand(1)),
              &b = I.get(op->getOperand(2));
  Array out = Array::make(a.isFloat, resultShape({&c, &a, &b}));
  int64_t sc = c.size() > 1, sa = a.size() > 1, sb = b.size() > 1;
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    bool pick = c.i[k * sc] & 1;
    if (a.isFloat)
      out.f[k] = pick ? a.f[k * sa] : b.f[k * sb];
    else
      out.i[k] = pick ? a.i[k * sa] : b.i[k * sb];
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runFloatToFloat(Interpreter &I, Operation *op) {
  return runCast(I, op, [](const Array &a, Array &out, Elem, Elem to) {
    for (size_t k = 0; k < a.f.size(); ++k)
      out.f[k] = roundTo(to.kind, a.f[k]);
  });
}

LogicalResult runIntToFloat(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem from, Elem to) {
    for (size_t k = 0; k < a.i.size(); ++k)
      out.f[k] = intToFloat(a.i[k], from.width, isSigned, to.kind);
  });
}

LogicalResult runFloatToInt(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem, Elem to) {
    for (size_t k = 0; k < a.f.size(); ++k)
      out.i[k] = floatToInt(a.f[k], to.width, isSigned);
  });
}

LogicalResult runIntToInt(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem from, Elem to) {
    for (size_t k = 0; k < a.i.size(); ++k)
      out.i[k] = truncBits(isSigned ? uint64_t(signExtend(a.i[k], from.width))
                                    : a.i[k],
                           to.width);
  });
}

LogicalResult runBitcast(Interpreter &I, Operation *op) {
  return runCast(I, op, [](const Array &a, Array &out, Elem from, Elem to) {
    for (int64_t k = 0, n = a.size(); k < n; ++k) {
      uint64_t bits = from.isFloat() ? floatBits(a.f[k], from.kind) : a.i[k];
      if (to.isFloat())
        out.f[k] = bitsToFloat(bits, to.kind);
      else
        out.i[k] = truncBits(bits, to.width);
    }
  });
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Reads one element of kind `elem` from host bytes.
void readElement(const uint8_t *p, Elem elem, Array &out, int64_t k) {
  switch (elem.kind) {
  case Kind::F16:
  case Kind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    out.f[k] = bitsToFloat(bits, elem.kind);
    return;
  }
  case Kind::F32: {
    float v;
    std::memcpy(&v, p, 4);
    out.f[k] = v;
    return;
  }
  case Kind::F64:
    std::memcpy(&out.f[k], p, 8);
    return;
  case Kind::Int:
  case Kind::Ptr: {
    uint64_t v = 0;
    std::memcpy(&v, p, elem.bytes()); // little-endian host
    out.i[k] = elem.width == 1 ? (v != 0) : truncBits(v, elem.width);
    return;
  }
  }
}

void writeElement(uint8_t *p, Elem elem, const Array &value, int64_t k) {
  if (elem.isFloat()) {
    uint64_t bits = floatBits(value.f[k], elem.kind);
    std::memcpy(p, &bits, elem.bytes());
    return;
  }
  uint64_t v = value.i[k];
  std::memcpy(p, &v, elem.bytes());
}

LogicalResult runLoad(Interpreter &I, Operation *op) {
  auto load = cast<LoadOp>(op);
  const Array &ptrs = I.get(load.getPtr());
  const Array *mask = load.getMask() ? &I.get(load.getMask()) : nullptr;
  const Array *other = load.getOther() ? &I.get(load.getOther()) : nullptr;
  Elem elem = classify(load.getResult().getType());
  unsigned bytes = elem.bytes();
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sm = mask && mask->size() > 1, so = other && other->size() > 1;
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1)) {
      // Masked off: `other`, or 0 as the GPU path leaves it.
      if (other && elem.isFloat())
        out.f[k] = other->f[k * so];
      else if (other)
        out.i[k] = other->i[k * so];
      continue;
    }
    uint8_t *p = I.resolve(op, ptrs.i[k], bytes, k);
    if (!p)
      return failure();
    readElement(p, elem, out, k);
  }
  I.set(load.getResult(), std::move(out));
  return success();
}

LogicalResult runStore(Interpreter &I, Operation *op) {
  auto store = cast<StoreOp>(op);
  const Array &ptrs = I.get(store.getPtr());
  const Array &value = I.get(store.getValue());
  const Array *mask = store.getMask() ? &I.get(store.getMask()) : nullptr;
  Elem elem = classify(store.getValue().getType());
  int64_t sm = mask && mask->size() > 1;
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1))
      continue;
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    writeElement(p, elem, value, k);
  }
  return success();
}

/// The value an atomic leaves in memory, from the old one and the operand.
void combineAtomic(RMWKind kind, Elem elem, double &oldF, uint64_t &oldI,
                   double valF, uint64_t valI) {
  unsigned w = elem.width;
  switch (kind) {
  case RMWKind::add:
    oldI = truncBits(oldI + valI, w);
    return;
  case RMWKind::fadd:
    oldF = roundTo(elem.kind, oldF + valF);
    return;
  case RMWKind::max:
    oldI = signExtend(valI, w) > signExtend(oldI, w) ? valI : oldI;
    return;
  case RMWKind::min:
    oldI = signExtend(valI, w) < signExtend(oldI, w) ? valI : oldI;
    return;
  case RMWKind::umax:
    oldI = std::max(oldI, valI);
    return;
  case RMWKind::umin:
    oldI = std::min(oldI, valI);
    return;
  case RMWKind::fmax:
    oldF = std::fmax(oldF, valF);
    return;
  case RMWKind::fmin:
    oldF = std::fmin(oldF, valF);
    return;
  case RMWKind::and_:
    oldI &= valI;
    return;
  case RMWKind::or_:
    oldI |= valI;
    return;
  case RMWKind::xor_:
    oldI ^= valI;
    return;
  case RMWKind::xchg:
    oldF = valF;
    oldI = valI;
    return;
  }
}

// Programs run one after another and each op finishes before the next, so
// an atomic is a read-modify-write per element in order: lanes that hit the
// same address see each other's updates, as on the GPU.
LogicalResult runAtomicRMW(Interpreter &I, Operation *op) {
  auto rmw = cast<AtomicRMWOp>(op);
  const Array &ptrs = I.get(rmw.getPtr()), &val = I.get(rmw.getVal());
  const Array *mask = rmw.getMask() ? &I.get(rmw.getMask()) : nullptr;
  Elem elem = classify(rmw.getResult().getType());
  bool isFloatKind = rmw.getKind() == RMWKind::fadd ||
                     rmw.getKind() == RMWKind::fmax ||
                     rmw.getKind() == RMWKind::fmin;
  if (isFloatKind != elem.isFloat() && rmw.getKind() != RMWKind::xchg)
    return I.error(op) << "atomic " << stringifyRMWKind(rmw.getKind())
                       << " does not apply to " << rmw.getResult().getType();
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sm = mask && mask->size() > 1, sv = val.size() > 1;
  Array one = Array::make(elem.isFloat(), {});
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1))
      continue;
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    readElement(p, elem, one, 0);
    if (elem.isFloat()) {
      out.f[k] = one.f[0];
      uint64_t unused = 0;
      combineAtomic(rmw.getKind(), elem, one.f[0], unused, val.f[k * sv], 0);
    } else {
      out.i[k] = one.i[0];
      double unused = 0;
      combineAtomic(rmw.getKind(), elem, unused, one.i[0], 0, val.i[k * sv]);
    }
    writeElement(p, elem, one, 0);
  }
  I.set(rmw.getResult(), std::move(out));
  return success();
}

LogicalResult runAtomicCAS(Interpreter &I, Operation *op) {
  auto cas = cast<AtomicCASOp>(op);
  const Array &ptrs = I.get(cas.getPtr()), &cmp = I.get(cas.getCmp()),
              &val = I.get(cas.getVal());
  Elem elem = classify(cas.getResult().getType());
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sc = cmp.size() > 1, sv = val.size() > 1;
  Array expected = Array::make(elem.isFloat(), {});
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    readElement(p, elem, out, k);
    // Compared as bit patterns, as atom.cas does.
    uint8_t want[8];
    if (elem.isFloat())
      expected.f[0] = cmp.f[k * sc];
    else
      expected.i[0] = cmp.i[k * sc];
    writeElement(want, elem, expected, 0);
    if (std::memcmp(want, p, elem.bytes()) == 0)
      writeElement(p, elem, val, k * sv);
  }
  I.set(cas.getResult(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// tile: blocks and shapes
//===----------------------------------------------------------------------===//

LogicalResult runProgramId(Interpreter &I, Operation *op) {
  I.set(op->getResult(0),
        Array::scalarInt(uint64_t(I.pid[cast<ProgramIdOp>(op).getAxis()])));
  return success();
}

LogicalResult runNumPrograms(Interpreter &I, Operation *op) {
  I.set(op->getResult(0),
        Array::scalarInt(
            uint64_t(I.options.grid[cast<NumProgramsOp>(op).getAxis()])));
  return success();
}

LogicalResult runMakeRange(Interpreter &I, Operation *op) {
  auto range = cast<MakeRangeOp>(op);
  Array out = Array::make(false, shapeOf(range.getType()));
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = truncBits(uint64_t(int64_t(range.getStart()) + k), 32);
  I.set(range.getResult(), std::move(out));
  return success();
}

LogicalResult runSplat(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  Array out = Array::make(src.isFloat, shapeOf(op->getResult(0).getType()));
  if (src.isFloat)
    std::fill(out.f.begin(), out.f.end(), src.f[0]);
  else
    std::fill(out.i.begin(), out.i.end(), src.i[0]);
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runAddPtr(Interpreter &I, Operation *op) {
  auto addptr = cast<AddPtrOp>(op);
  Type pointee =
      cast<PointerType>(getElementTypeOrSelf(addptr.getPtr().getType()))
          .getPointeeType();
  int64_t scale = classify(pointee).bytes();
  unsigned width = classify(addptr.getOffset().getType()).width;
  return intBinary(I, op, [&](uint64_t p, uint64_t offset, unsigned) {
    return p + uint64_t(signExtend(offset, width) * scale);
  });
}

/// The value with a new shape and the same row-major elements.
LogicalResult runReshapeLike(Interpreter &I, Operation *op) {
  Array out = I.get(op->getOperand(0));
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  out.shape.assign(shape.begin(), shape.end());
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runBroadcast(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  SmallVector<int64_t, 4> strides = stridesOf(src.shape);
  for (auto [d, extent] : llvm::enumerate(src.shape))
    if (extent == 1)
      strides[d] = 0;
  I.set(op->getResult(0),
        gatherBlock(src, shapeOf(op->getResult(0).getType()), strides));
  return success();
}

LogicalResult runTrans(Interpreter &I, Operation *op) {
  auto trans = cast<TransOp>(op);
  const Array &src = I.get(trans.getSrc());
  SmallVector<int64_t, 4> srcStrides = stridesOf(src.shape), strides;
  for (int32_t d : trans.getOrder())
    strides.push_back(srcStrides[d]);
  I.set(trans.getResult(), gatherBlock(src, shapeOf(trans.getType()), strides));
  return success();
}

LogicalResult runCat(Interpreter &I, Operation *op) {
  Array out = I.get(op->getOperand(0));
  const Array &rhs = I.get(op->getOperand(1));
  out.f.insert(out.f.end(), rhs.f.begin(), rhs.f.end());
  out.i.insert(out.i.end(), rhs.i.begin(), rhs.i.end());
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  out.shape.assign(shape.begin(), shape.end());
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runJoin(Interpreter &I, Operation *op) {
  const Array &lhs = I.get(op->getOperand(0)), &rhs = I.get(op->getOperand(1));
  Array out = Array::make(lhs.isFloat, shapeOf(op->getResult(0).getType()));
  for (int64_t k = 0, n = lhs.size(); k < n; ++k) {
    if (lhs.isFloat) {
      out.f[2 * k] = lhs.f[k];
      out.f[2 * k + 1] = rhs.f[k];
    } else {
      out.i[2 * k] = lhs.i[k];
      out.i[2 * k + 1] = rhs.i[k];
    }
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runSplit(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  Array lhs = Array::make(src.isFloat, shape), rhs = lhs;
  for (int64_t k = 0, n = lhs.size(); k < n; ++k) {
    if (src.isFloat) {
      lhs.f[k] = src.f[2 * k];
      rhs.f[k] = src.f[2 * k + 1];
    } else {
      lhs.i[k] = src.i[2 * k];
      rhs.i[k] = src.i[2 * k + 1];
    }
  }
  I.set(op->getResult(0), std::move(lhs));
  I.set(op->getResult(1), std::move(rhs));
  return success();
}

//===----------------------------------------------------------------------===//
// tile.dot
//===----------------------------------------------------------------------===//

/// c += a @ b in accumulator type T, rows in the order i, k, j so the inner
/// loop vectorizes.
template <typename T>
void matmulAccumulate(const std::vector<T> &a, const std::vector<T> &b,
                      std::vector<T> &c, int64_t m, int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    T *row = &c[i * n];
    for (int64_t p = 0; p < k; ++p) {
      T aip = a[i * k + p];
      const T *brow = &b[p * n];
      for (int64_t j = 0; j < n; ++j)
        row[j] += aip * brow[j];
    }
  }
}

LogicalResult runDot(Interpreter &I, Operation *op) {
  auto dot = cast<DotOp>(op);
  const Array &a = I.get(dot.getA()), &b = I.get(dot.getB()),
              &c = I.get(dot.getC());
  Elem in = classify(dot.getA().getType()), acc = classify(dot.getType());
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  Array out = Array::make(acc.isFloat(), c.shape);
  if (!in.isFloat()) {
    // i8 x i8 -> i32, wrapping.
    std::vector<int64_t> as(a.size()), bs(b.size()), cs(c.size());
    for (size_t x = 0; x < as.size(); ++x)
      as[x] = signExtend(a.i[x], in.width);
    for (size_t x = 0; x < bs.size(); ++x)
      bs[x] = signExtend(b.i[x], in.width);
    for (size_t x = 0; x < cs.size(); ++x)
      cs[x] = signExtend(c.i[x], acc.width);
    matmulAccumulate(as, bs, cs, m, n, k);
    for (size_t x = 0; x < cs.size(); ++x)
      out.i[x] = truncBits(uint64_t(cs[x]), acc.width);
  } else if (in.kind == Kind::F64 || acc.kind == Kind::F64) {
    std::vector<double> cs = c.f;
    matmulAccumulate(a.f, b.f, cs, m, n, k);
    out.f = std::move(cs);
  } else {
    // fp16/bf16 products are exact in fp32 and accumulate there (as the
    // tensor cores); fp32 inputs are first rounded to tf32 unless
    // input_precision is ieee or tf32x3 (which is accurate to fp32).
    bool toTF32 =
        in.kind == Kind::F32 && dot.getInputPrecision() == InputPrecision::tf32;
    auto narrow = [&](const std::vector<double> &v) {
      std::vector<float> out(v.size());
      for (size_t x = 0; x < v.size(); ++x)
        out[x] = float(toTF32 ? roundToTF32(v[x]) : v[x]);
      return out;
    };
    std::vector<float> as = narrow(a.f), bs = narrow(b.f);
    std::vector<float> cs(c.f.begin(), c.f.end());
    matmulAccumulate(as, bs, cs, m, n, k);
    for (size_t x = 0; x < cs.size(); ++x)
      out.f[x] = roundTo(acc.kind, cs[x]);
  }
  I.set(dot.getD(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// tile.reduce and tile.scan
//===----------------------------------------------------------------------===//

/// Runs the combine region on (lhs..., rhs...) lane-wise; each result is
/// stretched to `lanes`.
LogicalResult combine(Interpreter &I, Region &region, ArrayRef<Array> lhs,
                      ArrayRef<Array> rhs, int64_t lanes,
                      SmallVectorImpl<Array> &results) {
  SmallVector<Array> args(lhs.begin(), lhs.end());
  args.append(rhs.begin(), rhs.end());
  if (failed(I.runBlock(region.front(), args, results)))
    return failure();
  for (Array &r : results)
    stretch(r, lanes);
  return success();
}

// A reduction combines adjacent pairs level by level (a tree, as the GPU's
// shuffles; the operand order is kept, so an associative combine that is not
// commutative still works).
LogicalResult runReduce(Interpreter &I, Operation *op) {
  auto reduce = cast<ReduceOp>(op);
  unsigned axis = reduce.getAxis();
  SmallVector<Array> current;
  for (Value src : reduce.getSrcs())
    current.push_back(axisToFront(I.get(src), axis));
  int64_t count = current[0].shape[0];
  int64_t m = current[0].size() / std::max<int64_t>(count, 1);
  while (count > 1) {
    int64_t pairs = count / 2;
    SmallVector<Array> lhs, rhs, combined;
    for (const Array &b : current) {
      lhs.push_back(rows(b, m, 0, 2 * pairs, 2));
      rhs.push_back(rows(b, m, 1, 2 * pairs, 2));
    }
    if (failed(
            combine(I, reduce.getCombineOp(), lhs, rhs, pairs * m, combined)))
      return failure();
    if (count % 2) {
      for (auto [b, c] : llvm::zip(current, combined)) {
        Array last = rows(b, m, count - 1, count);
        c.f.insert(c.f.end(), last.f.begin(), last.f.end());
        c.i.insert(c.i.end(), last.i.begin(), last.i.end());
      }
    }
    current = std::move(combined);
    count = pairs + count % 2;
  }
  for (auto [result, value] : llvm::zip(reduce.getResults(), current)) {
    ArrayRef<int64_t> shape = shapeOf(result.getType());
    value.shape.assign(shape.begin(), shape.end());
    I.set(result, std::move(value));
  }
  return success();
}

/// Reverses the rows of a [K, M] block.
Array reverseRows(const Array &b, int64_t count, int64_t m) {
  Array out = b;
  visitStorage(out, [&](auto &vec) {
    for (int64_t r = 0; r < count / 2; ++r)
      std::swap_ranges(vec.begin() + r * m, vec.begin() + (r + 1) * m,
                       vec.begin() + (count - 1 - r) * m);
  });
  return out;
}

// An inclusive scan in log2(K) steps (Hillis and Steele): at distance d,
// row r becomes combine(row r - d, row r).
LogicalResult runScan(Interpreter &I, Operation *op) {
  auto scan = cast<ScanOp>(op);
  unsigned axis = scan.getAxis();
  SmallVector<Array> current;
  for (Value src : scan.getSrcs())
    current.push_back(axisToFront(I.get(src), axis));
  int64_t count = current[0].shape[0];
  int64_t m = current[0].size() / count;
  if (scan.getReverse())
    for (Array &b : current)
      b = reverseRows(b, count, m);
  for (int64_t d = 1; d < count; d *= 2) {
    SmallVector<Array> lhs, rhs, combined;
    for (const Array &b : current) {
      lhs.push_back(rows(b, m, 0, count - d));
      rhs.push_back(rows(b, m, d, count));
    }
    if (failed(combine(I, scan.getCombineOp(), lhs, rhs, (count - d) * m,
                       combined)))
      return failure();
    for (auto [b, c] : llvm::zip(current, combined)) {
      if (b.isFloat)
        std::copy(c.f.begin(), c.f.end(), b.f.begin() + d * m);
      else
        std::copy(c.i.begin(), c.i.end(), b.i.begin() + d * m);
    }
  }
  for (auto [result, value] : llvm::zip(scan.getResults(), current)) {
    if (scan.getReverse())
      value = reverseRows(value, count, m);
    I.set(result, axisFromFront(value, shapeOf(result.getType()), axis));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tile: debugging
//===----------------------------------------------------------------------===//

void printElement(llvm::raw_ostream &os, const Array &b, Elem elem, int64_t k,
                  bool hex, bool isSigned) {
  if (hex) {
    uint64_t bits = elem.isFloat() ? floatBits(b.f[k], elem.kind) : b.i[k];
    os << "0x" << llvm::utohexstr(bits, /*LowerCase=*/true);
  } else if (elem.isFloat()) {
    os << llvm::format(elem.kind == Kind::F64 ? "%.17g" : "%.9g", b.f[k]);
  } else if (elem.kind == Kind::Ptr) {
    os << "0x" << llvm::utohexstr(b.i[k], /*LowerCase=*/true);
  } else if (isSigned && elem.width > 1) {
    os << signExtend(b.i[k], elem.width);
  } else {
    os << b.i[k];
  }
}

// One line per element: "pid (x, y, z) idx (i, j) PREFIX v1 v2 ...".
LogicalResult runPrint(Interpreter &I, Operation *op) {
  auto print = cast<PrintOp>(op);
  llvm::raw_ostream &os =
      I.options.printStream ? *I.options.printStream : llvm::outs();
  SmallVector<const Array *> args;
  SmallVector<Elem> elems;
  for (Value arg : print.getArgs()) {
    args.push_back(&I.get(arg));
    elems.push_back(classify(arg.getType()));
  }
  ArrayRef<int64_t> shape = args.empty() ? ArrayRef<int64_t>() : args[0]->shape;
  int64_t n = args.empty() ? 1 : args[0]->size();
  SmallVector<int64_t, 4> strides = stridesOf(shape);
  ArrayRef<int32_t> isSigned = print.getIsSigned();
  for (int64_t k = 0; k < n; ++k) {
    os << "pid " << I.programName();
    if (!shape.empty()) {
      os << " idx (";
      for (auto [d, stride] : llvm::enumerate(strides))
        os << (d ? ", " : "") << (k / stride) % shape[d];
      os << ")";
    }
    llvm::StringRef prefix = print.getPrefix();
    if (!prefix.empty())
      os << " " << prefix;
    for (auto [a, arg] : llvm::enumerate(args)) {
      os << (a || !prefix.ends_with(" ") ? " " : "");
      printElement(os, *arg, elems[a], arg->size() > 1 ? k : 0, print.getHex(),
                   a < isSigned.size() && isSigned[a]);
    }
    os << "\n";
  }
  os.flush();
  return success();
}

LogicalResult runAssert(Interpreter &I, Operation *op) {
  auto assertOp = cast<AssertOp>(op);
  const Array &cond = I.get(assertOp.getCondition());
  for (int64_t k = 0, n = cond.size(); k < n; ++k)
    if (!(cond.i[k] & 1)) {
      InFlightDiagnostic diag = I.error(op);
      diag << "device_assert failed";
      if (!cond.shape.empty())
        diag << " at element " << k;
      return diag << ": " << assertOp.getMessage();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// scf
//===----------------------------------------------------------------------===//

SmallVector<Array> getAll(Interpreter &I, ValueRange values) {
  SmallVector<Array> blocks;
  for (Value v : values)
    blocks.push_back(I.get(v));
  return blocks;
}

void setAll(Interpreter &I, ResultRange results, SmallVector<Array> &values) {
  for (auto [r, v] : llvm::zip(results, values))
    I.set(r, std::move(v));
}

LogicalResult runFor(Interpreter &I, Operation *op) {
  auto forOp = cast<scf::ForOp>(op);
  unsigned width = classify(forOp.getInductionVar().getType()).width;
  int64_t lb = signExtend(I.get(forOp.getLowerBound()).i[0], width);
  int64_t ub = signExtend(I.get(forOp.getUpperBound()).i[0], width);
  int64_t step = signExtend(I.get(forOp.getStep()).i[0], width);
  if (step <= 0)
    return I.error(op) << "scf.for step must be positive, got " << step;
  SmallVector<Array> args(1), results;
  SmallVector<Array> iter = getAll(I, forOp.getInitArgs());
  args.append(iter.begin(), iter.end());
  for (int64_t iv = lb; iv < ub; iv += step) {
    args[0] = Array::scalarInt(truncBits(uint64_t(iv), width));
    if (failed(I.runBlock(*forOp.getBody(), args, results)))
      return failure();
    for (size_t r = 0; r < results.size(); ++r)
      args[r + 1] = std::move(results[r]);
  }
  SmallVector<Array> final(std::make_move_iterator(args.begin() + 1),
                           std::make_move_iterator(args.end()));
  setAll(I, forOp.getResults(), final);
  return success();
}

LogicalResult runIf(Interpreter &I, Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool taken = I.get(ifOp.getCondition()).i[0] & 1;
  Region &region = taken ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  SmallVector<Array> results;
  if (failed(I.runBlock(region.front(), {}, results)))
    return failure();
  setAll(I, ifOp.getResults(), results);
  return success();
}

LogicalResult runWhile(Interpreter &I, Operation *op) {
  auto whileOp = cast<scf::WhileOp>(op);
  SmallVector<Array> args = getAll(I, whileOp.getInits()), results;
  while (true) {
    if (failed(I.runBlock(whileOp.getBefore().front(), args, results)))
      return failure();
    // scf.condition(%cond) %values...
    bool proceed = results.front().i[0] & 1;
    args.assign(std::make_move_iterator(results.begin() + 1),
                std::make_move_iterator(results.end()));
    if (!proceed)
      break;
    if (failed(I.runBlock(whileOp.getAfter().front(), args, results)))
      return failure();
    args = std::move(results);
    results = {};
  }
  setAll(I, whileOp.getResults(), args);
  return success();
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

#define FLOAT_UNARY(NAME, EXPR)                                                \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return floatUnary(I, op, [](double x) { return EXPR; });                 \
    }                                                                          \
  }
#define FLOAT_BINARY(NAME, EXPR)                                               \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return floatBinary(I, op, [](double a, double b) { return EXPR; });      \
    }                                                                          \
  }
#define INT_BINARY(NAME, EXPR)                                                 \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return intBinary(I, op,                                                  \
                       [](uint64_t a, uint64_t b, unsigned w) -> uint64_t {    \
                         (void)w;                                              \
                         return EXPR;                                          \
                       });                                                     \
    }                                                                          \
  }
#define INT_UNARY(NAME, EXPR)                                                  \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return intUnary(I, op, [](uint64_t a, unsigned w) -> uint64_t {          \
        (void)w;                                                               \
        return EXPR;                                                           \
      });                                                                      \
    }                                                                          \
  }
#define NO_OP(NAME)                                                            \
  {                                                                            \
    NAME, [](Interpreter &, Operation *) { return success(); }                 \
  }

int64_t sx(uint64_t v, unsigned w) { return signExtend(v, w); }

const llvm::StringMap<Handler> &getHandlers() {
  static const llvm::StringMap<Handler> handlers = {
      // tile
      {"tile.program_id", runProgramId},
      {"tile.num_programs", runNumPrograms},
      {"tile.make_range", runMakeRange},
      {"tile.splat", runSplat},
      {"tile.addptr", runAddPtr},
      {"tile.load", runLoad},
      {"tile.store", runStore},
      {"tile.broadcast", runBroadcast},
      {"tile.expand_dims", runReshapeLike},
      {"tile.reshape", runReshapeLike},
      {"tile.trans", runTrans},
      {"tile.cat", runCat},
      {"tile.join", runJoin},
      {"tile.split", runSplit},
      {"tile.dot", runDot},
      {"tile.reduce", runReduce},
      {"tile.scan", runScan},
      {"tile.atomic_rmw", runAtomicRMW},
      {"tile.atomic_cas", runAtomicCAS},
      INT_BINARY("tile.umulhi", mulHigh(a, b, w)),
      FLOAT_UNARY("tile.precise_sqrt", std::sqrt(x)),
      FLOAT_BINARY("tile.precise_divf", a / b),
      {"tile.clampf",
       [](Interpreter &I, Operation *op) {
         bool propagateNan = cast<ClampFOp>(op).getPropagateNan();
         return floatTernary(I, op, [&](double x, double lo, double hi) {
           if (propagateNan && std::isnan(x))
             return x;
           return std::fmin(std::fmax(x, lo), hi);
         });
       }},
      INT_UNARY("tile.int_to_ptr", a),
      INT_UNARY("tile.ptr_to_int", a),
      INT_UNARY("tile.ptr_cast", a),
      {"tile.print", runPrint},
      {"tile.assert", runAssert},
      // Programs are single blocks evaluated op by op: nothing to wait for.
      NO_OP("tile.debug_barrier"),
      // The terminators of combine regions (runBlock returns at them).
      NO_OP("tile.reduce_return"),
      NO_OP("tile.scan_return"),

      // arith
      {"arith.constant", runConstant},
      FLOAT_BINARY("arith.addf", a + b),
      FLOAT_BINARY("arith.subf", a - b),
      FLOAT_BINARY("arith.mulf", a * b),
      FLOAT_BINARY("arith.divf", a / b),
      FLOAT_BINARY("arith.remf", std::fmod(a, b)),
      FLOAT_BINARY("arith.maxnumf", std::fmax(a, b)),
      FLOAT_BINARY("arith.minnumf", std::fmin(a, b)),
      FLOAT_BINARY("arith.maximumf", maximumF(a, b)),
      FLOAT_BINARY("arith.minimumf", minimumF(a, b)),
      FLOAT_UNARY("arith.negf", -x),
      INT_BINARY("arith.addi", a + b),
      INT_BINARY("arith.subi", a - b),
      INT_BINARY("arith.muli", a * b),
      INT_BINARY("arith.divsi", divSigned(a, b, w)),
      INT_BINARY("arith.divui", b ? a / b : ~uint64_t(0)),
      INT_BINARY("arith.remsi", remSigned(a, b, w)),
      INT_BINARY("arith.remui", b ? a % b : a),
      INT_BINARY("arith.ceildivsi", ceilDivSigned(a, b, w)),
      INT_BINARY("arith.ceildivui", b ? a / b + (a % b != 0) : ~uint64_t(0)),
      INT_BINARY("arith.floordivsi", floorDivSigned(a, b, w)),
      INT_BINARY("arith.andi", a & b),
      INT_BINARY("arith.ori", a | b),
      INT_BINARY("arith.xori", a ^ b),
      INT_BINARY("arith.shli", shiftLeft(a, b, w)),
      INT_BINARY("arith.shrsi", shiftRightSigned(a, b, w)),
      INT_BINARY("arith.shrui", shiftRightUnsigned(a, b, w)),
      INT_BINARY("arith.maxsi", sx(a, w) > sx(b, w) ? a : b),
      INT_BINARY("arith.minsi", sx(a, w) < sx(b, w) ? a : b),
      INT_BINARY("arith.maxui", std::max(a, b)),
      INT_BINARY("arith.minui", std::min(a, b)),
      INT_BINARY("arith.mulhisi",
                 uint64_t((__int128)sx(a, w) * sx(b, w) >> w)),
      INT_BINARY("arith.mulhiui", mulHigh(a, b, w)),
      {"arith.cmpi", runCmpI},
      {"arith.cmpf", runCmpF},
      {"arith.select", runSelect},
      {"arith.extf", runFloatToFloat},
      {"arith.truncf", runFloatToFloat},
      {"arith.sitofp",
       [](Interpreter &I, Operation *op) { return runIntToFloat(I, op, true); }},
      {"arith.uitofp",
       [](Interpreter &I, Operation *op) {
         return runIntToFloat(I, op, false);
       }},
      {"arith.fptosi",
       [](Interpreter &I, Operation *op) { return runFloatToInt(I, op, true); }},
      {"arith.fptoui",
       [](Interpreter &I, Operation *op) {
         return runFloatToInt(I, op, false);
       }},
      {"arith.extsi",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, true); }},
      {"arith.extui",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.trunci",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.index_cast",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, true); }},
      {"arith.index_castui",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.bitcast", runBitcast},

      // math
      FLOAT_UNARY("math.exp", std::exp(x)),
      FLOAT_UNARY("math.exp2", std::exp2(x)),
      FLOAT_UNARY("math.expm1", std::expm1(x)),
      FLOAT_UNARY("math.log", std::log(x)),
      FLOAT_UNARY("math.log2", std::log2(x)),
      FLOAT_UNARY("math.log10", std::log10(x)),
      FLOAT_UNARY("math.log1p", std::log1p(x)),
      FLOAT_UNARY("math.sqrt", std::sqrt(x)),
      FLOAT_UNARY("math.rsqrt", 1.0 / std::sqrt(x)),
      FLOAT_UNARY("math.cbrt", std::cbrt(x)),
      FLOAT_UNARY("math.absf", std::fabs(x)),
      FLOAT_UNARY("math.sin", std::sin(x)),
      FLOAT_UNARY("math.cos", std::cos(x)),
      FLOAT_UNARY("math.tan", std::tan(x)),
      FLOAT_UNARY("math.asin", std::asin(x)),
      FLOAT_UNARY("math.acos", std::acos(x)),
      FLOAT_UNARY("math.atan", std::atan(x)),
      FLOAT_UNARY("math.sinh", std::sinh(x)),
      FLOAT_UNARY("math.cosh", std::cosh(x)),
      FLOAT_UNARY("math.tanh", std::tanh(x)),
      FLOAT_UNARY("math.erf", std::erf(x)),
      FLOAT_UNARY("math.erfc", std::erfc(x)),
      FLOAT_UNARY("math.floor", std::floor(x)),
      FLOAT_UNARY("math.ceil", std::ceil(x)),
      FLOAT_UNARY("math.round", std::round(x)),
      FLOAT_UNARY("math.roundeven", std::nearbyint(x)),
      FLOAT_UNARY("math.trunc", std::trunc(x)),
      FLOAT_BINARY("math.powf", std::pow(a, b)),
      FLOAT_BINARY("math.atan2", std::atan2(a, b)),
      FLOAT_BINARY("math.copysign", std::copysign(a, b)),
      {"math.fma",
       [](Interpreter &I, Operation *op) {
         return floatTernary(I, op, [](double a, double b, double c) {
           return std::fma(a, b, c);
         });
       }},
      INT_UNARY("math.absi", uint64_t(std::abs(sx(a, w)))),
      INT_UNARY("math.ctpop", uint64_t(llvm::popcount(a))),
      INT_UNARY("math.ctlz", a ? uint64_t(llvm::countl_zero(a)) - (64 - w)
                               : uint64_t(w)),
      INT_UNARY("math.cttz", a ? uint64_t(llvm::countr_zero(a)) : uint64_t(w)),

      // scf and func
      {"scf.for", runFor},
      {"scf.if", runIf},
      {"scf.while", runWhile},
      NO_OP("scf.yield"),
      NO_OP("scf.condition"),
      NO_OP("func.return"),
  };
  return handlers;
}

#undef FLOAT_UNARY
#undef FLOAT_BINARY
#undef INT_BINARY
#undef INT_UNARY
#undef NO_OP

} // namespace

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

void mlir::tile::interp::registerInterpretedDialects(
    DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect>();
}

std::vector<std::string> mlir::tile::interp::getHandledOpNames() {
  std::vector<std::string> names;
  for (const auto &entry : getHandlers())
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

LogicalResult mlir::tile::interp::verifyInterpretable(func::FuncOp kernel) {
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    if (getHandlers().count(op->getName().getStringRef()))
      return WalkResult::advance();
    op->emitError() << "the interpreter does not support '" << op->getName()
                    << "'";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::tile::interp::runKernel(func::FuncOp kernel,
                                            ArrayRef<Argument> args,
                                            ArrayRef<Buffer> buffers,
                                            const LaunchOptions &options) {
  if (kernel.isExternal())
    return kernel.emitError() << "the kernel has no body";
  if (failed(verifyInterpretable(kernel)))
    return failure();
  ArrayRef<Type> types = kernel.getArgumentTypes();
  if (types.size() != args.size())
    return kernel.emitError() << "the kernel takes " << types.size()
                              << " arguments, the launch gives " << args.size();
  SmallVector<Array> blocks;
  for (auto [index, type, arg] : llvm::enumerate(types, args)) {
    Elem elem = classify(type);
    if (isa<RankedTensorType>(type))
      return kernel.emitError() << "argument " << index << " is a tensor";
    bool wantBuffer = elem.kind == Kind::Ptr;
    if (wantBuffer != (arg.kind == Argument::Kind::Buffer) ||
        (arg.kind == Argument::Kind::Float && !elem.isFloat()))
      return kernel.emitError()
             << "argument " << index << " of type " << type
             << " does not match the launch's "
             << (arg.kind == Argument::Kind::Buffer  ? "buffer"
                 : arg.kind == Argument::Kind::Float ? "float"
                                                     : "integer");
    Array block = Array::make(elem.isFloat(), {});
    if (arg.kind == Argument::Kind::Buffer) {
      if (arg.buffer >= buffers.size())
        return kernel.emitError()
               << "argument " << index << ": no buffer " << arg.buffer;
      block.i[0] = Interpreter::bufferAddress(arg.buffer);
    } else if (elem.isFloat()) {
      block.f[0] = roundTo(elem.kind, arg.kind == Argument::Kind::Float
                                          ? arg.floatValue
                                          : double(arg.intValue));
    } else {
      block.i[0] = truncBits(uint64_t(arg.intValue), elem.width);
    }
    blocks.push_back(std::move(block));
  }
  Interpreter interpreter(buffers, options);
  for (int64_t z = 0; z < options.grid[2]; ++z)
    for (int64_t y = 0; y < options.grid[1]; ++y)
      for (int64_t x = 0; x < options.grid[0]; ++x)
        if (failed(interpreter.runProgram(kernel, blocks, {x, y, z})))
          return failure();
  return success();
}
