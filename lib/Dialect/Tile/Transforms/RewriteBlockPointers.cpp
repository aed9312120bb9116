//===- RewriteBlockPointers.cpp - block pointers as pointer blocks --------===//
//
// tile-rewrite-block-pointers: a block pointer becomes its parts (base,
// then shape, strides and offsets per dimension), a one-to-many type
// conversion that carries the parts through scf.for, scf.while and scf.if
// like any other values; tile.advance adds to the offsets; tile.block_load
// and tile.block_store become tile.load and tile.store of a block of
// pointers with a mask on the boundary-checked dimensions, as Triton's
// RewriteTensorPointer does where there is no TMA (a host descriptor's
// tensor map goes on to the load, for tilegpu-pipeline). Assumes the front
// end's types: shape and strides i64, offsets i32. Offsets and bounds are
// computed in i64, so no index wraps.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEREWRITEBLOCKPOINTERS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A block pointer's parts, as the type converter lays them out.
struct BlockPointerParts {
  Value base;
  SmallVector<Value> shape, strides, offsets;

  static BlockPointerParts from(ValueRange parts) {
    unsigned rank = (parts.size() - 1) / 3;
    BlockPointerParts result;
    result.base = parts[0];
    for (unsigned d = 0; d < rank; ++d) {
      result.shape.push_back(parts[1 + d]);
      result.strides.push_back(parts[1 + rank + d]);
      result.offsets.push_back(parts[1 + 2 * rank + d]);
    }
    return result;
  }
  SmallVector<Value> flatten() const {
    SmallVector<Value> parts{base};
    llvm::append_range(parts, shape);
    llvm::append_range(parts, strides);
    llvm::append_range(parts, offsets);
    return parts;
  }
};

class BlockPointerTypeConverter : public TypeConverter {
public:
  BlockPointerTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](BlockPointerType type, SmallVectorImpl<Type> &results) {
      RankedTensorType block = type.getBlockType();
      MLIRContext *ctx = type.getContext();
      results.push_back(PointerType::get(ctx, block.getElementType()));
      for (int64_t d = 0; d < 2 * block.getRank(); ++d)
        results.push_back(IntegerType::get(ctx, 64));
      for (int64_t d = 0; d < block.getRank(); ++d)
        results.push_back(IntegerType::get(ctx, 32));
      return success();
    });
  }
};

struct MakeBlockPtrLowering : public OpConversionPattern<MakeBlockPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeBlockPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts;
    for (ValueRange operand : adaptor.getOperands())
      llvm::append_range(parts, operand);
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

struct AdvanceLowering : public OpConversionPattern<AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPointerParts parts = BlockPointerParts::from(adaptor.getPtr());
    for (auto [offset, delta] : llvm::zip(parts.offsets, adaptor.getOffsets()))
      offset =
          arith::AddIOp::create(rewriter, op.getLoc(), offset, delta.front());
    rewriter.replaceOpWithMultiple(op, {parts.flatten()});
    return success();
  }
};

/// The pointers and the mask a block-pointer access goes through.
struct BlockAccess {
  Value pointers, mask;
};

/// `value` (a 1-D tensor along dimension `dim`) with the block's rank, then
/// broadcast to `shape`.
Value spreadAlong(OpBuilder &b, Location loc, Value value, unsigned dim,
                  ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  for (unsigned axis = 0; axis < rank; ++axis)
    if (axis != dim)
      value = ExpandDimsOp::create(
          b, loc,
          [&] {
            auto type = cast<RankedTensorType>(value.getType());
            SmallVector<int64_t> expanded(type.getShape());
            expanded.insert(expanded.begin() + axis, 1);
            return RankedTensorType::get(expanded, type.getElementType());
          }(),
          value, b.getI32IntegerAttr(axis));
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  return BroadcastOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value);
}

BlockAccess buildAccess(OpBuilder &b, Location loc, RankedTensorType block,
                        const BlockPointerParts &parts,
                        ArrayRef<int32_t> boundaryCheck) {
  ArrayRef<int64_t> shape = block.getShape();
  Type i64 = b.getI64Type();
  Value offsetSum, mask;
  for (unsigned d = 0; d < shape.size(); ++d) {
    auto rangeType = RankedTensorType::get({shape[d]}, b.getI32Type());
    auto wideType = RankedTensorType::get({shape[d]}, i64);
    Value range = MakeRangeOp::create(b, loc, rangeType, 0, shape[d]);
    Value start = arith::ExtSIOp::create(b, loc, i64, parts.offsets[d]);
    // offset_d + i, in i64.
    Value index = arith::AddIOp::create(
        b, loc, arith::ExtSIOp::create(b, loc, wideType, range),
        SplatOp::create(b, loc, wideType, start));
    Value scaled = arith::MulIOp::create(
        b, loc, index, SplatOp::create(b, loc, wideType, parts.strides[d]));
    Value term = spreadAlong(b, loc, scaled, d, shape);
    offsetSum =
        offsetSum ? arith::AddIOp::create(b, loc, offsetSum, term) : term;
    if (!llvm::is_contained(boundaryCheck, int32_t(d)))
      continue;
    auto boolType = RankedTensorType::get({shape[d]}, b.getI1Type());
    Value zero = arith::ConstantOp::create(
        b, loc, wideType, DenseElementsAttr::get(wideType, int64_t(0)));
    Value notBelow = arith::CmpIOp::create(
        b, loc, boolType, arith::CmpIPredicate::sge, index, zero);
    Value below = arith::CmpIOp::create(
        b, loc, boolType, arith::CmpIPredicate::slt, index,
        SplatOp::create(b, loc, wideType, parts.shape[d]));
    Value inside = arith::AndIOp::create(b, loc, notBelow, below);
    Value spread = spreadAlong(b, loc, inside, d, shape);
    mask = mask ? arith::AndIOp::create(b, loc, mask, spread) : spread;
  }
  auto pointerType = RankedTensorType::get(
      shape, PointerType::get(b.getContext(), block.getElementType()));
  Value pointers = AddPtrOp::create(
      b, loc, pointerType, SplatOp::create(b, loc, pointerType, parts.base),
      offsetSum);
  return {pointers, mask};
}

struct BlockLoadLowering : public OpConversionPattern<BlockLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType block = op.getType();
    BlockAccess access = buildAccess(rewriter, loc, block,
                                     BlockPointerParts::from(adaptor.getPtr()),
                                     op.getBoundaryCheck());
    Value other;
    if (access.mask && op.getPadding() != PaddingOption::none) {
      Type element = block.getElementType();
      TypedAttr padding;
      if (op.getPadding() == PaddingOption::nan)
        padding = rewriter.getFloatAttr(
            element, std::numeric_limits<double>::quiet_NaN());
      else
        padding = rewriter.getZeroAttr(element);
      other = arith::ConstantOp::create(rewriter, loc, block,
                                        DenseElementsAttr::get(block, padding));
    }
    // A host descriptor's tensor map goes on, its box at the offsets.
    Value tensormap;
    SmallVector<Value> coords;
    if (!adaptor.getTensormap().empty()) {
      tensormap = adaptor.getTensormap().front();
      coords = BlockPointerParts::from(adaptor.getPtr()).offsets;
    }
    rewriter.replaceOpWithNewOp<LoadOp>(op, block, access.pointers, access.mask,
                                        other, tensormap, coords, op.getCache(),
                                        op.getEvict(), op.getIsVolatile());
    return success();
  }
};

struct BlockStoreLowering : public OpConversionPattern<BlockStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BlockStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockAccess access = buildAccess(
        rewriter, op.getLoc(), op.getValue().getType(),
        BlockPointerParts::from(adaptor.getPtr()), op.getBoundaryCheck());
    Value tensormap;
    SmallVector<Value> coords;
    if (!adaptor.getTensormap().empty()) {
      tensormap = adaptor.getTensormap().front();
      coords = BlockPointerParts::from(adaptor.getPtr()).offsets;
    }
    rewriter.replaceOpWithNewOp<StoreOp>(
        op, access.pointers, adaptor.getValue().front(), access.mask, tensormap,
        coords, op.getCache(), op.getEvict());
    return success();
  }
};

struct TileRewriteBlockPointersPass
    : public mlir::tile::impl::TileRewriteBlockPointersBase<
          TileRewriteBlockPointersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      any |= isa<MakeBlockPtrOp, AdvanceOp, BlockLoadOp, BlockStoreOp>(op);
    });
    if (!any)
      return;
    MLIRContext *ctx = &getContext();
    BlockPointerTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalOp<MakeBlockPtrOp, AdvanceOp, BlockLoadOp, BlockStoreOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return converter.isLegal(op->getOperandTypes()) &&
             converter.isLegal(op->getResultTypes());
    });
    RewritePatternSet patterns(ctx);
    patterns.add<MakeBlockPtrLowering, AdvanceLowering, BlockLoadLowering,
                 BlockStoreLowering>(converter, ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

LogicalResult mlir::tile::rewriteBlockPointers(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createTileRewriteBlockPointers());
  return pm.run(module);
}
