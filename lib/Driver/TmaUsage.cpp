//===- TmaUsage.cpp - what a compiled kernel does with TMA, for --info ----===//

#include "RunInternal.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

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
/// The value `steps` compute, written with the kernel's arguments as
/// %argN (as --emit prints them); the i32 wraps and extensions left out.
std::string describeSteps(ArrayRef<int64_t> steps) {
  SmallVector<std::string> stack;
  for (size_t i = 0; i < steps.size(); ++i) {
    int64_t step = steps[i];
    if ((step == tilegpu::kConstant || step == tilegpu::kArgument) &&
        i + 1 < steps.size()) {
      int64_t operand = steps[++i];
      stack.push_back(step == tilegpu::kConstant
                          ? std::to_string(operand)
                          : "%arg" + std::to_string(operand));
    } else if ((step == tilegpu::kAdd || step == tilegpu::kSub ||
                step == tilegpu::kMul) &&
               stack.size() >= 2) {
      std::string rhs = stack.pop_back_val(), lhs = stack.pop_back_val();
      const char *op = step == tilegpu::kAdd   ? " + "
                       : step == tilegpu::kSub ? " - "
                                               : " * ";
      // Operands of a product keep their sums in parentheses.
      auto operand = [&](const std::string &text) {
        bool sum = text.find(" + ") != std::string::npos ||
                   text.find(" - ") != std::string::npos;
        return step == tilegpu::kMul && sum ? "(" + text + ")" : text;
      };
      stack.push_back(operand(lhs) + op + operand(rhs));
    }
  }
  return stack.size() == 1 ? stack.front() : "?";
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
  if (DenseI64ArrayAttr flat = tilegpu::getUsedTensorMapRecipes(module))
    if (auto recipes = tilegpu::parseTensorMapRecipes(flat.asArrayRef()))
      for (const tilegpu::TensorMapRecipe &recipe : *recipes)
        if (recipe.element != tilegpu::kUnusedTensorMap)
          usage.launchTensorMaps.push_back(
              llvm::formatv(
                  "%arg{0}: {1}x{2} {3} boxes of the tensor at %arg{4}, "
                  "shape ({5}, {6}), row stride {7}",
                  recipe.argument, recipe.blockRows, recipe.blockCols,
                  recipe.element == 0 ? "f16" : "bf16", recipe.base,
                  describeSteps(recipe.rows), describeSteps(recipe.cols),
                  describeSteps(recipe.rowStride))
                  .str());
  for (Value value : buffers)
    usage.buffers.push_back(describeBuffer(value));
  for (Value value : storedBuffers)
    usage.storedBuffers.push_back(describeBuffer(value));
  return usage;
}
} // namespace tile
