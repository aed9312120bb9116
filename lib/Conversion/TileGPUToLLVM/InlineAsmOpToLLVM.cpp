//===- InlineAsmOpToLLVM.cpp - tl.inline_asm_elementwise on the GPU -------===//
//
// tile.inline_asm_elementwise becomes one llvm.inline_asm per `pack`
// registers of the thread, as Triton's ElementwiseInlineAsmOpConversion:
// the asm's operands are, argument by argument, its pack elements, those
// narrower than 32 bits packed into vectors of 32 bits (four i8, two f16);
// its outputs, result by result, are packed the same way and come back as
// one value or a struct of them. A thread holding fewer registers than a
// multiple of pack fills the last call with undef and drops what it gives
// for them. Scalars are one call per thread. Without is_pure the asm has
// side effects: it stays, in order with other side effects.
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
struct InlineAsmElementwiseOpLowering
    : public ConvertOpToLLVMPattern<InlineAsmElementwiseOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(InlineAsmElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    bool isBlock = isa<RankedTensorType>(op.getResult(0).getType());
    unsigned count = 1;
    if (isBlock) {
      auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(
          converter.convertType(op.getResult(0).getType()));
      if (!structType)
        return rewriter.notifyMatchFailure(op, "no distributed layout");
      count = structType.getBody().size();
    }
    unsigned pack = op.getPackedElement();

    // registers[argument][element], padded to a multiple of pack.
    SmallVector<SmallVector<Value>> registers;
    for (Value arg : adaptor.getArgs()) {
      SmallVector<Value> values =
          isBlock ? unpackStruct(rewriter, loc, arg) : SmallVector<Value>{arg};
      if (values.size() != count)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
      registers.push_back(values);
    }
    unsigned padded = llvm::alignTo(count, pack);
    for (SmallVector<Value> &values : registers) {
      Value undef = LLVM::UndefOp::create(rewriter, loc, values[0].getType());
      values.resize(padded, undef);
    }

    // What one call returns: per result, pack elements in registers.
    SmallVector<Type> elementTypes, outputTypes;
    for (Value result : op.getResults()) {
      Type element = getElementTypeOrSelf(result.getType());
      Type llvmElement = converter.convertType(element);
      elementTypes.push_back(llvmElement);
      unsigned perRegister =
          InlineAsmElementwiseOp::getElementsPerRegister(element, pack);
      Type registerType =
          perRegister > 1 ? VectorType::get({int64_t(perRegister)}, llvmElement)
                          : llvmElement;
      outputTypes.append(pack / perRegister, registerType);
    }
    Type asmType =
        outputTypes.size() == 1
            ? outputTypes[0]
            : LLVM::LLVMStructType::getLiteral(getContext(), outputTypes);

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned first = 0; first < padded; first += pack) {
      SmallVector<Value> operands;
      for (auto [arg, values] : llvm::zip(op.getArgs(), registers)) {
        unsigned perRegister = InlineAsmElementwiseOp::getElementsPerRegister(
            getElementTypeOrSelf(arg.getType()), pack);
        for (unsigned j = 0; j < pack; j += perRegister) {
          if (perRegister == 1) {
            operands.push_back(values[first + j]);
            continue;
          }
          Type vectorType =
              VectorType::get({int64_t(perRegister)}, values[0].getType());
          Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
          for (unsigned k = 0; k < perRegister; ++k)
            vector = LLVM::InsertElementOp::create(
                rewriter, loc, vector, values[first + j + k],
                i32Constant(rewriter, loc, k));
          operands.push_back(vector);
        }
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(asmType), operands, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(),
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
      SmallVector<Value> outputs =
          outputTypes.size() == 1
              ? SmallVector<Value>{asmOp.getResult(0)}
              : unpackStruct(rewriter, loc, asmOp.getResult(0));
      unsigned next = 0;
      for (unsigned r = 0; r < op.getNumResults(); ++r) {
        for (unsigned j = 0; j < pack;) {
          Value output = outputs[next++];
          auto vectorType = dyn_cast<VectorType>(output.getType());
          if (!vectorType) {
            results[r].push_back(output);
            ++j;
            continue;
          }
          for (int64_t k = 0; k < vectorType.getNumElements(); ++k)
            results[r].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, output, i32Constant(rewriter, loc, k)));
          j += vectorType.getNumElements();
        }
      }
    }

    SmallVector<Value> replacements;
    for (auto [result, values] : llvm::zip(op.getResults(), results)) {
      values.resize(count);
      replacements.push_back(
          isBlock ? packStruct(rewriter, loc,
                               converter.convertType(result.getType()), values)
                  : values[0]);
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateInlineAsmOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<InlineAsmElementwiseOpLowering>(converter);
}
