//===- TileGPUToLLVM.cpp - tilegpu to the LLVM and NVVM dialects ----------===//
//
// convert-tilegpu-to-llvm lowers a program whose tensors all carry a
// distributed layout. A tensor becomes an LLVM struct of the registers its
// layout gives one thread, numbered as LayoutIndexing.h describes; each op
// becomes that thread's code for its registers:
//   - make_range: the registers' coordinates; splat: copies of the scalar;
//   - addptr and elementwise arith ops: the scalar op per register;
//   - load/store: predicated `ld.global` / `st.global` (LoadStoreOpToLLVM.cpp);
//   - convert_layout between layouts that give every thread the same
//     elements: the registers as they are.
// Kernels become llvm.func with nvvm.kernel and nvvm.reqntid = num-warps * 32;
// a host descriptor's tensor map argument (tile.tensormap) becomes a
// grid-constant byval parameter of 128 bytes (passTensorMapsByValue).
// Shared memory is one global (@tile_smem) of the module's tilegpu.shared
// bytes (static up to 48 KiB; beyond, dynamic, its size in the global
// @tile_dynamic_shared_bytes for the launch); each scratch user addresses its
// buffer at its tilegpu.shared_offset and tilegpu.barrier becomes bar.sync 0.
// Assumes tilegpu-coalesce and tilegpu-remove-layout-conversions ran, then
// tilegpu-allocate-shared-memory (checked: a scratch user without an offset
// is an error) and tilegpu-insert-barriers (not checkable: without it,
// different ops' shared accesses race).
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/GPUSupport.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tile {
#define GEN_PASS_DEF_CONVERTTILEGPUTOLLVM
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;

/// Tile types to LLVM: pointers to global pointers, a tensor with a
/// distributed layout to the struct of one thread's registers.
class TileLLVMTypeConverter : public LLVMTypeConverter {
public:
  explicit TileLLVMTypeConverter(MLIRContext *ctx) : LLVMTypeConverter(ctx) {
    addConversion([ctx](PointerType) {
      return LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace);
    });
    // A shared-memory buffer is the address of its first byte.
    addConversion([ctx](MemDescType) {
      return LLVM::LLVMPointerType::get(ctx, kSharedAddressSpace);
    });
    addConversion([ctx](BarriersType) {
      return LLVM::LLVMPointerType::get(ctx, kSharedAddressSpace);
    });
    addConversion([this](RankedTensorType type) -> std::optional<Type> {
      DistributedLayoutInterface layout = getDistributedLayout(type);
      if (!layout)
        return std::nullopt;
      Type element = convertType(type.getElementType());
      if (!element)
        return std::nullopt;
      unsigned count = layout.getTotalElemsPerThread(type.getShape());
      return LLVM::LLVMStructType::getLiteral(
          type.getContext(), SmallVector<Type>(count, element));
    });
  }
};

/// The registers of `operand` (converted), or `count` copies of a scalar.
SmallVector<Value> registersOf(OpBuilder &b, Location loc, Value converted,
                               unsigned count) {
  if (isa<LLVM::LLVMStructType>(converted.getType()))
    return unpackStruct(b, loc, converted);
  return SmallVector<Value>(count, converted);
}

template <typename OpTy>
struct TilePattern : public ConvertOpToLLVMPattern<OpTy> {
  TilePattern(const LLVMTypeConverter &converter, const ModuleAxisInfo &info)
      : ConvertOpToLLVMPattern<OpTy>(converter), axisInfo(info) {}
  const ModuleAxisInfo &axisInfo;
};

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

struct FuncOpLowering : public ConvertOpToLLVMPattern<func::FuncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (func.getNumResults() != 0)
      return rewriter.notifyMatchFailure(func, "kernels return nothing");
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      Type converted = getTypeConverter()->convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(func, "unsupported argument type");
      signature.addInputs(i, converted);
    }
    auto llvmType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(getContext()), signature.getConvertedTypes());
    auto kernel = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(),
                                           func.getName(), llvmType);
    MLIRContext *ctx = getContext();
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(ctx));
    int32_t threads = int32_t(getNumWarps(func) + getProducerWarps(func)) * 32;
    // The exact block size (not just a bound): ptxas and LLVM know tid.x's
    // range and the warp count, as for Triton's kernels.
    kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
    // setmaxnreg needs the register count at entry, which the block size
    // and one program per SM fix: ptxas may drop it otherwise (C7508) and
    // the consumers spill. (The driver's linker drops it regardless:
    // CudaDriver.cpp loads such PTX whole.)
    if (getProducerWarps(func))
      kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      rewriter.getI32IntegerAttr(1));
    // Specialized alignment helps LLVM as much as it helps us.
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (auto div = func.getArgAttrOfType<IntegerAttr>(i, kDivisibilityAttr))
        if (isa<PointerType>(func.getArgumentTypes()[i]))
          kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                            rewriter.getI64IntegerAttr(div.getInt()));
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (func.getArgAttr(i, kTensorMapArgAttr))
        kernel.setArgAttr(i, kTensorMapArgAttr, UnitAttr::get(ctx));
    rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(), kernel.end());
    if (failed(rewriter.convertRegionTypes(&kernel.getBody(),
                                           *getTypeConverter(), &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }
};

struct ReturnOpLowering : public ConvertOpToLLVMPattern<func::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(func::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange());
    return success();
  }
};

/// tilegpu.barrier and tl.debug_barrier: bar.sync 0.
template <typename OpTy>
struct BarrierOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (getWarpRoleAt(rewriter) == WarpRole::Producer)
      return op->emitOpError("needs a barrier in the producer warp, which "
                             "synchronizes only through mbarriers");
    emitBarrier(rewriter, op->getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename OpTy, typename XOp, typename YOp, typename ZOp>
struct GridQueryLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value result;
    switch (op.getAxis()) {
    case 0:
      result = XOp::create(rewriter, op.getLoc(), i32);
      break;
    case 1:
      result = YOp::create(rewriter, op.getLoc(), i32);
      break;
    default:
      result = ZOp::create(rewriter, op.getLoc(), i32);
      break;
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Block construction
//===----------------------------------------------------------------------===//

struct MakeRangeOpLowering : public ConvertOpToLLVMPattern<MakeRangeOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto layout = getDistributedLayout(op.getType());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    Value start = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                           op.getStart());
    SmallVector<Value> values;
    for (auto &index :
         emitIndices(rewriter, loc, layout, op.getType().getShape()))
      values.push_back(LLVM::AddOp::create(rewriter, loc, index[0], start));
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

struct SplatOpLowering : public ConvertOpToLLVMPattern<SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    rewriter.replaceOp(op,
                       packStruct(rewriter, op.getLoc(), structType,
                                  SmallVector<Value>(count, adaptor.getSrc())));
    return success();
  }
};

struct ConstantOpLowering : public ConvertOpToLLVMPattern<arith::ConstantOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // fp8 values are i8 registers: their constants are the codes (APFloat's
    // bits; tile-check-gpu-support lets only zero through for fp8e4b15,
    // which MLIR's f8E4M3B11FNUZ encodes otherwise).
    auto asRegister = [&](Attribute value) -> Attribute {
      auto number = dyn_cast<FloatAttr>(value);
      if (!number || number.getType().getIntOrFloatBitWidth() != 8)
        return value;
      return rewriter.getIntegerAttr(rewriter.getI8Type(),
                                     number.getValue().bitcastToAPInt());
    };
    if (auto number = dyn_cast<FloatAttr>(op.getValue());
        number && number.getType().getIntOrFloatBitWidth() == 8) {
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(op, rewriter.getI8Type(),
                                                    asRegister(number));
      return success();
    }
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    Type structType = getTypeConverter()->convertType(op.getType());
    if (!splat || !structType || !isa<LLVM::LLVMStructType>(structType))
      return failure();
    auto elementType = cast<LLVM::LLVMStructType>(structType).getBody()[0];
    Value scalar =
        LLVM::ConstantOp::create(rewriter, op.getLoc(), elementType,
                                 asRegister(splat.getSplatValue<Attribute>()));
    unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    rewriter.replaceOp(op, packStruct(rewriter, op.getLoc(), structType,
                                      SmallVector<Value>(count, scalar)));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// For each register of `op`'s result (a blocked layout), the first register of
/// the same thread that AxisInfo's constancy proves equal to it: the two lie
/// in one aligned run of equal values for every thread. Along an axis with
/// constancy c (its largest power-of-two divisor) a register at offset o from
/// the thread's first element (LayoutIndexing.h) lies in run (base + o) / c;
/// the thread's base is a multiple of sizePerThread and below the layout's
/// tile, so for power-of-two c, sizePerThread and tile, o / c alone decides.
/// This is Triton's deduplication: `offs_k[:, None] < K - k * BK` with K
/// divisible by 16 holds one predicate for each 16 rows, not one per row.
/// Every register leads its own run unless `op` is free of side effects.
static SmallVector<unsigned> getConstantRunLeaders(const ModuleAxisInfo &info,
                                                   Operation *op,
                                                   unsigned count) {
  SmallVector<unsigned> leaders(count);
  for (unsigned i = 0; i < count; ++i)
    leaders[i] = i;
  if (!isMemoryEffectFree(op))
    return leaders;
  Value result = op->getResult(0);
  auto type = dyn_cast<RankedTensorType>(result.getType());
  const AxisInfo *axisInfo = info.lookup(result);
  auto blocked = type
                     ? dyn_cast_or_null<BlockedEncodingAttr>(type.getEncoding())
                     : BlockedEncodingAttr();
  if (!axisInfo || !blocked || !axisInfo->isInitialized() ||
      axisInfo->getRank() != type.getRank())
    return leaders;
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> runs;
  bool any = false;
  for (unsigned d = 0; d < shape.size(); ++d) {
    int64_t spt = blocked.getSizePerThread()[d];
    int64_t tile =
        spt * blocked.getThreadsPerWarp()[d] * blocked.getWarpsPerCTA()[d];
    if (!llvm::isPowerOf2_64(spt) || !llvm::isPowerOf2_64(tile))
      return leaders;
    int64_t constancy = axisInfo->getConstancy(d);
    int64_t run = constancy > 0 ? constancy & -constancy : 1;
    runs.push_back(run);
    any |= run > 1;
  }
  if (!any)
    return leaders;
  llvm::DenseMap<SmallVector<int64_t>, unsigned> firstOfRun;
  for (unsigned i = 0; i < count; ++i) {
    std::optional<SmallVector<int64_t>> offsets =
        getRegisterOffsets(blocked, shape, i);
    if (!offsets)
      return leaders; // replicated: registers and elements do not match up
    SmallVector<int64_t> key;
    for (unsigned d = 0; d < shape.size(); ++d)
      key.push_back((*offsets)[d] / runs[d]);
    leaders[i] = firstOfRun.try_emplace(key, i).first->second;
  }
  return leaders;
}

/// Any elementwise op on tensors (arith ops, addptr) becomes the same op on
/// each register; the scalar ops are then lowered by their own patterns.
/// Registers AxisInfo proves equal to an earlier one reuse its value.
struct ElementwiseOpLowering : public ConversionPattern {
  ElementwiseOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                        const ModuleAxisInfo &axisInfo)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, ctx),
        axisInfo(axisInfo) {}
  const ModuleAxisInfo &axisInfo;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type structType = getTypeConverter()->convertType(resultType);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    Location loc = op->getLoc();
    unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    SmallVector<SmallVector<Value>> inputs;
    for (Value operand : operands)
      inputs.push_back(registersOf(rewriter, loc, operand, count));
    Type scalarType = resultType.getElementType();
    SmallVector<unsigned> leaders = getConstantRunLeaders(axisInfo, op, count);
    SmallVector<Value> results;
    for (unsigned i = 0; i < count; ++i) {
      if (leaders[i] != i) {
        results.push_back(results[leaders[i]]);
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto &input : inputs)
        state.addOperands(input[i]);
      state.addTypes(scalarType);
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      results.push_back(scalar->getResult(0));
    }
    // The scalar ops still have tile-typed results (e.g. !tile.ptr);
    // materializations reconcile them with the converted struct.
    SmallVector<Value> converted;
    for (Value v : results) {
      Type llvmType = getTypeConverter()->convertType(v.getType());
      if (llvmType != v.getType())
        v = UnrealizedConversionCastOp::create(rewriter, loc, llvmType, v)
                .getResult(0);
      converted.push_back(v);
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, converted));
    return success();
  }
};

struct AddPtrOpLowering : public ConvertOpToLLVMPattern<AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto pointee =
        cast<PointerType>(getElementTypeOrSelf(op.getType())).getPointeeType();
    Type llvmPointee = getTypeConverter()->convertType(pointee);
    Type ptrType =
        LLVM::LLVMPointerType::get(getContext(), kGlobalAddressSpace);
    auto gep = [&](Value base, Value offset) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, ptrType, llvmPointee, base,
                                 ValueRange{offset});
    };
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, gep(adaptor.getPtr(), adaptor.getOffset()));
      return success();
    }
    Type structType = getTypeConverter()->convertType(op.getType());
    unsigned count = cast<LLVM::LLVMStructType>(structType).getBody().size();
    SmallVector<Value> bases =
        registersOf(rewriter, loc, adaptor.getPtr(), count);
    SmallVector<Value> offsets =
        registersOf(rewriter, loc, adaptor.getOffset(), count);
    SmallVector<Value> results;
    for (unsigned i = 0; i < count; ++i)
      results.push_back(gep(bases[i], offsets[i]));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, results));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Every pattern of convert-tilegpu-to-llvm.
void populateTileGPUToLLVMPatterns(TileLLVMTypeConverter &converter,
                                   ModuleAxisInfo &axisInfo,
                                   RewritePatternSet &patterns,
                                   bool libdeviceMath = false) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FuncOpLowering, ReturnOpLowering, BarrierOpLowering<BarrierOp>,
               BarrierOpLowering<DebugBarrierOp>, MakeRangeOpLowering,
               SplatOpLowering, AddPtrOpLowering,
               GridQueryLowering<ProgramIdOp, NVVM::BlockIdXOp,
                                 NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
               GridQueryLowering<NumProgramsOp, NVVM::GridDimXOp,
                                 NVVM::GridDimYOp, NVVM::GridDimZOp>>(
      converter);
  patterns.add<ConstantOpLowering>(converter, /*benefit=*/3);
  populateLoadStoreOpToLLVMPatterns(converter, axisInfo, patterns);
  patterns.add<ElementwiseOpLowering>(converter, ctx, axisInfo);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateReduceOpToLLVMPatterns(converter, patterns);
  populateScanOpToLLVMPatterns(converter, patterns);
  populateDotOpToLLVMPatterns(converter, patterns);
  populateWgmmaDotOpToLLVMPatterns(converter, patterns);
  populateMmaSyncDotOpToLLVMPatterns(converter, patterns);
  populateShapeOpToLLVMPatterns(converter, patterns);
  populateIndexingOpToLLVMPatterns(converter, patterns);
  populateMathOpToLLVMPatterns(converter, patterns, libdeviceMath);
  populateExternOpToLLVMPatterns(converter, patterns);
  populatePointerCastOpToLLVMPatterns(converter, patterns);
  populateFp8OpToLLVMPatterns(converter, patterns);
  populateAtomicOpToLLVMPatterns(converter, patterns);
  populateDebugOpToLLVMPatterns(converter, patterns);
  populateInlineAsmOpToLLVMPatterns(converter, patterns);
  populateAsyncCopyOpToLLVMPatterns(converter, axisInfo, patterns);
  populateTmaOpToLLVMPatterns(converter, patterns);
}

/// Makes each tensor-map argument (kTensorMapArgAttr) of `kernel` a
/// grid-constant byval parameter of 128 bytes aligned to 64, as CUDA's
/// __grid_constant__ CUtensorMap: NVPTX gives the TMA instructions its
/// generic address (cvta.param), so the map travels with the launch instead
/// of being read from global memory. The lowered TMA ops take the map's
/// address as an integer (ptrtoint), which now reads the generic pointer;
/// any other use is a bug here.
LogicalResult passTensorMapsByValue(LLVM::LLVMFuncOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  auto generic = LLVM::LLVMPointerType::get(ctx);
  auto mapType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128);
  SmallVector<Type> inputs(kernel.getFunctionType().getParams());
  bool changed = false;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    if (!kernel.getArgAttr(i, kTensorMapArgAttr))
      continue;
    kernel.removeArgAttr(i, StringAttr::get(ctx, kTensorMapArgAttr));
    BlockArgument arg = kernel.getArgument(i);
    Type global = arg.getType();
    arg.setType(generic);
    inputs[i] = generic;
    changed = true;
    OpBuilder builder(ctx);
    builder.setInsertionPointToStart(&kernel.getBody().front());
    auto cast =
        LLVM::AddrSpaceCastOp::create(builder, arg.getLoc(), global, arg);
    arg.replaceAllUsesExcept(cast.getResult(), cast);
    for (OpOperand &use : llvm::make_early_inc_range(cast->getUses()))
      if (isa<LLVM::PtrToIntOp>(use.getOwner()))
        use.set(arg);
    if (!cast->use_empty())
      return kernel.emitError("tensor map argument #")
             << i << " has a use other than a TMA instruction's address";
    cast->erase();
    kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(mapType));
    kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 64), 64));
    kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      UnitAttr::get(ctx));
  }
  if (changed)
    kernel.setFunctionType(LLVM::LLVMFunctionType::get(
        kernel.getFunctionType().getReturnType(), inputs));
  return success();
}

struct ConvertTileGPUToLLVM
    : public tile::impl::ConvertTileGPUToLLVMBase<ConvertTileGPUToLLVM> {
  using ConvertTileGPUToLLVMBase::ConvertTileGPUToLLVMBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Every tensor must have a layout by now.
    WalkResult missing = module.walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        if (isa<RankedTensorType>(type) && !getDistributedLayout(type)) {
          op->emitOpError("result ")
              << type << " has no distributed layout; run "
              << "convert-tile-to-tilegpu first";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (missing.wasInterrupted())
      return signalPassFailure();

    if (failed(checkMathLowerable(module, libdeviceMath)))
      return signalPassFailure();

    // One shared-memory global as large as tilegpu-allocate-shared-memory
    // found the program needs; every buffer lies at its offset in it.
    uint64_t sharedBytes = 0;
    if (auto attr = module->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
      sharedBytes = attr.getValue().getZExtValue();
    WalkResult unplaced = module.walk([&](Operation *op) {
      unsigned bytes = getScratchBytes(op);
      if (auto alloc = dyn_cast<LocalAllocOp>(op))
        bytes = getExplicitBufferSize(alloc.getResult())->first;
      if (bytes == 0)
        return WalkResult::advance();
      std::optional<uint64_t> offset = getSharedOffset(op);
      if (!offset) {
        op->emitError("needs ")
            << bytes << " bytes of shared memory but has no "
            << kSharedOffsetAttr
            << "; run tilegpu-allocate-shared-memory and "
               "tilegpu-insert-barriers first";
        return WalkResult::interrupt();
      }
      if (*offset + bytes > sharedBytes) {
        op->emitError("its shared-memory buffer (bytes ")
            << *offset << " to " << *offset + bytes
            << ") lies outside the module's " << kSharedBytesAttr << " = "
            << sharedBytes << " bytes";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unplaced.wasInterrupted())
      return signalPassFailure();
    // Up to 48 KiB the global is static shared memory. Beyond, it is
    // dynamic shared memory (an extern array), which the launch must size
    // and opt in to: the module says how much in a global the runtime reads.
    if (sharedBytes > kMaxStaticSharedBytes) {
      OpBuilder builder(module.getBodyRegion());
      LLVM::GlobalOp::create(builder, module.getLoc(),
                             LLVM::LLVMArrayType::get(builder.getI8Type(), 0),
                             /*isConstant=*/false, LLVM::Linkage::External,
                             kSharedScratchSymbol, Attribute(),
                             /*alignment=*/1024, /*addrSpace=*/3);
      LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                             /*isConstant=*/true, LLVM::Linkage::External,
                             kDynamicSharedBytesSymbol,
                             builder.getI32IntegerAttr(int32_t(sharedBytes)),
                             /*alignment=*/4,
                             /*addrSpace=*/1);
    } else if (sharedBytes > 0) {
      OpBuilder builder(module.getBodyRegion());
      LLVM::GlobalOp::create(
          builder, module.getLoc(),
          LLVM::LLVMArrayType::get(builder.getI8Type(), sharedBytes),
          /*isConstant=*/false, LLVM::Linkage::Internal, kSharedScratchSymbol,
          Attribute(), /*alignment=*/1024, /*addrSpace=*/3);
    }
    if (unsigned producerWarps = getProducerWarps(module)) {
      OpBuilder builder(module.getBodyRegion());
      LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                             /*isConstant=*/true, LLVM::Linkage::External,
                             kProducerWarpsSymbol,
                             builder.getI32IntegerAttr(int32_t(producerWarps)),
                             /*alignment=*/4, /*addrSpace=*/1);
    }
    if (module->hasAttr(kPersistentProgramsAttr)) {
      OpBuilder builder(module.getBodyRegion());
      LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI32Type(),
                             /*isConstant=*/true, LLVM::Linkage::External,
                             kPersistentProgramsSymbol,
                             builder.getI32IntegerAttr(1),
                             /*alignment=*/4, /*addrSpace=*/1);
    }
    // The recipes of the tensor maps the launch encodes
    // (tilegpu-hoist-tensor-maps), for the launcher to read; those no TMA
    // copy or store reads are marked, so that it does not encode them.
    if (DenseI64ArrayAttr maps = getUsedTensorMapRecipes(module)) {
      OpBuilder builder(module.getBodyRegion());
      Type i64 = builder.getI64Type();
      auto values = DenseIntElementsAttr::get(
          RankedTensorType::get({int64_t(maps.size())}, i64),
          maps.asArrayRef());
      LLVM::GlobalOp::create(
          builder, module.getLoc(), LLVM::LLVMArrayType::get(i64, maps.size()),
          /*isConstant=*/true, LLVM::Linkage::External, kTensorMapsSymbol,
          values, /*alignment=*/8, /*addrSpace=*/1);
    }

    markWgmmaOffsetsInAsm(module);
    ModuleAxisInfo axisInfo(module);
    TileLLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateTileGPUToLLVMPatterns(converter, axisInfo, patterns, libdeviceMath);

    ConversionTarget target(*ctx);
    // scf ops stay (with converted types); scf-to-cf runs next.
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    for (auto kernel : module.getOps<LLVM::LLVMFuncOp>())
      if (failed(passTensorMapsByValue(kernel)))
        return signalPassFailure();
  }
};
} // namespace

std::vector<std::string> mlir::tile::getGPULoweredOpNames(MLIRContext *ctx) {
  OpBuilder builder(ctx);
  OwningOpRef<ModuleOp> empty = ModuleOp::create(builder.getUnknownLoc());
  ModuleAxisInfo axisInfo(*empty);
  TileLLVMTypeConverter converter(ctx);
  RewritePatternSet patterns(ctx);
  populateTileGPUToLLVMPatterns(converter, axisInfo, patterns);
  // The regions' terminators are lowered with the ops that hold them.
  std::vector<std::string> names = {ReduceReturnOp::getOperationName().str(),
                                    ScanReturnOp::getOperationName().str()};
  // Block pointers become loads and stores of pointer blocks first
  // (tile-rewrite-block-pointers, the pipeline's first pass).
  for (StringRef name :
       {MakeBlockPtrOp::getOperationName(), AdvanceOp::getOperationName(),
        BlockLoadOp::getOperationName(), BlockStoreOp::getOperationName()})
    names.push_back(name.str());
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      names.push_back(root->getStringRef().str());
  llvm::sort(names);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}
