//===- ReductionOps.cpp - tile.reduce and tile.scan -----------------------===//
//
// Reductions as a tree of combine-region runs and inclusive scans in
// log2(K) steps; each run of the region combines many lanes at once.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// Runs the combine region on (lhs..., rhs...) lane-wise; each result is
/// stretched to `lanes`.
static LogicalResult combine(Interpreter &I, Region &region,
                             ArrayRef<Array> lhs, ArrayRef<Array> rhs,
                             int64_t lanes, SmallVectorImpl<Array> &results) {
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
static Array reverseRows(const Array &b, int64_t count, int64_t m) {
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

} // namespace mlir::tile::interp::detail
