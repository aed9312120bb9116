//===- DebugOpToLLVM.cpp - tl.device_assert on the GPU --------------------===//
//
// tile.assert: where any element a thread holds is false, the thread calls
// the CUDA device runtime's __assertfail(message, file, line, function, 1),
// which the driver's JIT links in, as CUDA's assert() does: the kernel stops
// and the launch fails with CUDA_ERROR_ASSERT. The call sits in an scf.if
// (scf-to-cf runs after this conversion), so an assert inside a loop keeps
// the loop's single block.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// The address of a new constant global string of the module.
Value createString(ConversionPatternRewriter &rewriter, Location loc,
                   ModuleOp module, StringRef text) {
  unsigned index = 0;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    index += global.getSymName().starts_with("tile_assert_");
  std::string name = "tile_assert_" + std::to_string(index);
  return LLVM::createGlobalString(loc, rewriter, name,
                                  (text + StringRef("\0", 1)).str(),
                                  LLVM::Linkage::Internal);
}

struct AssertOpLowering : public ConvertOpToLLVMPattern<AssertOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptrType = LLVM::LLVMPointerType::get(getContext());
    FailureOr<LLVM::LLVMFuncOp> assertFail =
        LLVM::lookupOrCreateFn(rewriter, module, "__assertfail",
                               {ptrType, ptrType, rewriter.getI32Type(),
                                ptrType, rewriter.getI64Type()},
                               LLVM::LLVMVoidType::get(getContext()));
    if (failed(assertFail))
      return op.emitOpError("cannot declare __assertfail");

    // Whether any element this thread holds is false.
    SmallVector<Value> conditions =
        isa<RankedTensorType>(op.getCondition().getType())
            ? unpackStruct(rewriter, loc, adaptor.getCondition())
            : SmallVector<Value>{adaptor.getCondition()};
    Value isTrue =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    Value anyFalse;
    for (Value condition : conditions) {
      Value isFalse = LLVM::XOrOp::create(rewriter, loc, condition, isTrue);
      anyFalse =
          anyFalse
              ? LLVM::OrOp::create(rewriter, loc, anyFalse, isFalse).getResult()
              : isFalse;
    }

    std::string file = "unknown";
    unsigned line = 0;
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
      file = fileLoc.getFilename().str();
      line = fileLoc.getLine();
    }
    StringRef function = "kernel";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      function = func.getName();
    std::string message = op.getMessage().str();
    if (message.empty())
      message = "device_assert failed";

    Value args[] = {
        createString(rewriter, loc, module, message),
        createString(rewriter, loc, module, file),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(), line),
        createString(rewriter, loc, module, function),
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), 1)};
    scf::IfOp::create(rewriter, loc, anyFalse, [&](OpBuilder &b, Location) {
      LLVM::CallOp::create(b, loc, *assertFail, args);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateDebugOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<AssertOpLowering>(converter);
}
