//===- ShapeOps.cpp - program ids, ranges and shape ops -------------------===//
//
// The tile ops that make or rearrange blocks: program_id, num_programs,
// make_range, splat, addptr, broadcast, expand_dims and reshape, trans,
// cat, join and split, gather and histogram.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

LogicalResult runProgramId(Interpreter &I, Operation *op) {
  I.set(op->getResult(0),
        Array::scalarInt(uint64_t(I.pid[cast<ProgramIdOp>(op).getAxis()])));
  return success();
}

LogicalResult runNumPrograms(Interpreter &I, Operation *op) {
  I.set(op->getResult(0),
        Array::scalarInt(
            uint64_t(I.options.grid[cast<NumProgramsOp>(op).getAxis()])));
  return success();
}

LogicalResult runMakeRange(Interpreter &I, Operation *op) {
  auto range = cast<MakeRangeOp>(op);
  Array out = Array::make(false, shapeOf(range.getType()));
  // The attribute once, not per element (a dictionary lookup each).
  int64_t start = range.getStart();
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = truncBits(uint64_t(start + k), 32);
  I.set(range.getResult(), std::move(out));
  return success();
}

LogicalResult runSplat(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  Array out = Array::make(src.isFloat, shapeOf(op->getResult(0).getType()));
  if (src.isFloat)
    std::fill(out.f.begin(), out.f.end(), src.f[0]);
  else
    std::fill(out.i.begin(), out.i.end(), src.i[0]);
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runAddPtr(Interpreter &I, Operation *op) {
  auto addptr = cast<AddPtrOp>(op);
  Type pointee =
      cast<PointerType>(getElementTypeOrSelf(addptr.getPtr().getType()))
          .getPointeeType();
  int64_t scale = classify(pointee).bytes();
  unsigned width = classify(addptr.getOffset().getType()).width;
  return intBinary(I, op, [&](uint64_t p, uint64_t offset, unsigned) {
    return p + uint64_t(signExtend(offset, width) * scale);
  });
}

/// The value with a new shape and the same row-major elements.
LogicalResult runReshapeLike(Interpreter &I, Operation *op) {
  Array out = I.get(op->getOperand(0));
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  out.shape.assign(shape.begin(), shape.end());
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runBroadcast(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  SmallVector<int64_t, 4> strides = stridesOf(src.shape);
  for (auto [d, extent] : llvm::enumerate(src.shape))
    if (extent == 1)
      strides[d] = 0;
  I.set(op->getResult(0),
        gatherBlock(src, shapeOf(op->getResult(0).getType()), strides));
  return success();
}

LogicalResult runTrans(Interpreter &I, Operation *op) {
  auto trans = cast<TransOp>(op);
  const Array &src = I.get(trans.getSrc());
  SmallVector<int64_t, 4> srcStrides = stridesOf(src.shape), strides;
  for (int32_t d : trans.getOrder())
    strides.push_back(srcStrides[d]);
  I.set(trans.getResult(), gatherBlock(src, shapeOf(trans.getType()), strides));
  return success();
}

LogicalResult runCat(Interpreter &I, Operation *op) {
  Array out = I.get(op->getOperand(0));
  const Array &rhs = I.get(op->getOperand(1));
  out.f.insert(out.f.end(), rhs.f.begin(), rhs.f.end());
  out.i.insert(out.i.end(), rhs.i.begin(), rhs.i.end());
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  out.shape.assign(shape.begin(), shape.end());
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runJoin(Interpreter &I, Operation *op) {
  const Array &lhs = I.get(op->getOperand(0)), &rhs = I.get(op->getOperand(1));
  Array out = Array::make(lhs.isFloat, shapeOf(op->getResult(0).getType()));
  for (int64_t k = 0, n = lhs.size(); k < n; ++k) {
    if (lhs.isFloat) {
      out.f[2 * k] = lhs.f[k];
      out.f[2 * k + 1] = rhs.f[k];
    } else {
      out.i[2 * k] = lhs.i[k];
      out.i[2 * k + 1] = rhs.i[k];
    }
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runSplit(Interpreter &I, Operation *op) {
  const Array &src = I.get(op->getOperand(0));
  ArrayRef<int64_t> shape = shapeOf(op->getResult(0).getType());
  Array lhs = Array::make(src.isFloat, shape), rhs = lhs;
  for (int64_t k = 0, n = lhs.size(); k < n; ++k) {
    if (src.isFloat) {
      lhs.f[k] = src.f[2 * k];
      rhs.f[k] = src.f[2 * k + 1];
    } else {
      lhs.i[k] = src.i[2 * k];
      rhs.i[k] = src.i[2 * k + 1];
    }
  }
  I.set(op->getResult(0), std::move(lhs));
  I.set(op->getResult(1), std::move(rhs));
  return success();
}

/// result[..., i, ...] = src[..., index[..., i, ...], ...] along the axis;
/// an index out of range is reported (Triton leaves it undefined).
LogicalResult runGather(Interpreter &I, Operation *op) {
  auto gather = cast<GatherOp>(op);
  const Array &src = I.get(gather.getSrc()), &index = I.get(gather.getIndex());
  unsigned indexWidth = classify(gather.getIndex().getType()).width;
  int64_t axis = gather.getAxis(), extent = src.shape[axis];
  SmallVector<int64_t, 4> srcStrides = stridesOf(src.shape);
  Array out = Array::make(src.isFloat, index.shape);
  SmallVector<int64_t, 4> coords(index.shape.size(), 0);
  for (int64_t k = 0, n = index.size(); k < n; ++k) {
    int64_t at = signExtend(index.i[k], indexWidth);
    if (at < 0 || at >= extent)
      return I.error(op) << "tl.gather index " << at
                         << " is out of range for dimension " << axis
                         << " of size " << extent;
    int64_t offset = 0;
    for (auto [d, c] : llvm::enumerate(coords))
      offset += (int64_t(d) == axis ? at : c) * srcStrides[d];
    if (src.isFloat)
      out.f[k] = src.f[offset];
    else
      out.i[k] = src.i[offset];
    for (int64_t d = coords.size() - 1; d >= 0; --d) {
      if (++coords[d] < index.shape[d])
        break;
      coords[d] = 0;
    }
  }
  I.set(gather.getResult(), std::move(out));
  return success();
}

/// Counts of each value in [0, num_bins) where the mask holds; other values
/// are not counted.
LogicalResult runHistogram(Interpreter &I, Operation *op) {
  auto histogram = cast<HistogramOp>(op);
  const Array &src = I.get(histogram.getSrc());
  const Array *mask =
      histogram.getMask() ? &I.get(histogram.getMask()) : nullptr;
  unsigned width = classify(histogram.getSrc().getType()).width;
  Array out = Array::make(false, shapeOf(histogram.getType()));
  int64_t bins = out.size();
  for (int64_t k = 0, n = src.size(); k < n; ++k) {
    int64_t value = signExtend(src.i[k], width);
    if ((!mask || mask->i[k]) && value >= 0 && value < bins)
      out.i[value] = truncBits(out.i[value] + 1, 32);
  }
  I.set(histogram.getResult(), std::move(out));
  return success();
}

} // namespace mlir::tile::interp::detail
