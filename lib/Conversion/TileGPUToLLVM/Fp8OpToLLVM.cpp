//===- Fp8OpToLLVM.cpp - conversions to and from fp8 ----------------------===//
//
// arith.extf and arith.truncf with an fp8 side (tl.cast / .to to or from
// tl.float8e4nv, tl.float8e5, tl.float8e4b15), register by register. fp8
// values live in i8 registers. As Triton's NVIDIA backend:
// - fp8e4nv (e4m3fn) and fp8e5 (e5m2) widen through fp16 with
//   cvt.rn.f16x2.e4m3x2 / cvt.rn.f16x2.e5m2x2 (sm_89 and later; below,
//   fp8e5 widens by shifting its byte into an fp16's high byte, which is
//   exact), and narrow from fp32 (fp16 and bf16 widen to it exactly) with
//   cvt.rn.satfinite.e4m3x2.f32 / cvt.rn.satfinite.e5m2x2.f32 (sm_89):
//   round to nearest even, beyond the largest finite value (infinities
//   too) saturate to it, NaN stays NaN. Below sm_89 fp8e5 narrows the same
//   way on the fp32's bits (f32ToE5M2Bits); fp8e4nv needs sm_89.
// - fp32 to fp8e5 toward zero (fp_downcast_rounding="rtz") is
//   cvt.rz.f16.f32 and the fp16's high byte (any target).
// - fp8e4b15 is Triton's software format: widening places the byte's
//   exponent and mantissa into an fp16 (bias 15 is fp16's); narrowing
//   rounds to fp16 toward zero (from fp32), clamps the magnitude to 1.75
//   and rounds half away from zero on the fp16's bits, as Triton's
//   convert_float16_to_fp8e4b15 does (any target).
// tile-check-gpu-support rejects what a target lacks (fp8e4nv below
// sm_89) before this runs.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
bool isFp8(Type type) {
  return isa<FloatType>(type) && type.getIntOrFloatBitWidth() == 8;
}

/// The module's compute capability (sm_90a: 90); 90 where it records none.
unsigned getComputeCapability(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<StringAttr>(
                             TileGPUDialect::getTargetAttrName())
                       : StringAttr();
  unsigned capability = 90;
  if (target) {
    StringRef digits = target.getValue();
    digits.consume_front("sm_");
    digits = digits.take_while([](char c) { return llvm::isDigit(c); });
    digits.getAsInteger(10, capability);
  }
  return capability;
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// `text` with one result of `resultType` (constraint `result`) on
/// `operands` (constraints `inputs`).
Value ptx(OpBuilder &b, Location loc, Type resultType, StringRef text,
          StringRef constraints, ValueRange operands) {
  return createInlinePtx(b, loc, resultType, operands, text, constraints,
                         /*hasSideEffects=*/false)
      .getResult(0);
}

/// The fp16 value of fp8 code `code` (i8) of `format`.
Value fp8ToF16(OpBuilder &b, Location loc, Value code, Type format,
               unsigned capability) {
  Type i16 = b.getI16Type();
  Value wide = LLVM::ZExtOp::create(b, loc, i16, code);
  Value bits;
  if (isa<Float8E4M3B11FNUZType>(format)) {
    // Triton's fp8e4b15: sign to bit 15, exponent and mantissa to bits
    // 13..7 (fp16's bias is the format's).
    Value magnitude = LLVM::ShlOp::create(
        b, loc,
        LLVM::AndOp::create(b, loc, wide, intConstant(b, loc, i16, 0x7f)),
        intConstant(b, loc, i16, 7));
    Value sign = LLVM::ShlOp::create(
        b, loc,
        LLVM::AndOp::create(b, loc, wide, intConstant(b, loc, i16, 0x80)),
        intConstant(b, loc, i16, 8));
    bits = LLVM::OrOp::create(b, loc, magnitude, sign);
  } else if (isa<Float8E5M2Type>(format) && capability < 89) {
    // e5m2 is fp16 without its low byte.
    bits = LLVM::ShlOp::create(b, loc, wide, intConstant(b, loc, i16, 8));
  } else {
    StringRef text = isa<Float8E5M2Type>(format)
                         ? "cvt.rn.f16x2.e5m2x2 $0, $1;"
                         : "cvt.rn.f16x2.e4m3x2 $0, $1;";
    Value pair = ptx(b, loc, b.getI32Type(), text, "=r,h", wide);
    bits = LLVM::TruncOp::create(b, loc, i16, pair);
  }
  return LLVM::BitcastOp::create(b, loc, b.getF16Type(), bits);
}

/// The bits (i16) of fp32 `x` rounded to fp16 toward zero.
Value f32ToF16BitsTowardZero(OpBuilder &b, Location loc, Value x) {
  return ptx(b, loc, b.getI16Type(), "cvt.rz.f16.f32 $0, $1;", "=h,f", x);
}

/// Triton's fp16 to fp8e4b15 on the fp16's bits `half` (i16).
Value f16BitsToE4B15(OpBuilder &b, Location loc, Value half) {
  Type i16 = b.getI16Type();
  Value magnitude =
      LLVM::AndOp::create(b, loc, half, intConstant(b, loc, i16, 0x7fff));
  // Clamp to 1.75 (0x3f00); NaN and infinity lie above it as integers.
  Value limit = intConstant(b, loc, i16, 0x3f00);
  Value above =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, magnitude, limit);
  magnitude = LLVM::SelectOp::create(b, loc, above, limit, magnitude);
  // Drop the exponent's top bit (zero now) and round half away on the
  // 8 bits that go.
  Value rounded = LLVM::AddOp::create(
      b, loc,
      LLVM::ShlOp::create(b, loc, magnitude, intConstant(b, loc, i16, 1)),
      intConstant(b, loc, i16, 0x80));
  Value code =
      LLVM::LShrOp::create(b, loc, rounded, intConstant(b, loc, i16, 8));
  Value sign = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, half, intConstant(b, loc, i16, 8)),
      intConstant(b, loc, i16, 0x80));
  return LLVM::TruncOp::create(b, loc, b.getI8Type(),
                               LLVM::OrOp::create(b, loc, code, sign));
}

/// fp32 `x` to fp8e5 to nearest even, saturating, without the sm_89 cvt:
/// on the bits, as cvt.rn.satfinite.e5m2x2.f32 rounds (NaN gives 0x7f).
Value f32ToE5M2Bits(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c32 = [&](int64_t v) { return intConstant(b, loc, i32, v); };
  Value bits = LLVM::BitcastOp::create(b, loc, i32, x);
  Value magnitude = LLVM::AndOp::create(b, loc, bits, c32(0x7fffffff));
  // Normal results: drop 21 mantissa bits rounding to nearest even (a
  // carry moves into the exponent), then rebias the exponent 127 -> 15.
  Value odd = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, magnitude, c32(21)), c32(1));
  Value rounded = LLVM::AddOp::create(
      b, loc, magnitude, LLVM::AddOp::create(b, loc, c32(0xfffff), odd));
  Value normal = LLVM::SubOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, rounded, c32(21)),
      c32((127 - 15) << 2));
  // Below 2^-14 the subnormal code is |x| / 2^-16 rounded to nearest even
  // (exact scaling; 4 is the smallest normal's code).
  Value scaled = LLVM::FMulOp::create(
      b, loc, LLVM::BitcastOp::create(b, loc, f32, magnitude),
      LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(65536.0)));
  Value subnormal = LLVM::FPToUIOp::create(
      b, loc, i32, LLVM::RoundEvenOp::create(b, loc, f32, scaled));
  Value isSubnormal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                           magnitude, c32(0x38800000));
  Value code = LLVM::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  // From 57344 (0x47600000) up, infinity included: the largest, 0x7b.
  Value isLarge = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge,
                                       magnitude, c32(0x47600000));
  code = LLVM::SelectOp::create(b, loc, isLarge, c32(0x7b), code);
  Value isNan = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt,
                                     magnitude, c32(0x7f800000));
  code = LLVM::SelectOp::create(b, loc, isNan, c32(0x7f), code);
  Value sign = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, bits, c32(24)), c32(0x80));
  return LLVM::TruncOp::create(b, loc, b.getI8Type(),
                               LLVM::OrOp::create(b, loc, code, sign));
}

/// `x` (an fp16, bf16 or fp32 register) converted to fp8 `format` (i8).
Value toFp8(OpBuilder &b, Location loc, Value x, Type format, bool towardZero,
            unsigned capability) {
  Type f32 = b.getF32Type();
  if (isa<Float8E4M3B11FNUZType>(format)) {
    Value half = x.getType().isF16()
                     ? Value(LLVM::BitcastOp::create(b, loc, b.getI16Type(), x))
                     : f32ToF16BitsTowardZero(b, loc, x);
    return f16BitsToE4B15(b, loc, half);
  }
  if (!x.getType().isF32())
    x = LLVM::FPExtOp::create(b, loc, f32, x);
  if (towardZero) { // fp8e5 from fp32
    Value half = f32ToF16BitsTowardZero(b, loc, x);
    Value high = LLVM::LShrOp::create(b, loc, half,
                                      intConstant(b, loc, b.getI16Type(), 8));
    return LLVM::TruncOp::create(b, loc, b.getI8Type(), high);
  }
  if (capability < 89) // fp8e5 (tile-check-gpu-support saw to that)
    return f32ToE5M2Bits(b, loc, x);
  // The pair's high byte converts the first operand; zero there.
  StringRef text = isa<Float8E5M2Type>(format)
                       ? "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;"
                       : "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;";
  Value zero = LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0.0));
  Value pair = ptx(b, loc, b.getI16Type(), text, "=h,f,f", ValueRange{zero, x});
  return LLVM::TruncOp::create(b, loc, b.getI8Type(), pair);
}

/// fp8 code `code` of `format` converted to float `to`.
Value fromFp8(OpBuilder &b, Location loc, Value code, Type format, Type to,
              unsigned capability) {
  Value half = fp8ToF16(b, loc, code, format, capability);
  if (to.isF16())
    return half;
  Value wide = LLVM::FPExtOp::create(
      b, loc, to.isF64() ? to : Type(b.getF32Type()), half);
  if (to.isBF16()) // exact: every fp8 value is a bf16
    return LLVM::FPTruncOp::create(b, loc, to, wide);
  return wide;
}

/// arith.extf / arith.truncf with an fp8 operand or result, scalar or
/// tensor (before the elementwise pattern splits it and loses the fp8
/// format, which i8 registers do not carry).
template <typename OpTy>
struct Fp8ConversionLowering : public ConvertOpToLLVMPattern<OpTy> {
  Fp8ConversionLowering(LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<OpTy>(converter, /*benefit=*/3) {}
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!isFp8(from) && !isFp8(to))
      return failure();
    if (isFp8(from) == isFp8(to) || !isa<FloatType>(from) ||
        !isa<FloatType>(to))
      return op.emitOpError("converts between ")
             << from << " and " << to
             << ", which has no GPU lowering (convert through fp32)";
    bool towardZero = false;
    if (auto trunc = dyn_cast<arith::TruncFOp>(op.getOperation()))
      towardZero = trunc.getRoundingmode() == arith::RoundingMode::toward_zero;
    unsigned capability = getComputeCapability(op);
    Location loc = op.getLoc();
    auto convert = [&](Value x) -> Value {
      if (isFp8(from))
        return fromFp8(rewriter, loc, x, from, to, capability);
      if (from.isF64()) // tl.cast rejects it; a store's conversion
        x = LLVM::FPTruncOp::create(rewriter, loc, rewriter.getF32Type(), x);
      return toFp8(rewriter, loc, x, to, towardZero, capability);
    };
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    auto structType = dyn_cast<LLVM::LLVMStructType>(resultType);
    if (!structType) {
      rewriter.replaceOp(op, convert(adaptor.getIn()));
      return success();
    }
    SmallVector<Value> results;
    for (Value x : unpackStruct(rewriter, loc, adaptor.getIn()))
      results.push_back(convert(x));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, results));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateFp8OpToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<Fp8ConversionLowering<arith::ExtFOp>,
               Fp8ConversionLowering<arith::TruncFOp>>(converter);
}
