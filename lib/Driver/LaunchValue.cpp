//===- LaunchValue.cpp - the launch description's values ------------------===//
//
// The values a launch description computes: dtypes and their names,
// buffers (shape, strides) and the Value variant the evaluator works on.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/LaunchSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tile;
using namespace tile::launch;

llvm::StringRef tile::launch::getName(DType type) {
  switch (type) {
  case DType::F16:
    return "fp16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "fp32";
  case DType::F64:
    return "fp64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::Bool:
    return "i1";
  case DType::F8E4NV:
    return "fp8e4nv";
  case DType::F8E5:
    return "fp8e5";
  }
  return "?";
}

std::string tile::launch::getTritonName(DType type) {
  // triton.language spells fp16 float16, i16 int16, u16 uint16.
  if (type == DType::Bool)
    return "int1";
  if (type == DType::BF16)
    return "bfloat16";
  llvm::StringRef name = getName(type);
  if (name.consume_front("fp"))
    return ("float" + name).str();
  if (name.consume_front("i"))
    return ("int" + name).str();
  name.consume_front("u");
  return ("uint" + name).str();
}

std::optional<DType> tile::launch::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Cases({"fp16", "float16"}, DType::F16)
      .Cases({"bf16", "bfloat16"}, DType::BF16)
      .Cases({"fp32", "float32"}, DType::F32)
      .Cases({"fp64", "float64"}, DType::F64)
      .Cases({"i8", "int8"}, DType::I8)
      .Cases({"i16", "int16"}, DType::I16)
      .Cases({"i32", "int32"}, DType::I32)
      .Cases({"i64", "int64"}, DType::I64)
      .Cases({"u8", "uint8"}, DType::U8)
      .Cases({"u16", "uint16"}, DType::U16)
      .Cases({"u32", "uint32"}, DType::U32)
      .Cases({"u64", "uint64"}, DType::U64)
      .Cases({"i1", "bool", "int1"}, DType::Bool)
      .Cases({"fp8e4nv", "float8e4nv", "float8_e4m3fn"}, DType::F8E4NV)
      .Cases({"fp8e5", "float8e5", "float8_e5m2"}, DType::F8E5)
      .Default(std::nullopt);
}

unsigned tile::launch::getByteWidth(DType type) {
  switch (type) {
  case DType::I8:
  case DType::U8:
  case DType::Bool:
  case DType::F8E4NV:
  case DType::F8E5:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 4;
}

bool tile::launch::isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64 || type == DType::F8E4NV || type == DType::F8E5;
}

int64_t BufferSpec::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t BufferSpec::getStride(unsigned axis) const {
  int64_t stride = 1;
  for (unsigned d = axis + 1; d < shape.size(); ++d)
    stride *= shape[d];
  return stride;
}

int64_t Value::getDescriptorStride(unsigned axis) const {
  int64_t stride = 1;
  for (unsigned d = axis + 1; d < shape.size(); ++d)
    stride *= shape[d];
  return stride;
}

Value Value::getInt(int64_t v) {
  Value value;
  value.kind = Kind::Int;
  value.intValue = v;
  return value;
}
Value Value::getFloat(double v) {
  Value value;
  value.kind = Kind::Float;
  value.floatValue = v;
  return value;
}
Value Value::getBool(bool v) {
  Value value;
  value.kind = Kind::Bool;
  value.intValue = v;
  return value;
}

double Value::asDouble() const {
  return kind == Kind::Float ? floatValue : double(intValue);
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Float:
    return std::to_string(floatValue);
  case Kind::Bool:
    return intValue ? "True" : "False";
  case Kind::String:
    return "'" + stringValue + "'";
  case Kind::DType:
    return getName(dtype).str();
  case Kind::Buffer:
    return "buffer";
  case Kind::Tuple:
    return "tuple of " + std::to_string(elements.size());
  case Kind::Elementwise:
    return "an element-wise expression of buffers";
  case Kind::TensorDescriptor:
    return "a tensor descriptor";
  case Kind::Deferred:
    return "a value known only once the kernel is compiled (it uses "
           "num_sms() or occupancy())";
  }
  return "?";
}

bool Value::isDeferred() const {
  return kind == Kind::Deferred ||
         llvm::any_of(elements, [](const Value &e) { return e.isDeferred(); });
}
