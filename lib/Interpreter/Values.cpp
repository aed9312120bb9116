//===- Values.cpp - how the interpreter holds values ----------------------===//
//
// The layout moves of an Array (gather, axis to the front and back, rows,
// stretch) that the shape ops, reductions and scans share, the shape of an
// elementwise result, and the bits of a float as memory holds them.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

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
static std::vector<T> gather(const std::vector<T> &src, ArrayRef<int64_t> shape,
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
static std::vector<T> copyRows(const std::vector<T> &from, int64_t m,
                               int64_t begin, int64_t count, int64_t step) {
  std::vector<T> out(count * m);
  for (int64_t r = 0; r < count; ++r)
    std::copy_n(from.begin() + (begin + r * step) * m, m, out.begin() + r * m);
  return out;
}

/// Rows begin, begin + step, ... before end of a [K, M] block, as a 1-D
/// block.
Array rows(const Array &src, int64_t m, int64_t begin, int64_t end,
           int64_t step) {
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

/// The shape of an elementwise result: the operand with the most elements
/// (one-element operands stretch to it).
ArrayRef<int64_t> resultShape(ArrayRef<const Array *> operands) {
  const Array *largest = operands.front();
  for (const Array *b : operands)
    if (b->size() > largest->size())
      largest = b;
  return largest->shape;
}

uint64_t floatBits(double x, Kind kind) {
  switch (kind) {
  case Kind::F8E4M3FN:
  case Kind::F8E5M2:
  case Kind::F8E4M3B15:
    return encodeFp8(x, fp8Format(kind));
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
  case Kind::F8E4M3FN:
  case Kind::F8E5M2:
  case Kind::F8E4M3B15:
    return decodeFp8(uint8_t(bits), fp8Format(kind));
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

} // namespace mlir::tile::interp::detail
