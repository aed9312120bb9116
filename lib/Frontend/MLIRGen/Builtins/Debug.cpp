//===- Debug.cpp - Debugging builtins -------------------------------------===//
//
// Debugging builtins: compile-time printing and assertions, and their
// runtime counterparts (tile.print, tile.assert), and tl.debug_barrier.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {
using Result = KernelEmitter::Result;

/// Prints its arguments at compile time, as Python's print would.
Result emitStaticPrint(KernelEmitter &e, const BuiltinCall &c) {
  std::string text;
  for (const ast::ExprPtr &arg : c.call.getArgs()) {
    Result value = e.emitExpr(*arg);
    if (!value)
      return std::nullopt;
    if (!text.empty())
      text += " ";
    if (value->kind == PyValue::Kind::String)
      text += value->text;
    else if (value->kind == PyValue::Kind::Int)
      text += std::to_string(value->intValue);
    else if (value->kind == PyValue::Kind::Bool)
      text += value->boolValue ? "True" : "False";
    else if (value->kind == PyValue::Kind::Float)
      text += std::to_string(value->floatValue);
    else
      text += describe(*value);
  }
  llvm::errs() << text << "\n";
  return PyValue::none();
}

Result emitStaticAssert(KernelEmitter &e, const BuiltinCall &c) {
  const auto &args = c.args;
  if (!args.values[0].isConstexpr())
    return e.error(args.locs[0], c.displayName +
                                     "() needs a compile-time condition, "
                                     "got " +
                                     describe(args.values[0]));
  if (!isTruthy(args.values[0]))
    return e.error(c.getLoc(), "static_assert failed" +
                                   (args.values[1].kind == PyValue::Kind::String
                                        ? ": " + args.values[1].text
                                        : std::string()));
  return PyValue::none();
}

/// tl.device_print(prefix, *values, hex=False) and print(...): a leading
/// string is the prefix, every other argument a value to print.
Result emitDevicePrint(KernelEmitter &e, const BuiltinCall &c) {
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  std::string prefix;
  llvm::SmallVector<mlir::Value> values;
  llvm::SmallVector<int32_t> isSigned;
  bool hex = false;
  for (const ast::Keyword &keyword : c.call.getKeywords()) {
    if (keyword.name != "hex")
      return e.error(keyword.loc, c.displayName +
                                      "() got an unexpected keyword argument "
                                      "'" +
                                      keyword.name + "'; valid: hex");
    Result value = e.emitExpr(*keyword.value);
    if (!value)
      return std::nullopt;
    hex = isTruthy(*value);
  }
  for (auto [index, arg] : llvm::enumerate(c.call.getArgs())) {
    Result value = e.emitExpr(*arg);
    if (!value)
      return std::nullopt;
    if (index == 0 && value->kind == PyValue::Kind::String) {
      prefix = value->text;
      continue;
    }
    std::optional<PyValue> runtimeValue = e.toRuntime(*value, arg->getLoc());
    if (!runtimeValue)
      return std::nullopt;
    values.push_back(runtimeValue->value);
    // Triton's is_int_signed: int8 to int64 (not bool, floats, pointers).
    mlir::Type element = getElementType(runtimeValue->value);
    isSigned.push_back(isInteger(element) && !isBool(element) &&
                       !runtimeValue->isUnsigned);
  }
  // Triton shapes the prefix so that lines read "idx (3) x: 1": with
  // values it ends in ": ", and one longer than two characters starts with
  // a space.
  if (!values.empty() && !llvm::StringRef(prefix).ends_with(" "))
    prefix += " ";
  if (!values.empty() && !llvm::StringRef(prefix).ends_with(": "))
    prefix = prefix.substr(0, prefix.size() - 1) + ": ";
  if (prefix.size() > 2 && prefix[0] != ' ')
    prefix = " " + prefix;
  mlir::tile::PrintOp::create(e.builder, e.getLoc(c.getLoc()), prefix, hex,
                              values, isSigned);
  return PyValue::none();
}

Result emitDeviceAssert(KernelEmitter &e, const BuiltinCall &c) {
  const auto &args = c.args;
  const PyValue &cond = args.values[0];
  std::string message = args.values[1].kind == PyValue::Kind::String
                            ? args.values[1].text
                            : std::string();
  if (!cond.isRuntime()) {
    if (!isTruthy(cond))
      return e.error(c.getLoc(), "device_assert fails at compile time" +
                                     (message.empty() ? "" : ": " + message));
    return PyValue::none();
  }
  mlir::Location loc = e.getLoc(c.getLoc());
  mlir::Value condition = e.castValue(cond.value, cond.isUnsigned,
                                      e.builder.getI1Type(), false, loc);
  mlir::tile::AssertOp::create(e.builder, loc, condition,
                               e.builder.getStringAttr(message));
  return PyValue::none();
}

Result emitDebugBarrier(KernelEmitter &e, const BuiltinCall &c) {
  mlir::tile::DebugBarrierOp::create(e.builder, e.getLoc(c.getLoc()));
  return PyValue::none();
}
} // namespace

llvm::ArrayRef<Builtin> getDebugBuiltins() {
  static const Builtin builtins[] = {
      {"static_print", {}, emitStaticPrint, kRawArguments},
      {"static_assert", {{"cond", true}, {"msg", false}}, emitStaticAssert},
      {"device_print", {}, emitDevicePrint, kRawArguments},
      {"device_assert",
       {{"cond", true}, {"msg", false}, {"mask", false}},
       emitDeviceAssert},
      {"debug_barrier", {}, emitDebugBarrier, kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
