//===- TileToTileGPU.cpp - give every tensor a default layout -------------===//
//
// convert-tile-to-tilegpu turns a tile program into the GPU-level IR: every
// ranked tensor without an encoding gets the default blocked layout for its
// shape (one element per thread, lanes then warps along the last axis first),
// dense constants are re-typed to match, and the module records num-warps,
// threads-per-warp and the target. The tile ops themselves are unchanged.
// Assumes a verified tile-dialect module in which no tensor has a layout yet.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
struct ConvertTileToTileGPU
    : public tile::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPU> {
  using Base::Base;

  /// `type` with the default layout if it is a tensor without one.
  Type withDefaultLayout(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    SmallVector<unsigned> order, sizePerThread(tensor.getRank(), 1);
    for (unsigned axis = tensor.getRank(); axis-- > 0;)
      order.push_back(axis);
    auto layout = tilegpu::getBlockedLayout(&getContext(), tensor.getShape(),
                                            sizePerThread, order, numWarps);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 layout);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps)) {
      module.emitError("num-warps must be a power of two, got ")
          << unsigned(numWarps);
      return signalPassFailure();
    }
    Builder builder(&getContext());
    module->setAttr(tilegpu::TileGPUDialect::getNumWarpsAttrName(),
                    builder.getI32IntegerAttr(numWarps));
    module->setAttr(tilegpu::TileGPUDialect::getThreadsPerWarpAttrName(),
                    builder.getI32IntegerAttr(32));
    module->setAttr(tilegpu::TileGPUDialect::getTargetAttrName(),
                    builder.getStringAttr(target));

    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(withDefaultLayout(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(withDefaultLayout(result.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(
              dense.reshape(cast<ShapedType>(constant.getType())));
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        SmallVector<Type> inputs, results;
        for (Type t : func.getArgumentTypes())
          inputs.push_back(withDefaultLayout(t));
        for (Type t : func.getResultTypes())
          results.push_back(withDefaultLayout(t));
        func.setType(builder.getFunctionType(inputs, results));
      }
    });
  }
};
} // namespace
