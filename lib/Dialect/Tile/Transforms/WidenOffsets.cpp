//===- WidenOffsets.cpp - pointer offsets computed in 64 bits -------------===//
//
// tile-widen-offsets: the integer arithmetic behind every tile.addptr offset
// narrower than 64 bits is recomputed in i64 from its sources, sign-extended
// (Passes.td says which operations). The driver runs it for launches whose
// buffers hold 2^31 elements or more, where 32-bit offsets would wrap.
// Assumes the tile dialect after the front end: offsets are signless
// integers or blocks of them, computed with arith ops and tile shape ops.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEWIDENOFFSETS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// `type` (an integer or a block of integers) with 64-bit elements.
Type getWideType(Type type) {
  Type i64 = IntegerType::get(type.getContext(), 64);
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(i64);
  return i64;
}

bool isNarrowInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.getWidth() > 1 && integer.getWidth() < 64;
}

/// Operations whose result, computed on 64-bit operands, is the exact value
/// of the same computation on unbounded integers.
bool isRecomputable(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
             arith::RemSIOp, arith::MaxSIOp, arith::MinSIOp, arith::AndIOp,
             arith::OrIOp, arith::XOrIOp, arith::ShLIOp, arith::ShRSIOp,
             arith::SelectOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp,
             TransOp>(op);
}

class Widener {
public:
  /// The 64-bit value of `value`, computed once.
  Value widen(Value value) {
    auto it = wide.find(value);
    if (it != wide.end())
      return it->second;
    Value result = compute(value);
    wide[value] = result;
    return result;
  }

  /// Uses of a widened value through arith.extsi to i64 take the wide one.
  void replaceExtensions() {
    SmallVector<std::pair<arith::ExtSIOp, Value>> extensions;
    for (auto [narrow, wideValue] : wide)
      for (Operation *user : narrow.getUsers())
        if (auto ext = dyn_cast<arith::ExtSIOp>(user))
          if (ext.getType() == wideValue.getType() &&
              ext.getResult() != wideValue)
            extensions.push_back({ext, wideValue});
    for (auto [ext, wideValue] : extensions)
      ext.replaceAllUsesWith(wideValue);
  }

private:
  Value compute(Value value) {
    Type wideType = getWideType(value.getType());
    Operation *def = value.getDefiningOp();
    OpBuilder builder(value.getContext());
    if (def)
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(value.getParentBlock());
    Location loc = value.getLoc();

    if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
      TypedAttr attr = constant.getValue();
      if (auto integer = dyn_cast<IntegerAttr>(attr))
        return arith::ConstantOp::create(
            builder, loc, IntegerAttr::get(wideType, integer.getValue().sext(64)));
      if (auto dense = dyn_cast<DenseIntElementsAttr>(attr))
        return arith::ConstantOp::create(
            builder, loc,
            dense.mapValues(IntegerType::get(value.getContext(), 64),
                            [](const APInt &v) { return v.sext(64); }));
    }
    if (auto ext = dyn_cast_or_null<arith::ExtSIOp>(def))
      return arith::ExtSIOp::create(builder, loc, wideType, ext.getIn());
    if (def && def->getNumResults() == 1 && isRecomputable(def)) {
      IRMapping mapping;
      for (Value operand : def->getOperands())
        if (isNarrowInteger(operand.getType())) // not select's i1 condition
          mapping.map(operand, widen(operand));
      // The operands' wide values are defined before `def` or right after
      // their own definitions, which dominate it.
      builder.setInsertionPointAfter(def);
      Operation *clone = builder.clone(*def, mapping);
      clone->getResult(0).setType(wideType);
      // 32-bit no-wrap flags say nothing of the 64-bit computation.
      if (auto flags =
              dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(clone))
        clone->setAttr(flags.getIntegerOverflowAttrName(),
                       arith::IntegerOverflowFlagsAttr::get(
                           clone->getContext(),
                           arith::IntegerOverflowFlags::none));
      return clone->getResult(0);
    }
    // A source: its value is exact as it is.
    return arith::ExtSIOp::create(builder, loc, wideType, value);
  }

  DenseMap<Value, Value> wide;
};

struct WidenOffsets
    : mlir::tile::impl::TileWidenOffsetsBase<WidenOffsets> {
  void runOnOperation() override {
    SmallVector<AddPtrOp> addptrs;
    getOperation().walk([&](AddPtrOp op) {
      if (isNarrowInteger(op.getOffset().getType()))
        addptrs.push_back(op);
    });
    Widener widener;
    for (AddPtrOp op : addptrs)
      op.getOffsetMutable().assign(widener.widen(op.getOffset()));
    widener.replaceExtensions();
  }
};
} // namespace
