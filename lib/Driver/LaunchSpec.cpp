//===- LaunchSpec.cpp - evaluate a .tile file's launch description --------===//
//
// Locates the `# tile-run:` comment block, parses its lines with the front
// end's statement parser (the `#` at each line start is skipped) and
// evaluates the assignments in order with Python's integer semantics.
// num_sms() and occupancy() are Deferred until the caller knows them; a
// Deferred operand makes any result Deferred, and only the grid may be one.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/LaunchSpec.h"
#include "tile/Frontend/AST.h"
#include "tile/Frontend/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tile;
using namespace tile::launch;
using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

llvm::StringRef tile::launch::getName(DType type) {
  switch (type) {
  case DType::F16:
    return "fp16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "fp32";
  case DType::F64:
    return "fp64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::Bool:
    return "i1";
  }
  return "?";
}

std::optional<DType> tile::launch::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Cases({"fp16", "float16"}, DType::F16)
      .Cases({"bf16", "bfloat16"}, DType::BF16)
      .Cases({"fp32", "float32"}, DType::F32)
      .Cases({"fp64", "float64"}, DType::F64)
      .Cases({"i8", "int8"}, DType::I8)
      .Cases({"i16", "int16"}, DType::I16)
      .Cases({"i32", "int32"}, DType::I32)
      .Cases({"i64", "int64"}, DType::I64)
      .Cases({"u8", "uint8"}, DType::U8)
      .Cases({"u16", "uint16"}, DType::U16)
      .Cases({"u32", "uint32"}, DType::U32)
      .Cases({"u64", "uint64"}, DType::U64)
      .Cases({"i1", "bool"}, DType::Bool)
      .Default(std::nullopt);
}

unsigned tile::launch::getByteWidth(DType type) {
  switch (type) {
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 4;
}

bool tile::launch::isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64;
}

int64_t BufferSpec::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t BufferSpec::getStride(unsigned axis) const {
  int64_t stride = 1;
  for (unsigned d = axis + 1; d < shape.size(); ++d)
    stride *= shape[d];
  return stride;
}

Value Value::getInt(int64_t v) {
  Value value;
  value.kind = Kind::Int;
  value.intValue = v;
  return value;
}
Value Value::getFloat(double v) {
  Value value;
  value.kind = Kind::Float;
  value.floatValue = v;
  return value;
}
Value Value::getBool(bool v) {
  Value value;
  value.kind = Kind::Bool;
  value.intValue = v;
  return value;
}

double Value::asDouble() const {
  return kind == Kind::Float ? floatValue : double(intValue);
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Float:
    return std::to_string(floatValue);
  case Kind::Bool:
    return intValue ? "True" : "False";
  case Kind::String:
    return "'" + stringValue + "'";
  case Kind::DType:
    return getName(dtype).str();
  case Kind::Buffer:
    return "buffer";
  case Kind::Tuple:
    return "tuple of " + std::to_string(elements.size());
  case Kind::Deferred:
    return "a value known only once the kernel is compiled (it uses "
           "num_sms() or occupancy())";
  }
  return "?";
}

bool Value::isDeferred() const {
  return kind == Kind::Deferred ||
         llvm::any_of(elements, [](const Value &e) { return e.isDeferred(); });
}

/// The error for a Deferred value where a known one is needed.
static constexpr const char *kDeferredUse =
    "this depends on num_sms() or occupancy(), which are known only once the "
    "kernel is compiled; only the grid may use them";

static Value getDeferred() {
  Value value;
  value.kind = Value::Kind::Deferred;
  return value;
}

namespace {
class Evaluator {
public:
  Evaluator(LaunchSpec &spec, DiagEmitter &diag, const DeviceValues *device)
      : spec(spec), diag(diag), device(device) {}

  std::optional<Value> eval(const ast::Expr &expr);
  /// Runs the description's statements. An assignment to a name in
  /// `preset` is skipped (the command line gave its value); one to a name
  /// in `deferred` evaluates that command-line expression instead.
  bool run(const ast::StmtList &statements,
           const llvm::StringMap<Value> &preset,
           const llvm::StringMap<const ast::Expr *> &deferred);

private:
  std::optional<Value> error(const ast::Expr &expr, const llvm::Twine &msg) {
    diag.error(expr.getLoc(), msg);
    return std::nullopt;
  }
  std::optional<Value> evalBinary(const ast::BinOpExpr &expr);
  std::optional<Value> evalCall(const ast::CallExpr &expr);
  std::optional<int64_t> evalInt(const ast::Expr &expr);
  /// Python's integers are unbounded, the launch description's are int64: a
  /// result that does not fit (nullopt) is reported, never wrapped.
  std::optional<Value> intResult(const ast::Expr &expr,
                                 std::optional<int64_t> value) {
    if (!value)
      return error(expr, "integer overflow: the result does not fit in 64 "
                         "bits");
    return Value::getInt(*value);
  }

  LaunchSpec &spec;
  DiagEmitter &diag;
  const DeviceValues *device;
};
} // namespace

std::optional<int64_t> Evaluator::evalInt(const ast::Expr &expr) {
  std::optional<Value> v = eval(expr);
  if (!v)
    return std::nullopt;
  if (v->kind == Value::Kind::Deferred) {
    error(expr, kDeferredUse);
    return std::nullopt;
  }
  if (v->kind != Value::Kind::Int && v->kind != Value::Kind::Bool) {
    error(expr, "expected an integer, got " + v->describe());
    return std::nullopt;
  }
  return v->intValue;
}

/// Python's a // b; nullopt where it overflows (INT64_MIN // -1).
static std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == -1)
    return llvm::checkedMul(a, b);
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// a ** b for b >= 0; nullopt where it overflows.
static std::optional<int64_t> checkedPow(int64_t a, int64_t b) {
  if (a == 0 || a == 1)
    return b == 0 ? 1 : a;
  if (a == -1)
    return b % 2 ? -1 : 1;
  std::optional<int64_t> result = 1;
  for (int64_t i = 0; i < b && result; ++i) // |a| >= 2: at most 63 steps
    result = llvm::checkedMul(*result, a);
  return result;
}

std::optional<Value> Evaluator::evalBinary(const ast::BinOpExpr &expr) {
  std::optional<Value> lhs = eval(expr.getLHS()), rhs = eval(expr.getRHS());
  if (!lhs || !rhs)
    return std::nullopt;
  if (lhs->kind == Value::Kind::Deferred || rhs->kind == Value::Kind::Deferred)
    return getDeferred();
  if (!lhs->isNumber() || !rhs->isNumber())
    return error(expr, "operator '" + ast::spell(expr.getOp()) +
                           "' needs numbers, got " + lhs->describe() + " and " +
                           rhs->describe());
  bool isInt =
      lhs->kind != Value::Kind::Float && rhs->kind != Value::Kind::Float;
  int64_t a = lhs->intValue, b = rhs->intValue;
  double x = lhs->asDouble(), y = rhs->asDouble();
  switch (expr.getOp()) {
  case ast::BinaryOp::Add:
    return isInt ? intResult(expr, llvm::checkedAdd(a, b))
                 : Value::getFloat(x + y);
  case ast::BinaryOp::Sub:
    return isInt ? intResult(expr, llvm::checkedSub(a, b))
                 : Value::getFloat(x - y);
  case ast::BinaryOp::Mul:
    return isInt ? intResult(expr, llvm::checkedMul(a, b))
                 : Value::getFloat(x * y);
  case ast::BinaryOp::Div:
    if (y == 0)
      return error(expr, "division by zero");
    return Value::getFloat(x / y);
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod:
    if (y == 0)
      return error(expr, "division by zero");
    if (!isInt)
      return expr.getOp() == ast::BinaryOp::Mod
                 ? Value::getFloat(x - std::floor(x / y) * y)
                 : Value::getFloat(std::floor(x / y));
    if (expr.getOp() == ast::BinaryOp::Mod) {
      // Python's a % b takes the sign of b; computed so that it cannot
      // overflow (INT64_MIN % -1 is 0).
      int64_t r = b == -1 ? 0 : a % b;
      return Value::getInt(r != 0 && (r < 0) != (b < 0) ? r + b : r);
    }
    return intResult(expr, floorDiv(a, b));
  case ast::BinaryOp::Pow:
    if (isInt && b >= 0)
      return intResult(expr, checkedPow(a, b));
    return Value::getFloat(std::pow(x, y));
  case ast::BinaryOp::LShift:
  case ast::BinaryOp::RShift:
  case ast::BinaryOp::BitAnd:
  case ast::BinaryOp::BitOr:
  case ast::BinaryOp::BitXor:
    if (!isInt)
      return error(expr, "operator '" + ast::spell(expr.getOp()) +
                             "' needs integers");
    if ((expr.getOp() == ast::BinaryOp::LShift ||
         expr.getOp() == ast::BinaryOp::RShift) &&
        (b < 0 || b > 62))
      return error(expr, "shift count " + std::to_string(b) + " out of range");
    switch (expr.getOp()) {
    case ast::BinaryOp::LShift:
      return intResult(expr, llvm::checkedMul(a, int64_t(1) << b));
    case ast::BinaryOp::RShift:
      return Value::getInt(a >> b);
    case ast::BinaryOp::BitAnd:
      return Value::getInt(a & b);
    case ast::BinaryOp::BitOr:
      return Value::getInt(a | b);
    default:
      return Value::getInt(a ^ b);
    }
  default:
    return error(expr, "operator '" + ast::spell(expr.getOp()) +
                           "' is not allowed in a launch description");
  }
}

std::optional<Value> Evaluator::evalCall(const ast::CallExpr &expr) {
  const auto *callee = dyn_cast<ast::NameExpr>(&expr.getCallee());
  if (!callee)
    return error(expr, "only plain function names can be called here");
  llvm::StringRef name = callee->getName();
  const ast::ExprList &args = expr.getArgs();
  auto expectArgs = [&](size_t lo, size_t hi) {
    if (args.size() >= lo && args.size() <= hi)
      return true;
    error(expr, name + "() takes " + std::to_string(lo) +
                    (hi != lo ? " to " + std::to_string(hi) : "") +
                    " arguments, got " + std::to_string(args.size()));
    return false;
  };

  // Buffers.
  auto init = llvm::StringSwitch<std::optional<BufferSpec::Init>>(name)
                  .Case("rand", BufferSpec::Init::Rand)
                  .Case("randn", BufferSpec::Init::Randn)
                  .Case("zeros", BufferSpec::Init::Zeros)
                  .Case("empty", BufferSpec::Init::Empty)
                  .Default(std::nullopt);
  if (init) {
    if (!expectArgs(2, 5))
      return std::nullopt;
    std::optional<Value> dtype = eval(*args[0]);
    if (!dtype)
      return std::nullopt;
    if (dtype->kind != Value::Kind::DType)
      return error(*args[0], name + "() needs a dtype first (fp16, bf16, "
                                    "fp32, fp64, i8, i16, i32, i64, u8, "
                                    "u16, u32, u64, i1)");
    BufferSpec buffer;
    buffer.dtype = dtype->dtype;
    buffer.init = *init;
    for (size_t i = 1; i < args.size(); ++i) {
      std::optional<int64_t> extent = evalInt(*args[i]);
      if (!extent)
        return std::nullopt;
      if (*extent <= 0 || *extent > (int64_t(1) << 34))
        return error(*args[i], "buffer extent " + std::to_string(*extent) +
                                   " out of range");
      buffer.shape.push_back(*extent);
    }
    // The byte size, checked as it grows so that it cannot overflow.
    int64_t bytes = getByteWidth(buffer.dtype);
    for (int64_t extent : buffer.shape) {
      if (extent > (int64_t(1) << 36) / bytes)
        return error(expr, "buffer of more than 2^36 bytes is too large");
      bytes *= extent;
    }
    Value value;
    value.kind = Value::Kind::Buffer;
    value.buffer = spec.buffers.size();
    spec.buffers.push_back(buffer);
    return value;
  }

  if (name == "stride") {
    if (!expectArgs(2, 2))
      return std::nullopt;
    std::optional<Value> buffer = eval(*args[0]);
    std::optional<int64_t> axis = evalInt(*args[1]);
    if (!buffer || !axis)
      return std::nullopt;
    if (buffer->kind != Value::Kind::Buffer)
      return error(*args[0], "stride() needs a buffer");
    const BufferSpec &b = spec.buffers[buffer->buffer];
    if (*axis < 0 || *axis >= int64_t(b.shape.size()))
      return error(*args[1], "axis " + std::to_string(*axis) +
                                 " out of range for a buffer of rank " +
                                 std::to_string(b.shape.size()));
    return Value::getInt(b.getStride(*axis));
  }
  if (name == "cdiv" || name == "next_power_of_2" || name == "min" ||
      name == "max") {
    bool unary = name == "next_power_of_2";
    if (!expectArgs(unary ? 1 : 2, unary ? 1 : 8))
      return std::nullopt;
    std::vector<int64_t> values;
    bool deferred = false;
    for (const auto &arg : args) {
      std::optional<Value> v = eval(*arg);
      if (!v)
        return std::nullopt;
      if (v->kind == Value::Kind::Deferred) {
        deferred = true;
        continue;
      }
      if (v->kind != Value::Kind::Int && v->kind != Value::Kind::Bool)
        return error(*arg, "expected an integer, got " + v->describe());
      values.push_back(v->intValue);
    }
    if (deferred)
      return getDeferred();
    if (name == "cdiv") {
      if (values.size() != 2 || values[1] == 0)
        return error(expr, "cdiv(a, b) needs two integers, b != 0");
      std::optional<int64_t> negated = llvm::checkedSub(int64_t(0), values[0]);
      std::optional<int64_t> quotient =
          negated ? floorDiv(*negated, values[1]) : std::nullopt;
      return intResult(expr, quotient ? llvm::checkedSub(int64_t(0), *quotient)
                                      : std::nullopt);
    }
    if (unary)
      return intResult(expr, values[0] <= 1 ? 1
                             : values[0] > (int64_t(1) << 62)
                                 ? std::nullopt
                                 : std::optional<int64_t>(llvm::PowerOf2Ceil(
                                       uint64_t(values[0]))));
    return Value::getInt(name == "min"
                             ? *std::min_element(values.begin(), values.end())
                             : *std::max_element(values.begin(), values.end()));
  }
  if (name == "num_sms" || name == "occupancy") {
    if (!expectArgs(0, 0))
      return std::nullopt;
    if (!device)
      return getDeferred();
    return Value::getInt(name == "num_sms" ? device->numSMs
                                           : device->occupancy);
  }
  return error(expr, "unknown function '" + name +
                         "' in a launch description; known: rand, randn, "
                         "zeros, empty, stride, cdiv, next_power_of_2, min, "
                         "max, num_sms, occupancy, check");
}

std::optional<Value> Evaluator::eval(const ast::Expr &expr) {
  switch (expr.getKind()) {
  case ast::Expr::Kind::Name: {
    llvm::StringRef name = cast<ast::NameExpr>(expr).getName();
    auto it = spec.variables.find(name);
    if (it != spec.variables.end())
      return it->second;
    if (std::optional<DType> dtype = parseDType(name)) {
      Value value;
      value.kind = Value::Kind::DType;
      value.dtype = *dtype;
      return value;
    }
    return error(expr, "name '" + name + "' is not defined");
  }
  case ast::Expr::Kind::Constant: {
    const auto &c = cast<ast::ConstantExpr>(expr);
    if (c.isInt())
      return Value::getInt(c.getInt());
    if (c.isFloat())
      return Value::getFloat(c.getFloat());
    if (c.isBool())
      return Value::getBool(c.getBool());
    if (c.isString()) {
      Value value;
      value.kind = Value::Kind::String;
      value.stringValue = c.getString().str();
      return value;
    }
    return Value();
  }
  case ast::Expr::Kind::Tuple:
  case ast::Expr::Kind::List: {
    const ast::ExprList &elements =
        isa<ast::TupleExpr>(expr) ? cast<ast::TupleExpr>(expr).getElements()
                                  : cast<ast::ListExpr>(expr).getElements();
    Value tuple;
    tuple.kind = Value::Kind::Tuple;
    for (const auto &element : elements) {
      std::optional<Value> v = eval(*element);
      if (!v)
        return std::nullopt;
      tuple.elements.push_back(*v);
    }
    return tuple;
  }
  case ast::Expr::Kind::BinOp:
    return evalBinary(cast<ast::BinOpExpr>(expr));
  case ast::Expr::Kind::UnaryOp: {
    const auto &unary = cast<ast::UnaryOpExpr>(expr);
    std::optional<Value> v = eval(unary.getOperand());
    if (!v)
      return std::nullopt;
    if (v->kind == Value::Kind::Deferred)
      return v;
    if (!v->isNumber())
      return error(expr, "unary operator needs a number");
    switch (unary.getOp()) {
    case ast::UnaryOp::Minus:
      return v->kind == Value::Kind::Float
                 ? Value::getFloat(-v->floatValue)
                 : intResult(expr, llvm::checkedSub(int64_t(0), v->intValue));
    case ast::UnaryOp::Plus:
      return v;
    case ast::UnaryOp::Not:
      return Value::getBool(v->asDouble() == 0);
    case ast::UnaryOp::Invert:
      return Value::getInt(~v->intValue);
    }
    return std::nullopt;
  }
  case ast::Expr::Kind::Compare: {
    const auto &compare = cast<ast::CompareExpr>(expr);
    std::optional<Value> left = eval(compare.getLeft());
    if (!left)
      return std::nullopt;
    for (auto [op, rightExpr] :
         llvm::zip(compare.getOps(), compare.getComparators())) {
      std::optional<Value> right = eval(*rightExpr);
      if (!right)
        return std::nullopt;
      if (left->kind == Value::Kind::Deferred ||
          right->kind == Value::Kind::Deferred)
        return getDeferred();
      if (!left->isNumber() || !right->isNumber())
        return error(expr, "comparisons need numbers");
      double a = left->asDouble(), b = right->asDouble();
      bool holds;
      switch (op) {
      case ast::CompareOp::Eq:
        holds = a == b;
        break;
      case ast::CompareOp::NotEq:
        holds = a != b;
        break;
      case ast::CompareOp::Lt:
        holds = a < b;
        break;
      case ast::CompareOp::LtE:
        holds = a <= b;
        break;
      case ast::CompareOp::Gt:
        holds = a > b;
        break;
      case ast::CompareOp::GtE:
        holds = a >= b;
        break;
      default:
        return error(expr, "operator '" + ast::spell(op) +
                               "' is not allowed in a launch description");
      }
      if (!holds)
        return Value::getBool(false);
      left = right;
    }
    return Value::getBool(true);
  }
  case ast::Expr::Kind::BoolOp: {
    const auto &boolOp = cast<ast::BoolOpExpr>(expr);
    std::optional<Value> last;
    for (const auto &operand : boolOp.getValues()) {
      last = eval(*operand);
      if (!last)
        return std::nullopt;
      if (last->kind == Value::Kind::Deferred)
        return last;
      bool truthy = last->isNumber() && last->asDouble() != 0;
      if (truthy == (boolOp.getOp() == ast::BoolOp::Or))
        return last;
    }
    return last;
  }
  case ast::Expr::Kind::IfExp: {
    const auto &ifExp = cast<ast::IfExpExpr>(expr);
    std::optional<Value> test = eval(ifExp.getTest());
    if (!test)
      return std::nullopt;
    if (test->kind == Value::Kind::Deferred)
      return test;
    bool truthy = test->isNumber() && test->asDouble() != 0;
    return eval(truthy ? ifExp.getBody() : ifExp.getOrElse());
  }
  case ast::Expr::Kind::Call:
    return evalCall(cast<ast::CallExpr>(expr));
  default:
    return error(expr, "this expression is not allowed in a launch "
                       "description");
  }
}

bool Evaluator::run(const ast::StmtList &statements,
                    const llvm::StringMap<Value> &preset,
                    const llvm::StringMap<const ast::Expr *> &deferred) {
  for (const auto &statement : statements) {
    if (const auto *assign = dyn_cast<ast::AssignStmt>(statement.get())) {
      if (assign->getTargets().size() != 1 ||
          !isa<ast::NameExpr>(*assign->getTargets()[0])) {
        diag.error(statement->getLoc(),
                   "a launch description assigns to one plain name per line");
        return false;
      }
      llvm::StringRef name =
          cast<ast::NameExpr>(*assign->getTargets()[0]).getName();
      spec.assigned.insert(name);
      if (preset.count(name))
        continue; // the command line wins
      auto override = deferred.find(name);
      std::optional<Value> value = eval(
          override != deferred.end() ? *override->second : assign->getValue());
      if (!value)
        return false;
      if (value->kind == Value::Kind::Buffer &&
          spec.buffers[value->buffer].name.empty())
        spec.buffers[value->buffer].name = name.str();
      spec.variables[name] = *value;
      continue;
    }
    const auto *exprStmt = dyn_cast<ast::ExprStmt>(statement.get());
    const auto *call =
        exprStmt ? dyn_cast<ast::CallExpr>(&exprStmt->getValue()) : nullptr;
    const auto *callee =
        call ? dyn_cast<ast::NameExpr>(&call->getCallee()) : nullptr;
    if (!callee || callee->getName() != "check") {
      diag.error(statement->getLoc(),
                 "a launch description holds assignments and check(...) "
                 "calls only");
      return false;
    }
    // check(output, ref_name(args...), tol=...)
    if (call->getArgs().size() != 2) {
      diag.error(call->getLoc(), "check() takes an output buffer and a "
                                 "reference call, e.g. check(out, "
                                 "ref_add(x, y), tol=0)");
      return false;
    }
    Check check;
    check.loc = call->getLoc();
    std::optional<Value> output = eval(*call->getArgs()[0]);
    if (!output)
      return false;
    if (output->kind != Value::Kind::Buffer) {
      diag.error(call->getArgs()[0]->getLoc(), "check() needs a buffer");
      return false;
    }
    check.output = output->buffer;
    const auto *reference = dyn_cast<ast::CallExpr>(call->getArgs()[1].get());
    const auto *refName =
        reference ? dyn_cast<ast::NameExpr>(&reference->getCallee()) : nullptr;
    if (!refName) {
      diag.error(call->getArgs()[1]->getLoc(),
                 "the reference must be a call such as ref_add(x, y)");
      return false;
    }
    check.reference = refName->getName().str();
    for (const auto &arg : reference->getArgs()) {
      std::optional<Value> v = eval(*arg);
      if (!v)
        return false;
      if (v->isDeferred()) {
        diag.error(arg->getLoc(), kDeferredUse);
        return false;
      }
      check.args.push_back(*v);
    }
    for (const ast::Keyword &keyword : call->getKeywords()) {
      if (keyword.name != "tol") {
        diag.error(keyword.loc, "check() got an unexpected keyword argument '" +
                                    keyword.name + "'; valid: tol");
        return false;
      }
      std::optional<Value> tol = eval(*keyword.value);
      if (!tol)
        return false;
      if (tol->isDeferred()) {
        diag.error(keyword.loc, kDeferredUse);
        return false;
      }
      if (!tol->isNumber() || tol->asDouble() < 0) {
        diag.error(keyword.loc, "tol must be a number >= 0");
        return false;
      }
      check.tolerance = tol->asDouble();
    }
    spec.checks.push_back(check);
  }
  return true;
}

/// Reads the grid, num_warps and bytes variables into their fields.
static bool readLaunchVariables(LaunchSpec &spec, DiagEmitter &diag) {
  auto it = spec.variables.find("grid");
  if (it != spec.variables.end()) {
    const Value &grid = it->second;
    std::vector<Value> dims = grid.kind == Value::Kind::Tuple
                                  ? grid.elements
                                  : std::vector<Value>{grid};
    if (dims.empty() || dims.size() > 3) {
      diag.error(spec.loc, "grid must have 1 to 3 dimensions");
      return false;
    }
    spec.gridDeferred = grid.isDeferred();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i].kind == Value::Kind::Deferred)
        continue; // set by the evaluation that knows DeviceValues
      if (dims[i].kind != Value::Kind::Int || dims[i].intValue <= 0 ||
          dims[i].intValue > 0x7fffffff) {
        diag.error(spec.loc, "grid dimension " + std::to_string(i) +
                                 " must be a positive integer, got " +
                                 dims[i].describe());
        return false;
      }
      spec.grid[i] = dims[i].intValue;
    }
  }
  it = spec.variables.find("num_warps");
  if (it != spec.variables.end()) {
    const Value &warps = it->second;
    if (warps.isDeferred()) {
      diag.error(spec.loc, "num_warps cannot depend on num_sms() or "
                           "occupancy(): the occupancy depends on num_warps");
      return false;
    }
    if (warps.kind != Value::Kind::Int || warps.intValue <= 0 ||
        warps.intValue > 32 || !llvm::isPowerOf2_64(warps.intValue)) {
      diag.error(spec.loc, "num_warps must be a power of two from 1 to 32, "
                           "got " +
                               warps.describe());
      return false;
    }
    spec.numWarps = warps.intValue;
  }
  it = spec.variables.find("num_stages");
  if (it != spec.variables.end()) {
    const Value &stages = it->second;
    if (stages.isDeferred()) {
      diag.error(spec.loc, "num_stages cannot depend on num_sms() or "
                           "occupancy(): it shapes the compiled kernel");
      return false;
    }
    if (stages.kind != Value::Kind::Int || stages.intValue < 1 ||
        stages.intValue > 16) {
      diag.error(spec.loc, "num_stages must be an integer from 1 to 16, got " +
                               stages.describe());
      return false;
    }
    spec.numStages = stages.intValue;
  }
  for (auto [name, field] :
       {std::pair{"bytes", &spec.bytes}, std::pair{"flops", &spec.flops}}) {
    it = spec.variables.find(name);
    if (it == spec.variables.end())
      continue;
    if (it->second.isDeferred()) {
      diag.error(spec.loc, llvm::Twine(name) + ": " + kDeferredUse);
      return false;
    }
    if (!it->second.isNumber()) {
      diag.error(spec.loc, llvm::Twine(name) + " must be a number");
      return false;
    }
    *field = it->second.asDouble();
  }
  return true;
}

/// Where the line starting with `marker` begins, or npos.
static size_t findMarker(llvm::StringRef text, llvm::StringRef marker) {
  size_t markerPos = text.find(marker);
  while (markerPos != llvm::StringRef::npos && markerPos != 0 &&
         text[markerPos - 1] != '\n' && text[markerPos - 1] != '\r')
    markerPos = text.find(marker, markerPos + 1);
  return markerPos;
}

std::string tile::launch::findKernelName(llvm::StringRef text,
                                         llvm::StringRef commentPrefix) {
  std::string marker = (commentPrefix + " tile-run:").str();
  size_t markerPos = findMarker(text, marker);
  if (markerPos == llvm::StringRef::npos)
    return "";
  size_t lineEnd = std::min(text.find_first_of("\r\n", markerPos), text.size());
  return text.slice(markerPos + marker.size(), lineEnd).trim().str();
}

/// Whether the Python expression `text` uses one of `names` as an
/// identifier (outside string literals).
static bool mentionsAny(llvm::StringRef text, const llvm::StringSet<> &names) {
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t end = text.find(c, i + 1);
      i = end == llvm::StringRef::npos ? text.size() : end + 1;
      continue;
    }
    if (llvm::isAlpha(c) || c == '_') {
      size_t end = i;
      while (end < text.size() &&
             (llvm::isAlnum(text[end]) || text[end] == '_'))
        ++end;
      if (names.contains(text.slice(i, end)))
        return true;
      i = end;
      continue;
    }
    // Digits of a number (1e5, 0x1f) are not the start of a name.
    if (llvm::isDigit(c)) {
      while (i < text.size() && (llvm::isAlnum(text[i]) || text[i] == '.'))
        ++i;
      continue;
    }
    ++i;
  }
  return false;
}

std::optional<LaunchSpec> tile::launch::parseLaunchSpec(
    llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagEmitter &diag,
    llvm::ArrayRef<Override> overrides, llvm::StringRef commentPrefix,
    const DeviceValues *device) {
  llvm::StringRef text = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  std::string marker = (commentPrefix + " tile-run:").str();
  // Lines end as the lexer has them: "\n", "\r\n" or "\r".
  auto lineEndFrom = [&](size_t pos) {
    return std::min(text.find_first_of("\r\n", pos), text.size());
  };
  auto nextLineAfter = [&](size_t lineEnd) {
    if (text.substr(lineEnd).starts_with("\r\n"))
      return lineEnd + 2;
    return std::min(lineEnd + 1, text.size());
  };
  size_t markerPos = findMarker(text, marker);
  if (markerPos == llvm::StringRef::npos) {
    diag.error(llvm::SMLoc::getFromPointer(text.data()),
               "no launch description: add a comment block starting with '" +
                   marker + " <kernel>' that says how to launch the kernel");
    return std::nullopt;
  }
  LaunchSpec spec;
  size_t lineEnd = lineEndFrom(markerPos);
  spec.kernel = text.slice(markerPos + marker.size(), lineEnd).trim().str();
  spec.loc = diag.getLocation(
      bufferId,
      sourceMgr.FindLineNumber(
          llvm::SMLoc::getFromPointer(text.data() + markerPos), bufferId),
      1);
  // The block: following lines that start with the comment prefix.
  size_t blockStart = nextLineAfter(lineEnd);
  size_t blockEnd = blockStart;
  while (blockEnd < text.size() &&
         text.substr(blockEnd).starts_with(commentPrefix))
    blockEnd = nextLineAfter(lineEndFrom(blockEnd));
  // Skip the first line's prefix: the parser skips it on the others.
  FragmentOptions fragment;
  fragment.range = text.slice(
      std::min(blockStart + commentPrefix.size(), blockEnd), blockEnd);
  fragment.linePrefix = commentPrefix;

  std::optional<ast::StmtList> statements;
  llvm::StringSet<> described;
  if (!fragment.range.empty()) {
    statements = parseStatements(sourceMgr, bufferId, diag, fragment);
    if (!statements)
      return std::nullopt;
    for (const auto &statement : *statements)
      if (const auto *assign = dyn_cast<ast::AssignStmt>(statement.get()))
        if (assign->getTargets().size() == 1)
          if (const auto *target =
                  dyn_cast<ast::NameExpr>(assign->getTargets()[0].get()))
            described.insert(target->getName());
  }

  // Command-line values, each parsed in its own buffer so that errors quote
  // them. One that names none of the description's variables is evaluated
  // first, so that the description sees it (--set n=2**20); one that does
  // (--set 'x=randn(fp32, n)') takes the place of the description's
  // assignment to its name, or comes after the description if it has none.
  llvm::StringMap<Value> preset;
  llvm::StringMap<const ast::Expr *> deferred;
  std::vector<std::pair<std::string, std::unique_ptr<ast::Expr>>> parsed;
  Evaluator evaluator(spec, diag, device);
  // The last --set of a name wins.
  llvm::StringMap<size_t> lastOverride;
  for (auto [index, override] : llvm::enumerate(overrides))
    lastOverride[override.name] = index;
  // A buffer an override makes is named after it (--save-dir's files).
  auto assign = [&](llvm::StringRef name, const Value &value) {
    if (value.kind == Value::Kind::Buffer &&
        spec.buffers[value.buffer].name.empty())
      spec.buffers[value.buffer].name = name.str();
    spec.variables[name] = value;
  };
  for (auto [index, override] : llvm::enumerate(overrides)) {
    if (lastOverride[override.name] != index)
      continue;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(override.expression,
                                             "<--set " + override.name + ">"),
        llvm::SMLoc());
    std::unique_ptr<ast::Expr> expr = parseExpression(sourceMgr, id, diag);
    if (!expr)
      return std::nullopt;
    if (mentionsAny(override.expression, described)) {
      deferred[override.name] = expr.get();
      parsed.emplace_back(override.name, std::move(expr));
      continue;
    }
    std::optional<Value> value = evaluator.eval(*expr);
    if (!value)
      return std::nullopt;
    assign(override.name, *value);
    preset[override.name] = *value;
  }
  if (statements && !evaluator.run(*statements, preset, deferred))
    return std::nullopt;
  for (const auto &[name, expr] : parsed) {
    if (described.contains(name))
      continue;
    std::optional<Value> value = evaluator.eval(*expr);
    if (!value)
      return std::nullopt;
    assign(name, *value);
  }
  if (!readLaunchVariables(spec, diag))
    return std::nullopt;
  return spec;
}
