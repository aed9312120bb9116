//===- TmaStores.cpp - stores of host descriptors through TMA -------------===//
//
// tilegpu-tma-stores: a tile.store that carries the TMA tensor map of a host
// tensor descriptor (desc.store of a descriptor argument) is stored by the
// Tensor Memory Accelerator on sm_90 and later: the block goes into a
// buffer of one stage as the swizzled tile the tensor map's box describes
// (tilegpu.local_store, which ends with fence.proxy.async), and thread 0
// stores that stage with tilegpu.tma_store once every thread's part is in
// (tilegpu-insert-barriers puts the barrier between them). The tensor map
// clips the box at the tensor's edges, as the store's bounds mask does, and
// is prefetched where the kernel begins, after the loads' maps.
//
// Assumes the host encodes a tensor map for exactly the descriptors whose
// element type is f16 or bf16 and whose block is a TMA box (Launch.cpp and
// TensorMapBox.h); other stores with a tensor map stay ordinary stores.
// A store through a descriptor the program also loads through (a load or
// a TMA copy of the same tensor map) stays an ordinary store: the TMA
// store's global writes complete on their own, after the program's later
// loads may have run. Assumes the program does not load what such a store
// writes through anything else in the same launch: tma_store waits only
// until its copies have read shared memory (as Triton's TMA stores do).
//
//===----------------------------------------------------------------------===//

#include "StageCopies.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUTMASTORES
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Whether `store` is stored with TMA: the target has it, the store carries
/// a tensor map, and its block is one the host encodes a map for.
bool isTmaStore(tile::StoreOp store) {
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!store.getTensormap() || !type || type.getRank() != 2 ||
      getTargetComputeCapability(store) < 90 || !getDistributedLayout(type))
    return false;
  Type element = type.getElementType();
  return (element.isF16() || element.isBF16()) &&
         getTensorMapBox(type.getShape(), 2);
}

void storeWithTma(tile::StoreOp store) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  auto type = cast<RankedTensorType>(store.getValue().getType());
  auto memdesc = MemDescType::get(b.getContext(),
                                  {1, type.getDimSize(0), type.getDimSize(1)},
                                  type.getElementType());
  Value buffer = LocalAllocOp::create(b, loc, memdesc);
  Value stage = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  // Any distributed layout stores into the swizzled tile: a conversion made
  // for the pointers' coalesced layout (an accumulator's) is not needed.
  Value value = store.getValue();
  auto convert = value.getDefiningOp<ConvertLayoutOp>();
  if (convert && getDistributedLayout(convert.getSrc().getType()))
    value = convert.getSrc();
  LocalStoreOp::create(b, loc, value, buffer, stage);
  TmaStoreOp::create(b, loc, store.getTensormap(), store.getCoords(), buffer,
                     stage);
  // Without it, the first store of each SM waits for the map's fetch at the
  // end of the program, where nothing else hides it.
  prefetchAtEntry(store.getTensormap(), /*afterOthers=*/true);
  store.erase();
  if (convert && convert->use_empty())
    convert.erase();
}

struct TmaStores : public tilegpu::impl::TileGPUTmaStoresBase<TmaStores> {
  void runOnOperation() override {
    // The tensor maps the program reads through.
    llvm::SmallPtrSet<Value, 8> loaded;
    getOperation().walk([&](Operation *op) {
      if (auto load = dyn_cast<tile::LoadOp>(op); load && load.getTensormap())
        loaded.insert(load.getTensormap());
      if (auto copy = dyn_cast<TmaCopyOp>(op))
        loaded.insert(copy.getTensormap());
    });
    SmallVector<tile::StoreOp> stores;
    getOperation().walk([&](tile::StoreOp store) {
      if (isTmaStore(store) && !loaded.contains(store.getTensormap()))
        stores.push_back(store);
    });
    for (tile::StoreOp store : stores)
      storeWithTma(store);
  }
};
} // namespace
