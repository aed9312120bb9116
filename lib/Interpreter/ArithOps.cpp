//===- ArithOps.cpp - arith constants, compares and casts -----------------===//
//
// The arith ops that are more than a scalar expression: constants,
// compares, select and the casts between integer and float kinds (with the
// GPU's saturating float-to-integer conversion). The plain elementwise
// arith and math ops are one-line entries of OpTable.cpp.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// Converts each element with fn(int pattern or double) -> int pattern or
/// double, as the operand and result kinds say.
static LogicalResult
runCast(Interpreter &I, Operation *op,
        function_ref<void(const Array &, Array &, Elem, Elem)> fn) {
  const Array &a = I.get(op->getOperand(0));
  Elem from = classify(op->getOperand(0).getType());
  Elem to = classify(op->getResult(0).getType());
  Array out = Array::make(to.isFloat(), a.shape);
  fn(a, out, from, to);
  I.set(op->getResult(0), std::move(out));
  return success();
}

/// Float to integer as PTX cvt.rzi: toward zero, saturated, NaN to 0.
static uint64_t floatToInt(double x, unsigned width, bool isSigned) {
  if (std::isnan(x))
    return 0;
  x = std::trunc(x);
  if (width == 1)
    return x != 0;
  if (isSigned) {
    double lo = -std::ldexp(1.0, width - 1), hi = std::ldexp(1.0, width - 1);
    if (x < lo)
      return truncBits(uint64_t(1) << (width - 1), width);
    if (x >= hi)
      return truncBits((uint64_t(1) << (width - 1)) - 1, width);
    return truncBits(uint64_t(int64_t(x)), width);
  }
  if (x <= 0)
    return 0;
  if (x >= std::ldexp(1.0, width))
    return truncBits(~uint64_t(0), width);
  return uint64_t(x);
}

static double intToFloat(uint64_t v, unsigned width, bool isSigned, Kind to) {
  if (isSigned) {
    int64_t s = width == 1 ? -int64_t(v) : signExtend(v, width);
    return to == Kind::F32 ? double(float(s)) : roundTo(to, double(s));
  }
  return to == Kind::F32 ? double(float(v)) : roundTo(to, double(v));
}

static bool compareInt(arith::CmpIPredicate predicate, uint64_t a, uint64_t b,
                       unsigned width) {
  int64_t sa = signExtend(a, width), sb = signExtend(b, width);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return sa < sb;
  case arith::CmpIPredicate::sle:
    return sa <= sb;
  case arith::CmpIPredicate::sgt:
    return sa > sb;
  case arith::CmpIPredicate::sge:
    return sa >= sb;
  case arith::CmpIPredicate::ult:
    return a < b;
  case arith::CmpIPredicate::ule:
    return a <= b;
  case arith::CmpIPredicate::ugt:
    return a > b;
  case arith::CmpIPredicate::uge:
    return a >= b;
  }
  return false;
}

static bool compareFloat(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

LogicalResult runConstant(Interpreter &I, Operation *op) {
  Attribute attr = cast<arith::ConstantOp>(op).getValue();
  Type type = op->getResult(0).getType();
  Elem elem = classify(type);
  Array out = Array::make(elem.isFloat(), shapeOf(type));
  auto fromInt = [&](const APInt &v) {
    return truncBits(v.getZExtValue(), elem.width);
  };
  // Every element type (f16, bf16, f32, f64) converts to double exactly.
  if (auto intAttr = dyn_cast<IntegerAttr>(attr)) {
    out.i[0] = fromInt(intAttr.getValue());
  } else if (auto floatAttr = dyn_cast<FloatAttr>(attr)) {
    out.f[0] = floatAttr.getValueAsDouble();
  } else if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (elem.isFloat()) {
      if (dense.isSplat())
        std::fill(out.f.begin(), out.f.end(),
                  FloatAttr::getValueAsDouble(dense.getSplatValue<APFloat>()));
      else
        for (auto [k, v] : llvm::enumerate(dense.getValues<APFloat>()))
          out.f[k] = FloatAttr::getValueAsDouble(v);
    } else {
      if (dense.isSplat())
        std::fill(out.i.begin(), out.i.end(),
                  fromInt(dense.getSplatValue<APInt>()));
      else
        for (auto [k, v] : llvm::enumerate(dense.getValues<APInt>()))
          out.i[k] = fromInt(v);
    }
  } else {
    return I.error(op) << "unsupported constant " << attr;
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runCmpI(Interpreter &I, Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  const Array &a = I.get(cmp.getLhs()), &b = I.get(cmp.getRhs());
  unsigned width = classify(cmp.getLhs().getType()).width;
  Array out = Array::make(false, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  arith::CmpIPredicate predicate = cmp.getPredicate();
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = compareInt(predicate, a.i[k * sa], b.i[k * sb], width);
  I.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult runCmpF(Interpreter &I, Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  const Array &a = I.get(cmp.getLhs()), &b = I.get(cmp.getRhs());
  Array out = Array::make(false, resultShape({&a, &b}));
  int64_t sa = a.size() > 1, sb = b.size() > 1;
  arith::CmpFPredicate predicate = cmp.getPredicate();
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.i[k] = compareFloat(predicate, a.f[k * sa], b.f[k * sb]);
  I.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult runSelect(Interpreter &I, Operation *op) {
  const Array &c = I.get(op->getOperand(0)), &a = I.get(op->getOperand(1)),
              &b = I.get(op->getOperand(2));
  Array out = Array::make(a.isFloat, resultShape({&c, &a, &b}));
  int64_t sc = c.size() > 1, sa = a.size() > 1, sb = b.size() > 1;
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    bool pick = c.i[k * sc] & 1;
    if (a.isFloat)
      out.f[k] = pick ? a.f[k * sa] : b.f[k * sb];
    else
      out.i[k] = pick ? a.i[k * sa] : b.i[k * sb];
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult runFloatToFloat(Interpreter &I, Operation *op) {
  // arith.truncf's roundingmode: fp_downcast_rounding="rtz".
  bool towardZero = false;
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    towardZero = trunc.getRoundingmode() == arith::RoundingMode::toward_zero;
  return runCast(I, op, [&](const Array &a, Array &out, Elem, Elem to) {
    for (size_t k = 0; k < a.f.size(); ++k) {
      double x = a.f[k];
      if (!towardZero)
        out.f[k] = roundTo(to.kind, x);
      else if (isFp8(to.kind))
        out.f[k] = roundToFp8(x, fp8Format(to.kind), /*towardZero=*/true);
      else if (to.kind == Kind::F16)
        out.f[k] = roundToF16TowardZero(x);
      else if (to.kind == Kind::BF16)
        out.f[k] = roundToBF16TowardZero(x);
      else { // fp64 to fp32
        float f = float(x);
        if (std::fabs(double(f)) > std::fabs(x))
          f = std::nextafter(f, 0.0f);
        out.f[k] = f;
      }
    }
  });
}

LogicalResult runIntToFloat(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem from, Elem to) {
    for (size_t k = 0; k < a.i.size(); ++k)
      out.f[k] = intToFloat(a.i[k], from.width, isSigned, to.kind);
  });
}

LogicalResult runFloatToInt(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem, Elem to) {
    for (size_t k = 0; k < a.f.size(); ++k)
      out.i[k] = floatToInt(a.f[k], to.width, isSigned);
  });
}

LogicalResult runIntToInt(Interpreter &I, Operation *op, bool isSigned) {
  return runCast(I, op, [&](const Array &a, Array &out, Elem from, Elem to) {
    for (size_t k = 0; k < a.i.size(); ++k)
      out.i[k] = truncBits(isSigned ? uint64_t(signExtend(a.i[k], from.width))
                                    : a.i[k],
                           to.width);
  });
}

LogicalResult runBitcast(Interpreter &I, Operation *op) {
  return runCast(I, op, [](const Array &a, Array &out, Elem from, Elem to) {
    for (int64_t k = 0, n = a.size(); k < n; ++k) {
      uint64_t bits = from.isFloat() ? floatBits(a.f[k], from.kind) : a.i[k];
      if (to.isFloat())
        out.f[k] = bitsToFloat(bits, to.kind);
      else
        out.i[k] = truncBits(bits, to.width);
    }
  });
}

} // namespace mlir::tile::interp::detail
