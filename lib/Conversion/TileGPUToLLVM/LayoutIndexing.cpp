//===- LayoutIndexing.cpp - which elements a thread holds -----------------===//
//
// Along axis d of a blocked layout, register coordinate r of lane l in warp
// w holds element
//   (r / spt) * tile + w * spt * tpw + l * spt + r % spt      (mod shape)
// with tile = spt * tpw * wpc; lanes and warps are split into per-axis
// coordinates along the layout's order. The modulo replicates a tensor
// smaller than the tile across threads.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

SmallVector<unsigned>
mlir::tilegpu::getRegisterCoords(DistributedLayoutInterface layout,
                                 ArrayRef<int64_t> shape, unsigned reg) {
  // A slice holds what its parent holds at coordinate 0 along `dim`.
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    SmallVector<unsigned> coords = getRegisterCoords(
        slice.getParent(), slice.getParentShape(shape), reg);
    coords.erase(coords.begin() + slice.getDim());
    return coords;
  }
  SmallVector<unsigned> elems = layout.getElemsPerThread(shape);
  SmallVector<unsigned> coords(shape.size(), 0);
  for (unsigned axis : layout.getLayoutOrder()) {
    coords[axis] = reg % elems[axis];
    reg /= elems[axis];
  }
  return coords;
}

/// Splits `linear` into per-axis coordinates of extents `counts`, the axes
/// taken in `order` (fastest first).
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      ArrayRef<unsigned> counts,
                                      ArrayRef<unsigned> order) {
  Type i32 = b.getI32Type();
  SmallVector<Value> coords(counts.size());
  for (unsigned axis : order) {
    Value count = LLVM::ConstantOp::create(b, loc, i32, counts[axis]);
    coords[axis] = LLVM::URemOp::create(b, loc, linear, count);
    linear = LLVM::UDivOp::create(b, loc, linear, count);
  }
  return coords;
}

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &b, Location loc,
                           DistributedLayoutInterface layout,
                           ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    auto indices = emitIndices(b, loc, slice.getParent(),
                               slice.getParentShape(shape));
    for (auto &index : indices)
      index.erase(index.begin() + slice.getDim());
    return indices;
  }
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  SmallVector<unsigned> spt = layout.getLayoutSizePerThread();
  SmallVector<unsigned> tpw = layout.getLayoutThreadsPerWarp();
  SmallVector<unsigned> wpc = layout.getLayoutWarpsPerCTA();
  SmallVector<unsigned> order = layout.getLayoutOrder();
  unsigned threadsPerWarp = 1;
  for (unsigned t : tpw)
    threadsPerWarp *= t;

  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value lane = LLVM::URemOp::create(b, loc, tid, constant(threadsPerWarp));
  Value warp = LLVM::UDivOp::create(b, loc, tid, constant(threadsPerWarp));
  SmallVector<Value> laneCoords = delinearize(b, loc, lane, tpw, order);
  SmallVector<Value> warpCoords = delinearize(b, loc, warp, wpc, order);

  // Per axis: where this thread's first element along the axis lies.
  unsigned rank = shape.size();
  SmallVector<Value> base(rank);
  for (unsigned d = 0; d < rank; ++d) {
    Value warpPart = LLVM::MulOp::create(b, loc, warpCoords[d],
                                         constant(int64_t(spt[d]) * tpw[d]));
    Value lanePart =
        LLVM::MulOp::create(b, loc, laneCoords[d], constant(spt[d]));
    base[d] = LLVM::AddOp::create(b, loc, warpPart, lanePart);
  }

  unsigned numRegs = layout.getTotalElemsPerThread(shape);
  SmallVector<SmallVector<Value>> indices;
  for (unsigned reg = 0; reg < numRegs; ++reg) {
    SmallVector<unsigned> coords = getRegisterCoords(layout, shape, reg);
    SmallVector<Value> index;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t tile = int64_t(spt[d]) * tpw[d] * wpc[d];
      int64_t offset = (coords[d] / spt[d]) * tile + coords[d] % spt[d];
      Value value = LLVM::AddOp::create(b, loc, base[d], constant(offset));
      if (shape[d] < tile) // replicated: shapes and tiles are powers of two
        value = LLVM::AndOp::create(b, loc, value, constant(shape[d] - 1));
      index.push_back(value);
    }
    indices.push_back(index);
  }
  return indices;
}
