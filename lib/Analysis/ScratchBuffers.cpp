//===- ScratchBuffers.cpp - shared-memory scratch of tilegpu ops ----------===//

#include "tile/Analysis/ScratchBuffers.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tilegpu;

unsigned mlir::tilegpu::getSharedElementBytes(Type type) {
  if (isa<tile::PointerType>(type))
    return 8;
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

unsigned mlir::tilegpu::getScratchBytes(Operation *op) {
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return getReduceScratchBytes(reduce);
  if (auto dot = dyn_cast<tile::DotOp>(op))
    return getDotScratchBytes(dot);
  if (auto scan = dyn_cast<tile::ScanOp>(op))
    return getScanScratchBytes(scan);
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return getConvertLayoutScratchBytes(convert);
  return 0;
}

ReduceGeometry mlir::tilegpu::getReduceGeometry(BlockedEncodingAttr layout,
                                                ArrayRef<int64_t> shape,
                                                unsigned axis) {
  ArrayRef<unsigned> spt = layout.getSizePerThread(),
                     tpw = layout.getThreadsPerWarp(),
                     wpc = layout.getWarpsPerCTA();
  ReduceGeometry g;
  auto clampCount = [](int64_t v, unsigned hi) {
    return unsigned(std::clamp<int64_t>(v, 1, hi));
  };
  g.distinctLanes = clampCount(shape[axis] / spt[axis], tpw[axis]);
  g.distinctWarps =
      clampCount(shape[axis] / (int64_t(spt[axis]) * tpw[axis]), wpc[axis]);
  g.laneStride = 1;
  g.warpStride = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == axis)
      break;
    g.laneStride *= tpw[d];
    g.warpStride *= wpc[d];
  }
  g.warpsAlong = wpc[axis];
  g.outputElements = 1;
  for (auto [d, size] : llvm::enumerate(shape))
    if (d != axis)
      g.outputElements *= size;
  return g;
}

ReduceScratchLayout mlir::tilegpu::getReduceScratchLayout(tile::ReduceOp op) {
  ReduceScratchLayout scratch;
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  auto layout = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
  if (!layout)
    return scratch;
  ReduceGeometry g =
      getReduceGeometry(layout, srcType.getShape(), op.getAxis());
  if (g.distinctWarps == 1)
    return scratch;
  unsigned offset = 0;
  for (Value src : op.getSrcs()) {
    unsigned bytes = getSharedElementBytes(getElementTypeOrSelf(src.getType()));
    offset = llvm::alignTo(offset, bytes);
    scratch.operandOffsets.push_back(offset);
    offset += bytes * g.distinctWarps * g.outputElements;
  }
  scratch.totalBytes = offset;
  return scratch;
}

unsigned mlir::tilegpu::getReduceScratchBytes(tile::ReduceOp op) {
  return getReduceScratchLayout(op).totalBytes;
}

int64_t mlir::tilegpu::getDotScratchBOffset(tile::DotOp op) {
  auto a = op.getA().getType();
  return llvm::alignTo(
      a.getNumElements() * getSharedElementBytes(a.getElementType()), 16);
}

unsigned mlir::tilegpu::getDotScratchBytes(tile::DotOp op) {
  auto b = op.getB().getType();
  return getDotScratchBOffset(op) +
         b.getNumElements() * getSharedElementBytes(b.getElementType());
}

unsigned mlir::tilegpu::getConvertLayoutScratchBytes(ConvertLayoutOp op) {
  if (op.getSrc().getType().getEncoding() == op.getType().getEncoding())
    return 0;
  return getSharedElementBytes(op.getType().getElementType()) *
         op.getType().getNumElements();
}

ScanGeometry mlir::tilegpu::getScanGeometry(BlockedEncodingAttr layout,
                                            ArrayRef<int64_t> shape,
                                            unsigned axis) {
  ArrayRef<unsigned> spt = layout.getSizePerThread(),
                     tpw = layout.getThreadsPerWarp(),
                     wpc = layout.getWarpsPerCTA();
  auto clampCount = [](int64_t v, unsigned hi) {
    return unsigned(std::clamp<int64_t>(v, 1, hi));
  };
  ScanGeometry g;
  int64_t size = shape[axis];
  g.sizePerThread = spt[axis];
  g.chunkSize = unsigned(std::min<int64_t>(spt[axis], size));
  // A thread holding more registers than the axis has holds repeats.
  int64_t distinct =
      std::min<int64_t>(layout.getElemsPerThread(shape)[axis], size);
  g.chunks = unsigned(distinct / g.chunkSize);
  g.distinctLanes = clampCount(size / spt[axis], tpw[axis]);
  g.distinctWarps =
      clampCount(size / (int64_t(spt[axis]) * tpw[axis]), wpc[axis]);
  g.laneStride = 1;
  g.warpStride = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == axis)
      break;
    g.laneStride *= tpw[d];
    g.warpStride *= wpc[d];
  }
  g.lanesAlong = tpw[axis];
  g.warpsAlong = wpc[axis];
  g.lines = 1;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (d != axis)
      g.lines *= extent;
  return g;
}

/// Per operand, the bytes of one scratch slot and the offset of its area;
/// an operand's area holds [chunk][warp][line] chunk totals.
SmallVector<std::pair<unsigned, unsigned>>
mlir::tilegpu::getScanScratchAreas(tile::ScanOp op, const ScanGeometry &g,
                                   unsigned *total) {
  SmallVector<std::pair<unsigned, unsigned>> areas;
  unsigned offset = 0;
  for (Value src : op.getSrcs()) {
    unsigned bytes = getSharedElementBytes(getElementTypeOrSelf(src.getType()));
    offset = llvm::alignTo(offset, bytes);
    areas.push_back({bytes, offset});
    offset += bytes * g.chunks * g.distinctWarps * unsigned(g.lines);
  }
  if (total)
    *total = offset;
  return areas;
}

unsigned mlir::tilegpu::getScanScratchBytes(tile::ScanOp scan) {
  auto srcType = cast<RankedTensorType>(scan.getSrcs()[0].getType());
  auto layout = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
  if (!layout)
    return 0;
  ScanGeometry g = getScanGeometry(layout, srcType.getShape(), scan.getAxis());
  if (g.distinctWarps == 1)
    return 0;
  unsigned total = 0;
  getScanScratchAreas(scan, g, &total);
  return total;
}
