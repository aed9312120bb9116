//===- PythonBuiltins.cpp - Python's builtins in kernels ------------------===//
//
// Python's builtins inside kernels: min, max, abs, int, float, bool, len,
// isinstance.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Python builtins
//===----------------------------------------------------------------------===//

KernelEmitter::Result
KernelEmitter::emitPythonBuiltin(const ast::CallExpr &call,
                                 llvm::StringRef name) {
  if (name == "min" || name == "max") {
    if (!call.getKeywords().empty())
      return error(call.getKeywords().front().loc,
                   name + "() takes no keyword arguments in kernels");
    llvm::SmallVector<PyValue> values;
    for (const ast::ExprPtr &arg : call.getArgs()) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    }
    if (values.size() == 1 && values[0].kind == PyValue::Kind::Tuple) {
      std::vector<PyValue> elements = values[0].elements;
      values.assign(elements.begin(), elements.end());
    }
    if (values.empty())
      return error(call.getLoc(), name + "() expected at least 1 argument");
    // Compile-time values compare as in Python; runtime ones become
    // tl.minimum/tl.maximum, as Triton maps these builtins.
    PyValue result = values[0];
    for (const PyValue &next : llvm::ArrayRef(values).drop_front()) {
      if (!result.isRuntime() && !next.isRuntime()) {
        Result less =
            foldCompare(ast::CompareOp::Lt, next, result, call.getLoc());
        if (!less)
          return std::nullopt;
        if (less->boolValue == (name == "min"))
          result = next;
        continue;
      }
      Result combined = emitMinMax(name == "max", result, next,
                                   /*propagateNan=*/false, call.getLoc());
      if (!combined)
        return std::nullopt;
      result = *combined;
    }
    return result;
  }
  llvm::SmallVector<PyValue> values;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    Result value = emitExpr(*arg);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  if (name == "float" || name == "int" || name == "bool") {
    if (values.size() != 1)
      return error(call.getLoc(), name + "() takes one argument here");
    const PyValue &v = values[0];
    if (v.kind == PyValue::Kind::String && name == "float") {
      std::string text = llvm::StringRef(v.text).trim().lower();
      if (text == "inf" || text == "+inf" || text == "infinity")
        return PyValue::floating(std::numeric_limits<double>::infinity());
      if (text == "-inf" || text == "-infinity")
        return PyValue::floating(-std::numeric_limits<double>::infinity());
      if (text == "nan")
        return PyValue::floating(std::numeric_limits<double>::quiet_NaN());
      double parsed;
      if (!llvm::StringRef(text).getAsDouble(parsed))
        return PyValue::floating(parsed);
      return error(call.getLoc(),
                   "could not convert string to float: '" + v.text + "'");
    }
    if (!v.isNumber())
      return error(call.getLoc(), name + "() of " + describe(v) +
                                      " is not supported in kernels (only "
                                      "compile-time numbers)");
    double asDouble = v.kind == PyValue::Kind::Float  ? v.floatValue
                      : v.kind == PyValue::Kind::Bool ? double(v.boolValue)
                                                      : double(v.intValue);
    int64_t asInt = v.kind == PyValue::Kind::Float
                        ? saturatingFloatToInt(v.floatValue)
                    : v.kind == PyValue::Kind::Bool ? v.boolValue
                                                    : v.intValue;
    if (name == "float")
      return PyValue::floating(asDouble);
    if (name == "int")
      return PyValue::integer(asInt);
    return PyValue::boolean(isTruthy(v));
  }
  if (name == "abs" && values.size() == 1) {
    const PyValue &v = values[0];
    if (v.kind == PyValue::Kind::Float)
      return PyValue::floating(std::fabs(v.floatValue));
    if (v.kind == PyValue::Kind::Int) {
      if (v.intValue == std::numeric_limits<int64_t>::min())
        return error(call.getLoc(), "integer overflow in constant expression");
      return PyValue::integer(v.intValue < 0 ? -v.intValue : v.intValue);
    }
    CallArgs args;
    args.values.push_back(v);
    args.present.push_back(true);
    args.locs.push_back(call.getLoc());
    return emitMath("abs", args, call, "abs");
  }
  // getattr(module, "name") with a compile-time name, as Triton's
  // test_propagate_nan calls getattr(tl, func).
  if (name == "getattr" && values.size() == 2 &&
      values[1].kind == PyValue::Kind::String) {
    if (values[0].kind != PyValue::Kind::Namespace)
      return error(call.getLoc(), "getattr() in a kernel takes a module "
                                  "(tl, tl.PropagateNan, ...), got " +
                                      describe(values[0]));
    return emitNamespaceAttribute(values[0], values[1].text, call.getLoc());
  }
  if (name == "len" && values.size() == 1 &&
      values[0].kind == PyValue::Kind::Tuple)
    return PyValue::integer(values[0].elements.size());
  // tuple(x) / list(x) / tl.tuple(x) of a compile-time sequence (a kernel
  // has tuples only: lists are tuples too).
  if ((name == "tuple" || name == "list") && values.size() <= 1) {
    if (values.empty())
      return PyValue::tuple({});
    if (values[0].kind == PyValue::Kind::Tuple)
      return PyValue::tuple(values[0].elements);
    return error(call.getLoc(), name + "() takes a tuple or a list here, got " +
                                    describe(values[0]));
  }
  if (name == "isinstance") {
    if (values.size() != 2 || !call.getKeywords().empty())
      return error(call.getLoc(), "isinstance() takes two arguments");
    return emitIsInstance(values[0], values[1], *call.getArgs()[1]);
  }
  if (name == "print")
    return emitLanguageCall(call, "device_print", "print");
  if (name == "range")
    return error(call.getLoc(), "range() can only be used as the iterable of "
                                "a 'for' loop");
  return error(call.getLoc(), "'" + name + "()' is not supported in kernels");
}

/// Whether `value` is an instance of the class named `qualified` (a
/// triton.language class or a Python builtin type), as Triton sees values
/// in a kernel: blocks and scalars computed at run time are tl.tensor,
/// compile-time numbers are tl.constexpr (and int, float or bool, which
/// Triton's isinstance sees unwrapped). std::nullopt: not a class Tile knows.
static std::optional<bool> isInstanceOf(const PyValue &value,
                                        llvm::StringRef qualified) {
  using Kind = PyValue::Kind;
  llvm::StringRef name = qualified;
  if (name.consume_front("triton.language.core.") ||
      name.consume_front("triton.language.")) {
    if (name == "tensor_descriptor" || name == "tensor_descriptor_base")
      return value.kind == Kind::TensorDescriptor;
    if (name == "tensor")
      return value.kind == Kind::Runtime;
    if (name == "constexpr")
      return value.kind == Kind::Int || value.kind == Kind::Float ||
             value.kind == Kind::Bool || value.kind == Kind::None ||
             value.kind == Kind::String || value.kind == Kind::DType;
    if (name == "dtype")
      return value.kind == Kind::DType;
    if (name == "tuple")
      return value.kind == Kind::Tuple;
    return std::nullopt;
  }
  if (name.consume_front("builtins.")) {
    if (name == "int")
      return value.kind == Kind::Int || value.kind == Kind::Bool;
    if (name == "float")
      return value.kind == Kind::Float;
    if (name == "bool")
      return value.kind == Kind::Bool;
    if (name == "str")
      return value.kind == Kind::String;
    if (name == "tuple" || name == "list")
      return value.kind == Kind::Tuple;
  }
  return std::nullopt;
}

KernelEmitter::Result
KernelEmitter::emitIsInstance(const PyValue &value, const PyValue &classInfo,
                              const ast::Expr &classExpr) {
  // A tuple of classes matches when one of them does, as in Python.
  llvm::SmallVector<PyValue> classes;
  if (classInfo.kind == PyValue::Kind::Tuple)
    classes.append(classInfo.elements.begin(), classInfo.elements.end());
  else
    classes.push_back(classInfo);
  bool result = false;
  for (const PyValue &cls : classes) {
    std::optional<bool> matches;
    if (cls.kind == PyValue::Kind::Namespace)
      matches = isInstanceOf(value, cls.text);
    if (!matches)
      return error(classExpr.getLoc(),
                   "isinstance() of " + describe(cls) +
                       " is not supported in kernels (it takes "
                       "tl.tensor, tl.tensor_descriptor, tl.constexpr, "
                       "tl.dtype, tuple, int, float, bool or str)");
    result = result || *matches;
  }
  return PyValue::boolean(result);
}

} // namespace tile::frontend::mlirgen
