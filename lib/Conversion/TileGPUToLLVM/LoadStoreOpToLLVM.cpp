//===- LoadStoreOpToLLVM.cpp - tile.load and tile.store to PTX ------------===//
//
// Global loads and stores become predicated `ld.global` / `st.global` inline
// PTX, as wide as the layout's run of consecutive registers, the pointers'
// contiguity and alignment, and the mask's constancy allow (AxisInfo), with
// the access's cache modifier, eviction priority and volatility as Triton
// emits them. Every access is a side effect to LLVM, as in Triton: a load
// must not be merged with an earlier one or moved across a store, an atomic
// or a barrier, which LLVM would do to inline assembly without side effects.
// A scalar load that must be one value for the program
// (isUniformScalarLoad) is read by thread 0 and passed on through its
// shared-memory word (tilegpu.shared_offset).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {

template <typename OpTy>
struct TilePattern : public ConvertOpToLLVMPattern<OpTy> {
  TilePattern(const LLVMTypeConverter &converter, const ModuleAxisInfo &info)
      : ConvertOpToLLVMPattern<OpTy>(converter), axisInfo(info) {}
  const ModuleAxisInfo &axisInfo;
};

/// The qualifiers between `ld`/`st` and `.global` (`.volatile`), and after
/// it (cache operator or L1 eviction priority), as Triton writes them. PTX
/// allows a cache operator or an eviction priority, not both; the cache
/// operator wins. Modifiers PTX has only for the other direction (`.wb` on
/// a load, `.ca` on a store) are dropped, as in Triton.
std::pair<std::string, std::string> getAccessQualifiers(bool isLoad,
                                                        CacheModifier cache,
                                                        EvictionPolicy evict,
                                                        bool isVolatile) {
  if (isVolatile)
    return {".volatile", ""};
  std::string after;
  switch (cache) {
  case CacheModifier::ca:
  case CacheModifier::cv:
    if (isLoad)
      after = "." + stringifyCacheModifier(cache).str();
    break;
  case CacheModifier::wb:
  case CacheModifier::wt:
    if (!isLoad)
      after = "." + stringifyCacheModifier(cache).str();
    break;
  case CacheModifier::cg:
  case CacheModifier::cs:
    after = "." + stringifyCacheModifier(cache).str();
    break;
  case CacheModifier::none:
    break;
  }
  if (after.empty() && evict != EvictionPolicy::normal)
    after = ".L1::" + stringifyEvictionPolicy(evict).str();
  return {"", after};
}

/// Reinterprets `width` elements as `plan.words` integer words, or back.
SmallVector<Value> toWords(OpBuilder &b, Location loc, ArrayRef<Value> elements,
                           const VectorPlan &plan) {
  Type elementType = elements[0].getType();
  Type vecType = VectorType::get({int64_t(elements.size())}, elementType);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(
        b, loc, vec, e, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i));
  Type wordType = b.getIntegerType(plan.wordBits);
  Type wordsType = VectorType::get({int64_t(plan.words)}, wordType);
  Value words = LLVM::BitcastOp::create(b, loc, wordsType, vec);
  SmallVector<Value> result;
  for (unsigned i = 0; i < plan.words; ++i)
    result.push_back(LLVM::ExtractElementOp::create(
        b, loc, words, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i)));
  return result;
}

SmallVector<Value> fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words,
                             Type elementType, unsigned width) {
  Type wordsType = VectorType::get({int64_t(words.size())}, words[0].getType());
  Value vec = LLVM::UndefOp::create(b, loc, wordsType);
  for (auto [i, w] : llvm::enumerate(words))
    vec = LLVM::InsertElementOp::create(
        b, loc, vec, w, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i));
  Type elementsType = VectorType::get({int64_t(width)}, elementType);
  Value elements = LLVM::BitcastOp::create(b, loc, elementsType, vec);
  SmallVector<Value> result;
  for (unsigned i = 0; i < width; ++i)
    result.push_back(LLVM::ExtractElementOp::create(
        b, loc, elements, LLVM::ConstantOp::create(b, loc, b.getI32Type(), i)));
  return result;
}

/// `.v4.b32`-style suffix of a PTX access of `plan`.
std::string accessSuffix(const VectorPlan &plan) {
  std::string suffix =
      plan.words > 1 ? llvm::formatv(".v{0}", plan.words).str() : "";
  return suffix + llvm::formatv(".b{0}", plan.wordBits).str();
}

unsigned bitsOf(Type type) {
  return std::max(8u, type.getIntOrFloatBitWidth());
}

LogicalResult checkElementType(Operation *op, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
    return success();
  return op->emitOpError("global access of ")
         << type << " elements is not supported (8, 16, 32 or 64 bits)";
}

/// PTX has no 8-bit registers: a single byte (fp8, int8, bool) is loaded
/// into and stored from a 16-bit one (ld.global.b8 / st.global.b8 take a
/// wider register and use its low byte).
unsigned registerBits(const VectorPlan &plan) {
  return std::max(16u, plan.wordBits);
}

struct LoadOpLowering : public TilePattern<LoadOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = getElementTypeOrSelf(op.getType());
    if (failed(checkElementType(op, elementType)))
      return failure();
    Type llvmElement = getTypeConverter()->convertType(elementType);
    Type resultType = getTypeConverter()->convertType(op.getType());
    bool isBlock = isa<RankedTensorType>(op.getType());
    unsigned count =
        isBlock ? cast<LLVM::LLVMStructType>(resultType).getBody().size() : 1;
    VectorPlan plan = isBlock ? planVectors(axisInfo, op.getPtr(), op.getMask(),
                                            bitsOf(elementType))
                              : VectorPlan{1, 1, bitsOf(elementType)};
    SmallVector<Value> ptrs{adaptor.getPtr()};
    if (isBlock)
      ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = isBlock ? unpackStruct(rewriter, loc, adaptor.getMask())
                      : SmallVector<Value>{adaptor.getMask()};
    std::optional<uint64_t> broadcastOffset;
    if (!isBlock && isUniformScalarLoad(op)) {
      broadcastOffset = getSharedOffset(op);
      if (!broadcastOffset)
        return op.emitOpError("a scalar load read once for the program needs "
                              "its shared-memory word; run "
                              "tilegpu-allocate-shared-memory first");
      Value tid =
          NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         tid, i32Constant(rewriter, loc, 0));
      masks = {masks.empty()
                   ? first
                   : LLVM::AndOp::create(rewriter, loc, masks[0], first)
                         .getResult()};
    }
    auto [before, after] = getAccessQualifiers(
        /*isLoad=*/true, op.getCache(), op.getEvict(), op.getIsVolatile());
    if (adaptor.getOther())
      others = isBlock ? unpackStruct(rewriter, loc, adaptor.getOther())
                       : SmallVector<Value>{adaptor.getOther()};

    Type wordType = rewriter.getIntegerType(plan.wordBits);
    unsigned regBits = registerBits(plan);
    Type regType = rewriter.getIntegerType(regBits);
    SmallVector<Value> results;
    for (unsigned first = 0; first < count; first += plan.width) {
      // Masked-off elements read `other`, or zero.
      SmallVector<Value> fallback;
      for (unsigned i = 0; i < plan.width; ++i)
        fallback.push_back(
            others.empty()
                ? LLVM::ZeroOp::create(rewriter, loc, llvmElement).getResult()
                : others[first + i]);
      SmallVector<Value> fallbackWords = toWords(rewriter, loc, fallback, plan);
      if (regBits != plan.wordBits)
        for (Value &word : fallbackWords)
          word = LLVM::ZExtOp::create(rewriter, loc, regType, word);

      // ld outputs $0..$(w-1); then the address, predicate, fallbacks.
      std::string asmText, constraints;
      unsigned w = plan.words;
      std::string outs;
      for (unsigned i = 0; i < w; ++i) {
        outs += (i ? ", $" : "$") + std::to_string(i);
        constraints += "=" + constraintFor(regBits).str() + ",";
      }
      unsigned addrIdx = w, predIdx = w + 1;
      unsigned fallbackIdx = masks.empty() ? w + 1 : w + 2;
      SmallVector<Value> operands{ptrs[first]};
      constraints += "l";
      if (!masks.empty()) {
        operands.push_back(masks[first]);
        constraints += ",b";
        for (unsigned i = 0; i < w; ++i) {
          asmText += llvm::formatv("mov.b{0} ${1}, ${2};\n\t", regBits, i,
                                   fallbackIdx + i);
          operands.push_back(fallbackWords[i]);
          constraints += "," + constraintFor(regBits).str();
        }
        asmText += llvm::formatv("@${0} ", predIdx).str();
      }
      std::string brace = w > 1 ? "{ " + outs + " }" : outs;
      asmText += llvm::formatv("ld{0}.global{1}{2} {3}, [ ${4} + 0 ];", before,
                               after, accessSuffix(plan), brace, addrIdx);
      Type asmResult = w == 1
                           ? regType
                           : LLVM::LLVMStructType::getLiteral(
                                 getContext(), SmallVector<Type>(w, regType));
      auto asmOp = createInlinePtx(rewriter, loc, asmResult, operands, asmText,
                                   constraints, /*hasSideEffects=*/true);
      SmallVector<Value> words =
          w == 1 ? SmallVector<Value>{asmOp.getResult(0)}
                 : unpackStruct(rewriter, loc, asmOp.getResult(0));
      if (regBits != plan.wordBits)
        for (Value &word : words)
          word = LLVM::TruncOp::create(rewriter, loc, wordType, word);
      auto loaded = fromWords(rewriter, loc, words, llvmElement, plan.width);
      results.append(loaded.begin(), loaded.end());
    }
    if (isBlock)
      rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, results));
    else if (broadcastOffset)
      rewriter.replaceOp(op, broadcastFromThread0(
                                 rewriter, loc, *broadcastOffset, results[0]));
    else
      rewriter.replaceOp(op, results[0]);
    return success();
  }
};

struct StoreOpLowering : public TilePattern<StoreOp> {
  using TilePattern::TilePattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    if (failed(checkElementType(op, elementType)))
      return failure();
    bool isBlock = isa<RankedTensorType>(op.getValue().getType());
    VectorPlan plan = isBlock ? planVectors(axisInfo, op.getPtr(), op.getMask(),
                                            bitsOf(elementType))
                              : VectorPlan{1, 1, bitsOf(elementType)};
    auto registers = [&](Value v) {
      return isBlock ? unpackStruct(rewriter, loc, v) : SmallVector<Value>{v};
    };
    SmallVector<Value> ptrs = registers(adaptor.getPtr());
    SmallVector<Value> values = registers(adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = registers(adaptor.getMask());
    auto [before, after] = getAccessQualifiers(
        /*isLoad=*/false, op.getCache(), op.getEvict(), /*isVolatile=*/false);

    for (unsigned first = 0; first < values.size(); first += plan.width) {
      SmallVector<Value> words = toWords(
          rewriter, loc, ArrayRef(values).slice(first, plan.width), plan);
      if (registerBits(plan) != plan.wordBits)
        for (Value &word : words)
          word = LLVM::ZExtOp::create(
              rewriter, loc, rewriter.getIntegerType(registerBits(plan)), word);
      // $0 address, $1..$w words, $(w+1) predicate.
      SmallVector<Value> operands{ptrs[first]};
      std::string constraints = "l", list;
      for (unsigned i = 0; i < plan.words; ++i) {
        operands.push_back(words[i]);
        constraints += "," + constraintFor(plan.wordBits).str();
        list += (i ? ", $" : "$") + std::to_string(i + 1);
      }
      std::string asmText;
      if (!masks.empty()) {
        operands.push_back(masks[first]);
        constraints += ",b";
        asmText += llvm::formatv("@${0} ", plan.words + 1).str();
      }
      if (plan.words > 1)
        list = "{ " + list + " }";
      asmText += llvm::formatv("st{0}.global{1}{2} [ $0 + 0 ], {3};", before,
                               after, accessSuffix(plan), list);
      createInlinePtx(rewriter, loc, Type(), operands, asmText, constraints,
                      /*hasSideEffects=*/true);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilegpu::populateLoadStoreOpToLLVMPatterns(
    LLVMTypeConverter &converter, const ModuleAxisInfo &axisInfo,
    RewritePatternSet &patterns) {
  patterns.add<LoadOpLowering, StoreOpLowering>(converter, axisInfo);
}
