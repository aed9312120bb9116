//===- DebugOpToLLVM.cpp - tl.device_assert and tl.device_print on the GPU ===//
//
// tile.print: every thread prints each element it holds with CUDA's
// vprintf(format, arguments), as Triton's NVIDIA backend does: one format
// string per argument (a module global) for the line
// `pid (x, y, z) idx (i, j)PREFIX(operand n) VALUE` with the conversions
// PrintOp gives (shared with the interpreter), and the arguments (the
// program id, the element's indices, the value widened as C's varargs
// would: integers to 32 bits, floats to double) stored into a struct in
// local memory, allocated once at the function's entry. Elements several
// threads hold (replicated layouts, scalars) print once per thread, as in
// Triton. The driver writes the lines to the process's stdout when the
// host synchronizes with the kernel.
//
// tile.assert: where any element a thread holds is false, the thread calls
// the CUDA device runtime's __assertfail(message, file, line, function, 1),
// which the driver's JIT links in, as CUDA's assert() does: the kernel stops
// and the launch fails with CUDA_ERROR_ASSERT. The call sits in an scf.if
// (scf-to-cf runs after this conversion), so an assert inside a loop keeps
// the loop's single block.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// The address of a new constant global string of the module, named
/// `stem` and a number.
Value createString(ConversionPatternRewriter &rewriter, Location loc,
                   ModuleOp module, StringRef text,
                   StringRef stem = "tile_assert_") {
  unsigned index = 0;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    index += global.getSymName().starts_with(stem);
  std::string name = stem.str() + std::to_string(index);
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

/// `value` as C's varargs pass it to vprintf for `PrintOp::getValueFormat`:
/// integers narrower than 32 bits widened by signedness, floats as
/// doubles (with hex, their bits), pointers as 64-bit integers.
Value promoteForPrintf(OpBuilder &b, Location loc, Value value, bool hex,
                       bool isSigned) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  if (isa<FloatType>(type)) {
    if (!hex)
      return type.isF64() ? value
                          : LLVM::FPExtOp::create(b, loc, b.getF64Type(), value)
                                .getResult();
    type = b.getIntegerType(type.getIntOrFloatBitWidth());
    value = LLVM::BitcastOp::create(b, loc, type, value);
    isSigned = false;
  }
  if (type.getIntOrFloatBitWidth() >= 32)
    return value;
  if (isSigned)
    return LLVM::SExtOp::create(b, loc, b.getI32Type(), value);
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), value);
}

/// '%' doubled, so that `text` prints as it is inside a printf format.
std::string escapeForPrintf(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}

struct PrintOpLowering : public ConvertOpToLLVMPattern<PrintOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    auto module = op->getParentOfType<ModuleOp>();
    Type ptrType = LLVM::LLVMPointerType::get(ctx);
    Type i32 = rewriter.getI32Type();
    FailureOr<LLVM::LLVMFuncOp> vprintf = LLVM::lookupOrCreateFn(
        rewriter, module, "vprintf", {ptrType, ptrType}, i32);
    if (failed(vprintf))
      return op.emitOpError("cannot declare vprintf");
    Region *body =
        &op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>()->getRegion(0);
    SmallVector<Value> pid = {NVVM::BlockIdXOp::create(rewriter, loc, i32),
                              NVVM::BlockIdYOp::create(rewriter, loc, i32),
                              NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    std::string line = "pid (%u, %u, %u)";
    std::string prefix = escapeForPrintf(op.getPrefix());

    // Stores `args` into a struct of their types in local memory (allocated
    // at the function's entry) and calls vprintf(format, struct).
    auto print = [&](Value format, ArrayRef<Value> args, Value &buffer) {
      SmallVector<Type> types;
      for (Value arg : args)
        types.push_back(arg.getType());
      Type structType = LLVM::LLVMStructType::getLiteral(ctx, types);
      if (!buffer) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&body->front());
        Value one = i32Constant(rewriter, loc, 1);
        buffer = LLVM::AllocaOp::create(rewriter, loc, ptrType, structType, one,
                                        /*alignment=*/8);
      }
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field =
            LLVM::GEPOp::create(rewriter, loc, ptrType, structType, buffer,
                                ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        LLVM::StoreOp::create(rewriter, loc, arg, field);
      }
      LLVM::CallOp::create(rewriter, loc, *vprintf, ValueRange{format, buffer});
    };

    if (op.getArgs().empty()) {
      Value format = createString(rewriter, loc, module, line + prefix + "\n",
                                  "tile_printf_");
      Value buffer;
      print(format, pid, buffer);
      rewriter.eraseOp(op);
      return success();
    }
    for (auto [a, arg, converted] :
         llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      SmallVector<Value> values = tensor
                                      ? unpackStruct(rewriter, loc, converted)
                                      : SmallVector<Value>{converted};
      SmallVector<SmallVector<Value>> indices(values.size());
      std::string format = line + " idx (";
      if (tensor) {
        indices = emitIndices(rewriter, loc, getDistributedLayout(tensor),
                              tensor.getShape());
        for (auto [d, dim] : llvm::enumerate(tensor.getShape()))
          format += (d ? ", %" : "%") +
                    std::to_string(PrintOp::getIndexWidth(dim)) + "u";
      }
      bool isSigned = op.isSignedArg(a);
      format += ")" + prefix + escapeForPrintf(op.getOperandTag(a)) +
                PrintOp::getValueFormat(getElementTypeOrSelf(arg.getType()),
                                        op.getHex(), isSigned) +
                "\n";
      Value formatString =
          createString(rewriter, loc, module, format, "tile_printf_");
      Value buffer;
      for (auto [value, index] : llvm::zip(values, indices)) {
        SmallVector<Value> args(pid);
        args.append(index.begin(), index.end());
        args.push_back(
            promoteForPrintf(rewriter, loc, value, op.getHex(), isSigned));
        print(formatString, args, buffer);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateDebugOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<AssertOpLowering, PrintOpLowering>(converter);
}
