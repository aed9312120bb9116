//===- LaunchEvaluator.h - evaluates launch descriptions --------*- C++ -*-===//
//
// Private to lib/Driver: the evaluator of a launch description's
// statements, shared by LaunchEvaluator.cpp (expressions and statements),
// LaunchCalls.cpp (the functions a description calls) and LaunchSpec.cpp
// (finding and parsing the description).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DRIVER_LAUNCHEVALUATOR_H
#define TILE_LIB_DRIVER_LAUNCHEVALUATOR_H

#include "tile/Driver/LaunchSpec.h"
#include "tile/Frontend/AST.h"

#include "llvm/Support/CheckedArithmetic.h"

namespace tile::launch::detail {

/// The error for a Deferred value where a known one is needed.
inline constexpr const char *kDeferredUse =
    "this depends on num_sms() or occupancy(), which are known only once the "
    "kernel is compiled; only the grid may use them";

inline Value getDeferred() {
  Value value;
  value.kind = Value::Kind::Deferred;
  return value;
}

/// Python's a // b; nullopt where it overflows (INT64_MIN // -1).
inline std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == -1)
    return llvm::checkedMul(a, b);
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// a ** b for b >= 0; nullopt where it overflows.
inline std::optional<int64_t> checkedPow(int64_t a, int64_t b) {
  if (a == 0 || a == 1)
    return b == 0 ? 1 : a;
  if (a == -1)
    return b % 2 ? -1 : 1;
  std::optional<int64_t> result = 1;
  for (int64_t i = 0; i < b && result; ++i) // |a| >= 2: at most 63 steps
    result = llvm::checkedMul(*result, a);
  return result;
}

/// The kinds of dtype, ordered as element-wise expressions promote them.
enum class ElemCategory { Bool, Int, Float };
ElemCategory getCategory(DType type);

/// A float64 math function of element-wise expressions (exp, log, ...);
/// null for another name.
using MathFunction = double (*)(double);
MathFunction getMathFunction(llvm::StringRef name);

/// A buffer or an element-wise expression of buffers.
inline bool isBufferValue(const Value &value) {
  return value.kind == Value::Kind::Buffer ||
         value.kind == Value::Kind::Elementwise;
}

/// "(3, 4)", "(5,)".
std::string describeShape(llvm::ArrayRef<int64_t> shape);

/// numpy's broadcast of two shapes; nullopt where they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                                    llvm::ArrayRef<int64_t> b);

class Evaluator {
public:
  Evaluator(LaunchSpec &spec, frontend::DiagEmitter &diag,
            const DeviceValues *device)
      : spec(spec), diag(diag), device(device) {}

  std::optional<Value> eval(const frontend::ast::Expr &expr);
  /// Runs the description's statements. An assignment to a name in
  /// `preset` is skipped (the command line gave its value); one to a name
  /// in `deferred` evaluates that command-line expression instead.
  bool run(const frontend::ast::StmtList &statements,
           const llvm::StringMap<Value> &preset,
           const llvm::StringMap<const frontend::ast::Expr *> &deferred);
  /// An assigned value: an element-wise expression (also in a tuple)
  /// becomes a derived buffer, computed before the launch.
  std::optional<Value> materialize(const frontend::ast::Expr &expr,
                                   const Value &value);
  /// The shape of ref_NAME(args...)'s result where its arguments give it
  /// (getReferenceShape), and the references that have one.
  std::optional<std::vector<int64_t>>
  getReferenceShape(llvm::StringRef name, const std::vector<Value> &args) const;
  static std::string listShapedReferences();

private:
  std::optional<Value> error(const frontend::ast::Expr &expr,
                             const llvm::Twine &msg) {
    diag.error(expr.getLoc(), msg);
    return std::nullopt;
  }
  std::optional<Value> evalBinary(const frontend::ast::BinOpExpr &expr);
  std::optional<Value> evalCall(const frontend::ast::CallExpr &expr);
  std::optional<int64_t> evalInt(const frontend::ast::Expr &expr);

  // Element-wise expressions of buffers (LaunchElementwise.cpp).
  /// An operand: a buffer, an expression of buffers or a number; null after
  /// an error otherwise.
  ElemExprPtr toElem(const frontend::ast::Expr &expr, const Value &value);
  std::optional<Value>
  evalElementwiseBinary(const frontend::ast::BinOpExpr &expr, const Value &lhs,
                        const Value &rhs);
  std::optional<Value>
  evalElementwiseUnary(const frontend::ast::UnaryOpExpr &expr,
                       const Value &operand);
  std::optional<Value>
  evalElementwiseCompare(const frontend::ast::Expr &expr,
                         frontend::ast::CompareOp op,
                         const frontend::ast::Expr &lhsExpr, const Value &lhs,
                         const frontend::ast::Expr &rhsExpr, const Value &rhs);
  /// where, minimum, maximum, the math functions, x.to(dtype) and ref_*.
  static bool isElementwiseCall(const frontend::ast::CallExpr &expr);
  std::optional<Value> evalElementwiseCall(const frontend::ast::CallExpr &expr);
  /// Evaluates check()'s arguments into `check`.
  bool evalCheck(const frontend::ast::CallExpr &call, Check &check);
  /// Python's integers are unbounded, the launch description's are int64: a
  /// result that does not fit (nullopt) is reported, never wrapped.
  std::optional<Value> intResult(const frontend::ast::Expr &expr,
                                 std::optional<int64_t> value) {
    if (!value)
      return error(expr, "integer overflow: the result does not fit in 64 "
                         "bits");
    return Value::getInt(*value);
  }

  LaunchSpec &spec;
  frontend::DiagEmitter &diag;
  const DeviceValues *device;
  /// While a check's reference is evaluated, its output buffer: ref_*
  /// calls are allowed and take its shape.
  std::optional<unsigned> checkOutput;
};

} // namespace tile::launch::detail

#endif // TILE_LIB_DRIVER_LAUNCHEVALUATOR_H
