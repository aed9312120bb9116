//===- SubwordAtomics.cpp - 8- and 16-bit atomics as CAS loops ------------===//
//
// An 8- or 16-bit element lies inside one aligned 32-bit word (elements are
// aligned to their size). The loop reads the word, extracts the element
// (bfe), computes the new element, inserts it (bfi) and compare-and-swaps
// the whole word with the op's ordering and scope, retrying with the word
// it found until nothing changed the word in between. Each loop is one
// inline-PTX block in braces, so its registers are its own; its labels
// carry LLVM's ${:uid}, unique per emitted copy.
//
//===----------------------------------------------------------------------===//

#include "SubwordAtomics.h"
#include "Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

std::optional<SubwordUpdate>
mlir::tilegpu::getSubwordUpdate(RMWKind kind, Type type, StringRef target) {
  unsigned bits = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type)) {
    if (bits != 16)
      return std::nullopt;
    if (kind == RMWKind::xchg)
      return SubwordUpdate{"mov.b32 %sw_r, %sw_v;"};
    // bf16 add: fma with 1.0 rounds once, as add.rn.bf16 (sm_90) would.
    if (kind == RMWKind::fadd && type.isBF16() && !target.starts_with("sm_9"))
      return SubwordUpdate{"cvt.u16.u32 %sw_h, %sw_e;\n\t"
                           "cvt.u16.u32 %sw_hv, %sw_v;\n\t"
                           "mov.b16 %sw_one, 0x3F80;\n\t"
                           "fma.rn.bf16 %sw_h, %sw_h, %sw_one, %sw_hv;\n\t"
                           "cvt.u32.u16 %sw_r, %sw_h;",
                           /*isSigned=*/false, /*needsHalfRegisters=*/true};
    return std::nullopt;
  }
  if (bits != 8 && bits != 16)
    return std::nullopt;
  switch (kind) {
  case RMWKind::add:
    return SubwordUpdate{"add.u32 %sw_r, %sw_e, %sw_v;"};
  case RMWKind::and_:
    return SubwordUpdate{"and.b32 %sw_r, %sw_e, %sw_v;"};
  case RMWKind::or_:
    return SubwordUpdate{"or.b32 %sw_r, %sw_e, %sw_v;"};
  case RMWKind::xor_:
    return SubwordUpdate{"xor.b32 %sw_r, %sw_e, %sw_v;"};
  case RMWKind::xchg:
    return SubwordUpdate{"mov.b32 %sw_r, %sw_v;"};
  case RMWKind::max:
    return SubwordUpdate{"max.s32 %sw_r, %sw_e, %sw_v;", /*isSigned=*/true};
  case RMWKind::min:
    return SubwordUpdate{"min.s32 %sw_r, %sw_e, %sw_v;", /*isSigned=*/true};
  case RMWKind::umax:
    return SubwordUpdate{"max.u32 %sw_r, %sw_e, %sw_v;"};
  case RMWKind::umin:
    return SubwordUpdate{"min.u32 %sw_r, %sw_e, %sw_v;"};
  default:
    return std::nullopt;
  }
}

/// The PTX block of a loop. `operands` names the element operand registers
/// (`$2`...) moved into %sw_v and %sw_c; `body` runs with %sw_e holding the
/// element and must leave the new element in %sw_r, or branch to
/// `sw_exit_${:uid}` to give up without writing.
static std::string buildLoop(StringRef sem, StringRef scope, unsigned bits,
                             bool isSigned, bool halfRegisters, StringRef setup,
                             StringRef body,
                             std::optional<unsigned> predOperand) {
  std::string w = std::to_string(bits);
  std::string text = "{\n\t"
                     ".reg .pred %sw_p;\n\t"
                     ".reg .b32 %sw_old, %sw_cur, %sw_new, %sw_e, %sw_r, "
                     "%sw_v, %sw_c, %sw_sh;\n\t"
                     ".reg .b64 %sw_a;\n\t";
  if (halfRegisters)
    text += ".reg .b16 %sw_h, %sw_hv, %sw_one;\n\t";
  text += "mov.b32 $0, 0;\n\t";
  if (predOperand)
    text += "@!$" + std::to_string(*predOperand) + " bra sw_done_${:uid};\n\t";
  text += setup.str();
  text += "and.b64 %sw_a, $1, -4;\n\t"
          "cvt.u32.u64 %sw_sh, $1;\n\t"
          "and.b32 %sw_sh, %sw_sh, 3;\n\t"
          "shl.b32 %sw_sh, %sw_sh, 3;\n\t";
  text += ("ld.relaxed" + scope + ".global.b32 %sw_old, [%sw_a];\n").str();
  text += "sw_loop_${:uid}:\n\t";
  text += (isSigned ? "bfe.s32" : "bfe.u32") +
          std::string(" %sw_e, %sw_old, %sw_sh, ") + w + ";\n\t";
  text += body.str() + "\n\t";
  text += "bfi.b32 %sw_new, %sw_r, %sw_old, %sw_sh, " + w + ";\n\t";
  text += ("atom.global" + sem + scope +
           ".cas.b32 %sw_cur, [%sw_a], %sw_old, %sw_new;\n\t")
              .str();
  text += "setp.ne.b32 %sw_p, %sw_cur, %sw_old;\n\t"
          "mov.b32 %sw_old, %sw_cur;\n\t"
          "@%sw_p bra sw_loop_${:uid};\n"
          "sw_exit_${:uid}:\n\t"
          "mov.b32 $0, %sw_e;\n"
          "sw_done_${:uid}:\n\t"
          "}";
  return text;
}

/// `value` (an integer of `bits` bits) as 32 bits.
static Value extend(OpBuilder &b, Location loc, Value value, bool isSigned) {
  Type i32 = b.getI32Type();
  if (value.getType() == i32)
    return value;
  if (isSigned)
    return LLVM::SExtOp::create(b, loc, i32, value);
  return LLVM::ZExtOp::create(b, loc, i32, value);
}

static Value emitLoop(OpBuilder &b, Location loc, std::string text,
                      unsigned bits, Value ptr, ValueRange operands,
                      Value pred) {
  SmallVector<Value> asmOperands{ptr};
  std::string constraints = "=r,l";
  for (Value operand : operands) {
    asmOperands.push_back(operand);
    constraints += ",r";
  }
  if (pred) {
    asmOperands.push_back(pred);
    constraints += ",b";
  }
  Value old = createInlinePtx(b, loc, b.getI32Type(), asmOperands, text,
                              constraints, /*hasSideEffects=*/true)
                  .getResult(0);
  return LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), old);
}

Value mlir::tilegpu::emitSubwordRMW(OpBuilder &b, Location loc, StringRef sem,
                                    StringRef scope,
                                    const SubwordUpdate &update, unsigned bits,
                                    Value ptr, Value val, Value pred) {
  std::optional<unsigned> predOperand;
  if (pred)
    predOperand = 3;
  std::string text =
      buildLoop(sem, scope, bits, update.isSigned, update.needsHalfRegisters,
                "mov.b32 %sw_v, $2;\n\t", update.ptx, predOperand);
  return emitLoop(b, loc, text, bits, ptr,
                  {extend(b, loc, val, update.isSigned)}, pred);
}

Value mlir::tilegpu::emitSubwordCAS(OpBuilder &b, Location loc, StringRef sem,
                                    StringRef scope, unsigned bits, Value ptr,
                                    Value cmp, Value val, Value pred) {
  std::optional<unsigned> predOperand;
  if (pred)
    predOperand = 4;
  // The element differs from cmp: nothing to write, its value is the result.
  std::string text =
      buildLoop(sem, scope, bits, /*isSigned=*/false, /*halfRegisters=*/false,
                "mov.b32 %sw_c, $2;\n\tmov.b32 %sw_v, $3;\n\t",
                "setp.ne.b32 %sw_p, %sw_e, %sw_c;\n\t"
                "@%sw_p bra sw_exit_${:uid};\n\t"
                "mov.b32 %sw_r, %sw_v;",
                predOperand);
  return emitLoop(b, loc, text, bits, ptr,
                  {extend(b, loc, cmp, false), extend(b, loc, val, false)},
                  pred);
}
