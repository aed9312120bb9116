//===- AtomicOpToLLVM.cpp - atomics as PTX atom ---------------------------===//
//
// tile.atomic_rmw and tile.atomic_cas, one PTX `atom.global` per element a
// thread holds, with the op's ordering and scope
// (`atom.global.acq_rel.gpu.add.f32`):
//   - each element is updated once: a thread acts only on its registers that
//     hold an element's first copy (a tensor smaller than its layout's tile
//     is replicated across threads), and only where the mask is true; other
//     lanes yield 0;
//   - a scalar atomic runs in thread 0 of the program; where its old value
//     is used, thread 0 writes it to the op's shared-memory scratch (4 or 8
//     bytes, ScratchBuffers.cpp) and after a barrier every thread reads it,
//     as Triton does (tilegpu-insert-barriers orders the scratch against
//     other accesses: a spin loop's next atomic waits for this one's reads);
//   - integers of 32 and 64 bits (add, max, min, and, or, xor, xchg, cas),
//     fp32 and fp64 add, fp16 add, bf16 add on sm_90, and fp32/fp64 max and
//     min through integer atomics on the bit patterns (a non-negative float
//     orders as a signed integer, a negative one inversely as an unsigned
//     one), as Triton does;
//   - 8- and 16-bit integers (every read-modify-write, and 8-bit cas), 16-bit
//     float xchg and bf16 add before sm_90, which PTX has no atom for: a
//     compare-and-swap loop on the aligned 32-bit word holding the element
//     (SubwordAtomics.cpp).
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "SubwordAtomics.h"
#include "Utility.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
StringRef getSemanticSuffix(MemSemantic sem) {
  switch (sem) {
  case MemSemantic::relaxed:
    return ".relaxed";
  case MemSemantic::acquire:
    return ".acquire";
  case MemSemantic::release:
    return ".release";
  case MemSemantic::acq_rel:
    return ".acq_rel";
  }
  return ".acq_rel";
}

StringRef getScopeSuffix(MemScope scope) {
  switch (scope) {
  case MemScope::gpu:
    return ".gpu";
  case MemScope::cta:
    return ".cta";
  case MemScope::sys:
    return ".sys";
  }
  return ".gpu";
}

/// One PTX atom: its operation and type (".add.f32", ".cas.b32"), whether
/// it compares (cas), and the width of its registers.
struct AtomForm {
  std::string op;
  unsigned bits = 32;
};

/// The form of `kind` on `type`, or a reason why there is none.
FailureOr<AtomForm> getAtomForm(Operation *op, RMWKind kind, Type type,
                                StringRef target) {
  unsigned bits = type.getIntOrFloatBitWidth();
  auto fail = [&]() -> FailureOr<AtomForm> {
    return op->emitOpError("an atomic ")
           << stringifyRMWKind(kind) << " of " << type
           << " elements is not supported on the GPU yet";
  };
  std::string b = std::to_string(bits);
  if (isa<FloatType>(type)) {
    if (kind == RMWKind::fadd) {
      if (type.isF32() || type.isF64())
        return AtomForm{".add.f" + b, bits};
      if (type.isF16())
        return AtomForm{".add.noftz.f16", 16};
      if (type.isBF16() && target.starts_with("sm_9"))
        return AtomForm{".add.noftz.bf16", 16};
      return fail();
    }
    if (kind == RMWKind::xchg && (bits == 32 || bits == 64))
      return AtomForm{".exch.b" + b, bits};
    return fail(); // fmax and fmin are built from integer forms
  }
  if (bits != 32 && bits != 64)
    return fail();
  switch (kind) {
  case RMWKind::add:
    return AtomForm{".add.u" + b, bits};
  case RMWKind::max:
    return AtomForm{".max.s" + b, bits};
  case RMWKind::umax:
    return AtomForm{".max.u" + b, bits};
  case RMWKind::min:
    return AtomForm{".min.s" + b, bits};
  case RMWKind::umin:
    return AtomForm{".min.u" + b, bits};
  case RMWKind::and_:
    return AtomForm{".and.b" + b, bits};
  case RMWKind::or_:
    return AtomForm{".or.b" + b, bits};
  case RMWKind::xor_:
    return AtomForm{".xor.b" + b, bits};
  case RMWKind::xchg:
    return AtomForm{".exch.b" + b, bits};
  default:
    return fail();
  }
}

/// The module's target ("sm_90a"), or "" where it records none.
StringRef getTargetName(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<StringAttr>(
                             TileGPUDialect::getTargetAttrName())
                       : StringAttr();
  return target ? target.getValue() : StringRef();
}

/// `@pred atom.global{sem}{scope}{form} old, [ptr], operands...;` with old =
/// 0 where `pred` is false. Operands are integers of `bits` bits.
Value emitAtom(OpBuilder &b, Location loc, StringRef prefix, StringRef form,
               unsigned bits, Value ptr, ValueRange operands, Value pred) {
  Type word = b.getIntegerType(bits);
  std::string constraints = "=" + constraintFor(bits).str() + ",l";
  std::string list;
  SmallVector<Value> asmOperands{ptr};
  for (Value operand : operands) {
    asmOperands.push_back(operand);
    constraints += "," + constraintFor(bits).str();
    list += llvm::formatv(", ${0}", asmOperands.size()).str();
  }
  std::string text = llvm::formatv("mov.b{0} $0, 0;\n\t", bits).str();
  if (pred) {
    asmOperands.push_back(pred);
    constraints += ",b";
    text += llvm::formatv("@${0} ", asmOperands.size()).str();
  }
  text += (prefix + form + " $0, [ $1 + 0 ]" + list + ";").str();
  return createInlinePtx(b, loc, word, asmOperands, text, constraints,
                         /*hasSideEffects=*/true)
      .getResult(0);
}

Value andPredicates(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return LLVM::AndOp::create(b, loc, x, y);
}

/// What both atomics share: the registers of the operands, which of them
/// to act on, and the result's packing.
template <typename OpTy>
struct AtomicLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;

  /// The predicate of each register (null: always), the registers of
  /// `values`, or failure after a diagnostic.
  LogicalResult getRegisters(OpTy op, ConversionPatternRewriter &rewriter,
                             ValueRange values, Value mask,
                             SmallVectorImpl<SmallVector<Value>> &registers,
                             SmallVectorImpl<Value> &predicates) const {
    Location loc = op.getLoc();
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      if (!op.getResult().use_empty() && !getSharedOffset(op))
        return op.emitOpError("on a scalar whose old value is used needs its "
                              "shared-memory scratch; run "
                              "tilegpu-allocate-shared-memory first");
      Value tid =
          NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         tid, i32Constant(rewriter, loc, 0));
      predicates.push_back(andPredicates(rewriter, loc, first, mask));
      for (Value value : values)
        registers.push_back({value});
      return success();
    }
    auto layout = getDistributedLayout(tensor);
    SmallVector<Value> firstCopies =
        emitFirstCopyMasks(rewriter, loc, layout, tensor.getShape());
    if (firstCopies.empty())
      return op.emitOpError("needs a blocked layout for its operands");
    SmallVector<Value> masks =
        mask ? unpackStruct(rewriter, loc, mask) : SmallVector<Value>();
    for (auto [i, firstCopy] : llvm::enumerate(firstCopies))
      predicates.push_back(
          andPredicates(rewriter, loc, firstCopy, mask ? masks[i] : Value()));
    for (Value value : values)
      registers.push_back(unpackStruct(rewriter, loc, value));
    return success();
  }

  void replace(OpTy op, ConversionPatternRewriter &rewriter,
               ArrayRef<Value> results) const {
    Type resultType = this->getTypeConverter()->convertType(op.getType());
    if (isa<LLVM::LLVMStructType>(resultType))
      rewriter.replaceOp(
          op, packStruct(rewriter, op.getLoc(), resultType, results));
    else if (op.getResult().use_empty())
      rewriter.replaceOp(op, results[0]);
    else
      rewriter.replaceOp(op, broadcastFromThread0(rewriter, op.getLoc(),
                                                  *getSharedOffset(op),
                                                  results[0]));
  }

  std::string getPrefix(OpTy op) const {
    return ("atom.global" + getSemanticSuffix(op.getSem()) +
            getScopeSuffix(op.getScope()))
        .str();
  }
};

/// `value` as an integer of its width, or back.
Value toBits(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (isa<IntegerType>(type))
    return value;
  return LLVM::BitcastOp::create(
      b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
}
Value fromBits(OpBuilder &b, Location loc, Value bits, Type type) {
  return bits.getType() == type ? bits
                                : LLVM::BitcastOp::create(b, loc, type, bits);
}

struct AtomicRMWOpLowering : public AtomicLowering<AtomicRMWOp> {
  using AtomicLowering::AtomicLowering;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = getElementTypeOrSelf(op.getType());
    StringRef target = getTargetName(op);
    RMWKind kind = op.getKind();
    bool floatMinMax = kind == RMWKind::fmax || kind == RMWKind::fmin;
    std::optional<SubwordUpdate> subword =
        getSubwordUpdate(kind, elementType, target);
    if (floatMinMax && !elementType.isF32() && !elementType.isF64())
      return op.emitOpError("an atomic ")
             << stringifyRMWKind(kind) << " of " << elementType
             << " elements is not supported on the GPU yet";
    AtomForm form;
    if (!floatMinMax && !subword) {
      FailureOr<AtomForm> found = getAtomForm(op, kind, elementType, target);
      if (failed(found))
        return failure();
      form = *found;
    }
    SmallVector<SmallVector<Value>> registers;
    SmallVector<Value> predicates;
    if (failed(getRegisters(op, rewriter, {adaptor.getPtr(), adaptor.getVal()},
                            adaptor.getMask(), registers, predicates)))
      return failure();
    std::string prefix = getPrefix(op);
    Type llvmElement = getTypeConverter()->convertType(elementType);
    SmallVector<Value> results;
    for (auto [i, pred] : llvm::enumerate(predicates)) {
      Value ptr = registers[0][i], val = registers[1][i];
      Value bits = toBits(rewriter, loc, val);
      if (subword) {
        results.push_back(fromBits(
            rewriter, loc,
            emitSubwordRMW(rewriter, loc, getSemanticSuffix(op.getSem()),
                           getScopeSuffix(op.getScope()), *subword,
                           elementType.getIntOrFloatBitWidth(), ptr, bits,
                           pred),
            llvmElement));
        continue;
      }
      if (!floatMinMax) {
        results.push_back(fromBits(rewriter, loc,
                                   emitAtom(rewriter, loc, prefix, form.op,
                                            form.bits, ptr, bits, pred),
                                   llvmElement));
        continue;
      }
      // A non-negative float orders as a signed integer; a negative one as
      // an unsigned integer, inversely. max: signed max for the first,
      // unsigned min for the second (min: the other way round).
      unsigned width = elementType.getIntOrFloatBitWidth();
      Value zero = LLVM::ConstantOp::create(rewriter, loc, bits.getType(), 0);
      Value nonNegative = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::sge, bits, zero);
      Value negative = LLVM::XOrOp::create(
          rewriter, loc, nonNegative,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), 1));
      bool isMax = kind == RMWKind::fmax;
      std::string w = std::to_string(width);
      Value whenNonNegative = emitAtom(
          rewriter, loc, prefix, (isMax ? ".max.s" : ".min.s") + w, width, ptr,
          bits, andPredicates(rewriter, loc, pred, nonNegative));
      Value whenNegative = emitAtom(
          rewriter, loc, prefix, (isMax ? ".min.u" : ".max.u") + w, width, ptr,
          bits, andPredicates(rewriter, loc, pred, negative));
      Value old = LLVM::SelectOp::create(rewriter, loc, nonNegative,
                                         whenNonNegative, whenNegative);
      results.push_back(fromBits(rewriter, loc, old, llvmElement));
    }
    replace(op, rewriter, results);
    return success();
  }
};

struct AtomicCASOpLowering : public AtomicLowering<AtomicCASOp> {
  using AtomicLowering::AtomicLowering;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elementType = getElementTypeOrSelf(op.getType());
    unsigned bits = elementType.getIntOrFloatBitWidth();
    bool subword = bits == 8 && isa<IntegerType>(elementType);
    if (!subword && bits != 16 && bits != 32 && bits != 64)
      return op.emitOpError("an atomic compare-and-swap of ")
             << elementType << " elements is not supported on the GPU yet";
    SmallVector<SmallVector<Value>> registers;
    SmallVector<Value> predicates;
    if (failed(
            getRegisters(op, rewriter,
                         {adaptor.getPtr(), adaptor.getCmp(), adaptor.getVal()},
                         Value(), registers, predicates)))
      return failure();
    std::string prefix = getPrefix(op);
    Type llvmElement = getTypeConverter()->convertType(elementType);
    SmallVector<Value> results;
    for (auto [i, pred] : llvm::enumerate(predicates)) {
      Value cmp = toBits(rewriter, loc, registers[1][i]);
      Value val = toBits(rewriter, loc, registers[2][i]);
      if (subword) {
        results.push_back(emitSubwordCAS(rewriter, loc,
                                         getSemanticSuffix(op.getSem()),
                                         getScopeSuffix(op.getScope()), bits,
                                         registers[0][i], cmp, val, pred));
        continue;
      }
      Value old =
          emitAtom(rewriter, loc, prefix, ".cas.b" + std::to_string(bits), bits,
                   registers[0][i], {cmp, val}, pred);
      results.push_back(fromBits(rewriter, loc, old, llvmElement));
    }
    replace(op, rewriter, results);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateAtomicOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AtomicRMWOpLowering, AtomicCASOpLowering>(converter);
}
