//===- TmaUsage.cpp - what a compiled kernel does with TMA, for --info ----===//

#include "RunInternal.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tile {
namespace {
/// A buffer's stages and the TMA boxes of one stage (TensorMapBox.h).
TmaBuffer describeBuffer(Value value) {
  auto type = cast<tilegpu::MemDescType>(value.getType());
  TmaBuffer buffer;
  buffer.stages = type.getShape()[0];
  buffer.rows = type.getShape()[1];
  buffer.cols = type.getShape()[2];
  llvm::raw_string_ostream(buffer.element) << type.getElementType();
  unsigned elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  if (std::optional<tilegpu::TensorMapBox> box = tilegpu::getTensorMapBox(
          type.getShape().drop_front(), elementBytes)) {
    buffer.swizzleBytes = box->swizzleBytes;
    buffer.copiesPerStage = unsigned(buffer.cols / box->innerElements);
  }
  return buffer;
}
} // namespace

TmaUsage gatherTmaUsage(ModuleOp module) {
  TmaUsage usage;
  llvm::SetVector<Value> tensorMaps, buffers, storedBuffers;
  module.walk([&](Operation *op) {
    if (auto copy = dyn_cast<tilegpu::TmaCopyOp>(op)) {
      tensorMaps.insert(copy.getTensormap());
      buffers.insert(copy.getBuffer());
    } else if (auto store = dyn_cast<tilegpu::TmaStoreOp>(op)) {
      tensorMaps.insert(store.getTensormap());
      storedBuffers.insert(store.getBuffer());
    } else if (auto resize = dyn_cast<tilegpu::SetMaxRegistersOp>(op)) {
      (tilegpu::getWarpRole(op) == tilegpu::WarpRole::Producer
           ? usage.producerRegisters
           : usage.consumerRegisters) = resize.getRegisters();
    } else if (auto take = dyn_cast<tilegpu::TakeTurnOp>(op)) {
      // The turns a warpgroup takes; not the first one's closing take.
      usage.turns += take.getGroup() ? 0 : 1;
    } else if (auto alloc = dyn_cast<tilegpu::LocalAllocOp>(op)) {
      if (auto barriers = dyn_cast<tilegpu::BarriersType>(alloc.getType()))
        usage.mbarriers += unsigned(barriers.getCount());
    }
  });
  usage.tensorMaps = unsigned(tensorMaps.size());
  usage.producerWarps = tilegpu::getProducerWarps(module);
  usage.persistentPrograms = module->hasAttr(tilegpu::kPersistentProgramsAttr);
  for (Value value : buffers)
    usage.buffers.push_back(describeBuffer(value));
  for (Value value : storedBuffers)
    usage.storedBuffers.push_back(describeBuffer(value));
  return usage;
}
} // namespace tile
