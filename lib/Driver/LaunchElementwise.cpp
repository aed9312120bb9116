//===- LaunchElementwise.cpp - element-wise launch expressions ------------===//
//
// Builds the element-wise expressions of buffers a launch description
// writes (Elementwise.h): operators, comparisons, where, minimum, maximum,
// the float64 math functions, `x.to(dtype)` and, inside check(), ref_*
// calls. Each node gets its result dtype (the rules docs/tools.md states)
// and its shape (numpy broadcasting); an assignment turns the expression
// into a derived buffer. Nothing is computed here: Elementwise.cpp does it
// once the buffers have contents.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "LaunchEvaluator.h"

#include "llvm/ADT/StringSwitch.h"
#include <cmath>
#include <cstdio>

using namespace tile;
using namespace tile::launch;
using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using namespace tile::launch::detail;

MathFunction tile::launch::detail::getMathFunction(llvm::StringRef name) {
  return llvm::StringSwitch<MathFunction>(name)
      .Case("exp", [](double x) { return std::exp(x); })
      .Case("log", [](double x) { return std::log(x); })
      .Case("sqrt", [](double x) { return std::sqrt(x); })
      .Case("abs", [](double x) { return std::fabs(x); })
      .Case("sin", [](double x) { return std::sin(x); })
      .Case("cos", [](double x) { return std::cos(x); })
      .Case("tan", [](double x) { return std::tan(x); })
      .Case("asin", [](double x) { return std::asin(x); })
      .Case("acos", [](double x) { return std::acos(x); })
      .Case("atan", [](double x) { return std::atan(x); })
      .Case("tanh", [](double x) { return std::tanh(x); })
      .Case("sinh", [](double x) { return std::sinh(x); })
      .Case("cosh", [](double x) { return std::cosh(x); })
      .Case("exp2", [](double x) { return std::exp2(x); })
      .Case("log2", [](double x) { return std::log2(x); })
      .Case("erf", [](double x) { return std::erf(x); })
      .Case("floor", [](double x) { return std::floor(x); })
      .Case("ceil", [](double x) { return std::ceil(x); })
      .Default(nullptr);
}

ElemCategory tile::launch::detail::getCategory(DType type) {
  if (type == DType::Bool)
    return ElemCategory::Bool;
  return isFloat(type) ? ElemCategory::Float : ElemCategory::Int;
}

namespace {
bool isUnsignedType(DType type) {
  return type == DType::U8 || type == DType::U16 || type == DType::U32 ||
         type == DType::U64;
}

DType getSignedInt(unsigned bytes) {
  return bytes <= 1   ? DType::I8
         : bytes == 2 ? DType::I16
         : bytes == 4 ? DType::I32
                      : DType::I64;
}

/// Two buffers' common dtype, as torch promotes them: the higher kind
/// (i1 < integer < float), else the wider type; fp16 with bf16 is fp32,
/// signed with unsigned a signed type that holds both (at most i64).
DType promoteDTypes(DType a, DType b) {
  ElemCategory ca = getCategory(a), cb = getCategory(b);
  if (a == b)
    return a;
  if (ca != cb)
    return ca > cb ? a : b;
  unsigned wa = getByteWidth(a), wb = getByteWidth(b);
  if (ca == ElemCategory::Float) {
    if (wa == wb)
      return DType::F32; // fp16 and bf16
    return wa > wb ? a : b;
  }
  if (isUnsignedType(a) == isUnsignedType(b))
    return wa >= wb ? a : b;
  DType s = isUnsignedType(a) ? b : a, u = isUnsignedType(a) ? a : b;
  if (getByteWidth(s) > getByteWidth(u))
    return s;
  return getSignedInt(std::min(2 * getByteWidth(u), 8u));
}

/// The dtype of an operation on `a` and `b`. A Python number (weak) gives
/// way to a buffer of its kind or a higher one; an integer number with an
/// i1 buffer gives i64, a float number with an integer one fp32.
DType promoteOperands(const ElemExpr &a, const ElemExpr &b) {
  if (a.weak && b.weak)
    return getCategory(a.dtype) >= getCategory(b.dtype) ? a.dtype : b.dtype;
  if (a.weak)
    return promoteOperands(b, a);
  if (!b.weak)
    return promoteDTypes(a.dtype, b.dtype);
  ElemCategory ca = getCategory(a.dtype), cb = getCategory(b.dtype);
  if (cb <= ca)
    return a.dtype;
  return cb == ElemCategory::Int ? DType::I64 : DType::F32;
}

std::string describeOperand(const ElemExpr &e) {
  if (e.weak)
    return e.constant.kind == Value::Kind::Float ? "a float" : "an integer";
  return getName(e.dtype).str();
}

Value makeElementwise(ElemExprPtr expr) {
  Value value;
  value.kind = Value::Kind::Elementwise;
  value.expr = std::move(expr);
  return value;
}

std::shared_ptr<ElemExpr> makeNode(ElemOp op, DType dtype,
                                   std::vector<int64_t> shape,
                                   std::vector<ElemExprPtr> operands) {
  auto node = std::make_shared<ElemExpr>();
  node->op = op;
  node->dtype = dtype;
  node->shape = std::move(shape);
  node->operands = std::move(operands);
  return node;
}

} // namespace

std::string tile::launch::detail::describeShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::optional<std::vector<int64_t>>
tile::launch::detail::broadcastShapes(llvm::ArrayRef<int64_t> a,
                                      llvm::ArrayRef<int64_t> b) {
  std::vector<int64_t> shape(std::max(a.size(), b.size()));
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    shape[shape.size() - 1 - i] = x == 1 ? y : x;
  }
  return shape;
}

bool Evaluator::isElementwiseCall(const ast::CallExpr &expr) {
  if (const auto *attr = dyn_cast<ast::AttributeExpr>(&expr.getCallee()))
    return attr->getAttr() == "to";
  const auto *callee = dyn_cast<ast::NameExpr>(&expr.getCallee());
  if (!callee)
    return false;
  llvm::StringRef name = callee->getName();
  return name == "where" || name == "minimum" || name == "maximum" ||
         name.starts_with("ref_") || getMathFunction(name);
}

ElemExprPtr Evaluator::toElem(const ast::Expr &expr, const Value &value) {
  switch (value.kind) {
  case Value::Kind::Elementwise:
    return value.expr;
  case Value::Kind::Buffer: {
    const BufferSpec &buffer = spec.buffers[value.buffer];
    if (buffer.init == BufferSpec::Init::Pointers) {
      error(expr, "element-wise expressions cannot use a pointer table" +
                      (buffer.name.empty() ? std::string()
                                           : " ('" + buffer.name + "')") +
                      ": its addresses are known only at launch");
      return nullptr;
    }
    auto node = makeNode(ElemOp::Buffer, buffer.dtype, buffer.shape, {});
    node->buffer = value.buffer;
    return node;
  }
  case Value::Kind::Int:
  case Value::Kind::Bool:
  case Value::Kind::Float: {
    auto node = std::make_shared<ElemExpr>();
    node->op = ElemOp::Constant;
    node->weak = true;
    node->constant = value;
    node->dtype = value.kind == Value::Kind::Int    ? DType::I64
                  : value.kind == Value::Kind::Bool ? DType::Bool
                                                    : DType::F32;
    return node;
  }
  case Value::Kind::Deferred:
    error(expr, kDeferredUse);
    return nullptr;
  default:
    error(expr, "an element-wise expression takes buffers and numbers, got " +
                    value.describe());
    return nullptr;
  }
}

std::optional<Value>
Evaluator::evalElementwiseBinary(const ast::BinOpExpr &expr, const Value &lhs,
                                 const Value &rhs) {
  ElemExprPtr a = toElem(expr.getLHS(), lhs);
  ElemExprPtr b = a ? toElem(expr.getRHS(), rhs) : nullptr;
  if (!a || !b)
    return std::nullopt;
  std::string op = ast::spell(expr.getOp()).str();
  std::optional<ElemOp> elemOp;
  switch (expr.getOp()) {
  case ast::BinaryOp::Add:
    elemOp = ElemOp::Add;
    break;
  case ast::BinaryOp::Sub:
    elemOp = ElemOp::Sub;
    break;
  case ast::BinaryOp::Mul:
    elemOp = ElemOp::Mul;
    break;
  case ast::BinaryOp::Div:
    elemOp = ElemOp::Div;
    break;
  case ast::BinaryOp::FloorDiv:
    elemOp = ElemOp::FloorDiv;
    break;
  case ast::BinaryOp::Mod:
    elemOp = ElemOp::Mod;
    break;
  case ast::BinaryOp::Pow:
    elemOp = ElemOp::Pow;
    break;
  case ast::BinaryOp::BitAnd:
    elemOp = ElemOp::BitAnd;
    break;
  case ast::BinaryOp::BitOr:
    elemOp = ElemOp::BitOr;
    break;
  case ast::BinaryOp::BitXor:
    elemOp = ElemOp::BitXor;
    break;
  default:
    return error(expr, "operator '" + op + "' is not supported on buffers");
  }
  std::optional<std::vector<int64_t>> shape =
      broadcastShapes(a->shape, b->shape);
  if (!shape)
    return error(expr, "operator '" + op + "': shapes " +
                           describeShape(a->shape) + " and " +
                           describeShape(b->shape) + " do not broadcast");
  DType dtype = promoteOperands(*a, *b);
  bool bitwise = *elemOp == ElemOp::BitAnd || *elemOp == ElemOp::BitOr ||
                 *elemOp == ElemOp::BitXor;
  if (bitwise && (getCategory(a->dtype) == ElemCategory::Float ||
                  getCategory(b->dtype) == ElemCategory::Float))
    return error(expr, "operator '" + op +
                           "' needs integer or i1 operands, got " +
                           describeOperand(*a) + " and " + describeOperand(*b));
  // Arithmetic counts i1 as the integers 0 and 1; true division gives a
  // float.
  if (!bitwise && dtype == DType::Bool)
    dtype = DType::I64;
  if (*elemOp == ElemOp::Div && getCategory(dtype) != ElemCategory::Float)
    dtype = DType::F32;
  return makeElementwise(makeNode(*elemOp, dtype, *shape, {a, b}));
}

std::optional<Value>
Evaluator::evalElementwiseUnary(const ast::UnaryOpExpr &expr,
                                const Value &operand) {
  ElemExprPtr a = toElem(expr.getOperand(), operand);
  if (!a)
    return std::nullopt;
  switch (expr.getOp()) {
  case ast::UnaryOp::Plus:
    return makeElementwise(a);
  case ast::UnaryOp::Minus:
    if (a->dtype == DType::Bool)
      return error(expr, "unary '-' on an i1 expression; '~' negates a mask");
    return makeElementwise(makeNode(ElemOp::Neg, a->dtype, a->shape, {a}));
  case ast::UnaryOp::Invert:
    if (getCategory(a->dtype) == ElemCategory::Float)
      return error(expr, "operator '~' needs an integer or i1 operand, got " +
                             getName(a->dtype));
    return makeElementwise(makeNode(ElemOp::Invert, a->dtype, a->shape, {a}));
  case ast::UnaryOp::Not:
    return error(expr, "'not' has no element-wise meaning on buffers; '~' "
                       "negates a mask");
  }
  return std::nullopt;
}

std::optional<Value>
Evaluator::evalElementwiseCompare(const ast::Expr &expr, ast::CompareOp op,
                                  const ast::Expr &lhsExpr, const Value &lhs,
                                  const ast::Expr &rhsExpr, const Value &rhs) {
  ElemExprPtr a = toElem(lhsExpr, lhs);
  ElemExprPtr b = a ? toElem(rhsExpr, rhs) : nullptr;
  if (!a || !b)
    return std::nullopt;
  ElemOp elemOp;
  switch (op) {
  case ast::CompareOp::Lt:
    elemOp = ElemOp::Lt;
    break;
  case ast::CompareOp::LtE:
    elemOp = ElemOp::Le;
    break;
  case ast::CompareOp::Gt:
    elemOp = ElemOp::Gt;
    break;
  case ast::CompareOp::GtE:
    elemOp = ElemOp::Ge;
    break;
  case ast::CompareOp::Eq:
    elemOp = ElemOp::Eq;
    break;
  case ast::CompareOp::NotEq:
    elemOp = ElemOp::Ne;
    break;
  default:
    return error(expr, "operator '" + ast::spell(op) +
                           "' is not supported on buffers");
  }
  std::optional<std::vector<int64_t>> shape =
      broadcastShapes(a->shape, b->shape);
  if (!shape)
    return error(expr, "comparison '" + ast::spell(op) + "': shapes " +
                           describeShape(a->shape) + " and " +
                           describeShape(b->shape) + " do not broadcast");
  return makeElementwise(makeNode(elemOp, DType::Bool, *shape, {a, b}));
}

std::optional<Value> Evaluator::evalElementwiseCall(const ast::CallExpr &expr) {
  const ast::ExprList &args = expr.getArgs();
  if (!expr.getKeywords().empty()) {
    diag.error(expr.getKeywords()[0].loc,
               "element-wise functions take no keyword arguments");
    return std::nullopt;
  }

  // x.to(dtype): a conversion, as torch's Tensor.to.
  if (const auto *attr = dyn_cast<ast::AttributeExpr>(&expr.getCallee())) {
    if (args.size() != 1)
      return error(expr, ".to() takes one dtype, e.g. x.to(i32)");
    std::optional<Value> operand = eval(attr->getValue());
    std::optional<Value> dtype = operand ? eval(*args[0]) : std::nullopt;
    if (!operand || !dtype)
      return std::nullopt;
    if (!isBufferValue(*operand))
      return error(expr, ".to() converts a buffer or an expression of "
                         "buffers, got " +
                             operand->describe());
    if (dtype->kind != Value::Kind::DType)
      return error(*args[0], ".to() needs a dtype (fp16, bf16, fp32, fp64, "
                             "i8, i16, i32, i64, u8, u16, u32, u64, i1), "
                             "got " +
                                 dtype->describe());
    ElemExprPtr a = toElem(attr->getValue(), *operand);
    if (!a)
      return std::nullopt;
    return makeElementwise(makeNode(ElemOp::Cast, dtype->dtype, a->shape, {a}));
  }

  llvm::StringRef name = cast<ast::NameExpr>(expr.getCallee()).getName();
  if (name.starts_with("ref_")) {
    if (!checkOutput)
      return error(expr, name + "() computes a check's reference: it can "
                                "only be used inside check(...)");
    auto node = std::make_shared<ElemExpr>();
    node->op = ElemOp::Reference;
    node->dtype = DType::F64;
    node->name = name.str();
    for (const auto &arg : args) {
      std::optional<Value> v = eval(*arg);
      if (!v)
        return std::nullopt;
      if (v->isDeferred())
        return error(*arg, kDeferredUse);
      // A reference's result given to another reference must have its own
      // shape, not the output's (ref_transpose(ref_matmul(a, b))).
      if (v->kind == Value::Kind::Elementwise &&
          v->expr->op == ElemOp::Reference && v->expr->shapeFromOutput)
        return error(*arg, v->expr->name +
                               "()'s result cannot be another reference's "
                               "argument (its shape is known only when it "
                               "runs); only " +
                               listShapedReferences() + " can");
      // An expression argument becomes a buffer computed before the launch.
      if (v->kind == Value::Kind::Elementwise && !(v = materialize(*arg, *v)))
        return std::nullopt;
      node->args.push_back(*v);
    }
    std::optional<std::vector<int64_t>> shape =
        getReferenceShape(node->name, node->args);
    node->shapeFromOutput = !shape;
    node->shape = shape ? *shape : spec.buffers[*checkOutput].shape;
    return makeElementwise(node);
  }

  size_t arity = name == "where"                          ? 3
                 : name == "minimum" || name == "maximum" ? 2
                                                          : 1;
  if (args.size() != arity)
    return error(expr,
                 name + "() takes " + std::to_string(arity) +
                     (arity == 1 ? " argument, got " : " arguments, got ") +
                     std::to_string(args.size()));
  std::vector<Value> values;
  bool anyBuffer = false;
  for (const auto &arg : args) {
    std::optional<Value> v = eval(*arg);
    if (!v)
      return std::nullopt;
    if (v->kind == Value::Kind::Deferred)
      return getDeferred();
    anyBuffer |= isBufferValue(*v);
    values.push_back(*v);
  }

  // Numbers only: a number, as Python's math module would give it.
  if (!anyBuffer) {
    for (auto [arg, v] : llvm::zip(args, values))
      if (!v.isNumber())
        return error(*arg,
                     name + "() needs numbers or buffers, got " + v.describe());
    if (name == "where")
      return error(expr, "where() needs a buffer operand; for numbers, "
                         "write 'a if c else b'");
    if (name == "minimum" || name == "maximum") {
      bool first = name == "minimum"
                       ? values[0].asDouble() <= values[1].asDouble()
                       : values[0].asDouble() >= values[1].asDouble();
      return first ? values[0] : values[1];
    }
    const Value &x = values[0];
    if (x.kind != Value::Kind::Float &&
        (name == "abs" || name == "floor" || name == "ceil"))
      return name == "abs"
                 ? intResult(expr, x.intValue < 0 ? llvm::checkedSub(int64_t(0),
                                                                     x.intValue)
                                                  : x.intValue)
                 : Value::getInt(x.intValue);
    return Value::getFloat(getMathFunction(name)(x.asDouble()));
  }

  std::vector<ElemExprPtr> operands;
  for (auto [arg, v] : llvm::zip(args, values)) {
    operands.push_back(toElem(*arg, v));
    if (!operands.back())
      return std::nullopt;
  }
  std::vector<int64_t> shape;
  for (const ElemExprPtr &operand : operands) {
    std::optional<std::vector<int64_t>> next =
        broadcastShapes(shape, operand->shape);
    if (!next)
      return error(expr, name + "(): shapes " + describeShape(shape) + " and " +
                             describeShape(operand->shape) +
                             " do not broadcast");
    shape = *next;
  }
  if (name == "where") {
    DType dtype = promoteOperands(*operands[1], *operands[2]);
    return makeElementwise(
        makeNode(ElemOp::Where, dtype, shape, std::move(operands)));
  }
  if (name == "minimum" || name == "maximum") {
    DType dtype = promoteOperands(*operands[0], *operands[1]);
    return makeElementwise(
        makeNode(name == "minimum" ? ElemOp::Minimum : ElemOp::Maximum, dtype,
                 shape, std::move(operands)));
  }
  // The math functions compute in float64; the result keeps a float
  // operand's dtype, an integer's becomes fp32 (abs, floor and ceil keep
  // integers as they are).
  DType dtype = operands[0]->dtype;
  bool keepsIntegers = name == "abs" || name == "floor" || name == "ceil";
  if (getCategory(dtype) != ElemCategory::Float && !keepsIntegers)
    dtype = DType::F32;
  auto node = makeNode(ElemOp::Math, dtype, shape, std::move(operands));
  node->name = name.str();
  return makeElementwise(node);
}

namespace {
/// The references whose result's shape their arguments give: a matmul's
/// rows by columns, a transpose's swapped extents, and those shaped as
/// their first argument.
const char *const kTransposeShaped[] = {"ref_transpose"};
const char *const kFirstArgShaped[] = {
    "ref_add",  "ref_cumsum",         "ref_dropout",
    "ref_flip", "ref_seeded_dropout", "ref_sort"};
} // namespace

std::string Evaluator::listShapedReferences() {
  std::string names = "ref_matmul, ref_matmul_bt";
  for (const char *name : kTransposeShaped)
    names += std::string(", ") + name;
  for (const char *name : kFirstArgShaped)
    names += std::string(", ") + name;
  return names;
}

std::optional<std::vector<int64_t>>
Evaluator::getReferenceShape(llvm::StringRef name,
                             const std::vector<Value> &args) const {
  auto shapeOf = [&](size_t i) -> const std::vector<int64_t> * {
    if (i >= args.size() || args[i].kind != Value::Kind::Buffer)
      return nullptr;
    return &spec.buffers[args[i].buffer].shape;
  };
  const std::vector<int64_t> *a = shapeOf(0), *b = shapeOf(1);
  if ((name == "ref_matmul" || name == "ref_matmul_bt") && a && b &&
      a->size() == 2 && b->size() == 2)
    return std::vector<int64_t>{(*a)[0],
                                name == "ref_matmul" ? (*b)[1] : (*b)[0]};
  if (llvm::is_contained(kTransposeShaped, name) && a && a->size() == 2)
    return std::vector<int64_t>{(*a)[1], (*a)[0]};
  if (llvm::is_contained(kFirstArgShaped, name) && a)
    return *a;
  return std::nullopt;
}

std::optional<Value> Evaluator::materialize(const ast::Expr &expr,
                                            const Value &value) {
  if (value.kind == Value::Kind::Tuple) {
    Value tuple = value;
    for (Value &element : tuple.elements) {
      std::optional<Value> v = materialize(expr, element);
      if (!v)
        return std::nullopt;
      element = *v;
    }
    return tuple;
  }
  if (value.kind != Value::Kind::Elementwise)
    return value;
  BufferSpec buffer;
  buffer.dtype = value.expr->dtype;
  buffer.shape = value.expr->shape;
  buffer.init = BufferSpec::Init::Derived;
  buffer.derived = value.expr;
  buffer.loc = expr.getLoc();
  int64_t bytes = getByteWidth(buffer.dtype);
  for (int64_t extent : buffer.shape) {
    if (extent > (int64_t(1) << 36) / bytes)
      return error(expr, "buffer of more than 2^36 bytes is too large");
    bytes *= extent;
  }
  Value result;
  result.kind = Value::Kind::Buffer;
  result.buffer = spec.buffers.size();
  spec.buffers.push_back(std::move(buffer));
  return result;
}

namespace {
/// A binary operator's spelling and Python precedence (higher binds
/// tighter); 0 for other nodes.
std::pair<llvm::StringRef, int> getBinarySpelling(ElemOp op) {
  switch (op) {
  case ElemOp::Lt:
    return {"<", 1};
  case ElemOp::Le:
    return {"<=", 1};
  case ElemOp::Gt:
    return {">", 1};
  case ElemOp::Ge:
    return {">=", 1};
  case ElemOp::Eq:
    return {"==", 1};
  case ElemOp::Ne:
    return {"!=", 1};
  case ElemOp::BitOr:
    return {"|", 2};
  case ElemOp::BitXor:
    return {"^", 3};
  case ElemOp::BitAnd:
    return {"&", 4};
  case ElemOp::Add:
    return {"+", 5};
  case ElemOp::Sub:
    return {"-", 5};
  case ElemOp::Mul:
    return {"*", 6};
  case ElemOp::Div:
    return {"/", 6};
  case ElemOp::FloorDiv:
    return {"//", 6};
  case ElemOp::Mod:
    return {"%", 6};
  case ElemOp::Pow:
    return {"**", 8};
  default:
    return {"", 0};
  }
}

/// Prints `e`; `context` is the precedence its place needs (parenthesized
/// below it).
void printNode(const ElemExpr &e, const LaunchSpec &spec, std::string &out,
               int context);

void printOperands(const ElemExpr &e, const LaunchSpec &spec,
                   std::string &out) {
  out += "(";
  for (size_t i = 0; i < e.operands.size(); ++i) {
    out += i ? ", " : "";
    printNode(*e.operands[i], spec, out, 0);
  }
  out += ")";
}

void printNode(const ElemExpr &e, const LaunchSpec &spec, std::string &out,
               int context) {
  auto [spelling, precedence] = getBinarySpelling(e.op);
  if (precedence) {
    bool parens = precedence < context;
    out += parens ? "(" : "";
    // Left-associative, except **; comparisons do not nest unparenthesized.
    bool isPow = e.op == ElemOp::Pow, isCompare = precedence == 1;
    printNode(*e.operands[0], spec, out,
              isPow || isCompare ? precedence + 1 : precedence);
    out += (" " + spelling + " ").str();
    printNode(*e.operands[1], spec, out, isPow ? precedence : precedence + 1);
    out += parens ? ")" : "";
    return;
  }
  switch (e.op) {
  case ElemOp::Buffer: {
    const BufferSpec &buffer = spec.buffers[e.buffer];
    if (!buffer.name.empty()) {
      out += buffer.name;
      return;
    }
    static const char *const kInits[] = {"rand", "randn",  "zeros",   "empty",
                                         "ptrs", "values", "derived", "arange"};
    out += std::string(kInits[int(buffer.init)]) + "(" +
           getName(buffer.dtype).str();
    for (int64_t extent : buffer.shape)
      out += ", " + std::to_string(extent);
    out += ")";
    return;
  }
  case ElemOp::Constant: {
    if (e.constant.kind != Value::Kind::Float) {
      out += e.constant.describe();
      return;
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%g", e.constant.floatValue);
    out += text;
    if (llvm::StringRef(text).find_first_of(".en") == llvm::StringRef::npos)
      out += ".0";
    return;
  }
  case ElemOp::Reference:
    out += e.name + "(";
    for (size_t i = 0; i < e.args.size(); ++i) {
      const Value &arg = e.args[i];
      out += i ? ", " : "";
      out += arg.kind == Value::Kind::Buffer ? spec.buffers[arg.buffer].name
                                             : arg.describe();
    }
    out += ")";
    return;
  case ElemOp::Neg:
  case ElemOp::Invert: {
    bool parens = context > 7;
    out += parens ? "(" : "";
    out += e.op == ElemOp::Neg ? "-" : "~";
    printNode(*e.operands[0], spec, out, 7);
    out += parens ? ")" : "";
    return;
  }
  case ElemOp::Cast:
    printNode(*e.operands[0], spec, out, 9);
    out += ".to(" + getName(e.dtype).str() + ")";
    return;
  default:
    out += e.op == ElemOp::Where     ? "where"
           : e.op == ElemOp::Minimum ? "minimum"
           : e.op == ElemOp::Maximum ? "maximum"
                                     : e.name;
    printOperands(e, spec, out);
    return;
  }
}
} // namespace

std::string tile::launch::print(const ElemExpr &expr, const LaunchSpec &spec) {
  std::string out;
  printNode(expr, spec, out, 0);
  return out;
}
