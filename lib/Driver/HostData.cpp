//===- HostData.cpp - host copies of kernel buffers -----------------------===//

#include "tile/Driver/HostData.h"
#include "tile/Interpreter/FloatFormats.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace tile;
using launch::DType;
using namespace mlir::tile::interp;

template <typename T> static T read(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void write(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

double HostArray::get(int64_t i) const {
  const uint8_t *p = bytes.data() + i * launch::getByteWidth(dtype);
  switch (dtype) {
  case DType::F16:
    return decodeF16(read<uint16_t>(p));
  case DType::BF16:
    return decodeBF16(read<uint16_t>(p));
  case DType::F8E4NV:
    return decodeFp8(*p, Fp8Format::E4M3FN);
  case DType::F8E5:
    return decodeFp8(*p, Fp8Format::E5M2);
  case DType::F32:
    return read<float>(p);
  case DType::F64:
    return read<double>(p);
  case DType::I8:
    return read<int8_t>(p);
  case DType::I16:
    return read<int16_t>(p);
  case DType::I32:
    return read<int32_t>(p);
  case DType::I64:
    return double(read<int64_t>(p));
  case DType::U8:
  case DType::Bool:
    return read<uint8_t>(p);
  case DType::U16:
    return read<uint16_t>(p);
  case DType::U32:
    return read<uint32_t>(p);
  case DType::U64:
    return double(read<uint64_t>(p));
  }
  return 0;
}

void HostArray::set(int64_t i, double value) {
  uint8_t *p = bytes.data() + i * launch::getByteWidth(dtype);
  switch (dtype) {
  case DType::F16:
    return write(p, encodeF16(roundToF16(value)));
  case DType::BF16:
    return write(p, encodeBF16(roundToBF16(value)));
  case DType::F8E4NV: // saturating, as the GPU's cvt.rn.satfinite
    return write(
        p, encodeFp8(roundToFp8(value, Fp8Format::E4M3FN), Fp8Format::E4M3FN));
  case DType::F8E5:
    return write(
        p, encodeFp8(roundToFp8(value, Fp8Format::E5M2), Fp8Format::E5M2));
  case DType::F32:
    return write(p, float(value));
  case DType::F64:
    return write(p, value);
  case DType::I8:
    return write(p, int8_t(value));
  case DType::I16:
    return write(p, int16_t(value));
  case DType::I32:
    return write(p, int32_t(value));
  case DType::I64:
    return write(p, int64_t(value));
  case DType::U8:
    return write(p, uint8_t(value));
  case DType::U16:
    return write(p, uint16_t(value));
  case DType::U32:
    return write(p, uint32_t(value));
  case DType::U64:
    return write(p, uint64_t(value));
  case DType::Bool:
    return write(p, uint8_t(value != 0));
  }
}

double HostArray::roundToElement(double value) const {
  HostArray one;
  one.dtype = dtype;
  one.bytes.resize(launch::getByteWidth(dtype));
  one.set(0, value);
  return one.get(0);
}

HostArray tile::makeHostArray(const launch::BufferSpec &spec, uint64_t seed) {
  HostArray array;
  array.dtype = spec.dtype;
  array.shape = spec.shape;
  int64_t n = spec.getNumElements();
  array.bytes.assign(n * launch::getByteWidth(spec.dtype), 0);
  using Init = launch::BufferSpec::Init;
  if (spec.init == Init::Empty) {
    std::fill(array.bytes.begin(), array.bytes.end(), 0xff);
    return array;
  }
  // A pointer table's addresses are only known where it is launched.
  if (spec.init == Init::Zeros || spec.init == Init::Pointers)
    return array;
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> smallInt(-100, 100);
  bool isUnsigned = spec.dtype == DType::U8 || spec.dtype == DType::U16 ||
                    spec.dtype == DType::U32 || spec.dtype == DType::U64;
  for (int64_t i = 0; i < n; ++i) {
    double v = spec.dtype == DType::Bool      ? smallInt(engine) > 0
               : isUnsigned                   ? smallInt(engine) + 100
               : !launch::isFloat(spec.dtype) ? smallInt(engine)
               : spec.init == Init::Rand      ? uniform(engine)
                                              : normal(engine);
    array.set(i, v);
  }
  return array;
}
