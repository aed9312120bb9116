//===- LaunchEvaluator.cpp - evaluate launch statements -------------------===//
//
// Evaluates a launch description's expressions and assignments in order
// with Python's integer semantics. num_sms() and occupancy() are Deferred
// until the caller knows them; a Deferred operand makes any result
// Deferred, and only the grid may be one.
//
//===----------------------------------------------------------------------===//

#include "LaunchEvaluator.h"

#include "Elementwise.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace tile;
using namespace tile::launch;
using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;
using namespace tile::launch::detail;

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

std::optional<Value> Evaluator::evalBinary(const ast::BinOpExpr &expr) {
  std::optional<Value> lhs = eval(expr.getLHS()), rhs = eval(expr.getRHS());
  if (!lhs || !rhs)
    return std::nullopt;
  if (lhs->kind == Value::Kind::Deferred || rhs->kind == Value::Kind::Deferred)
    return getDeferred();
  if (isBufferValue(*lhs) || isBufferValue(*rhs))
    return evalElementwiseBinary(expr, *lhs, *rhs);
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
    if (c.isOversizedInt())
      return error(expr, c.getOversizedIntMessage());
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
    if (isBufferValue(*v))
      return evalElementwiseUnary(unary, *v);
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
      if (isBufferValue(*left) || isBufferValue(*right)) {
        if (compare.getOps().size() != 1)
          return error(expr, "chained comparisons of buffers are not "
                             "supported; combine them with '&'");
        return evalElementwiseCompare(expr, op, compare.getLeft(), *left,
                                      *rightExpr, *right);
      }
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
      if (isBufferValue(*last))
        return error(*operand, "'" + ast::spell(boolOp.getOp()) +
                                   "' has no element-wise meaning on "
                                   "buffers; use '&' or '|'");
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
    if (isBufferValue(*test))
      return error(ifExp.getTest(), "'a if c else b' needs a number as c; "
                                    "where(c, a, b) selects element-wise");
    bool truthy = test->isNumber() && test->asDouble() != 0;
    return eval(truthy ? ifExp.getBody() : ifExp.getOrElse());
  }
  case ast::Expr::Kind::Call:
    return evalCall(cast<ast::CallExpr>(expr));
  case ast::Expr::Kind::Attribute: {
    // Triton's spelling of a dtype, for a dtype constexpr: tl.int16.
    const auto &attribute = cast<ast::AttributeExpr>(expr);
    auto *module = dyn_cast<ast::NameExpr>(&attribute.getValue());
    std::optional<DType> dtype;
    if (module && module->getName() == "tl")
      dtype = parseDType(attribute.getAttr());
    if (!dtype)
      return error(expr, "a launch description names dtypes as fp16, i32, "
                         "... or tl.float16, tl.int32, ...");
    Value value;
    value.kind = Value::Kind::DType;
    value.dtype = *dtype;
    return value;
  }
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
      const ast::Expr &valueExpr =
          override != deferred.end() ? *override->second : assign->getValue();
      std::optional<Value> value = eval(valueExpr);
      if (!value || !(value = materialize(valueExpr, *value)))
        return false;
      if (value->kind == Value::Kind::Buffer &&
          spec.buffers[value->buffer].name.empty())
        spec.buffers[value->buffer].name = name.str();
      spec.variables[name] = *value;
      spec.locations[name] = valueExpr.getLoc();
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
    Check check;
    if (!evalCheck(*call, check))
      return false;
    spec.checks.push_back(check);
  }
  return true;
}

bool Evaluator::evalCheck(const ast::CallExpr &call, Check &check) {
  // check(output, reference, tol=...): the reference is a ref_* call or an
  // element-wise expression (which may use ref_* calls).
  if (call.getArgs().size() != 2) {
    diag.error(call.getLoc(), "check() takes an output buffer and a "
                              "reference, e.g. check(out, ref_add(x, y), "
                              "tol=0) or check(out, x * 2, tol=0)");
    return false;
  }
  check.loc = call.getLoc();
  std::optional<Value> output = eval(*call.getArgs()[0]);
  if (!output)
    return false;
  if (output->kind != Value::Kind::Buffer) {
    diag.error(call.getArgs()[0]->getLoc(), "check() needs a buffer");
    return false;
  }
  check.output = output->buffer;
  const ast::Expr &referenceExpr = *call.getArgs()[1];
  checkOutput = check.output;
  std::optional<Value> reference = eval(referenceExpr);
  checkOutput.reset();
  if (!reference)
    return false;
  if (reference->isDeferred()) {
    diag.error(referenceExpr.getLoc(), kDeferredUse);
    return false;
  }
  if (reference->kind == Value::Kind::Elementwise &&
      reference->expr->op == ElemOp::Reference) {
    check.reference = reference->expr->name;
    check.args = reference->expr->args;
  } else {
    if (!reference->isNumber() && !isBufferValue(*reference)) {
      diag.error(referenceExpr.getLoc(),
                 "the reference must be a ref_* call such as ref_add(x, y) "
                 "or an element-wise expression of buffers, got " +
                     reference->describe());
      return false;
    }
    check.expr = toElem(referenceExpr, *reference);
    if (!check.expr)
      return false;
    const std::vector<int64_t> &shape = spec.buffers[check.output].shape;
    std::optional<std::vector<int64_t>> common =
        broadcastShapes(check.expr->shape, shape);
    if (!common || *common != shape) {
      diag.error(referenceExpr.getLoc(),
                 "the reference's shape " + describeShape(check.expr->shape) +
                     " does not broadcast to the output's " +
                     describeShape(shape));
      return false;
    }
    check.reference = print(*check.expr, spec);
  }
  for (const ast::Keyword &keyword : call.getKeywords()) {
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
  return true;
}
