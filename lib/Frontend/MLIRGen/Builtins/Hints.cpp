//===- Hints.cpp - Compiler hints -----------------------------------------===//
//
// Hints that annotate a value for the contiguity analysis (AxisInfo):
// tl.multiple_of, tl.max_contiguous and tl.max_constancy set the tile
// dialect's hint attributes on the value's defining op (or, on a kernel
// argument, the divisibility argument attribute); tl.assume is accepted and
// has no use yet.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {
using Result = KernelEmitter::Result;

Result emitValueHint(KernelEmitter &e, const BuiltinCall &c) {
  const auto &args = c.args;
  const PyValue &input = args.values[0];
  if (!input.isRuntime())
    return e.error(args.locs[0], c.displayName +
                                     "() needs a runtime value, "
                                     "got " +
                                     describe(input));
  llvm::SmallVector<int32_t> values;
  llvm::SmallVector<PyValue> given;
  if (args.values[1].kind == PyValue::Kind::Tuple)
    given.append(args.values[1].elements.begin(),
                 args.values[1].elements.end());
  else
    given.push_back(args.values[1]);
  for (const PyValue &v : given) {
    if (v.kind != PyValue::Kind::Int || !llvm::isInt<32>(v.intValue) ||
        v.intValue <= 0)
      return e.error(args.locs[1], c.displayName +
                                       "() values must be positive "
                                       "compile-time integers, got " +
                                       describe(v));
    values.push_back(v.intValue);
  }
  size_t rank = std::max<size_t>(1, getShape(input.value).size());
  if (values.size() != rank)
    return e.error(args.locs[1],
                   c.displayName + "() needs " + llvm::Twine(rank) +
                       " value(s), one per dimension of " + describe(input) +
                       "; got " + llvm::Twine(values.size()));
  llvm::StringRef attrName =
      c.name == "multiple_of"      ? mlir::tile::kHintDivisibilityAttr
      : c.name == "max_contiguous" ? mlir::tile::kHintContiguityAttr
                                   : mlir::tile::kHintConstancyAttr;
  if (mlir::Operation *op = input.value.getDefiningOp()) {
    op->setAttr(attrName, e.builder.getDenseI32ArrayAttr(values));
  } else if (auto argument = dyn_cast<mlir::BlockArgument>(input.value)) {
    // A kernel argument: divisibility becomes the argument attribute the
    // contiguity analysis reads, as a launch specialization would.
    auto function =
        dyn_cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
    if (function && c.name == "multiple_of")
      function.setArgAttr(argument.getArgNumber(),
                          mlir::tile::kDivisibilityAttr,
                          e.builder.getI32IntegerAttr(values[0]));
  }
  return input;
}

/// Only an optimization hint; Tile has no use for it yet.
Result emitAssume(KernelEmitter &, const BuiltinCall &) {
  return PyValue::none();
}
} // namespace

llvm::ArrayRef<Builtin> getHintBuiltins() {
  static const std::vector<BuiltinParam> valueHint = {{"input", true},
                                                      {"values", true}};
  static const Builtin builtins[] = {
      {"multiple_of", valueHint, emitValueHint},
      {"max_contiguous", valueHint, emitValueHint},
      {"max_constancy", valueHint, emitValueHint},
      {"assume", {{"cond", true}}, emitAssume},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
