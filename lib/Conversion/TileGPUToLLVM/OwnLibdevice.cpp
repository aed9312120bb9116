//===- OwnLibdevice.cpp - libdevice functions without libdevice -----------===//
//
// tile-define-libdevice: where CUDA's libdevice bitcode is not found, each
// declared libdevice function the lowered module calls (`__nv_asinf`) gets
// Tile's own definition, built from arith and math ops on its scalar
// arguments and lowered as the rest of the module is:
//
//   - exact operations for fp32 and fp64: abs, floor, ceil, trunc, round,
//     rint/nearbyint, sqrt(_rn), fma(_rn), copysign, add/sub/mul/div/rcp
//     _rn, fmod, fdim, saturatef, isnan, isinf, signbit, finite, the _rn and
//     _rz conversions LLVM's own conversions match, bit casts, and the
//     integer abs, clz, popc and mulhi;
//   - for fp32, the transcendental functions: exp, exp2, log, log2, sin,
//     cos, rsqrt and erf as tl.exp & co lower them (the GPU's approximate
//     instructions), the others as MLIR's polynomial approximations (asin,
//     acos, atan, atan2, tanh, erfc, expm1, log1p, cbrt) and expansions
//     (sinh, cosh, tan, asinh, acosh, atanh, pow), exp10 and log10 through
//     exp2 and log2, hypot scaled by the larger operand.
//
// Anything else (fp64 transcendentals, the Bessel and gamma functions, the
// _rz/_rd/_ru arithmetic, ...) is reported at each call's line as needing
// CUDA's libdevice. The definitions are internal: the optimizer inlines
// them.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Libdevice.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDEFINELIBDEVICE
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;
namespace ld = mlir::tile::libdevice;

namespace {
/// Records the ops created through a builder or rewriter.
struct CreatedOps : public RewriterBase::Listener {
  llvm::SetVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override { ops.remove(op); }
};

/// Builds the body of one function on its scalar arguments.
struct Expander {
  OpBuilder &b;
  Location loc;
  Type resultType;

  Value constant(Type type, double value) {
    TypedAttr attr = isa<FloatType>(type)
                         ? TypedAttr(b.getFloatAttr(type, value))
                         : TypedAttr(b.getIntegerAttr(type, int64_t(value)));
    return arith::ConstantOp::create(b, loc, attr);
  }
  /// An integer result of `resultType`'s width from a predicate.
  Value fromBool(Value predicate) {
    return arith::ExtUIOp::create(b, loc, resultType, predicate);
  }

  /// The replacement, or null where Tile has no implementation.
  Value expand(StringRef name, const ld::Variant &variant, ValueRange x) {
    bool f32 = variant.operands[0] == ld::Type::F32;
    bool isFloat = ld::isFloat(variant.operands[0]);
    Type type = x[0].getType();
    // Exact for fp32 and fp64.
    if (isFloat && llvm::all_of(variant.operands, [&](ld::Type t) {
          return t == variant.result;
        })) {
      if (name == "abs")
        return math::AbsFOp::create(b, loc, x[0]);
      if (name == "floor")
        return math::FloorOp::create(b, loc, x[0]);
      if (name == "ceil")
        return math::CeilOp::create(b, loc, x[0]);
      if (name == "trunc")
        return math::TruncOp::create(b, loc, x[0]);
      if (name == "round")
        return math::RoundOp::create(b, loc, x[0]);
      if (name == "rint" || name == "nearbyint")
        return math::RoundEvenOp::create(b, loc, x[0]);
      if (name == "sqrt" || name == "sqrt_rn")
        return PreciseSqrtOp::create(b, loc, x[0]);
      if (name == "fma" || name == "fma_rn")
        return math::FmaOp::create(b, loc, x[0], x[1], x[2]);
      if (name == "copysign")
        return math::CopySignOp::create(b, loc, x[0], x[1]);
      if (name == "add_rn")
        return arith::AddFOp::create(b, loc, x[0], x[1]);
      if (name == "sub_rn")
        return arith::SubFOp::create(b, loc, x[0], x[1]);
      if (name == "mul_rn")
        return arith::MulFOp::create(b, loc, x[0], x[1]);
      if (name == "div_rn")
        return PreciseDivFOp::create(b, loc, x[0], x[1]);
      if (name == "rcp_rn")
        return PreciseDivFOp::create(b, loc, constant(type, 1.0), x[0]);
      if (name == "fast_dividef")
        return arith::DivFOp::create(b, loc, x[0], x[1]);
      if (name == "fmod")
        return arith::RemFOp::create(b, loc, x[0], x[1]);
      if (name == "fdim") {
        // x - y where x > y, +0 where not, NaN where either is.
        Value diff = arith::SubFOp::create(b, loc, x[0], x[1]);
        Value greater = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT,
                                              x[0], x[1]);
        return arith::SelectOp::create(b, loc, greater, diff,
                                       constant(type, 0.0));
      }
      if (name == "saturatef") {
        Value low = arith::MaxNumFOp::create(b, loc, x[0], constant(type, 0.0));
        return arith::MinNumFOp::create(b, loc, low, constant(type, 1.0));
      }
      if (name == "hypot" && f32) {
        // max * sqrt(1 + (min / max)^2), with hypot(0, 0) = 0 and
        // hypot(inf, NaN) = inf.
        Value ax = math::AbsFOp::create(b, loc, x[0]);
        Value ay = math::AbsFOp::create(b, loc, x[1]);
        Value hi = arith::MaximumFOp::create(b, loc, ax, ay);
        Value lo = arith::MinimumFOp::create(b, loc, ax, ay);
        Value ratio = PreciseDivFOp::create(b, loc, lo, hi);
        Value root = PreciseSqrtOp::create(
            b, loc,
            math::FmaOp::create(b, loc, ratio, ratio, constant(type, 1.0)));
        Value scaled = arith::MulFOp::create(b, loc, hi, root);
        Value zero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                           hi, constant(type, 0.0));
        Value inf = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OEQ,
            arith::MaxNumFOp::create(b, loc, ax, ay), constant(type, INFINITY));
        Value result =
            arith::SelectOp::create(b, loc, zero, constant(type, 0.0), scaled);
        return arith::SelectOp::create(b, loc, inf, constant(type, INFINITY),
                                       result);
      }
      if (f32) {
        StringRef base = name;
        base.consume_front("fast_");
        if (base.ends_with("f") && base != "erf")
          base = base.drop_back(); // fast_expf -> exp
        Value v = x[0];
        if (base == "exp")
          return math::ExpOp::create(b, loc, v);
        if (base == "exp2")
          return math::Exp2Op::create(b, loc, v);
        if (base == "exp10")
          return math::Exp2Op::create(
              b, loc,
              arith::MulFOp::create(b, loc, v,
                                    constant(type, std::log2(10.0))));
        if (base == "expm1")
          return math::ExpM1Op::create(b, loc, v);
        if (base == "log")
          return math::LogOp::create(b, loc, v);
        if (base == "log2")
          return math::Log2Op::create(b, loc, v);
        if (base == "log10")
          return arith::MulFOp::create(b, loc, math::Log2Op::create(b, loc, v),
                                       constant(type, std::log10(2.0)));
        if (base == "log1p")
          return math::Log1pOp::create(b, loc, v);
        if (base == "sin")
          return math::SinOp::create(b, loc, v);
        if (base == "cos")
          return math::CosOp::create(b, loc, v);
        if (base == "tan")
          return math::TanOp::create(b, loc, v);
        if (base == "sinh")
          return math::SinhOp::create(b, loc, v);
        if (base == "cosh")
          return math::CoshOp::create(b, loc, v);
        if (base == "tanh")
          return math::TanhOp::create(b, loc, v);
        if (base == "asin")
          return math::AsinOp::create(b, loc, v);
        if (base == "acos")
          return math::AcosOp::create(b, loc, v);
        if (base == "atan")
          return math::AtanOp::create(b, loc, v);
        if (base == "atan2")
          return math::Atan2Op::create(b, loc, v, x[1]);
        if (base == "asinh")
          return math::AsinhOp::create(b, loc, v);
        if (base == "acosh")
          return math::AcoshOp::create(b, loc, v);
        if (base == "atanh")
          return math::AtanhOp::create(b, loc, v);
        if (base == "erf")
          return math::ErfOp::create(b, loc, v);
        if (base == "erfc")
          return math::ErfcOp::create(b, loc, v);
        if (base == "cbrt")
          return math::CbrtOp::create(b, loc, v);
        if (base == "rsqrt")
          return math::RsqrtOp::create(b, loc, v);
        if (base == "pow")
          return math::PowFOp::create(b, loc, v, x[1]);
      }
      return Value();
    }
    if (name == "pow" && f32) // powi: fp32 ** int32
      return math::FPowIOp::create(b, loc, x[0], x[1]);
    // Predicates and bits of floats.
    if (isFloat && !ld::isFloat(variant.result) &&
        variant.operands.size() == 1) {
      Value v = x[0];
      if (name == "isnan")
        return fromBool(
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v));
      if (name == "isinf")
        return fromBool(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                              math::AbsFOp::create(b, loc, v),
                                              constant(type, INFINITY)));
      if (name == "finitef" || name == "isfinited")
        return fromBool(arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                              math::AbsFOp::create(b, loc, v),
                                              constant(type, INFINITY)));
      unsigned bits = f32 ? 32 : 64;
      Type intType = b.getIntegerType(bits);
      if (name == "signbit") {
        Value raw = arith::BitcastOp::create(b, loc, intType, v);
        return fromBool(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              raw, constant(intType, 0)));
      }
      if (name == "float_as_int" || name == "float_as_uint" ||
          name == "double_as_longlong")
        return arith::BitcastOp::create(b, loc, resultType, v);
      if (name == "float2int_rz" || name == "double2int_rz" ||
          name == "float2ll_rz" || name == "double2ll_rz")
        return arith::FPToSIOp::create(b, loc, resultType, v);
      if (name == "float2uint_rz" || name == "double2uint_rz" ||
          name == "float2ull_rz" || name == "double2ull_rz")
        return arith::FPToUIOp::create(b, loc, resultType, v);
      return Value();
    }
    if (name == "double2float_rn")
      return arith::TruncFOp::create(b, loc, resultType, x[0]);
    // Integers to floats, exactly or rounded to nearest.
    if (!isFloat && ld::isFloat(variant.result) && x.size() == 1) {
      if (name == "int_as_float" || name == "uint_as_float" ||
          name == "longlong_as_double")
        return arith::BitcastOp::create(b, loc, resultType, x[0]);
      if (!name.ends_with("_rn"))
        return Value();
      if (ld::isUnsigned(variant.operands[0]))
        return arith::UIToFPOp::create(b, loc, resultType, x[0]);
      return arith::SIToFPOp::create(b, loc, resultType, x[0]);
    }
    // Integer functions.
    if (!isFloat && !ld::isFloat(variant.result)) {
      if (name == "abs")
        return math::AbsIOp::create(b, loc, x[0]);
      auto toResult = [&](Value v) -> Value {
        if (getElementTypeOrSelf(v.getType()) ==
            getElementTypeOrSelf(resultType))
          return v;
        return arith::TruncIOp::create(b, loc, resultType, v);
      };
      if (name == "clz")
        return toResult(math::CountLeadingZerosOp::create(b, loc, x[0]));
      if (name == "popc")
        return toResult(math::CtPopOp::create(b, loc, x[0]));
      if (name == "mulhi") {
        if (ld::isUnsigned(variant.operands[0]))
          return arith::MulUIExtendedOp::create(b, loc, x[0], x[1]).getHigh();
        return arith::MulSIExtendedOp::create(b, loc, x[0], x[1]).getHigh();
      }
    }
    return Value();
  }
};

/// Whether `op`, created by the expansion, lowers on the GPU.
bool lowersOnGPU(Operation *op) {
  if (!isa<math::MathDialect>(op->getDialect()))
    return true;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (isa<math::AbsFOp, math::FloorOp, math::CeilOp, math::TruncOp,
          math::RoundOp, math::RoundEvenOp, math::FmaOp, math::CopySignOp,
          math::SqrtOp, math::AbsIOp, math::CountLeadingZerosOp, math::CtPopOp>(
          op))
    return true;
  // The ops tl.exp & co give, with their approximate fp32 lowering.
  return element.isF32() &&
         isa<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::SinOp,
             math::CosOp, math::RsqrtOp, math::ErfOp>(op);
}

/// MLIR's approximations and expansions, for the ops `created` holds.
void approximate(MLIRContext *ctx, CreatedOps &created) {
  RewritePatternSet patterns(ctx);
  math::populateExpansionPatterns(
      patterns,
      {"tan", "sinh", "cosh", "asinh", "acosh", "atanh", "powf", "fpowi"});
  populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
    static const llvm::StringSet<> approximated = {"asin",  "acos",  "atan",
                                                   "atan2", "tanh",  "erfc",
                                                   "expm1", "log1p", "cbrt"};
    name.consume_front("math.");
    return approximated.contains(name);
  });
  SmallVector<Operation *> ops(created.ops.begin(), created.ops.end());
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  config.setListener(&created);
  (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
}

struct TileDefineLibdevice
    : public tile::impl::TileDefineLibdeviceBase<TileDefineLibdevice> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> declarations;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (function.isExternal() && function.getName().starts_with("__nv_"))
        declarations.push_back(function);
    bool failed = false;
    for (LLVM::LLVMFuncOp declaration : declarations) {
      if (!define(declaration)) {
        reportCalls(module, declaration);
        failed = true;
      }
    }
    if (failed)
      signalPassFailure();
  }

  /// Gives `declaration` Tile's definition; false where there is none.
  bool define(LLVM::LLVMFuncOp declaration) {
    MLIRContext *ctx = &getContext();
    auto [function, variant] = ld::lookupSymbol(declaration.getName());
    if (!variant)
      return false;
    LLVM::LLVMFunctionType type = declaration.getFunctionType();
    Block *entry = new Block();
    declaration.getBody().push_back(entry);
    SmallVector<Location> locs(type.getNumParams(), declaration.getLoc());
    entry->addArguments(type.getParams(), locs);
    CreatedOps created;
    OpBuilder builder = OpBuilder::atBlockBegin(entry, &created);
    Expander expander{builder, declaration.getLoc(), type.getReturnType()};
    Value result =
        expander.expand(function->name, *variant, entry->getArguments());
    if (!result) {
      declaration.getBody().getBlocks().clear();
      return false;
    }
    auto ret = LLVM::ReturnOp::create(builder, declaration.getLoc(), result);
    approximate(ctx, created);
    if (!llvm::all_of(created.ops, lowersOnGPU)) {
      declaration.getBody().getBlocks().clear();
      return false;
    }
    (void)ret;
    // Lower the body as convert-tilegpu-to-llvm lowers scalar math.
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    tilegpu::populateMathOpToLLVMPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect>();
    target.addIllegalDialect<arith::ArithDialect, math::MathDialect,
                             TileDialect>();
    if (mlir::failed(applyPartialConversion(declaration.getOperation(), target,
                                            std::move(patterns)))) {
      declaration.getBody().getBlocks().clear();
      return false;
    }
    declaration.setLinkage(LLVM::Linkage::Internal);
    return true;
  }

  /// Reports each call of `declaration` at its line.
  void reportCalls(ModuleOp module, LLVM::LLVMFuncOp declaration) {
    auto [function, variant] = ld::lookupSymbol(declaration.getName());
    std::string name =
        function ? "libdevice." + function->name : declaration.getName().str();
    if (variant)
      name += " on " + ld::getTypeName(variant->operands[0]).str();
    bool reported = false;
    llvm::DenseSet<Location> seen; // one call per register: report each once
    module.walk([&](LLVM::CallOp call) {
      if (call.getCallee() != declaration.getName() ||
          !seen.insert(call.getLoc()).second)
        return;
      call.emitError() << name
                       << " needs CUDA's libdevice, which was not found (set "
                          "TILE_LIBDEVICE to libdevice.10.bc); Tile has no "
                          "implementation of its own for it";
      reported = true;
    });
    if (!reported)
      declaration.emitError() << name << " needs CUDA's libdevice";
  }
};
} // namespace
