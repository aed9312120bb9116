//===- Coalesce.cpp - widest coalesced layout per memory access -----------===//
//
// tilegpu-coalesce gives each block-valued tile.load and tile.store a blocked
// layout chosen from the contiguity analysis: the pointers' most contiguous
// axis varies fastest, and each thread holds as many consecutive elements
// along it as contiguity, alignment and a 128-bit access allow (but no more
// than the block has per thread), so that lanes of a warp touch adjacent
// vectors. The op is re-created in that layout between convert_layout ops;
// tilegpu-remove-layout-conversions then removes the conversions it can.
// Assumes every tensor already has a layout (convert-tile-to-tilegpu).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUCOALESCE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct Coalesce : public tilegpu::impl::TileGPUCoalesceBase<Coalesce> {
  /// The coalesced layout for a memory op through the block `ptr`.
  BlockedEncodingAttr chooseLayout(const tile::ModuleAxisInfo &axisInfo,
                                   Value ptr, unsigned numWarps) {
    auto type = cast<RankedTensorType>(ptr.getType());
    SmallVector<unsigned> order = axisInfo.getOrderByContiguity(ptr);
    int64_t numElements = type.getNumElements();
    int64_t numThreads = int64_t(numWarps) * 32;
    int64_t perThread =
        std::min<int64_t>(axisInfo.getPtrVectorWidth(ptr, order[0]),
                          std::max<int64_t>(1, numElements / numThreads));
    SmallVector<unsigned> sizePerThread(type.getRank(), 1);
    sizePerThread[order[0]] = perThread;
    return getBlockedLayout(&getContext(), type.getShape(), sizePerThread,
                            order, numWarps);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    tile::ModuleAxisInfo axisInfo(module);

    // Choose all layouts first: rewriting changes the values the analysis
    // knows.
    SmallVector<std::pair<Operation *, BlockedEncodingAttr>> plan;
    module.walk([&](Operation *op) {
      Value ptr;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        ptr = load.getPtr();
      else if (auto store = dyn_cast<tile::StoreOp>(op))
        ptr = store.getPtr();
      // Pointers carried by a loop keep the loop's layout: converting them
      // on each iteration would cost more than the wider access gains.
      // (Changing the layout of the loop itself is the better answer.)
      if (ptr && isa<BlockArgument>(ptr) &&
          !isa<FunctionOpInterface>(ptr.getParentBlock()->getParentOp()))
        return;
      if (ptr && isa<RankedTensorType>(ptr.getType()))
        plan.push_back({op, chooseLayout(axisInfo, ptr, numWarps)});
    });

    for (auto [op, layout] : plan) {
      OpBuilder builder(op);
      IRMapping mapping;
      for (Value operand : op->getOperands()) {
        auto converted = ConvertLayoutOp::create(
            builder, op->getLoc(), withLayout(operand.getType(), layout),
            operand);
        mapping.map(operand, converted.getResult());
      }
      Operation *newOp = builder.clone(*op, mapping);
      for (OpResult result : newOp->getResults())
        result.setType(withLayout(result.getType(), layout));
      for (auto [oldResult, newResult] :
           llvm::zip(op->getResults(), newOp->getResults())) {
        auto back = ConvertLayoutOp::create(builder, op->getLoc(),
                                            oldResult.getType(), newResult);
        oldResult.replaceAllUsesWith(back.getResult());
      }
      op->erase();
    }
  }
};
} // namespace
