//===- TileToTileGPU.cpp - give every tensor a layout ---------------------===//
//
// convert-tile-to-tilegpu turns a tile program into the GPU-level IR by
// giving every ranked tensor a distributed layout:
//   - by default the blocked layout of its rank, one per rank and function,
//     shaped for the largest tensor of that rank (one element per thread,
//     lanes then warps along the last axis first), so that blocks of one
//     rank meet in one layout and broadcasting moves no data;
//   - a reduction's result is the slice of its operand's layout along the
//     reduced axis, and expand_dims takes the slice of its result's layout,
//     so that neither moves data either;
//   - a scan's result keeps its operand's layout when that is blocked (else
//     it takes the default one);
//   - a transpose's result takes its (blocked) operand's layout with the
//     axes permuted: the same registers, no data moved;
//   - a join's result takes its operands' layout with a new last axis of 2
//     held per thread (joinBlockedLayout), and a split's results the inverse,
//     so that both only regroup registers.
// Where an operand's layout differs from the one its user needs, a
// tilegpu.convert_layout is inserted; later passes (coalesce, remove layout
// conversions) choose better layouts and remove what they can. Dense
// constants are re-typed, and the module records num-warps,
// threads-per-warp and the target.
// Assumes a verified tile-dialect module in which no tensor has a layout.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
struct ConvertTileToTileGPU
    : public tile::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPU> {
  using Base::Base;

  /// The default layout of each rank in the function being converted.
  DenseMap<unsigned, Attribute> defaultLayouts;

  void chooseDefaultLayouts(func::FuncOp func) {
    defaultLayouts.clear();
    // Per rank, the shape with the most elements.
    DenseMap<unsigned, RankedTensorType> largest;
    auto consider = [&](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getRank() == 0)
        return;
      RankedTensorType &best = largest[tensor.getRank()];
      if (!best || tensor.getNumElements() > best.getNumElements())
        best = tensor;
    };
    func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        consider(t);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            consider(arg.getType());
    });
    for (auto &[rank, tensor] : largest) {
      SmallVector<unsigned> order, sizePerThread(rank, 1);
      for (unsigned axis = rank; axis-- > 0;)
        order.push_back(axis);
      defaultLayouts[rank] = getBlockedLayout(&getContext(), tensor.getShape(),
                                              sizePerThread, order, numWarps);
    }
  }

  Type withDefaultLayout(Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding() || tensor.getRank() == 0)
      return type;
    return withLayout(type, defaultLayouts.lookup(tensor.getRank()));
  }

  /// `value`'s layout when it is blocked, else the default one of its rank.
  BlockedEncodingAttr getBlockedOrDefault(Value value) {
    auto tensor = cast<RankedTensorType>(value.getType());
    if (auto blocked =
            dyn_cast_or_null<BlockedEncodingAttr>(tensor.getEncoding()))
      return blocked;
    return cast<BlockedEncodingAttr>(defaultLayouts.lookup(tensor.getRank()));
  }

  /// The layout of a split's results: its operand's without the last axis
  /// when the operand is laid out as a join's result, else the default.
  BlockedEncodingAttr getSplitResultLayout(SplitOp split) {
    if (auto blocked = splitBlockedLayout(getBlockedOrDefault(split.getSrc())))
      return blocked;
    return cast<BlockedEncodingAttr>(
        defaultLayouts.lookup(split.getOutLHS().getType().getRank()));
  }

  /// The layout each tensor result of `op` gets.
  void assignResultLayouts(Operation *op) {
    if (auto join = dyn_cast<JoinOp>(op)) {
      join.getResult().setType(
          withLayout(join.getType(),
                     joinBlockedLayout(getBlockedOrDefault(join.getLhs()))));
      return;
    }
    if (auto split = dyn_cast<SplitOp>(op)) {
      BlockedEncodingAttr layout = getSplitResultLayout(split);
      for (OpResult result : op->getResults())
        result.setType(withLayout(result.getType(), layout));
      return;
    }
    if (auto trans = dyn_cast<TransOp>(op)) {
      trans.getResult().setType(
          withLayout(trans.getType(),
                     permuteBlockedLayout(getBlockedOrDefault(trans.getSrc()),
                                          trans.getOrder())));
      return;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      auto src = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
      for (OpResult result : op->getResults())
        if (isa<RankedTensorType>(result.getType()))
          result.setType(withLayout(
              result.getType(),
              SliceEncodingAttr::get(
                  &getContext(), reduce.getAxis(),
                  cast<DistributedLayoutInterface>(src.getEncoding()))));
      return;
    }
    if (auto scan = dyn_cast<ScanOp>(op)) {
      // Scans are lowered from blocked operands.
      auto src = cast<RankedTensorType>(scan.getSrcs()[0].getType());
      Attribute layout = src.getEncoding();
      if (!isa_and_nonnull<BlockedEncodingAttr>(layout))
        layout = defaultLayouts.lookup(src.getRank());
      for (OpResult result : op->getResults())
        result.setType(withLayout(result.getType(), layout));
      return;
    }
    for (OpResult result : op->getResults())
      result.setType(withDefaultLayout(result.getType()));
  }

  /// Converts `operand` of `op` to `layout` unless it has it already.
  void requireLayout(OpOperand &operand, Attribute layout) {
    if (!layout || !isa<RankedTensorType>(operand.get().getType()))
      return;
    OpBuilder builder(operand.getOwner());
    operand.set(convertToLayout(builder, operand.getOwner()->getLoc(),
                                operand.get(), layout));
  }

  void requireType(OpOperand &operand, Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      requireLayout(operand, tensor.getEncoding());
  }

  Attribute layoutOf(Value value) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    return tensor ? tensor.getEncoding() : Attribute();
  }

  /// Inserts the conversions `op` needs for its operands' layouts.
  void fixOperandLayouts(Operation *op) {
    if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
      auto parent = cast<DistributedLayoutInterface>(layoutOf(expand));
      requireLayout(
          expand.getSrcMutable(),
          SliceEncodingAttr::get(&getContext(), expand.getAxis(), parent));
      return;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      // Reductions are lowered from blocked operands.
      Attribute first = layoutOf(reduce.getSrcs()[0]);
      if (!isa<BlockedEncodingAttr>(first))
        first = defaultLayouts.lookup(
            cast<RankedTensorType>(reduce.getSrcs()[0].getType()).getRank());
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, first);
      return;
    }
    if (auto scan = dyn_cast<ScanOp>(op)) {
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, layoutOf(scan.getResult(0)));
      return;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      requireLayout(dot.getCMutable(), layoutOf(dot));
      return;
    }
    if (auto trans = dyn_cast<TransOp>(op)) {
      requireLayout(trans.getSrcMutable(), getBlockedOrDefault(trans.getSrc()));
      return;
    }
    if (auto join = dyn_cast<JoinOp>(op)) {
      Attribute operands = splitBlockedLayout(
          cast<BlockedEncodingAttr>(layoutOf(join.getResult())));
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, operands);
      return;
    }
    if (auto split = dyn_cast<SplitOp>(op)) {
      requireLayout(split.getSrcMutable(),
                    joinBlockedLayout(cast<BlockedEncodingAttr>(
                        layoutOf(split.getOutLHS()))));
      return;
    }
    if (auto store = dyn_cast<StoreOp>(op)) {
      for (OpOperand &operand : op->getOpOperands())
        requireLayout(operand, layoutOf(store.getPtr()));
      return;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      if (isa<scf::ForOp, scf::IfOp>(parent))
        for (auto [operand, type] :
             llvm::zip(op->getOpOperands(), parent->getResultTypes()))
          requireType(operand, type);
      else if (auto loop = dyn_cast<scf::WhileOp>(parent))
        for (auto [operand, arg] :
             llvm::zip(op->getOpOperands(), loop.getBeforeArguments()))
          requireType(operand, arg.getType());
      return;
    }
    if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      auto loop = cast<scf::WhileOp>(op->getParentOp());
      for (auto [operand, arg] :
           llvm::zip(condition.getArgsMutable(), loop.getAfterArguments()))
        requireType(operand, arg.getType());
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [operand, arg] :
           llvm::zip(loop.getInitArgsMutable(), loop.getRegionIterArgs()))
        requireType(operand, arg.getType());
      return;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      for (auto [operand, arg] :
           llvm::zip(loop.getInitsMutable(), loop.getBeforeArguments()))
        requireType(operand, arg.getType());
      return;
    }
    // Ops computing element by element (arith, math, addptr, load, atomics,
    // broadcast, inline asm): operands in the (first) result's layout.
    if (op->getNumResults() == 0 || op->getNumRegions() != 0 ||
        isa<ConvertLayoutOp>(op))
      return;
    Attribute layout = layoutOf(op->getResult(0));
    if (!layout)
      return;
    if (!op->hasTrait<OpTrait::Elementwise>() &&
        !isa<AddPtrOp, LoadOp, AtomicRMWOp, AtomicCASOp, BroadcastOp,
             InlineAsmElementwiseOp, arith::SelectOp>(op))
      return;
    for (OpOperand &operand : op->getOpOperands())
      requireLayout(operand, layout);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numWarps == 0 || !llvm::isPowerOf2_32(numWarps)) {
      module.emitError("num-warps must be a power of two, got ")
          << unsigned(numWarps);
      return signalPassFailure();
    }
    Builder builder(&getContext());
    module->setAttr(TileGPUDialect::getNumWarpsAttrName(),
                    builder.getI32IntegerAttr(numWarps));
    module->setAttr(TileGPUDialect::getThreadsPerWarpAttrName(),
                    builder.getI32IntegerAttr(32));
    module->setAttr(TileGPUDialect::getTargetAttrName(),
                    builder.getStringAttr(target));

    for (auto func : module.getOps<func::FuncOp>()) {
      chooseDefaultLayouts(func);
      SmallVector<Type> inputs, results;
      for (Type t : func.getArgumentTypes())
        inputs.push_back(withDefaultLayout(t));
      for (Type t : func.getResultTypes())
        results.push_back(withDefaultLayout(t));
      func.setType(builder.getFunctionType(inputs, results));
      // Operands are defined before their users in this pre-order walk, so
      // each op sees its operands' final layouts.
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == func)
          return;
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              arg.setType(withDefaultLayout(arg.getType()));
        assignResultLayouts(op);
        if (auto constant = dyn_cast<arith::ConstantOp>(op))
          if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
            constant.setValueAttr(
                dense.reshape(cast<ShapedType>(constant.getType())));
      });
      for (BlockArgument arg : func.getArguments())
        arg.setType(withDefaultLayout(arg.getType()));
      SmallVector<Operation *> ops;
      func.walk([&](Operation *op) { ops.push_back(op); });
      for (Operation *op : ops)
        fixOperandLayouts(op);
    }
  }
};
} // namespace
