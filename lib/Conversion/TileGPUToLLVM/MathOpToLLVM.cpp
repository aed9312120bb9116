//===- MathOpToLLVM.cpp - scalar math for NVPTX --------------------------===//
//
// Transcendental math ops on scalars (tensors were split into registers by
// the elementwise pattern). Where libdevice is linked (libdevice-math), log,
// log2, exp2, sin, cos, sqrt and rsqrt call it, as Triton 3.6 does, and
// exp(x) = ex2.approx(x * log2(e)) as Triton's fp32 exp. Otherwise they
// become the GPU's approximate instructions: log(x) =
// lg2.approx(x) * ln(2), sin/cos/rsqrt .approx; erf is a rational
// approximation built on them (|error| < 1.5e-7). fp16 and bf16 compute in
// fp32. Ops NVPTX has instructions for (floor, ceil, abs, fma, sqrt,
// min/max) go to LLVM intrinsics through MLIR's math-to-LLVM patterns;
// tile's precise_sqrt, precise_divf, clampf and umulhi are lowered here,
// and floating-point division (div.full.f32, as Triton's `/`).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/VectorPattern.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// One f32 PTX instruction on f32 operands: `instruction $0, $1[, $2...];`.
Value inlinePtx(OpBuilder &b, Location loc, StringRef instruction,
                ValueRange operands) {
  std::string text = (instruction + " $0").str(), constraints = "=f";
  for (unsigned i = 1; i <= operands.size(); ++i) {
    text += ", $" + std::to_string(i);
    constraints += ",f";
  }
  text += ";";
  return createInlinePtx(b, loc, b.getF32Type(), operands, text, constraints,
                         /*hasSideEffects=*/false)
      .getResult(0);
}

Value f32Constant(OpBuilder &b, Location loc, double v) {
  return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(v));
}

/// The f32 computation of a unary op, given its f32 operand.
using F32Body = std::function<Value(OpBuilder &, Location, Value)>;

template <typename OpTy>
struct ApproxUnaryLowering : public ConvertOpToLLVMPattern<OpTy> {
  ApproxUnaryLowering(LLVMTypeConverter &converter, F32Body body)
      : ConvertOpToLLVMPattern<OpTy>(converter, /*benefit=*/2),
        body(std::move(body)) {}
  F32Body body;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type))
      return failure(); // split into registers first
    Location loc = op.getLoc();
    Value x = adaptor.getOperands()[0];
    if (type.isF64())
      return op.emitOpError("on f64 is not supported on the GPU yet");
    Type f32 = rewriter.getF32Type();
    if (!type.isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    Value result = body(rewriter, loc, x);
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A unary math op as a call to libdevice's function for its type:
/// `__nv_<name>f` on fp32 (fp16 and bf16 computed in fp32), `__nv_<name>`
/// on fp64. Declared here; EmitPTX links libdevice in.
template <typename OpTy>
struct LibdeviceUnaryLowering : public ConvertOpToLLVMPattern<OpTy> {
  LibdeviceUnaryLowering(LLVMTypeConverter &converter, StringRef name,
                         bool f64Only)
      : ConvertOpToLLVMPattern<OpTy>(converter, /*benefit=*/3), name(name),
        f64Only(f64Only) {}
  std::string name;
  bool f64Only;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type) || (f64Only && !type.isF64()))
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getOperands()[0];
    Type callType = type.isF64() ? type : rewriter.getF32Type();
    if (callType != type)
      x = LLVM::FPExtOp::create(rewriter, loc, callType, x);
    std::string symbol = "__nv_" + name + (type.isF64() ? "" : "f");
    auto module = op->template getParentOfType<ModuleOp>();
    auto function = module.template lookupSymbol<LLVM::LLVMFuncOp>(symbol);
    if (!function) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      function = LLVM::LLVMFuncOp::create(
          rewriter, module.getLoc(), symbol,
          LLVM::LLVMFunctionType::get(callType, {callType}));
    }
    Value result = LLVM::CallOp::create(rewriter, loc, function, x).getResult();
    if (callType != type)
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

Value exp2Approx(OpBuilder &b, Location loc, Value x) {
  return inlinePtx(b, loc, "ex2.approx.f32", x);
}
Value expApprox(OpBuilder &b, Location loc, Value x) {
  return exp2Approx(
      b, loc, LLVM::FMulOp::create(b, loc, x, f32Constant(b, loc, M_LOG2E)));
}

/// Abramowitz and Stegun 7.1.26.
Value erfApprox(OpBuilder &b, Location loc, Value x) {
  Value ax = LLVM::FAbsOp::create(b, loc, x);
  Value one = f32Constant(b, loc, 1.0);
  Value t = LLVM::FDivOp::create(
      b, loc, one,
      LLVM::FAddOp::create(
          b, loc, one,
          LLVM::FMulOp::create(b, loc, ax, f32Constant(b, loc, 0.3275911))));
  const double coef[] = {1.061405429, -1.453152027, 1.421413741, -0.284496736,
                         0.254829592};
  Value poly = f32Constant(b, loc, coef[0]);
  for (double c : ArrayRef(coef).drop_front())
    poly = LLVM::FAddOp::create(b, loc, LLVM::FMulOp::create(b, loc, poly, t),
                                f32Constant(b, loc, c));
  poly = LLVM::FMulOp::create(b, loc, poly, t);
  Value e = expApprox(
      b, loc,
      LLVM::FNegOp::create(b, loc, LLVM::FMulOp::create(b, loc, ax, ax)));
  Value y =
      LLVM::FSubOp::create(b, loc, one, LLVM::FMulOp::create(b, loc, poly, e));
  return LLVM::CopySignOp::create(b, loc, y, x);
}

/// fp32 division as Triton's `/` does it: div.full.f32 (within 2 ulp, a
/// handful of instructions) instead of the IEEE-rounded div.rn.f32, whose
/// refinement sequence and slow path lengthen every softmax row. fp16/bf16
/// divide in f32; f64 keeps the IEEE division. tl.div_rn (precise_divf)
/// stays IEEE-rounded.
struct FastDivFLowering : public ConvertOpToLLVMPattern<arith::DivFOp> {
  FastDivFLowering(LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<arith::DivFOp>(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (isa<ShapedType>(type) || type.isF64())
      return failure(); // tensors split first; f64 takes arith-to-llvm's
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    if (!type.isF32()) {
      lhs = LLVM::FPExtOp::create(rewriter, loc, f32, lhs);
      rhs = LLVM::FPExtOp::create(rewriter, loc, f32, rhs);
    }
    Value result = inlinePtx(rewriter, loc, "div.full.f32", {lhs, rhs});
    if (!type.isF32())
      result = LLVM::FPTruncOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ClampFLowering : public ConvertOpToLLVMPattern<ClampFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<ShapedType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Value clamped;
    if (op.getPropagateNan()) {
      Value lo = LLVM::MaximumOp::create(rewriter, loc, adaptor.getX(),
                                         adaptor.getMin());
      clamped = LLVM::MinimumOp::create(rewriter, loc, lo, adaptor.getMax());
    } else {
      Value lo = LLVM::MaxNumOp::create(rewriter, loc, adaptor.getX(),
                                        adaptor.getMin());
      clamped = LLVM::MinNumOp::create(rewriter, loc, lo, adaptor.getMax());
    }
    rewriter.replaceOp(op, clamped);
    return success();
  }
};

struct UMulHiLowering : public ConvertOpToLLVMPattern<UMulHiOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(UMulHiOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<ShapedType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Type type = op.getType();
    unsigned bits = type.getIntOrFloatBitWidth();
    Type wide = rewriter.getIntegerType(2 * bits);
    Value x = LLVM::ZExtOp::create(rewriter, loc, wide, adaptor.getX());
    Value y = LLVM::ZExtOp::create(rewriter, loc, wide, adaptor.getY());
    Value product = LLVM::MulOp::create(rewriter, loc, x, y);
    Value high = LLVM::LShrOp::create(
        rewriter, loc, product,
        LLVM::ConstantOp::create(rewriter, loc, wide, bits));
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, type, high);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateMathOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns,
                                                 bool libdeviceMath) {
  if (libdeviceMath) {
    // Triton 3.6's NVIDIA backend: exp is ex2.approx (below) on fp32 and
    // libdevice on fp64; log, log2, exp2, sin, cos, sqrt and rsqrt come from
    // libdevice (with __CUDA_FTZ = 1, EmitPTX); erf libdevice on fp64.
    patterns.add<LibdeviceUnaryLowering<math::LogOp>>(converter, "log", false);
    patterns.add<LibdeviceUnaryLowering<math::Log2Op>>(converter, "log2",
                                                       false);
    patterns.add<LibdeviceUnaryLowering<math::Exp2Op>>(converter, "exp2",
                                                       false);
    patterns.add<LibdeviceUnaryLowering<math::SinOp>>(converter, "sin", false);
    patterns.add<LibdeviceUnaryLowering<math::CosOp>>(converter, "cos", false);
    patterns.add<LibdeviceUnaryLowering<math::SqrtOp>>(converter, "sqrt",
                                                       false);
    patterns.add<LibdeviceUnaryLowering<math::RsqrtOp>>(converter, "rsqrt",
                                                        false);
    patterns.add<LibdeviceUnaryLowering<math::ExpOp>>(converter, "exp", true);
    patterns.add<LibdeviceUnaryLowering<math::ErfOp>>(converter, "erf", true);
  }
  patterns.add<ApproxUnaryLowering<math::ExpOp>>(converter, expApprox);
  patterns.add<ApproxUnaryLowering<math::Exp2Op>>(converter, exp2Approx);
  patterns.add<ApproxUnaryLowering<math::LogOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) -> Value {
        return LLVM::FMulOp::create(b, loc,
                                    inlinePtx(b, loc, "lg2.approx.f32", x),
                                    f32Constant(b, loc, M_LN2));
      });
  patterns.add<ApproxUnaryLowering<math::Log2Op>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return inlinePtx(b, loc, "lg2.approx.f32", x);
      });
  patterns.add<ApproxUnaryLowering<math::SinOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return inlinePtx(b, loc, "sin.approx.f32", x);
      });
  patterns.add<ApproxUnaryLowering<math::CosOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return inlinePtx(b, loc, "cos.approx.f32", x);
      });
  patterns.add<ApproxUnaryLowering<math::RsqrtOp>>(
      converter, [](OpBuilder &b, Location loc, Value x) {
        return inlinePtx(b, loc, "rsqrt.approx.f32", x);
      });
  patterns.add<ApproxUnaryLowering<math::ErfOp>>(converter, erfApprox);
  patterns.add<VectorConvertToLLVMPattern<PreciseSqrtOp, LLVM::SqrtOp>,
               VectorConvertToLLVMPattern<PreciseDivFOp, LLVM::FDivOp>,
               ClampFLowering, UMulHiLowering, FastDivFLowering>(converter);
  populateMathToLLVMConversionPatterns(converter, patterns);
}

LogicalResult mlir::tilegpu::checkMathLowerable(ModuleOp module,
                                                bool libdeviceMath) {
  if (libdeviceMath)
    return success();
  bool unsupported = false;
  module.walk(
      [&](Operation *op) {
        if (!isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
                 math::SinOp, math::CosOp, math::ErfOp, math::RsqrtOp>(op) ||
            !getElementTypeOrSelf(op->getResult(0).getType()).isF64())
          return;
        op->emitError("tl.")
            << op->getName().stripDialect()
            << " on fp64 is not supported on the GPU yet without CUDA's "
               "libdevice, which was not found (set TILE_LIBDEVICE to "
               "libdevice.10.bc)";
        unsupported = true;
      });
  return failure(unsupported);
}
