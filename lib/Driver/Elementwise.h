//===- Elementwise.h - element-wise expressions of buffers ------*- C++ -*-===//
//
// Private to lib/Driver: the element-wise expressions a launch description
// writes over its buffers (`x / (1 - p)`, `rand(fp32, n) > p`,
// `where(keep, x, 0)`, `x.to(i32)`, `exp(x)`). LaunchElementwise.cpp builds
// them while the description is evaluated, with their result dtype and
// shape (numpy broadcasting); Elementwise.cpp computes them from the
// buffers' host contents, for derived buffers before the launch and for a
// check's reference after it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DRIVER_ELEMENTWISE_H
#define TILE_LIB_DRIVER_ELEMENTWISE_H

#include "tile/Driver/HostData.h"
#include "tile/Driver/LaunchSpec.h"

#include <string>
#include <vector>

namespace tile::launch {

enum class ElemOp {
  Buffer,    // a buffer's contents
  Constant,  // a Python number, broadcast
  Reference, // ref_NAME(args...): the check's reference function
  Neg,       // -a
  Invert,    // ~a (logical not on i1)
  Add,
  Sub,
  Mul,
  Div, // true division: a float result
  FloorDiv,
  Mod,
  Pow,
  BitAnd,
  BitOr,
  BitXor,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  Where,   // where(c, a, b)
  Cast,    // a.to(dtype)
  Math,    // name(a): exp, log, ... computed in float64
  Minimum, // minimum(a, b), NaN-propagating
  Maximum,
};

struct ElemExpr {
  ElemOp op = ElemOp::Constant;
  /// The result's dtype: the derived buffer's, and whether it is computed
  /// in int64 (integers and i1) or float64.
  DType dtype = DType::F32;
  /// A Python number: its dtype gives way to a buffer's (`x * 2` keeps x's).
  bool weak = false;
  /// The result's shape ({} for a number; a reference has the one its
  /// arguments give, or else the check output's: shapeFromOutput).
  std::vector<int64_t> shape;
  bool shapeFromOutput = false;
  std::vector<ElemExprPtr> operands;
  unsigned buffer = 0;     // Buffer
  Value constant;          // Constant: Int, Bool or Float
  std::string name;        // Math: the function; Reference: ref_NAME
  std::vector<Value> args; // Reference: its arguments
};

/// `expr` as a description would write it, for messages and check lines.
std::string print(const ElemExpr &expr, const LaunchSpec &spec);

/// The values an expression computes: int64 (wrapping) where its dtype is
/// an integer or i1, float64 otherwise.
struct Column {
  bool isInt = false;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<int64_t> shape;

  int64_t size() const { return isInt ? ints.size() : floats.size(); }
  double getDouble(int64_t i) const {
    return isInt ? double(ints[i]) : floats[i];
  }
};

/// Computes `expr` from `buffers` (indexed as the launch's). A Reference
/// node calls its ref_* function with `output` as the check's output.
/// False with `error` set where an element cannot be computed (integer
/// division by zero, a reference that fails).
bool evaluate(const ElemExpr &expr, const std::vector<HostArray> &buffers,
              const LaunchSpec &spec, unsigned output, Column &result,
              std::string &error);

/// Fills the derived buffer `target` (spec.buffers[index]) from `buffers`,
/// rounding each value once to its dtype.
bool computeDerived(unsigned index, const std::vector<HostArray> &buffers,
                    const LaunchSpec &spec, HostArray &target,
                    std::string &error);

/// A check's element-wise reference (`check.expr`) in float64, broadcast to
/// the output's shape.
bool computeExpressionReference(const Check &check,
                                const std::vector<HostArray> &inputs,
                                const LaunchSpec &spec,
                                std::vector<double> &reference,
                                std::string &error);

} // namespace tile::launch

#endif // TILE_LIB_DRIVER_ELEMENTWISE_H
