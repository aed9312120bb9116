//===- HostData.cpp - host copies of kernel buffers -----------------------===//

#include "tile/Driver/HostData.h"
#include "tile/Interpreter/FloatFormats.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

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

std::vector<double> HostArray::toDoubles() const {
  std::vector<double> values(size());
  for (int64_t i = 0; i < size(); ++i)
    values[i] = get(i);
  return values;
}

int64_t HostArray::getInt(int64_t i) const {
  // Narrower integers are exact in get()'s double; 64-bit ones are not.
  if (dtype == DType::I64 || dtype == DType::U64)
    return read<int64_t>(bytes.data() + i * launch::getByteWidth(dtype));
  return int64_t(get(i));
}

void HostArray::setInt(int64_t i, int64_t value) {
  uint8_t *p = bytes.data() + i * launch::getByteWidth(dtype);
  switch (dtype) {
  case DType::I8:
  case DType::U8:
    return write(p, uint8_t(value));
  case DType::I16:
  case DType::U16:
    return write(p, uint16_t(value));
  case DType::I32:
  case DType::U32:
    return write(p, uint32_t(value));
  case DType::I64:
  case DType::U64:
    return write(p, value);
  case DType::Bool:
    return write(p, uint8_t(value != 0));
  default:
    return set(i, double(value));
  }
}

double HostArray::roundToElement(double value) const {
  // The common float types directly: exact checks of multi-GB buffers call
  // this once per element.
  if (dtype == DType::F32)
    return double(float(value));
  if (dtype == DType::F64)
    return value;
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
  if (spec.init == Init::Values) {
    for (int64_t i = 0; i < n; ++i)
      array.set(i, spec.values[i]);
    return array;
  }
  if (spec.init == Init::Arange) {
    for (int64_t i = 0; i < n; ++i)
      array.set(i, double(i));
    return array;
  }
  bool isUnsigned = spec.dtype == DType::U8 || spec.dtype == DType::U16 ||
                    spec.dtype == DType::U32 || spec.dtype == DType::U64;
  auto fill = [&](int64_t begin, int64_t end, uint64_t chunkSeed) {
    std::mt19937_64 engine(chunkSeed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_int_distribution<int> smallInt(-100, 100);
    for (int64_t i = begin; i < end; ++i) {
      double v = spec.dtype == DType::Bool      ? smallInt(engine) > 0
                 : isUnsigned                   ? smallInt(engine) + 100
                 : !launch::isFloat(spec.dtype) ? smallInt(engine)
                 : spec.init == Init::Rand      ? uniform(engine)
                                                : normal(engine);
      array.set(i, v);
    }
  };
  // One stream for ordinary sizes; buffers of 2^24 elements and more (the
  // 2^31-element add) fill chunks of 2^22 on every core, each chunk from
  // its own seed, so that making them takes seconds, not minutes.
  constexpr int64_t kParallelFrom = int64_t(1) << 24, kChunk = int64_t(1) << 22;
  if (n < kParallelFrom) {
    fill(0, n, seed);
    return array;
  }
  int64_t chunks = (n + kChunk - 1) / kChunk;
  std::atomic<int64_t> next{0};
  auto worker = [&] {
    for (int64_t c = next++; c < chunks; c = next++)
      fill(c * kChunk, std::min(n, (c + 1) * kChunk),
           seed ^ (0x9e3779b97f4a7c15ULL * uint64_t(c + 1)));
  };
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &thread : pool)
    thread.join();
  return array;
}
