//===- Constexpr.cpp - Compile-time folding -------------------------------===//
//
// Compile-time evaluation: operators folded with Python semantics.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

// Compile-time arithmetic with Python semantics
//===----------------------------------------------------------------------===//

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --quotient;
  return quotient;
}

int64_t floorModulo(int64_t a, int64_t b) {
  int64_t remainder = a % b;
  if (remainder != 0 && ((remainder < 0) != (b < 0)))
    remainder += b;
  return remainder;
}

double floorModulo(double a, double b) {
  double remainder = std::fmod(a, b);
  if (remainder != 0.0 && ((remainder < 0) != (b < 0)))
    remainder += b;
  return remainder;
}

/// Float to int64 truncating toward zero, saturating at the int64 range
/// (NaN becomes 0), so that no float converts with undefined behavior.
int64_t saturatingFloatToInt(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

//===----------------------------------------------------------------------===//
// Compile-time folding
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::foldBinary(ast::BinaryOp op,
                                                const PyValue &lhs,
                                                const PyValue &rhs,
                                                const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  using Kind = PyValue::Kind;

  // Tuples concatenate, as in Python.
  if (op == ast::BinaryOp::Add && lhs.kind == Kind::Tuple &&
      rhs.kind == Kind::Tuple) {
    std::vector<PyValue> elements(lhs.elements.begin(), lhs.elements.end());
    elements.insert(elements.end(), rhs.elements.begin(), rhs.elements.end());
    return PyValue::tuple(std::move(elements));
  }
  if (lhs.kind == Kind::String || rhs.kind == Kind::String) {
    if (op == ast::BinaryOp::Add && lhs.kind == Kind::String &&
        rhs.kind == Kind::String)
      return PyValue::string(lhs.text + rhs.text);
    return unsupportedOperands(opName, lhs, rhs, loc);
  }
  if (!lhs.isNumber() || !rhs.isNumber())
    return unsupportedOperands(opName, lhs, rhs, loc);

  // bool op bool stays bool for the bitwise operators, as in Python.
  if (lhs.kind == Kind::Bool && rhs.kind == Kind::Bool) {
    if (op == ast::BinaryOp::BitAnd)
      return PyValue::boolean(lhs.boolValue && rhs.boolValue);
    if (op == ast::BinaryOp::BitOr)
      return PyValue::boolean(lhs.boolValue || rhs.boolValue);
    if (op == ast::BinaryOp::BitXor)
      return PyValue::boolean(lhs.boolValue != rhs.boolValue);
  }
  auto asInt = [](const PyValue &v) -> int64_t {
    return v.kind == Kind::Bool ? v.boolValue : v.intValue;
  };
  auto asDouble = [&](const PyValue &v) -> double {
    return v.kind == Kind::Float ? v.floatValue : static_cast<double>(asInt(v));
  };
  auto overflow = [&] {
    return error(loc, "integer overflow in constant expression");
  };
  auto divisionByZero = [&] { return error(loc, "division by zero"); };

  bool anyFloat = lhs.kind == Kind::Float || rhs.kind == Kind::Float;
  if (op == ast::BinaryOp::MatMul)
    return unsupportedOperands(opName, lhs, rhs, loc);
  if (op == ast::BinaryOp::Div) {
    if (asDouble(rhs) == 0.0)
      return divisionByZero();
    return PyValue::floating(asDouble(lhs) / asDouble(rhs));
  }
  if (anyFloat) {
    double a = asDouble(lhs), b = asDouble(rhs);
    switch (op) {
    case ast::BinaryOp::Add:
      return PyValue::floating(a + b);
    case ast::BinaryOp::Sub:
      return PyValue::floating(a - b);
    case ast::BinaryOp::Mul:
      return PyValue::floating(a * b);
    case ast::BinaryOp::FloorDiv:
      if (b == 0.0)
        return divisionByZero();
      return PyValue::floating(std::floor(a / b));
    case ast::BinaryOp::Mod:
      if (b == 0.0)
        return divisionByZero();
      return PyValue::floating(floorModulo(a, b));
    case ast::BinaryOp::Pow:
      return PyValue::floating(std::pow(a, b));
    default:
      return unsupportedOperands(opName, lhs, rhs, loc);
    }
  }

  int64_t a = asInt(lhs), b = asInt(rhs), result = 0;
  switch (op) {
  case ast::BinaryOp::Add:
    if (llvm::AddOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::Sub:
    if (llvm::SubOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::Mul:
    if (llvm::MulOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod:
    if (b == 0)
      return divisionByZero();
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return op == ast::BinaryOp::Mod ? Result(PyValue::integer(0))
                                      : Result(overflow());
    return PyValue::integer(op == ast::BinaryOp::FloorDiv ? floorDivide(a, b)
                                                          : floorModulo(a, b));
  case ast::BinaryOp::Pow: {
    if (b < 0)
      return PyValue::floating(
          std::pow(static_cast<double>(a), static_cast<double>(b)));
    int64_t power = 1;
    for (int64_t i = 0; i < b; ++i) {
      if (llvm::MulOverflow(power, a, power))
        return overflow();
      // 0, 1 and -1 never overflow; stop early so huge exponents end fast.
      if (a == 0 || a == 1)
        break;
      if (a == -1) {
        power = (b % 2 == 0) ? 1 : -1;
        break;
      }
    }
    return PyValue::integer(b == 0 ? 1 : power);
  }
  case ast::BinaryOp::LShift:
    if (b < 0)
      return error(loc, "negative shift count");
    if (a == 0)
      return PyValue::integer(0);
    if (b >= 63)
      return overflow();
    // Shift as unsigned (shifting a negative value is undefined in C++17)
    // and check that shifting back recovers the value.
    result = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
    if ((result >> b) != a)
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::RShift:
    if (b < 0)
      return error(loc, "negative shift count");
    return PyValue::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
  case ast::BinaryOp::BitAnd:
    return PyValue::integer(a & b);
  case ast::BinaryOp::BitOr:
    return PyValue::integer(a | b);
  case ast::BinaryOp::BitXor:
    return PyValue::integer(a ^ b);
  case ast::BinaryOp::Div:
  case ast::BinaryOp::MatMul:
    break;
  }
  return unsupportedOperands(opName, lhs, rhs, loc);
}

namespace {
/// Python's `==` between two compile-time values: numbers by value (1 ==
/// 1.0 == True), dtypes by type and signedness (tl.int32 != tl.uint32),
/// tuples element by element, names by name.
bool isEqualConstexpr(const PyValue &lhs, const PyValue &rhs) {
  using Kind = PyValue::Kind;
  if (lhs.isNumber() && rhs.isNumber()) {
    if (lhs.kind == Kind::Float || rhs.kind == Kind::Float) {
      auto asDouble = [](const PyValue &v) {
        return v.kind == Kind::Float  ? v.floatValue
               : v.kind == Kind::Bool ? static_cast<double>(v.boolValue)
                                      : static_cast<double>(v.intValue);
      };
      return asDouble(lhs) == asDouble(rhs);
    }
    auto asInt = [](const PyValue &v) -> int64_t {
      return v.kind == Kind::Bool ? v.boolValue : v.intValue;
    };
    return asInt(lhs) == asInt(rhs);
  }
  if (lhs.kind != rhs.kind)
    return false;
  switch (lhs.kind) {
  case Kind::None:
    return true;
  case Kind::DType:
    return lhs.type == rhs.type && lhs.isUnsigned == rhs.isUnsigned;
  case Kind::Tuple:
    return lhs.elements.size() == rhs.elements.size() &&
           llvm::all_of(llvm::zip(lhs.elements, rhs.elements), [](auto pair) {
             return isEqualConstexpr(std::get<0>(pair), std::get<1>(pair));
           });
  default:
    return lhs.text == rhs.text;
  }
}
} // namespace

KernelEmitter::Result KernelEmitter::foldCompare(ast::CompareOp op,
                                                 const PyValue &lhs,
                                                 const PyValue &rhs,
                                                 const ast::Location &loc) {
  using Kind = PyValue::Kind;
  llvm::StringRef opName = ast::spell(op);
  if (op == ast::CompareOp::In || op == ast::CompareOp::NotIn)
    return error(loc, "'" + opName + "' is not supported yet");

  // Equality and identity are defined between any two values.
  auto equal = [&]() { return isEqualConstexpr(lhs, rhs); };
  switch (op) {
  case ast::CompareOp::Eq:
    return PyValue::boolean(equal());
  case ast::CompareOp::NotEq:
    return PyValue::boolean(!equal());
  case ast::CompareOp::Is:
  case ast::CompareOp::IsNot: {
    bool same = lhs.kind == rhs.kind && equal();
    return PyValue::boolean(op == ast::CompareOp::Is ? same : !same);
  }
  default:
    break;
  }

  int order;
  if (lhs.isNumber() && rhs.isNumber()) {
    auto asDouble = [](const PyValue &v) {
      return v.kind == Kind::Float  ? v.floatValue
             : v.kind == Kind::Bool ? static_cast<double>(v.boolValue)
                                    : static_cast<double>(v.intValue);
    };
    if (lhs.kind == Kind::Float || rhs.kind == Kind::Float) {
      double a = asDouble(lhs), b = asDouble(rhs);
      if (std::isnan(a) || std::isnan(b))
        return PyValue::boolean(false);
      order = a < b ? -1 : a > b ? 1 : 0;
    } else {
      int64_t a = lhs.kind == Kind::Bool ? lhs.boolValue : lhs.intValue;
      int64_t b = rhs.kind == Kind::Bool ? rhs.boolValue : rhs.intValue;
      order = a < b ? -1 : a > b ? 1 : 0;
    }
  } else if (lhs.kind == Kind::String && rhs.kind == Kind::String) {
    order = llvm::StringRef(lhs.text).compare(rhs.text);
  } else {
    return error(loc, "'" + opName + "' not supported between '" +
                          describe(lhs) + "' and '" + describe(rhs) + "'");
  }
  switch (op) {
  case ast::CompareOp::Lt:
    return PyValue::boolean(order < 0);
  case ast::CompareOp::LtE:
    return PyValue::boolean(order <= 0);
  case ast::CompareOp::Gt:
    return PyValue::boolean(order > 0);
  case ast::CompareOp::GtE:
    return PyValue::boolean(order >= 0);
  default:
    return std::nullopt;
  }
}

} // namespace tile::frontend::mlirgen
