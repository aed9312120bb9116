//===- Utility.cpp - helpers shared by the tilegpu-to-LLVM patterns -------===//

#include "Utility.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

constexpr unsigned kSharedAddressSpace = 3;

SmallVector<Value> mlir::tilegpu::unpackStruct(OpBuilder &b, Location loc,
                                               Value packed) {
  auto structType = cast<LLVM::LLVMStructType>(packed.getType());
  SmallVector<Value> values;
  for (unsigned i = 0; i < structType.getBody().size(); ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, packed, i));
  return values;
}

Value mlir::tilegpu::packStruct(OpBuilder &b, Location loc, Type structType,
                                ValueRange values) {
  Value packed = LLVM::UndefOp::create(b, loc, structType);
  for (auto [i, v] : llvm::enumerate(values))
    packed = LLVM::InsertValueOp::create(b, loc, packed, v, i);
  return packed;
}

LLVM::InlineAsmOp
mlir::tilegpu::createInlinePtx(OpBuilder &b, Location loc, Type result,
                               ValueRange operands, StringRef text,
                               StringRef constraints, bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

void mlir::tilegpu::emitPtxStatement(OpBuilder &b, Location loc, StringRef text,
                                     StringRef constraints,
                                     ValueRange operands) {
  createInlinePtx(b, loc, Type(), operands, text, constraints,
                  /*hasSideEffects=*/true);
}

StringRef mlir::tilegpu::constraintFor(unsigned bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

Value mlir::tilegpu::i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), value);
}

unsigned mlir::tilegpu::getThreadRunLength(Attribute layout,
                                           ArrayRef<int64_t> shape,
                                           unsigned dim, unsigned limit) {
  // An mma layout's registers come in pairs of adjacent columns (its
  // getRegisterCoords), unless the block is a single column.
  if (isa<MmaEncodingAttr>(layout))
    return dim == 1 && shape.size() == 2 && shape[1] > 1 ? std::min(2u, limit)
                                                         : 1;
  auto blocked = dyn_cast<BlockedEncodingAttr>(layout);
  if (!blocked || blocked.getOrder()[0] != dim)
    return 1;
  return std::max(1u, std::min(blocked.getSizePerThread()[dim], limit));
}

void mlir::tilegpu::storeRun(OpBuilder &b, Location loc, ValueRange values,
                             Value ptr, unsigned elementBytes) {
  if (values.size() == 1) {
    LLVM::StoreOp::create(b, loc, values[0], ptr, elementBytes);
    return;
  }
  auto vecType = VectorType::get({int64_t(values.size())}, values[0].getType());
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, value] : llvm::enumerate(values))
    vec = LLVM::InsertElementOp::create(b, loc, vec, value,
                                        i32Constant(b, loc, i));
  LLVM::StoreOp::create(b, loc, vec, ptr, values.size() * elementBytes);
}

Value mlir::tilegpu::getScratchPointer(OpBuilder &b, Location loc,
                                       uint64_t bufferOffset,
                                       Value byteOffset) {
  auto ptrType =
      LLVM::LLVMPointerType::get(b.getContext(), kSharedAddressSpace);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedScratchSymbol);
  if (bufferOffset != 0)
    byteOffset = LLVM::AddOp::create(b, loc, i32Constant(b, loc, bufferOffset),
                                     byteOffset);
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ValueRange{byteOffset});
}

WarpRole mlir::tilegpu::getWarpRoleAt(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  return block ? getWarpRole(block->getParent()) : WarpRole::Whole;
}

void mlir::tilegpu::emitBarrier(OpBuilder &b, Location loc) {
  if (getWarpRoleAt(b) != WarpRole::Consumers) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  // Named barrier 1 counts only the consumer warps: the producer warp
  // never reaches it.
  Operation *at = b.getInsertionBlock()->getParentOp();
  Value id = i32Constant(b, loc, 1);
  Value threads = i32Constant(b, loc, int32_t(getNumWarps(at)) * 32);
  NVVM::BarrierOp::create(b, loc, TypeRange{}, id, threads, {}, Value{});
}

int32_t mlir::tilegpu::getIssuingThreadId(OpBuilder &b) {
  if (getWarpRoleAt(b) != WarpRole::Producer)
    return 0;
  return int32_t(getNumWarps(b.getInsertionBlock()->getParentOp())) * 32;
}

int64_t mlir::tilegpu::getWarpsAt(OpBuilder &b) {
  Operation *parent = b.getInsertionBlock()->getParentOp();
  return getWarpRoleAt(b) == WarpRole::Producer ? getProducerWarps(parent)
                                                : getNumWarps(parent);
}

Value mlir::tilegpu::isIssuingThread(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid,
                              i32Constant(b, loc, getIssuingThreadId(b)));
}

/// shfl.sync of `value` (any scalar up to 64 bits; wider ones as two 32-bit
/// halves) in mode `kind` with lane operand `laneArg` and clamp `clamp`.
static Value shuffle(OpBuilder &b, Location loc, Value value, Value laneArg,
                     NVVM::ShflKind kind, unsigned clamp) {
  Type i32 = b.getI32Type();
  Type type = value.getType();
  auto shuffle32 = [&](Value v) -> Value {
    return NVVM::ShflOp::create(b, loc, i32, i32Constant(b, loc, -1), v,
                                laneArg, i32Constant(b, loc, clamp),
                                NVVM::ShflKindAttr::get(b.getContext(), kind),
                                UnitAttr());
  };
  unsigned bits =
      isa<LLVM::LLVMPointerType>(type) ? 64 : type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = value;
  if (isa<LLVM::LLVMPointerType>(type))
    asInt = LLVM::PtrToIntOp::create(b, loc, intType, value);
  else if (!isa<IntegerType>(type))
    asInt = LLVM::BitcastOp::create(b, loc, intType, value);
  Value result;
  if (bits == 32) {
    result = shuffle32(asInt);
  } else if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(b, loc, i32, asInt);
    result = LLVM::TruncOp::create(b, loc, intType, shuffle32(wide));
  } else {
    Type i64 = b.getI64Type();
    Value lo = LLVM::TruncOp::create(b, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32,
        LLVM::LShrOp::create(b, loc, asInt,
                             LLVM::ConstantOp::create(b, loc, i64, 32)));
    Value lo2 = LLVM::ZExtOp::create(b, loc, i64, shuffle32(lo));
    Value hi2 = LLVM::ZExtOp::create(b, loc, i64, shuffle32(hi));
    result = LLVM::OrOp::create(
        b, loc, lo2,
        LLVM::ShlOp::create(b, loc, hi2,
                            LLVM::ConstantOp::create(b, loc, i64, 32)));
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, result);
  if (!isa<IntegerType>(type))
    return LLVM::BitcastOp::create(b, loc, type, result);
  return result;
}

// The clamp operand: 0x1f bounds the source lane by the warp's last lane;
// for `up` it is the lower bound instead, lane 0.
Value mlir::tilegpu::shuffleXor(OpBuilder &b, Location loc, Value value,
                                unsigned laneMask) {
  return shuffle(b, loc, value, i32Constant(b, loc, laneMask),
                 NVVM::ShflKind::bfly, 0x1f);
}

Value mlir::tilegpu::shuffleUp(OpBuilder &b, Location loc, Value value,
                               unsigned delta) {
  return shuffle(b, loc, value, i32Constant(b, loc, delta), NVVM::ShflKind::up,
                 0);
}

Value mlir::tilegpu::shuffleDown(OpBuilder &b, Location loc, Value value,
                                 unsigned delta) {
  return shuffle(b, loc, value, i32Constant(b, loc, delta),
                 NVVM::ShflKind::down, 0x1f);
}

Value mlir::tilegpu::shuffleIdx(OpBuilder &b, Location loc, Value value,
                                Value lane) {
  return shuffle(b, loc, value, lane, NVVM::ShflKind::idx, 0x1f);
}

SmallVector<Value> mlir::tilegpu::applyCombineRegion(OpBuilder &b,
                                                     Region &combine,
                                                     ValueRange acc,
                                                     ValueRange cur) {
  Block &body = combine.front();
  IRMapping mapping;
  unsigned n = acc.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(body.getArgument(i), acc[i]);
    mapping.map(body.getArgument(n + i), cur[i]);
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, mapping);
  SmallVector<Value> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

VectorPlan mlir::tilegpu::planVectors(const tile::ModuleAxisInfo &axisInfo,
                                      Value ptr, Value mask,
                                      unsigned elementBits) {
  VectorPlan plan;
  auto layout = getDistributedLayout(ptr.getType());
  if (layout) {
    unsigned fastest = layout.getLayoutOrder()[0];
    unsigned width = std::min(layout.getLayoutSizePerThread()[fastest],
                              axisInfo.getPtrVectorWidth(ptr, fastest));
    if (mask)
      width = std::min(width, axisInfo.getMaskConstancy(mask, fastest));
    plan.width = std::max(1u, width);
  }
  unsigned totalBits = plan.width * elementBits;
  plan.wordBits = std::min(32u, totalBits);
  plan.words = totalBits / plan.wordBits;
  return plan;
}

Value mlir::tilegpu::broadcastFromThread0(OpBuilder &b, Location loc,
                                          uint64_t bufferOffset, Value value) {
  Type type = value.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  unsigned wordBits = std::max(32u, bits);
  Type word = b.getIntegerType(wordBits);
  Value asWord =
      isa<IntegerType>(type)
          ? value
          : LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), value)
                .getResult();
  if (bits < 32)
    asWord = LLVM::ZExtOp::create(b, loc, word, asWord);
  Value slot = getScratchPointer(b, loc, bufferOffset, i32Constant(b, loc, 0));
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), slot);
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value first = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid,
                                     i32Constant(b, loc, 0));
  std::string constraints = ("r," + constraintFor(wordBits) + ",b").str();
  createInlinePtx(
      b, loc, Type(), ValueRange{address, asWord, first},
      llvm::formatv("@$2 st.shared.b{0} [ $0 + 0 ], $1;", wordBits).str(),
      constraints, /*hasSideEffects=*/true);
  emitBarrier(b, loc);
  Value loaded = LLVM::LoadOp::create(b, loc, word, slot);
  if (bits < 32)
    loaded = LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), loaded);
  return loaded.getType() == type
             ? loaded
             : LLVM::BitcastOp::create(b, loc, type, loaded).getResult();
}
