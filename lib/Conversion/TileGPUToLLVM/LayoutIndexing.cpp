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
    SmallVector<unsigned> coords =
        getRegisterCoords(slice.getParent(), slice.getParentShape(shape), reg);
    coords.erase(coords.begin() + slice.getDim());
    return coords;
  }
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout)) {
    // An axis of extent 1 has one register along it: the registers run
    // over the other axis' (rm, h) or (rn, j, e).
    if (shape[1] == 1)
      return {reg, 0};
    if (shape[0] == 1)
      return {0, reg};
    // reg = ((rm * repsN + rn) * n/8 + j) * 4 + h * 2 + e; rows (rm, h),
    // columns (rn, j, e).
    unsigned colBlocks = mma.getInstrN() / 8;
    unsigned repsN = unsigned(mma.getReps(shape)[1]);
    unsigned e = reg % 2, h = (reg / 2) % 2, j = (reg / 4) % colBlocks;
    unsigned rep = reg / 4 / colBlocks;
    unsigned rm = rep / repsN, rn = rep % repsN;
    return {rm * 2 + h, (rn * colBlocks + j) * 2 + e};
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
/// Where register coordinate `coord` lies from the thread's first element
/// along an axis of a blocked layout: whole tiles, then within its run.
static int64_t blockedRegisterOffset(unsigned coord, unsigned spt,
                                     int64_t tile) {
  return (coord / spt) * tile + coord % spt;
}

std::optional<SmallVector<int64_t>>
mlir::tilegpu::getRegisterOffsets(DistributedLayoutInterface layout,
                                  ArrayRef<int64_t> shape, unsigned reg) {
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  if (!blocked)
    return std::nullopt;
  SmallVector<unsigned> coords = getRegisterCoords(layout, shape, reg);
  SmallVector<int64_t> offsets;
  for (unsigned d = 0; d < shape.size(); ++d) {
    unsigned spt = blocked.getSizePerThread()[d];
    int64_t tile = int64_t(spt) * blocked.getThreadsPerWarp()[d] *
                   blocked.getWarpsPerCTA()[d];
    if (shape[d] < tile)
      return std::nullopt;
    offsets.push_back(blockedRegisterOffset(coords[d], spt, tile));
  }
  return offsets;
}

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

/// The mma layout's mapping (see its description): lane l of warp w holds
/// row 16 * (w % WM) + l / 4 (+ 8) and column n * (w / WM % WN) + 2 * (l % 4)
/// (+ 1) of each 8, in every repetition of the tile.
static SmallVector<SmallVector<Value>> emitMmaIndices(OpBuilder &b,
                                                      Location loc,
                                                      MmaEncodingAttr mma,
                                                      ArrayRef<int64_t> shape) {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  unsigned n = mma.getInstrN();
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value lane = LLVM::URemOp::create(b, loc, tid, constant(32));
  Value warp = LLVM::UDivOp::create(b, loc, tid, constant(32));
  Value warpM = LLVM::URemOp::create(b, loc, warp, constant(wm));
  Value warpN = LLVM::URemOp::create(
      b, loc, LLVM::UDivOp::create(b, loc, warp, constant(wm)), constant(wn));
  Value rowBase = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, warpM, constant(16)),
      LLVM::UDivOp::create(b, loc, lane, constant(4)));
  Value colBase = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, warpN, constant(n)),
      LLVM::MulOp::create(b, loc,
                          LLVM::URemOp::create(b, loc, lane, constant(4)),
                          constant(2)));
  SmallVector<SmallVector<Value>> indices;
  unsigned numRegs = mma.getTotalElemsPerThread(shape);
  for (unsigned reg = 0; reg < numRegs; ++reg) {
    auto [rowOffset, colOffset] = getMmaRegisterOffset(mma, shape, reg);
    indices.push_back(
        {LLVM::AddOp::create(b, loc, rowBase, constant(rowOffset)),
         LLVM::AddOp::create(b, loc, colBase, constant(colOffset))});
  }
  return indices;
}

std::pair<int64_t, int64_t>
mlir::tilegpu::getMmaRegisterOffset(MmaEncodingAttr mma,
                                    ArrayRef<int64_t> shape, unsigned reg) {
  SmallVector<int64_t> tile = mma.getShapePerCTATile();
  SmallVector<unsigned> coords = getRegisterCoords(mma, shape, reg);
  int64_t rowOffset = (coords[0] / 2) * tile[0] + (coords[0] % 2) * 8;
  unsigned colBlock = coords[1] / 2, colBlocks = mma.getInstrN() / 8;
  int64_t colOffset = (colBlock / colBlocks) * tile[1] +
                      (colBlock % colBlocks) * 8 + coords[1] % 2;
  return {rowOffset, colOffset};
}

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &b, Location loc,
                           DistributedLayoutInterface layout,
                           ArrayRef<int64_t> shape) {
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    auto indices =
        emitIndices(b, loc, slice.getParent(), slice.getParentShape(shape));
    for (auto &index : indices)
      index.erase(index.begin() + slice.getDim());
    return indices;
  }
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  if (auto mma = dyn_cast<MmaEncodingAttr>(layout))
    return emitMmaIndices(b, loc, mma, shape);
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
      int64_t offset = blockedRegisterOffset(coords[d], spt[d], tile);
      Value value = LLVM::AddOp::create(b, loc, base[d], constant(offset));
      if (shape[d] < tile) // replicated: shapes and tiles are powers of two
        value = LLVM::AndOp::create(b, loc, value, constant(shape[d] - 1));
      index.push_back(value);
    }
    indices.push_back(index);
  }
  return indices;
}

SmallVector<Value>
mlir::tilegpu::emitFirstCopyMasks(OpBuilder &b, Location loc,
                                  DistributedLayoutInterface layout,
                                  ArrayRef<int64_t> shape) {
  if (!isa<BlockedEncodingAttr>(layout))
    return {};
  SmallVector<unsigned> spt = layout.getLayoutSizePerThread();
  SmallVector<unsigned> tpw = layout.getLayoutThreadsPerWarp();
  SmallVector<unsigned> wpc = layout.getLayoutWarpsPerCTA();
  SmallVector<unsigned> order = layout.getLayoutOrder();
  unsigned numRegs = layout.getTotalElemsPerThread(shape);
  unsigned rank = shape.size();
  bool replicated = false;
  for (unsigned d = 0; d < rank; ++d)
    replicated |= shape[d] < int64_t(spt[d]) * tpw[d] * wpc[d];
  if (!replicated)
    return SmallVector<Value>(numRegs);

  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  unsigned threadsPerWarp = 1;
  for (unsigned t : tpw)
    threadsPerWarp *= t;
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value lane = LLVM::URemOp::create(b, loc, tid, constant(threadsPerWarp));
  Value warp = LLVM::UDivOp::create(b, loc, tid, constant(threadsPerWarp));
  SmallVector<Value> laneCoords = delinearize(b, loc, lane, tpw, order);
  SmallVector<Value> warpCoords = delinearize(b, loc, warp, wpc, order);
  SmallVector<Value> masks;
  for (unsigned reg = 0; reg < numRegs; ++reg) {
    SmallVector<unsigned> coords = getRegisterCoords(layout, shape, reg);
    Value mask;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t tile = int64_t(spt[d]) * tpw[d] * wpc[d];
      if (shape[d] >= tile)
        continue;
      // The element's coordinate before the modulo that replicates it.
      Value index = LLVM::AddOp::create(
          b, loc,
          LLVM::AddOp::create(
              b, loc,
              LLVM::MulOp::create(b, loc, warpCoords[d],
                                  constant(int64_t(spt[d]) * tpw[d])),
              LLVM::MulOp::create(b, loc, laneCoords[d], constant(spt[d]))),
          constant(blockedRegisterOffset(coords[d], spt[d], tile)));
      Value first = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                         index, constant(shape[d]));
      mask =
          mask ? LLVM::AndOp::create(b, loc, mask, first).getResult() : first;
    }
    masks.push_back(mask);
  }
  return masks;
}
