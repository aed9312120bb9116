//===- ScratchBuffers.cpp - shared-memory scratch of tilegpu ops ----------===//

#include "tile/Analysis/ScratchBuffers.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tilegpu;

unsigned mlir::tilegpu::getSharedElementBytes(Type type) {
  if (isa<tile::PointerType>(type))
    return 8;
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

bool mlir::tilegpu::isUniformScalarLoad(tile::LoadOp op) {
  Type type = op.getType();
  if (!type.isIntOrFloat())
    return false;
  if (op.getIsVolatile())
    return true;
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return false;
  return func
      ->walk([](Operation *inner) {
        return isa<tile::AtomicRMWOp, tile::AtomicCASOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
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
  // A scalar atomic whose old value is used: thread 0 performs it and
  // passes the old value to every thread through a word of shared memory.
  if (isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op) &&
      !isa<RankedTensorType>(op->getResult(0).getType()) &&
      !op->getResult(0).use_empty())
    return std::max(4u, getSharedElementBytes(op->getResult(0).getType()));
  if (auto load = dyn_cast<tile::LoadOp>(op); load && isUniformScalarLoad(load))
    return std::max(4u, getSharedElementBytes(load.getType()));
  // A reshape or cat passes its elements through shared memory in row-major
  // order.
  if (isa<tile::ReshapeOp, tile::CatOp>(op)) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    return getSharedElementBytes(type.getElementType()) * type.getNumElements();
  }
  // A gather writes its source there; a histogram counts in it, one i32 a
  // bin.
  if (auto gather = dyn_cast<tile::GatherOp>(op)) {
    auto type = gather.getSrc().getType();
    return getSharedElementBytes(type.getElementType()) * type.getNumElements();
  }
  if (auto histogram = dyn_cast<tile::HistogramOp>(op))
    return 4 * histogram.getType().getNumElements();
  return 0;
}

/// How the lanes and warps of a blocked layout spread along `axis`: how many
/// of each hold different elements, the id distance between neighbours, and
/// the elements of the other axes (independent reductions or scans).
struct AxisSpread {
  unsigned distinctLanes, laneStride, distinctWarps, warpStride;
  int64_t otherElements;
};

static AxisSpread getAxisSpread(BlockedEncodingAttr layout,
                                ArrayRef<int64_t> shape, unsigned axis) {
  ArrayRef<unsigned> spt = layout.getSizePerThread(),
                     tpw = layout.getThreadsPerWarp(),
                     wpc = layout.getWarpsPerCTA();
  auto clampCount = [](int64_t v, unsigned hi) {
    return unsigned(std::clamp<int64_t>(v, 1, hi));
  };
  AxisSpread spread;
  spread.distinctLanes = clampCount(shape[axis] / spt[axis], tpw[axis]);
  spread.distinctWarps =
      clampCount(shape[axis] / (int64_t(spt[axis]) * tpw[axis]), wpc[axis]);
  spread.laneStride = 1;
  spread.warpStride = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == axis)
      break;
    spread.laneStride *= tpw[d];
    spread.warpStride *= wpc[d];
  }
  spread.otherElements = 1;
  for (auto [d, size] : llvm::enumerate(shape))
    if (d != axis)
      spread.otherElements *= size;
  return spread;
}

ReduceGeometry mlir::tilegpu::getReduceGeometry(BlockedEncodingAttr layout,
                                                ArrayRef<int64_t> shape,
                                                unsigned axis) {
  AxisSpread spread = getAxisSpread(layout, shape, axis);
  ReduceGeometry g;
  g.distinctLanes = spread.distinctLanes;
  g.laneStride = spread.laneStride;
  g.distinctWarps = spread.distinctWarps;
  g.warpStride = spread.warpStride;
  g.warpsAlong = layout.getWarpsPerCTA()[axis];
  g.outputElements = spread.otherElements;
  return g;
}

std::optional<ReduceGeometry>
mlir::tilegpu::getMmaReduceGeometry(MmaEncodingAttr layout,
                                    ArrayRef<int64_t> shape, unsigned axis) {
  SmallVector<int64_t> tile = layout.getShapePerCTATile();
  if (shape.size() != 2 || axis > 1 || shape[0] % tile[0] != 0 ||
      shape[1] % tile[1] != 0)
    return std::nullopt;
  unsigned wm = layout.getWarpsPerCTA()[0], wn = layout.getWarpsPerCTA()[1];
  ReduceGeometry g;
  if (axis == 1) {
    // Columns: the 4 lanes of a row's quad, the warps of a warp row.
    g.distinctLanes = 4;
    g.laneStride = 1;
    g.distinctWarps = g.warpsAlong = wn;
    g.warpStride = wm;
  } else {
    // Rows: 8 lanes 4 apart (each also holding the row 8 below), the warps
    // of a warp column.
    g.distinctLanes = 8;
    g.laneStride = 4;
    g.distinctWarps = g.warpsAlong = wm;
    g.warpStride = 1;
  }
  g.outputElements = shape[1 - axis];
  return g;
}

std::optional<ReduceGeometry>
mlir::tilegpu::getReduceGeometry(tile::ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding()))
    return getReduceGeometry(blocked, srcType.getShape(), op.getAxis());
  if (auto mma = dyn_cast<MmaEncodingAttr>(srcType.getEncoding()))
    return getMmaReduceGeometry(mma, srcType.getShape(), op.getAxis());
  return std::nullopt;
}

ReduceScratchLayout mlir::tilegpu::getReduceScratchLayout(tile::ReduceOp op) {
  ReduceScratchLayout scratch;
  std::optional<ReduceGeometry> geometry = getReduceGeometry(op);
  if (!geometry)
    return scratch;
  ReduceGeometry g = *geometry;
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

static bool isMmaVersion(tile::DotOp op, unsigned version) {
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(op.getType().getEncoding());
  return mma && mma.getVersionMajor() == version;
}

bool mlir::tilegpu::isWgmmaDot(tile::DotOp op) { return isMmaVersion(op, 3); }

bool mlir::tilegpu::isMmaSyncDot(tile::DotOp op) { return isMmaVersion(op, 2); }

int64_t mlir::tilegpu::getDotScratchRowBytes(tile::DotOp op, unsigned operand) {
  auto type = operand == 0 ? op.getA().getType() : op.getB().getType();
  int64_t bytes =
      type.getDimSize(1) * getSharedElementBytes(type.getElementType());
  // ldmatrix reads 8 rows of 16 bytes at once: rows an odd number of
  // 16-byte chunks apart fall in different banks.
  return isMmaSyncDot(op) ? bytes + 16 : bytes;
}

int64_t mlir::tilegpu::getDotScratchBOffset(tile::DotOp op) {
  auto a = op.getA().getType();
  return llvm::alignTo(a.getDimSize(0) * getDotScratchRowBytes(op, 0),
                       getScratchAlignment(op));
}

std::optional<std::pair<uint64_t, uint64_t>>
mlir::tilegpu::getExplicitBufferSize(Value value) {
  if (auto barriers = dyn_cast<BarriersType>(value.getType()))
    return std::make_pair(uint64_t(barriers.getCount()) * 8, uint64_t(8));
  auto memdesc = dyn_cast<MemDescType>(value.getType());
  if (!memdesc)
    return std::nullopt;
  return std::make_pair(uint64_t(memdesc.getTotalBytes()), uint64_t(1024));
}

void mlir::tilegpu::getExplicitBufferAccesses(Operation *op,
                                              SmallVectorImpl<Value> &reads,
                                              SmallVectorImpl<Value> &writes) {
  if (auto copy = dyn_cast<AsyncCopyOp>(op)) {
    writes.push_back(copy.getBuffer());
    return;
  }
  if (auto copy = dyn_cast<TmaCopyOp>(op)) {
    writes.push_back(copy.getBuffer());
    return;
  }
  if (isa<InitBarriersOp, InvalBarriersOp>(op)) {
    writes.push_back(op->getOperand(0));
    return;
  }
  if (auto store = dyn_cast<LocalStoreOp>(op)) {
    writes.push_back(store.getBuffer());
    return;
  }
  if (auto load = dyn_cast<LocalLoadOp>(op)) {
    reads.push_back(load.getBuffer());
    return;
  }
  if (auto store = dyn_cast<TmaStoreOp>(op)) {
    reads.push_back(store.getBuffer());
    return;
  }
  if (auto dot = dyn_cast<WarpGroupDotOp>(op)) {
    if (isa<MemDescType>(dot.getA().getType())) // not A in registers
      reads.push_back(dot.getA());
    reads.push_back(dot.getB());
  }
  if (auto dot = dyn_cast<SharedDotOp>(op)) {
    reads.push_back(dot.getA());
    reads.push_back(dot.getB());
  }
}

unsigned mlir::tilegpu::getScratchAlignment(Operation *op) {
  // wgmma's swizzled operand tiles repeat every 1024 bytes.
  if (auto dot = dyn_cast<tile::DotOp>(op); dot && isWgmmaDot(dot))
    return 1024;
  return 16;
}

unsigned mlir::tilegpu::getDotScratchBytes(tile::DotOp op) {
  auto b = op.getB().getType();
  return getDotScratchBOffset(op) +
         b.getDimSize(0) * getDotScratchRowBytes(op, 1);
}

unsigned mlir::tilegpu::getConvertLayoutRowPadding(ConvertLayoutOp op) {
  auto type = op.getType();
  if (type.getRank() != 2 ||
      !isa<MmaEncodingAttr>(op.getSrc().getType().getEncoding()))
    return 0;
  return std::max(1u, 16 / getSharedElementBytes(type.getElementType()));
}

bool mlir::tilegpu::isRegisterIdentityConversion(ConvertLayoutOp op) {
  return isRegisterIdentityConversion(op.getSrc().getType(), op.getType());
}

bool mlir::tilegpu::isRegisterIdentityConversion(RankedTensorType srcType,
                                                 RankedTensorType dstType) {
  Attribute src = srcType.getEncoding(), dst = dstType.getEncoding();
  if (src == dst)
    return true;
  auto srcSlice = dyn_cast<SliceEncodingAttr>(src);
  auto dstSlice = dyn_cast<SliceEncodingAttr>(dst);
  if (!srcSlice || !dstSlice || srcSlice.getDim() != 1 ||
      dstSlice.getDim() != 1 || dstType.getRank() != 1)
    return false;
  auto srcMma = dyn_cast<MmaEncodingAttr>(srcSlice.getParent());
  auto dstMma = dyn_cast<MmaEncodingAttr>(dstSlice.getParent());
  return srcMma && dstMma &&
         srcMma.getVersionMajor() == dstMma.getVersionMajor() &&
         srcMma.getWarpsPerCTA() == dstMma.getWarpsPerCTA() &&
         dstType.getDimSize(0) % srcMma.getShapePerCTATile()[0] == 0;
}

unsigned mlir::tilegpu::getConvertLayoutScratchBytes(ConvertLayoutOp op) {
  if (isRegisterIdentityConversion(op))
    return 0;
  auto type = op.getType();
  int64_t rows = type.getNumElements() / type.getShape().back();
  return getSharedElementBytes(type.getElementType()) * rows *
         (type.getShape().back() + getConvertLayoutRowPadding(op));
}

ScanGeometry mlir::tilegpu::getScanGeometry(BlockedEncodingAttr layout,
                                            ArrayRef<int64_t> shape,
                                            unsigned axis) {
  AxisSpread spread = getAxisSpread(layout, shape, axis);
  unsigned spt = layout.getSizePerThread()[axis];
  int64_t size = shape[axis];
  ScanGeometry g;
  g.sizePerThread = spt;
  g.chunkSize = unsigned(std::min<int64_t>(spt, size));
  // A thread holding more registers than the axis has holds repeats.
  int64_t distinct =
      std::min<int64_t>(layout.getElemsPerThread(shape)[axis], size);
  g.chunks = unsigned(distinct / g.chunkSize);
  g.distinctLanes = spread.distinctLanes;
  g.laneStride = spread.laneStride;
  g.distinctWarps = spread.distinctWarps;
  g.warpStride = spread.warpStride;
  g.lanesAlong = layout.getThreadsPerWarp()[axis];
  g.warpsAlong = layout.getWarpsPerCTA()[axis];
  g.lines = spread.otherElements;
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
