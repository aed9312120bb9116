//===- HostData.h - host copies of kernel buffers ---------------*- C++ -*-===//

#ifndef TILE_DRIVER_HOSTDATA_H
#define TILE_DRIVER_HOSTDATA_H

#include "tile/Driver/LaunchSpec.h"

#include <cstdint>
#include <vector>

namespace tile {
/// A buffer's bytes on the host, with element access as double.
struct HostArray {
  launch::DType dtype = launch::DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  int64_t size() const { return bytes.size() / launch::getByteWidth(dtype); }
  double get(int64_t i) const;
  /// Every element as a double, decoded once (for loops that read each
  /// element many times).
  std::vector<double> toDoubles() const;
  void set(int64_t i, double value);
  /// Integer elements exactly (u64 as its bits; floats truncated).
  int64_t getInt(int64_t i) const;
  /// Stores an integer, wrapped to the element type (i1: nonzero is 1).
  void setInt(int64_t i, int64_t value);
  /// `value` rounded to this array's element type, as the GPU stores it.
  double roundToElement(double value) const;
};

/// Fills a new array as the buffer's spec says (seeded random, zeros, or
/// 0xff bytes for `empty`, so unwritten outputs show up as NaN).
HostArray makeHostArray(const launch::BufferSpec &spec, uint64_t seed);
} // namespace tile

#endif // TILE_DRIVER_HOSTDATA_H
