//===- InterpreterImpl.h - what the interpreter's files share ---*- C++ -*-===//
//
// Private to lib/Interpreter. How a value is held (Elem, Array), the
// Interpreter that walks a program and holds its values, the templates the
// elementwise handlers are written with, and the handler of every op that
// is not a one-line expression in the table (OpTable.cpp). The handlers
// live in one file per op family: ArithOps, MemoryOps, ShapeOps, DotOp,
// ReductionOps, DebugOps and ControlFlowOps.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_INTERPRETER_INTERPRETERIMPL_H
#define TILE_LIB_INTERPRETER_INTERPRETERIMPL_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Interpreter/FloatFormats.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <unordered_map>

namespace mlir::tile::interp::detail {

//===----------------------------------------------------------------------===//
// Element types and values
//===----------------------------------------------------------------------===//

/// Floats first (isFloat); the fp8 kinds are Triton's three NVIDIA formats.
enum class Kind : uint8_t {
  F16,
  BF16,
  F32,
  F8E4M3FN,
  F8E5M2,
  F8E4M3B15,
  F64,
  Int,
  Ptr
};

inline bool isFp8(Kind kind) {
  return kind == Kind::F8E4M3FN || kind == Kind::F8E5M2 ||
         kind == Kind::F8E4M3B15;
}
inline Fp8Format fp8Format(Kind kind) {
  return kind == Kind::F8E4M3FN ? Fp8Format::E4M3FN
         : kind == Kind::F8E5M2 ? Fp8Format::E5M2
                                : Fp8Format::E4M3B15;
}

/// How an element type is held and stored.
struct Elem {
  Kind kind = Kind::Int;
  unsigned width = 32; // bits of an integer; 64 for pointers and index
  bool isFloat() const { return kind <= Kind::F64; }
  /// Bytes in memory (i1 is a byte, as Triton stores bools).
  unsigned bytes() const {
    switch (kind) {
    case Kind::F8E4M3FN:
    case Kind::F8E5M2:
    case Kind::F8E4M3B15:
      return 1;
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

inline Elem classify(Type type) {
  type = getElementTypeOrSelf(type);
  if (type.isF16())
    return {Kind::F16, 16};
  if (type.isBF16())
    return {Kind::BF16, 16};
  if (type.isF32())
    return {Kind::F32, 32};
  if (type.isF64())
    return {Kind::F64, 64};
  if (isa<Float8E4M3FNType>(type))
    return {Kind::F8E4M3FN, 8};
  if (isa<Float8E5M2Type>(type))
    return {Kind::F8E5M2, 8};
  if (isa<Float8E4M3B11FNUZType>(type)) // Triton's fp8e4b15
    return {Kind::F8E4M3B15, 8};
  if (auto intType = dyn_cast<IntegerType>(type))
    return {Kind::Int, intType.getWidth()};
  if (isa<PointerType>(type))
    return {Kind::Ptr, 64};
  return {Kind::Int, 64}; // index
}

inline double roundTo(Kind kind, double x) {
  switch (kind) {
  case Kind::F16:
    return roundToF16(x);
  case Kind::BF16:
    return roundToBF16(x);
  case Kind::F32:
    return roundToF32(x);
  case Kind::F8E4M3FN:
  case Kind::F8E5M2:
  case Kind::F8E4M3B15:
    return roundToFp8(x, fp8Format(kind));
  default:
    return x;
  }
}

inline uint64_t truncBits(uint64_t v, unsigned width) {
  return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
}

inline int64_t signExtend(uint64_t v, unsigned width) {
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

inline ArrayRef<int64_t> shapeOf(Type type) {
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
SmallVector<int64_t, 4> stridesOf(ArrayRef<int64_t> shape);

/// Gathers `src` into a block of `shape`: element k of the result is
/// src[sum(index_d(k) * srcStrides[d])]. Broadcast and transpose are this
/// with zero or permuted strides.
Array gatherBlock(const Array &src, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> srcStrides);

/// Moves `axis` of `src` to the front: the result is [K, M] row-major with
/// M the product of the other dimensions, in their order.
Array axisToFront(const Array &src, unsigned axis);

/// The inverse of axisToFront, back to `shape`.
Array axisFromFront(const Array &src, ArrayRef<int64_t> shape, unsigned axis);

/// Rows begin, begin + step, ... before end of a [K, M] block, as a 1-D
/// block.
Array rows(const Array &src, int64_t m, int64_t begin, int64_t end,
           int64_t step = 1);

/// Repeats a one-element block to n elements (a combine region may yield a
/// constant).
void stretch(Array &b, int64_t n);

/// The bits of a float of `kind` as memory holds them, and back.
uint64_t floatBits(double x, Kind kind);
double bitsToFloat(uint64_t bits, Kind kind);

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interpreter;
using Handler = LogicalResult (*)(Interpreter &, Operation *);
const llvm::StringMap<Handler> &getHandlers();
/// Ops the interpreter knows it cannot run (inline PTX), each with the
/// message it reports at the op.
const llvm::StringMap<std::string> &getRefusedOps();

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
  /// reporting which buffer it misses. Inline: every element of every load
  /// and store comes here.
  uint8_t *resolve(Operation *op, uint64_t address, unsigned size,
                   int64_t element) {
    uint64_t index = address >> kAddressShift;
    uint64_t offset = address & ((uint64_t(1) << kAddressShift) - 1);
    // Element sizes are powers of two: a mask, not a division.
    bool aligned = (size & (size - 1)) == 0 ? (offset & (size - 1)) == 0
                                            : offset % size == 0;
    if (index >= 1 && index <= buffers.size() && aligned &&
        offset + size <= buffers[index - 1].bytes.size())
      return buffers[index - 1].bytes.data() + offset;
    reportBadAccess(op, address, size, element);
    return nullptr;
  }
  /// The error for an access resolve refuses: misaligned, or which buffer
  /// it misses.
  void reportBadAccess(Operation *op, uint64_t address, unsigned size,
                       int64_t element);

  std::array<int64_t, 3> pid{0, 0, 0};
  ArrayRef<Buffer> buffers;
  const LaunchOptions &options;

private:
  std::unordered_map<const void *, Array> env;
  llvm::DenseMap<const void *, Handler> handlerCache;
};

//===----------------------------------------------------------------------===//
// Elementwise helpers
//===----------------------------------------------------------------------===//

/// The shape of an elementwise result: the operand with the most elements
/// (one-element operands stretch to it).
ArrayRef<int64_t> resultShape(ArrayRef<const Array *> operands);

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

//===----------------------------------------------------------------------===//
// Handlers, by family
//===----------------------------------------------------------------------===//

// ArithOps.cpp
LogicalResult runConstant(Interpreter &I, Operation *op);
LogicalResult runCmpI(Interpreter &I, Operation *op);
LogicalResult runCmpF(Interpreter &I, Operation *op);
LogicalResult runSelect(Interpreter &I, Operation *op);
LogicalResult runFloatToFloat(Interpreter &I, Operation *op);
LogicalResult runIntToFloat(Interpreter &I, Operation *op, bool isSigned);
LogicalResult runFloatToInt(Interpreter &I, Operation *op, bool isSigned);
LogicalResult runIntToInt(Interpreter &I, Operation *op, bool isSigned);
LogicalResult runBitcast(Interpreter &I, Operation *op);

// MemoryOps.cpp
LogicalResult runLoad(Interpreter &I, Operation *op);
LogicalResult runStore(Interpreter &I, Operation *op);
LogicalResult runAtomicRMW(Interpreter &I, Operation *op);
LogicalResult runAtomicCAS(Interpreter &I, Operation *op);

// ShapeOps.cpp
LogicalResult runProgramId(Interpreter &I, Operation *op);
LogicalResult runNumPrograms(Interpreter &I, Operation *op);
LogicalResult runMakeRange(Interpreter &I, Operation *op);
LogicalResult runSplat(Interpreter &I, Operation *op);
LogicalResult runAddPtr(Interpreter &I, Operation *op);
LogicalResult runReshapeLike(Interpreter &I, Operation *op);
LogicalResult runBroadcast(Interpreter &I, Operation *op);
LogicalResult runTrans(Interpreter &I, Operation *op);
LogicalResult runCat(Interpreter &I, Operation *op);
LogicalResult runJoin(Interpreter &I, Operation *op);
LogicalResult runSplit(Interpreter &I, Operation *op);
LogicalResult runGather(Interpreter &I, Operation *op);
LogicalResult runHistogram(Interpreter &I, Operation *op);

// ExternOps.cpp
LogicalResult runExternElementwise(Interpreter &I, Operation *op);

// DotOp.cpp
LogicalResult runDot(Interpreter &I, Operation *op);

// ReductionOps.cpp
LogicalResult runReduce(Interpreter &I, Operation *op);
LogicalResult runScan(Interpreter &I, Operation *op);

// DebugOps.cpp
LogicalResult runPrint(Interpreter &I, Operation *op);
LogicalResult runAssert(Interpreter &I, Operation *op);

// ControlFlowOps.cpp
LogicalResult runFor(Interpreter &I, Operation *op);
LogicalResult runIf(Interpreter &I, Operation *op);
LogicalResult runWhile(Interpreter &I, Operation *op);

} // namespace mlir::tile::interp::detail

#endif // TILE_LIB_INTERPRETER_INTERPRETERIMPL_H
