//===- Elementwise.cpp - compute element-wise launch expressions ----------===//
//
// Computes the element-wise expressions LaunchElementwise.cpp builds, from
// the buffers' host contents: a node whose dtype is an integer or i1 in
// int64, wrapped to its dtype's width as torch's integer arithmetic wraps;
// a float node in float64, rounded only where `.to(dtype)` asks. A derived
// buffer rounds the result once to its dtype; a check's reference keeps it
// in float64.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "LaunchEvaluator.h"
#include "tile/Driver/References.h"

#include <cmath>
#include <limits>

namespace tile::launch {
using detail::ElemCategory;
using detail::getCategory;

namespace {
int64_t getNumElementsOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Maps a flat index of the result's shape to the operand's element that
/// numpy broadcasting puts there.
class BroadcastMap {
public:
  BroadcastMap(llvm::ArrayRef<int64_t> result, llvm::ArrayRef<int64_t> operand)
      : shape(result) {
    if (result == operand)
      mode = Mode::Same;
    else if (getNumElementsOf(operand) == 1)
      mode = Mode::Scalar;
    else {
      mode = Mode::General;
      strides.assign(result.size(), 0);
      int64_t stride = 1;
      for (size_t i = 0; i < operand.size(); ++i) {
        size_t od = operand.size() - 1 - i, rd = result.size() - 1 - i;
        strides[rd] = operand[od] == 1 ? 0 : stride;
        stride *= operand[od];
      }
    }
  }
  int64_t map(int64_t flat) const {
    if (mode == Mode::Same)
      return flat;
    if (mode == Mode::Scalar)
      return 0;
    int64_t index = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      index += flat % shape[d] * strides[d];
      flat /= shape[d];
    }
    return index;
  }

private:
  enum class Mode { Same, Scalar, General } mode;
  std::vector<int64_t> shape, strides;
};

/// An integer wrapped to `type`'s width, as stored there (i1: 0 or 1).
int64_t wrapTo(DType type, int64_t v) {
  switch (type) {
  case DType::I8:
    return int8_t(v);
  case DType::I16:
    return int16_t(v);
  case DType::I32:
    return int32_t(v);
  case DType::U8:
    return uint8_t(v);
  case DType::U16:
    return uint16_t(v);
  case DType::U32:
    return uint32_t(v);
  case DType::Bool:
    return v != 0;
  default:
    return v;
  }
}

/// A float converted to an integer as torch's .to() does: truncated toward
/// zero (NaN is 0, out of range saturates to int64's range).
int64_t truncateToInt(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return int64_t(v);
}

int64_t wrappingAdd(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) + uint64_t(b));
}
int64_t wrappingSub(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) - uint64_t(b));
}
int64_t wrappingMul(int64_t a, int64_t b) {
  return int64_t(uint64_t(a) * uint64_t(b));
}

class Computer {
public:
  Computer(const std::vector<HostArray> &buffers, const LaunchSpec &spec,
           unsigned output, std::string &error)
      : buffers(buffers), spec(spec), output(output), error(error) {}

  bool compute(const ElemExpr &e, Column &out);

private:
  bool fail(const std::string &message) {
    error = message;
    return false;
  }
  bool computeBinary(const ElemExpr &e, const Column &a, const Column &b,
                     Column &out);
  bool computeInt(ElemOp op, int64_t x, int64_t y, int64_t &result);
  static double computeFloat(ElemOp op, double x, double y);

  const std::vector<HostArray> &buffers;
  const LaunchSpec &spec;
  unsigned output;
  std::string &error;
};

bool Computer::computeInt(ElemOp op, int64_t x, int64_t y, int64_t &result) {
  switch (op) {
  case ElemOp::Add:
    result = wrappingAdd(x, y);
    return true;
  case ElemOp::Sub:
    result = wrappingSub(x, y);
    return true;
  case ElemOp::Mul:
    result = wrappingMul(x, y);
    return true;
  case ElemOp::FloorDiv:
  case ElemOp::Mod: {
    if (y == 0)
      return fail("integer division by zero");
    if (y == -1) { // INT64_MIN // -1 wraps; any % -1 is 0
      result = op == ElemOp::Mod ? 0 : wrappingSub(0, x);
      return true;
    }
    int64_t q = x / y, r = x % y;
    bool adjust = r != 0 && ((r < 0) != (y < 0));
    result = op == ElemOp::Mod ? (adjust ? r + y : r) : (adjust ? q - 1 : q);
    return true;
  }
  case ElemOp::Pow: {
    if (y < 0)
      return fail("integers to negative integer powers are not allowed");
    int64_t power = 1, base = x;
    for (; y; y >>= 1, base = wrappingMul(base, base))
      if (y & 1)
        power = wrappingMul(power, base);
    result = power;
    return true;
  }
  case ElemOp::BitAnd:
    result = x & y;
    return true;
  case ElemOp::BitOr:
    result = x | y;
    return true;
  case ElemOp::BitXor:
    result = x ^ y;
    return true;
  case ElemOp::Minimum:
    result = std::min(x, y);
    return true;
  case ElemOp::Maximum:
    result = std::max(x, y);
    return true;
  case ElemOp::Lt:
    result = x < y;
    return true;
  case ElemOp::Le:
    result = x <= y;
    return true;
  case ElemOp::Gt:
    result = x > y;
    return true;
  case ElemOp::Ge:
    result = x >= y;
    return true;
  case ElemOp::Eq:
    result = x == y;
    return true;
  case ElemOp::Ne:
    result = x != y;
    return true;
  default:
    return fail("internal error: not an integer operation");
  }
}

double Computer::computeFloat(ElemOp op, double x, double y) {
  switch (op) {
  case ElemOp::Add:
    return x + y;
  case ElemOp::Sub:
    return x - y;
  case ElemOp::Mul:
    return x * y;
  case ElemOp::Div:
    return x / y;
  case ElemOp::FloorDiv:
    return std::floor(x / y);
  case ElemOp::Mod: {
    // Python's: the sign of the divisor.
    double r = std::fmod(x, y);
    return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
  }
  case ElemOp::Pow:
    return std::pow(x, y);
  case ElemOp::Minimum:
  case ElemOp::Maximum:
    if (std::isnan(x) || std::isnan(y))
      return NAN;
    return op == ElemOp::Minimum ? std::min(x, y) : std::max(x, y);
  case ElemOp::Lt:
    return x < y;
  case ElemOp::Le:
    return x <= y;
  case ElemOp::Gt:
    return x > y;
  case ElemOp::Ge:
    return x >= y;
  case ElemOp::Eq:
    return x == y;
  case ElemOp::Ne:
    return x != y;
  default:
    return NAN;
  }
}

bool Computer::computeBinary(const ElemExpr &e, const Column &a,
                             const Column &b, Column &out) {
  BroadcastMap mapA(e.shape, a.shape), mapB(e.shape, b.shape);
  int64_t n = getNumElementsOf(e.shape);
  bool isCompare = e.dtype == DType::Bool && e.op != ElemOp::BitAnd &&
                   e.op != ElemOp::BitOr && e.op != ElemOp::BitXor &&
                   e.op != ElemOp::Minimum && e.op != ElemOp::Maximum;
  // Integer operands compute in int64, others in float64 (a comparison
  // gives i1 either way).
  bool inInts = isCompare ? a.isInt && b.isInt : out.isInt;
  for (int64_t i = 0; i < n; ++i) {
    int64_t ia = mapA.map(i), ib = mapB.map(i);
    if (inInts) {
      int64_t result;
      if (!computeInt(e.op, a.ints[ia], b.ints[ib], result))
        return false;
      out.ints[i] = wrapTo(e.dtype, result);
    } else {
      double result = computeFloat(e.op, a.getDouble(ia), b.getDouble(ib));
      if (out.isInt)
        out.ints[i] = int64_t(result); // a comparison: 0 or 1
      else
        out.floats[i] = result;
    }
  }
  return true;
}

bool Computer::compute(const ElemExpr &e, Column &out) {
  out.shape = e.shape;
  out.isInt = getCategory(e.dtype) != ElemCategory::Float;
  int64_t n = getNumElementsOf(e.shape);
  switch (e.op) {
  case ElemOp::Buffer: {
    const HostArray &buffer = buffers[e.buffer];
    if (out.isInt) {
      out.ints.resize(n);
      for (int64_t i = 0; i < n; ++i)
        out.ints[i] = buffer.getInt(i);
    } else {
      out.floats = buffer.toDoubles();
    }
    return true;
  }
  case ElemOp::Constant:
    out.isInt = e.constant.kind != Value::Kind::Float;
    if (out.isInt)
      out.ints.assign(1, e.constant.intValue);
    else
      out.floats.assign(1, e.constant.floatValue);
    return true;
  case ElemOp::Reference: {
    Check check;
    check.output = output;
    check.reference = e.name;
    check.args = e.args;
    out.isInt = false;
    return ::tile::computeReference(check, buffers, spec, out.floats, error);
  }
  default:
    break;
  }

  std::vector<Column> operands(e.operands.size());
  for (size_t i = 0; i < operands.size(); ++i)
    if (!compute(*e.operands[i], operands[i]))
      return false;
  if (out.isInt)
    out.ints.resize(n);
  else
    out.floats.resize(n);
  const Column &a = operands[0];
  BroadcastMap mapA(e.shape, a.shape);

  switch (e.op) {
  case ElemOp::Neg:
  case ElemOp::Invert:
    for (int64_t i = 0; i < n; ++i) {
      int64_t ia = mapA.map(i);
      if (!out.isInt)
        out.floats[i] = -a.floats[ia];
      else if (e.op == ElemOp::Neg)
        out.ints[i] = wrapTo(e.dtype, wrappingSub(0, a.ints[ia]));
      else
        out.ints[i] = e.dtype == DType::Bool ? a.ints[ia] == 0
                                             : wrapTo(e.dtype, ~a.ints[ia]);
    }
    return true;
  case ElemOp::Cast: {
    // As the value would be stored in the dtype.
    HostArray scratch;
    scratch.dtype = e.dtype;
    scratch.bytes.resize(getByteWidth(e.dtype));
    for (int64_t i = 0; i < n; ++i) {
      int64_t ia = mapA.map(i);
      if (out.isInt) {
        out.ints[i] =
            wrapTo(e.dtype, a.isInt ? a.ints[ia] : truncateToInt(a.floats[ia]));
      } else {
        scratch.set(0, a.getDouble(ia));
        out.floats[i] = scratch.get(0);
      }
    }
    return true;
  }
  case ElemOp::Math: {
    detail::MathFunction fn = detail::getMathFunction(e.name);
    bool isAbs = e.name == "abs";
    for (int64_t i = 0; i < n; ++i) {
      int64_t ia = mapA.map(i);
      if (out.isInt) // abs, floor and ceil of integers
        out.ints[i] = isAbs && a.ints[ia] < 0
                          ? wrapTo(e.dtype, wrappingSub(0, a.ints[ia]))
                          : a.ints[ia];
      else
        out.floats[i] = fn(a.getDouble(ia));
    }
    return true;
  }
  case ElemOp::Where: {
    const Column &x = operands[1], &y = operands[2];
    BroadcastMap mapX(e.shape, x.shape), mapY(e.shape, y.shape);
    for (int64_t i = 0; i < n; ++i) {
      bool pick = a.getDouble(mapA.map(i)) != 0;
      const Column &from = pick ? x : y;
      int64_t index = pick ? mapX.map(i) : mapY.map(i);
      if (out.isInt)
        out.ints[i] = wrapTo(e.dtype, from.ints[index]);
      else
        out.floats[i] = from.getDouble(index);
    }
    return true;
  }
  default:
    return computeBinary(e, a, operands[1], out);
  }
}
} // namespace

bool evaluate(const ElemExpr &expr, const std::vector<HostArray> &buffers,
              const LaunchSpec &spec, unsigned output, Column &result,
              std::string &error) {
  return Computer(buffers, spec, output, error).compute(expr, result);
}

bool computeDerived(unsigned index, const std::vector<HostArray> &buffers,
                    const LaunchSpec &spec, HostArray &target,
                    std::string &error) {
  Column column;
  if (!evaluate(*spec.buffers[index].derived, buffers, spec, index, column,
                error))
    return false;
  BroadcastMap map(target.shape, column.shape);
  bool isInt = getCategory(target.dtype) != ElemCategory::Float;
  for (int64_t i = 0; i < target.size(); ++i) {
    int64_t from = map.map(i);
    if (!isInt)
      target.set(i, column.getDouble(from));
    else
      target.setInt(i, column.isInt ? column.ints[from]
                                    : truncateToInt(column.floats[from]));
  }
  return true;
}

bool computeExpressionReference(const Check &check,
                                const std::vector<HostArray> &inputs,
                                const LaunchSpec &spec,
                                std::vector<double> &reference,
                                std::string &error) {
  Column column;
  if (!evaluate(*check.expr, inputs, spec, check.output, column, error))
    return false;
  const BufferSpec &output = spec.buffers[check.output];
  BroadcastMap map(output.shape, column.shape);
  reference.resize(output.getNumElements());
  for (int64_t i = 0; i < int64_t(reference.size()); ++i)
    reference[i] = column.getDouble(map.map(i));
  return true;
}
} // namespace tile::launch
