//===- Coalesce.cpp - widest coalesced layout per memory access -----------===//
//
// tilegpu-coalesce gives each block-valued tile.load and tile.store a blocked
// layout chosen from the contiguity analysis: the pointers' most contiguous
// axis varies fastest, and each thread holds as many consecutive elements
// along it as contiguity, alignment and a 128-bit access allow (but no more
// than the block has per thread), so that lanes of a warp touch adjacent
// vectors. The op is re-created in that layout between convert_layout ops;
// tilegpu-remove-layout-conversions then removes the conversions it can.
// Pointers an scf.for carries are given the layout in the loop itself.
// Assumes every tensor already has a layout (convert-tile-to-tilegpu).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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
/// The pointers of a tile.load or tile.store, or null for other ops.
Value getAccessPointers(Operation *op) {
  if (auto load = dyn_cast<tile::LoadOp>(op))
    return load.getPtr();
  if (auto store = dyn_cast<tile::StoreOp>(op))
    return store.getPtr();
  return {};
}

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

  /// Makes `loop` carry iter_arg `arg` in `layout`: conversions go around
  /// the init, the yield and the loop's result, and inside the body the
  /// argument's old users see it converted back. Remove-layout-conversions
  /// then recomputes the pointer update (an addptr) in the new layout.
  void setCarriedLayout(scf::ForOp loop, BlockArgument arg,
                        BlockedEncodingAttr layout) {
    unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
    Type oldType = arg.getType(), newType = withLayout(oldType, layout);
    Location loc = loop.getLoc();
    OpBuilder builder(loop);
    OpOperand &init = loop.getInitArgsMutable()[index];
    init.set(ConvertLayoutOp::create(builder, loc, newType, init.get()));
    arg.setType(newType);
    builder.setInsertionPointToStart(loop.getBody());
    auto inBody = ConvertLayoutOp::create(builder, loc, oldType, arg);
    arg.replaceAllUsesExcept(inBody.getResult(), inBody);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    builder.setInsertionPoint(yield);
    OpOperand &yielded = yield->getOpOperand(index);
    yielded.set(ConvertLayoutOp::create(builder, loc, newType, yielded.get()));
    Value result = loop.getResult(index);
    result.setType(newType);
    builder.setInsertionPointAfter(loop);
    auto after = ConvertLayoutOp::create(builder, loc, oldType, result);
    result.replaceAllUsesExcept(after.getResult(), after);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);

    // Pointers carried by a loop: the loop carries them in the layout of
    // their memory access (converting them each iteration would cost more
    // than the wider access gains).
    {
      tile::ModuleAxisInfo axisInfo(module);
      SmallVector<std::tuple<scf::ForOp, BlockArgument, BlockedEncodingAttr>>
          carried;
      llvm::SmallPtrSet<Value, 8> seen;
      module.walk([&](Operation *op) {
        Value ptr = getAccessPointers(op);
        auto arg = dyn_cast_or_null<BlockArgument>(ptr);
        if (!arg || !isa<RankedTensorType>(ptr.getType()))
          return;
        auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!loop || arg.getArgNumber() < loop.getNumInductionVars() ||
            !seen.insert(arg).second)
          return;
        carried.push_back({loop, arg, chooseLayout(axisInfo, ptr, numWarps)});
      });
      for (auto [loop, arg, layout] : carried)
        setCarriedLayout(loop, arg, layout);
    }

    tile::ModuleAxisInfo axisInfo(module);
    // Choose all layouts first: rewriting changes the values the analysis
    // knows.
    SmallVector<std::pair<Operation *, BlockedEncodingAttr>> plan;
    module.walk([&](Operation *op) {
      Value ptr = getAccessPointers(op);
      // Other block arguments of regions keep their layout.
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
        // Scalars (a load's tensor map and TMA coordinates) stay as they
        // are.
        if (!isa<RankedTensorType>(operand.getType()))
          continue;
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
