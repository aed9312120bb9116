//===- ExternOpToLLVM.cpp - extern_elementwise to calls -------------------===//
//
// tile.extern_elementwise on scalars (tensors were split into registers by
// the elementwise pattern) becomes an llvm.call of its symbol, declared once
// in the module. The declaration is resolved when the LLVM module is
// emitted: lib/Target links CUDA's libdevice bitcode into it, so only the
// functions used remain, inlined.
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
struct ExternElementwiseLowering
    : public ConvertOpToLLVMPattern<ExternElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<ShapedType>(op.getType()))
      return failure(); // split into registers first
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "unconvertible result type");
    SmallVector<Type> operandTypes;
    for (Value operand : adaptor.getSrcs())
      operandTypes.push_back(operand.getType());
    auto functionType = LLVM::LLVMFunctionType::get(resultType, operandTypes);
    auto module = op->getParentOfType<ModuleOp>();
    auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(op.getSymbol());
    if (!function) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      function = LLVM::LLVMFuncOp::create(rewriter, module.getLoc(),
                                          op.getSymbol(), functionType);
    } else if (function.getFunctionType() != functionType) {
      return op.emitOpError("calls ")
             << op.getSymbol() << " as " << functionType
             << " where another call has " << function.getFunctionType();
    }
    auto call =
        LLVM::CallOp::create(rewriter, loc, function, adaptor.getSrcs());
    rewriter.replaceOp(op, call.getResult());
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateExternOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseLowering>(converter);
}
