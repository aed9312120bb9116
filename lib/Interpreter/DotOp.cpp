//===- DotOp.cpp - tile.dot on the CPU ------------------------------------===//
//
// tile.dot: a matrix product that accumulates fp16 and bf16 inputs in fp32
// and integers with wrapping, as the GPU path does.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// c += a @ b in accumulator type T, rows in the order i, k, j so the inner
/// loop vectorizes.
template <typename T>
static void matmulAccumulate(const std::vector<T> &a, const std::vector<T> &b,
                             std::vector<T> &c, int64_t m, int64_t n,
                             int64_t k) {
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
    for (size_t x = 0; x < cs.size(); ++x)
      out.f[x] = roundTo(acc.kind, cs[x]);
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

} // namespace mlir::tile::interp::detail
