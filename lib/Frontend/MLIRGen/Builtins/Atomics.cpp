//===- Atomics.cpp - Atomic builtins --------------------------------------===//
//
// Atomic read-modify-write and compare-and-swap builtins.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

KernelEmitter::Result KernelEmitter::emitAtomic(llvm::StringRef name,
                                                const CallArgs &args,
                                                const ast::CallExpr &call,
                                                llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  bool isCas = name == "atomic_cas";
  const PyValue &pointer = args.values[0];
  if (!pointer.isRuntime() || !isPointer(getElementType(pointer.value)))
    return error(args.locs[0], displayName +
                                   "() 'pointer' must be a pointer or a block "
                                   "of pointers, got " +
                                   describe(pointer));
  // atomic_cas(pointer, cmp, val, sem, scope);
  // atomic_*(pointer, val, mask, sem, scope).
  size_t semIndex = 3, scopeIndex = 4;
  llvm::SmallVector<const PyValue *> operands = {&pointer, &args.values[1]};
  if (isCas)
    operands.push_back(&args.values[2]);
  const PyValue *mask = nullptr;
  if (!isCas && args.present[2] && args.values[2].kind != PyValue::Kind::None) {
    mask = &args.values[2];
    operands.push_back(mask);
  }
  for (const PyValue *operand : llvm::ArrayRef(operands).drop_front())
    if (!operand->isRuntime() && !operand->isNumber())
      return error(callLoc, displayName +
                                "() operands must be numbers or "
                                "blocks, got " +
                                describe(*operand));
  auto common = commonShape(operands, (displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Value ptr =
      asBlock ? broadcastTo(pointer.value, shape, loc) : pointer.value;
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  bool isUnsigned = pointer.isUnsigned;

  mlir::tile::MemSemantic sem = mlir::tile::MemSemantic::acq_rel;
  mlir::tile::MemScope scope = mlir::tile::MemScope::gpu;
  for (size_t index : {semIndex, scopeIndex}) {
    if (!args.present[index] || args.values[index].kind == PyValue::Kind::None)
      continue;
    const PyValue &v = args.values[index];
    bool ok = v.kind == PyValue::Kind::String;
    if (ok && index == semIndex) {
      auto parsed = mlir::tile::symbolizeMemSemantic(v.text);
      ok = parsed.has_value();
      if (ok)
        sem = *parsed;
    } else if (ok) {
      auto parsed = mlir::tile::symbolizeMemScope(v.text);
      ok = parsed.has_value();
      if (ok)
        scope = *parsed;
    }
    if (!ok)
      return error(args.locs[index],
                   displayName + "() " + (index == semIndex ? "sem" : "scope") +
                       " must be one of " +
                       (index == semIndex
                            ? "'relaxed', 'acquire', 'release', 'acq_rel'"
                            : "'gpu', 'cta', 'sys'") +
                       "; got " +
                       (v.kind == PyValue::Kind::String ? "'" + v.text + "'"
                                                        : describe(v)));
  }
  mlir::Value val =
      prepareOperand(args.values[isCas ? 2 : 1], pointee, asBlock, shape, loc);
  mlir::Type resultType = mlir::tile::getPointeeShapedType(ptr.getType());
  if (isCas) {
    mlir::Value cmp =
        prepareOperand(args.values[1], pointee, asBlock, shape, loc);
    return PyValue::runtime(
        mlir::tile::AtomicCASOp::create(builder, loc, resultType, ptr, cmp, val,
                                        sem, scope),
        isUnsigned);
  }
  mlir::Value maskValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  bool floatPointee = isFloat(pointee);
  std::optional<mlir::tile::RMWKind> kind;
  if (name == "atomic_add")
    kind = floatPointee ? mlir::tile::RMWKind::fadd : mlir::tile::RMWKind::add;
  else if (name == "atomic_max")
    kind = floatPointee ? mlir::tile::RMWKind::fmax
           : isUnsigned ? mlir::tile::RMWKind::umax
                        : mlir::tile::RMWKind::max;
  else if (name == "atomic_min")
    kind = floatPointee ? mlir::tile::RMWKind::fmin
           : isUnsigned ? mlir::tile::RMWKind::umin
                        : mlir::tile::RMWKind::min;
  else if (name == "atomic_xchg")
    kind = mlir::tile::RMWKind::xchg;
  else if (!floatPointee)
    kind = name == "atomic_and"  ? mlir::tile::RMWKind::and_
           : name == "atomic_or" ? mlir::tile::RMWKind::or_
                                 : mlir::tile::RMWKind::xor_;
  if (!kind)
    return error(callLoc, displayName + "() needs integer pointees, got " +
                              describe(pointer));
  return PyValue::runtime(
      mlir::tile::AtomicRMWOp::create(builder, loc, resultType, *kind, ptr, val,
                                      maskValue, sem, scope),
      isUnsigned);
}

namespace {
KernelEmitter::Result emitAtomicCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitAtomic(c.name, c.args, c.call, c.displayName);
}
} // namespace

llvm::ArrayRef<Builtin> getAtomicBuiltins() {
  static const std::vector<BuiltinParam> rmwParams = {{"pointer", true},
                                                      {"val", true},
                                                      {"mask", false},
                                                      {"sem", false},
                                                      {"scope", false}};
  static const Builtin builtins[] = {
      {"atomic_cas",
       {{"pointer", true},
        {"cmp", true},
        {"val", true},
        {"sem", false},
        {"scope", false}},
       emitAtomicCall,
       kNeedsIR},
      {"atomic_add", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_max", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_min", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_and", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_or", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_xor", rmwParams, emitAtomicCall, kNeedsIR},
      {"atomic_xchg", rmwParams, emitAtomicCall, kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
