//===- PointerCastOpToLLVM.cpp - casts between pointers and integers ------===//
//
// The pointer casts, register by register: tile.int_to_ptr is llvm.inttoptr
// to a global pointer, tile.ptr_to_int llvm.ptrtoint to i64, and
// tile.ptr_cast nothing at all, since every !tile.ptr<T> is the same LLVM
// global pointer.
// Loaded addresses become pointers this way (tutorial 08's
// `tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))`).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// `op` (scalar or tensor) rewritten register by register with `cast`.
template <typename OpTy>
struct PointerCastLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;

  virtual Value cast(ConversionPatternRewriter &rewriter, Location loc,
                     Type resultType, Value source) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    auto structType = dyn_cast<LLVM::LLVMStructType>(resultType);
    if (!structType) {
      rewriter.replaceOp(op, cast(rewriter, loc, resultType, adaptor.getSrc()));
      return success();
    }
    Type elementType = structType.getBody()[0];
    SmallVector<Value> results;
    for (Value source : unpackStruct(rewriter, loc, adaptor.getSrc()))
      results.push_back(cast(rewriter, loc, elementType, source));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, results));
    return success();
  }
};

struct IntToPtrOpLowering : public PointerCastLowering<IntToPtrOp> {
  using PointerCastLowering::PointerCastLowering;
  Value cast(ConversionPatternRewriter &rewriter, Location loc, Type type,
             Value source) const override {
    return LLVM::IntToPtrOp::create(rewriter, loc, type, source);
  }
};

struct PtrToIntOpLowering : public PointerCastLowering<PtrToIntOp> {
  using PointerCastLowering::PointerCastLowering;
  Value cast(ConversionPatternRewriter &rewriter, Location loc, Type type,
             Value source) const override {
    return LLVM::PtrToIntOp::create(rewriter, loc, type, source);
  }
};

struct PtrCastOpLowering : public PointerCastLowering<PtrCastOp> {
  using PointerCastLowering::PointerCastLowering;
  Value cast(ConversionPatternRewriter &, Location, Type,
             Value source) const override {
    return source;
  }
};
} // namespace

void mlir::tilegpu::populatePointerCastOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<IntToPtrOpLowering, PtrToIntOpLowering, PtrCastOpLowering>(
      converter);
}
