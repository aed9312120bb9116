//===- Dispatch.cpp - triton.language calls to their builtin --------------===//
//
// Finds a triton.language call's row in the families' tables, binds and
// evaluates its arguments against the row's parameters, and calls the row's
// emitter.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {
const llvm::StringMap<const Builtin *> &getBuiltinsByName() {
  static const llvm::StringMap<const Builtin *> byName = [] {
    llvm::StringMap<const Builtin *> map;
    for (llvm::ArrayRef<Builtin> family :
         {getCreationBuiltins(), getMemoryBuiltins(), getBlockPointerBuiltins(),
          getTensorDescriptorBuiltins(), getShapeBuiltins(), getMathBuiltins(),
          getReductionBuiltins(), getDotBuiltins(), getAtomicBuiltins(),
          getHintBuiltins(), getDebugBuiltins(), getRandomBuiltins(),
          getStandardBuiltins(), getIndexingBuiltins()})
      for (const Builtin &builtin : family) {
        [[maybe_unused]] bool inserted =
            map.try_emplace(builtin.name, &builtin).second;
        assert(inserted && "a builtin is in two tables");
      }
    return map;
  }();
  return byName;
}
} // namespace

const Builtin *lookupBuiltin(llvm::StringRef name) {
  return getBuiltinsByName().lookup(name);
}

bool isBlockMethod(llvm::StringRef name) {
  // Methods of Triton's tensor that Tile has no builtin for yet.
  static const char *const unsupportedMethods[] = {"logical_and", "logical_or"};
  const Builtin *builtin = lookupBuiltin(name);
  return (builtin && (builtin->flags & kMethod)) ||
         llvm::is_contained(unsupportedMethods, name);
}

KernelEmitter::Result
KernelEmitter::emitLanguageCall(const ast::CallExpr &call, llvm::StringRef name,
                                llvm::StringRef displayName,
                                const PyValue *self) {
  const Builtin *builtin = lookupBuiltin(name);
  if (builtin && (!self || (builtin->flags & kMethod))) {
    BuiltinCall builtinCall{call, name, displayName, self, {}};
    if (!(builtin->flags & kRawArguments)) {
      std::optional<CallArgs> args = evaluateArguments(
          call, displayName, builtin->params, self, builtin->variadicFrom);
      if (!args)
        return std::nullopt;
      builtinCall.args = std::move(*args);
    }
    if ((builtin->flags & kNeedsIR) && !requireIR(call.getLoc(), displayName))
      return std::nullopt;
    return builtin->emit(*this, builtinCall);
  }
  if (name == "tuple" && !self) // tl.tuple(iterable): Python's tuple()
    return emitPythonBuiltin(call, "tuple");
  if (name == "static_range" || name == "range")
    return error(call.getLoc(), displayName +
                                    "() can only be used as the iterable "
                                    "of a 'for' loop");
  return error(call.getLoc(), displayName + "() is not supported");
}

} // namespace tile::frontend::mlirgen
