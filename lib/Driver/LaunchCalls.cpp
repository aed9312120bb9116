//===- LaunchCalls.cpp - functions a launch calls -------------------------===//
//
// The functions a launch description may call: the buffer constructors
// (rand, randn, zeros, empty, and ptrs, a table of other buffers' addresses),
// stride and the integer helpers (cdiv,
// next_power_of_2, min, max, num_sms(), occupancy()). The element-wise
// functions (where, exp, x.to(dtype), ...) are in LaunchElementwise.cpp.
//
//===----------------------------------------------------------------------===//

#include "LaunchEvaluator.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace tile;
using namespace tile::launch;
using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using namespace tile::launch::detail;

namespace {
/// A new buffer of the launch, as the value a description binds.
Value addBuffer(LaunchSpec &spec, BufferSpec buffer) {
  Value value;
  value.kind = Value::Kind::Buffer;
  value.buffer = spec.buffers.size();
  spec.buffers.push_back(std::move(buffer));
  return value;
}
} // namespace

std::optional<Value> Evaluator::evalCall(const ast::CallExpr &expr) {
  if (isElementwiseCall(expr))
    return evalElementwiseCall(expr);
  const auto *callee = dyn_cast<ast::NameExpr>(&expr.getCallee());
  if (!callee)
    return error(expr, "only plain function names and x.to(dtype) can be "
                       "called here");
  llvm::StringRef name = callee->getName();
  const ast::ExprList &args = expr.getArgs();
  if (!expr.getKeywords().empty()) {
    diag.error(expr.getKeywords()[0].loc,
               name + "() takes no keyword arguments (got '" +
                   expr.getKeywords()[0].name + "')");
    return std::nullopt;
  }
  auto expectArgs = [&](size_t lo, size_t hi) {
    if (args.size() >= lo && args.size() <= hi)
      return true;
    error(expr, name + "() takes " + std::to_string(lo) +
                    (hi != lo ? " to " + std::to_string(hi) : "") +
                    " arguments, got " + std::to_string(args.size()));
    return false;
  };

  // Buffers.
  auto init = llvm::StringSwitch<std::optional<BufferSpec::Init>>(name)
                  .Case("rand", BufferSpec::Init::Rand)
                  .Case("randn", BufferSpec::Init::Randn)
                  .Case("zeros", BufferSpec::Init::Zeros)
                  .Case("empty", BufferSpec::Init::Empty)
                  .Case("arange", BufferSpec::Init::Arange)
                  .Default(std::nullopt);
  if (init) {
    if (!expectArgs(2, 5))
      return std::nullopt;
    std::optional<Value> dtype = eval(*args[0]);
    if (!dtype)
      return std::nullopt;
    if (dtype->kind != Value::Kind::DType)
      return error(*args[0], name + "() needs a dtype first (fp16, bf16, "
                                    "fp32, fp64, i8, i16, i32, i64, u8, "
                                    "u16, u32, u64, i1)");
    BufferSpec buffer;
    buffer.dtype = dtype->dtype;
    buffer.init = *init;
    for (size_t i = 1; i < args.size(); ++i) {
      std::optional<int64_t> extent = evalInt(*args[i]);
      if (!extent)
        return std::nullopt;
      if (*extent <= 0 || *extent > (int64_t(1) << 34))
        return error(*args[i], "buffer extent " + std::to_string(*extent) +
                                   " out of range");
      buffer.shape.push_back(*extent);
    }
    // The byte size, checked as it grows so that it cannot overflow.
    int64_t bytes = getByteWidth(buffer.dtype);
    for (int64_t extent : buffer.shape) {
      if (extent > (int64_t(1) << 36) / bytes)
        return error(expr, "buffer of more than 2^36 bytes is too large");
      bytes *= extent;
    }
    return addBuffer(spec, std::move(buffer));
  }

  // A table of the other buffers' device addresses, as the int64 tensor of
  // data_ptr()s that Triton's grouped GEMM takes.
  if (name == "ptrs") {
    if (args.empty())
      return error(expr, "ptrs() needs at least one buffer");
    BufferSpec table;
    table.dtype = DType::I64;
    table.init = BufferSpec::Init::Pointers;
    table.shape = {int64_t(args.size())};
    for (const auto &arg : args) {
      std::optional<Value> buffer = eval(*arg);
      if (!buffer)
        return std::nullopt;
      if (buffer->kind != Value::Kind::Buffer)
        return error(*arg, "ptrs() takes buffers, got " + buffer->describe());
      table.pointees.push_back(buffer->buffer);
    }
    return addBuffer(spec, std::move(table));
  }

  // A 1-D buffer of the listed numbers: the sizes and leading dimensions
  // tutorial 08 hands its grouped GEMM as small int32 tensors.
  if (name == "values") {
    if (args.size() < 2)
      return error(expr, "values() needs a dtype and at least one number");
    std::optional<Value> dtype = eval(*args[0]);
    if (!dtype)
      return std::nullopt;
    if (dtype->kind != Value::Kind::DType)
      return error(*args[0], "values() needs a dtype first");
    BufferSpec buffer;
    buffer.dtype = dtype->dtype;
    buffer.init = BufferSpec::Init::Values;
    for (size_t i = 1; i < args.size(); ++i) {
      std::optional<Value> number = eval(*args[i]);
      if (!number)
        return std::nullopt;
      if (number->kind == Value::Kind::Int && !isFloat(buffer.dtype) &&
          (number->intValue < -(int64_t(1) << 53) ||
           number->intValue > (int64_t(1) << 53)))
        return error(*args[i], "values() holds integers up to 2^53");
      if (number->kind == Value::Kind::Int)
        buffer.values.push_back(double(number->intValue));
      else if (number->kind == Value::Kind::Float && isFloat(buffer.dtype))
        buffer.values.push_back(number->floatValue);
      else
        return error(*args[i], "values() of " + getName(buffer.dtype).str() +
                                   " takes numbers of that kind, got " +
                                   number->describe());
    }
    buffer.shape = {int64_t(buffer.values.size())};
    return addBuffer(spec, std::move(buffer));
  }

  // Triton's host-side TensorDescriptor.from_tensor(buffer, block_shape),
  // or TensorDescriptor(buffer, shape, strides, block_shape) over a
  // reshape of the buffer (contiguous strides), with the limits its TMA
  // encoding sets.
  if (name == "tensor_descriptor") {
    if (!expectArgs(2, 3))
      return std::nullopt;
    std::optional<Value> buffer = eval(*args[0]);
    std::optional<Value> block = eval(*args[1]);
    if (!buffer || !block)
      return std::nullopt;
    if (buffer->kind != Value::Kind::Buffer)
      return error(*args[0], "tensor_descriptor() needs a buffer, got " +
                                 buffer->describe());
    const BufferSpec &b = spec.buffers[buffer->buffer];
    Value descriptor;
    descriptor.kind = Value::Kind::TensorDescriptor;
    descriptor.buffer = buffer->buffer;
    descriptor.shape = b.shape;
    if (args.size() == 3) {
      std::optional<Value> shape = eval(*args[2]);
      if (!shape)
        return std::nullopt;
      int64_t count = 1, bufferCount = 1;
      for (int64_t extent : b.shape)
        bufferCount *= extent;
      descriptor.shape.clear();
      if (shape->kind == Value::Kind::Tuple)
        for (const Value &extent : shape->elements) {
          if (extent.kind != Value::Kind::Int || extent.intValue <= 0)
            return error(*args[2], "tensor_descriptor()'s shape must hold "
                                   "positive integers, got " +
                                       extent.describe());
          descriptor.shape.push_back(extent.intValue);
          count *= extent.intValue;
        }
      if (shape->kind != Value::Kind::Tuple || count != bufferCount)
        return error(*args[2],
                     "tensor_descriptor()'s shape must be a reshape of the "
                     "buffer (" +
                         std::to_string(bufferCount) + " elements), got " +
                         shape->describe());
    }
    size_t rank = descriptor.shape.size();
    if (block->kind != Value::Kind::Tuple || block->elements.size() != rank)
      return error(*args[1], "tensor_descriptor()'s block shape needs " +
                                 std::to_string(rank) +
                                 " sizes, one per dimension of the " +
                                 (args.size() == 3 ? "shape" : "buffer"));
    if (rank < 1 || rank > 5)
      return error(*args[0], "tensor_descriptor() needs a buffer of 1 to 5 "
                             "dimensions");
    int64_t bytes = getByteWidth(b.dtype);
    for (const Value &size : block->elements)
      if (size.kind != Value::Kind::Int || size.intValue <= 0 ||
          (size.intValue & (size.intValue - 1)) != 0)
        return error(*args[1], "tensor_descriptor()'s block shape must hold "
                               "powers of 2, got " +
                                   size.describe());
    if (block->elements.back().intValue * bytes < 16)
      return error(*args[1], "tensor_descriptor(): a block's last dimension "
                             "must hold at least 16 bytes");
    descriptor.elements = block->elements;
    for (size_t d = 0; d + 1 < rank; ++d)
      if (descriptor.getDescriptorStride(d) * bytes % 16 != 0)
        return error(
            *args[0],
            "tensor_descriptor(): the buffer's strides "
            "must be multiples of 16 bytes (TMA's rule), "
            "got " +
                std::to_string(descriptor.getDescriptorStride(d) * bytes) +
                " bytes in dimension " + std::to_string(d));
    return descriptor;
  }

  if (name == "stride") {
    if (!expectArgs(2, 2))
      return std::nullopt;
    std::optional<Value> buffer = eval(*args[0]);
    std::optional<int64_t> axis = evalInt(*args[1]);
    if (!buffer || !axis)
      return std::nullopt;
    if (buffer->kind != Value::Kind::Buffer)
      return error(*args[0], "stride() needs a buffer");
    const BufferSpec &b = spec.buffers[buffer->buffer];
    if (*axis < 0 || *axis >= int64_t(b.shape.size()))
      return error(*args[1], "axis " + std::to_string(*axis) +
                                 " out of range for a buffer of rank " +
                                 std::to_string(b.shape.size()));
    return Value::getInt(b.getStride(*axis));
  }
  if (name == "cdiv" || name == "next_power_of_2" || name == "min" ||
      name == "max") {
    bool unary = name == "next_power_of_2";
    if (!expectArgs(unary ? 1 : 2, unary ? 1 : 8))
      return std::nullopt;
    std::vector<int64_t> values;
    bool deferred = false;
    for (const auto &arg : args) {
      std::optional<Value> v = eval(*arg);
      if (!v)
        return std::nullopt;
      if (v->kind == Value::Kind::Deferred) {
        deferred = true;
        continue;
      }
      if (v->kind != Value::Kind::Int && v->kind != Value::Kind::Bool)
        return error(*arg, "expected an integer, got " + v->describe());
      values.push_back(v->intValue);
    }
    if (deferred)
      return getDeferred();
    if (name == "cdiv") {
      if (values.size() != 2 || values[1] == 0)
        return error(expr, "cdiv(a, b) needs two integers, b != 0");
      std::optional<int64_t> negated = llvm::checkedSub(int64_t(0), values[0]);
      std::optional<int64_t> quotient =
          negated ? floorDiv(*negated, values[1]) : std::nullopt;
      return intResult(expr, quotient ? llvm::checkedSub(int64_t(0), *quotient)
                                      : std::nullopt);
    }
    if (unary)
      return intResult(expr, values[0] <= 1 ? 1
                             : values[0] > (int64_t(1) << 62)
                                 ? std::nullopt
                                 : std::optional<int64_t>(llvm::PowerOf2Ceil(
                                       uint64_t(values[0]))));
    return Value::getInt(name == "min"
                             ? *std::min_element(values.begin(), values.end())
                             : *std::max_element(values.begin(), values.end()));
  }
  if (name == "num_sms" || name == "occupancy") {
    if (!expectArgs(0, 0))
      return std::nullopt;
    if (!device)
      return getDeferred();
    return Value::getInt(name == "num_sms" ? device->numSMs
                                           : device->occupancy);
  }
  return error(expr,
               "unknown function '" + name +
                   "' in a launch description; known: rand, randn, "
                   "zeros, empty, ptrs, values, stride, cdiv, "
                   "next_power_of_2, min, max, num_sms, occupancy, check, "
                   "where, minimum, maximum, exp, log, sqrt, abs, sin, cos, "
                   "tan, asin, acos, atan, tanh, sinh, cosh, exp2, log2, "
                   "erf, floor, ceil, ref_* (in check), and x.to(dtype)");
}
