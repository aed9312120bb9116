//===- ExternOps.cpp - libdevice calls in the interpreter -----------------===//
//
// tile.extern_elementwise on libdevice symbols, with the C library: a
// function on fp32 values is computed in float64 and rounded to fp32 (or
// runs the float function where rounding once matters: nextafter); the
// _rn/_rz/_rd/_ru variants run the float or double operation under that
// rounding mode; integer functions follow CUDA's definitions. The fast_*
// functions compute the precise function (the GPU's approximations differ
// from it by their documented error).
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"
#include "tile/Dialect/Tile/IR/Libdevice.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::tile;
namespace ld = mlir::tile::libdevice;

namespace mlir::tile::interp::detail {

namespace {
/// One element's operands: floats as doubles, integers sign- or
/// zero-extended as their type says.
struct Args {
  double f[4] = {0, 0, 0, 0};
  int64_t i[4] = {0, 0, 0, 0};
};

/// A result: a float (rounded to the result type by the caller) or integer
/// bits.
struct Value64 {
  double f = 0;
  uint64_t i = 0;
};

constexpr double kPi = 3.14159265358979323846;

/// The rounding mode a name's suffix asks for, or -1.
int roundingMode(StringRef name) {
  if (name.ends_with("_rn"))
    return FE_TONEAREST;
  if (name.ends_with("_rz"))
    return FE_TOWARDZERO;
  if (name.ends_with("_rd"))
    return FE_DOWNWARD;
  if (name.ends_with("_ru"))
    return FE_UPWARD;
  return -1;
}

/// fn() under rounding mode `mode`; operands pass through volatile storage
/// so the operation is not folded outside the mode.
template <typename T, typename Fn> T underMode(int mode, Fn fn) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile T result = fn();
  std::fesetround(old);
  return result;
}

/// A float converted to an integer of `bits` (signed or not) as the GPU's
/// cvt does: NaN gives 0, out-of-range values saturate.
uint64_t saturate(double x, unsigned bits, bool isSigned) {
  if (std::isnan(x))
    return 0;
  if (isSigned) {
    double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
    if (x <= lo)
      return uint64_t(int64_t(-1) << (bits - 1));
    if (x >= hi)
      return bits == 64 ? uint64_t(INT64_MAX) : (uint64_t(1) << (bits - 1)) - 1;
    return uint64_t(int64_t(x));
  }
  if (x <= 0)
    return 0;
  if (x >= std::ldexp(1.0, bits))
    return bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
  return uint64_t(x);
}

/// erf^-1(y) in double: Newton's method on erf from a rough start.
double erfInverse(double y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return NAN;
  if (y == 1 || y == -1)
    return std::copysign(INFINITY, y);
  double w = -std::log((1 - y) * (1 + y)), x;
  // Giles' single-precision approximation as the start.
  if (w < 5) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c :
         {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3;
    double p = -0.000200214257;
    for (double c :
         {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  for (int k = 0; k < 4; ++k) {
    double step = (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
  }
  return x;
}

/// erfc^-1(y) in double: Newton's method on erfc (relative near 0).
double erfcInverse(double y) {
  if (std::isnan(y) || y < 0 || y > 2)
    return NAN;
  if (y == 0)
    return INFINITY;
  if (y == 2)
    return -INFINITY;
  if (y > 1)
    return -erfcInverse(2 - y);
  if (y > 0.0625)
    return erfInverse(1 - y);
  double x = std::sqrt(-std::log(y));
  for (int k = 0; k < 60; ++k) {
    double step = (std::erfc(x) - y) / (-2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

/// exp(x^2) erfc(x).
double erfcx(double x) {
  if (x < 25)
    return double(std::exp((long double)x * x) * std::erfc((long double)x));
  double r = 1 / (x * x);
  return 1 / (x * std::sqrt(kPi)) *
         (1 - r / 2 + 3 * r * r / 4 - 15 * r * r * r / 8);
}

uint64_t bitReverse(uint64_t v, unsigned bits) {
  uint64_t r = 0;
  for (unsigned k = 0; k < bits; ++k)
    r |= ((v >> k) & 1) << (bits - 1 - k);
  return r;
}

/// The operation of a rounding-mode function (`add_rz` without its suffix)
/// on `a`, `b`, `c` of type T, under `mode`.
template <typename T>
std::optional<T> roundedFloatOp(StringRef base, int mode, T a, T b, T c) {
  volatile T va = a, vb = b, vc = c;
  if (base == "add")
    return underMode<T>(mode, [&] { return T(va + vb); });
  if (base == "sub")
    return underMode<T>(mode, [&] { return T(va - vb); });
  if (base == "mul")
    return underMode<T>(mode, [&] { return T(va * vb); });
  if (base == "div")
    return underMode<T>(mode, [&] { return T(va / vb); });
  if (base == "rcp")
    return underMode<T>(mode, [&] { return T(T(1) / va); });
  if (base == "sqrt")
    return underMode<T>(mode, [&] { return T(std::sqrt(T(va))); });
  if (base == "fma")
    return underMode<T>(mode, [&] { return T(std::fma(T(va), T(vb), T(vc))); });
  return std::nullopt;
}

/// Conversions with a rounding mode: double2float_rz, float2int_rd, ...
std::optional<Value64> roundedConversion(StringRef base, int mode,
                                         const ld::Variant &v, const Args &a) {
  ld::Type from = v.operands[0], to = v.result;
  bool toUnsigned = base.contains("2uint") || base.contains("2ull");
  if (ld::isFloat(from) && ld::isFloat(to)) { // double2float
    volatile double x = a.f[0];
    return Value64{underMode<float>(mode, [&] { return float(x); }), 0};
  }
  if (ld::isFloat(from)) { // float/double to an integer
    volatile double x = a.f[0];
    double rounded = underMode<double>(mode, [&] { return std::nearbyint(x); });
    unsigned bits = base.contains("ll") ? 64 : 32;
    return Value64{0, saturate(rounded, bits, !toUnsigned)};
  }
  // An integer to a float.
  bool fromUnsigned = ld::isUnsigned(from);
  volatile int64_t s = a.i[0];
  volatile uint64_t u = uint64_t(a.i[0]);
  if (to == ld::Type::F32)
    return Value64{
        underMode<float>(mode,
                         [&] { return fromUnsigned ? float(u) : float(s); }),
        0};
  return Value64{
      underMode<double>(mode,
                        [&] { return fromUnsigned ? double(u) : double(s); }),
      0};
}

/// Functions of integers (and of a float's bits).
std::optional<Value64> integerFunction(StringRef name, const ld::Variant &v,
                                       const Args &a) {
  unsigned bits = ld::getWidth(v.operands[0]);
  uint64_t x = truncBits(uint64_t(a.i[0]), bits);
  uint64_t y = truncBits(uint64_t(a.i[1]), bits);
  auto r = [](uint64_t i) { return Value64{0, i}; };
  if (name == "clz")
    return r(bits == 32 ? llvm::countl_zero(uint32_t(x))
                        : llvm::countl_zero(x));
  if (name == "popc")
    return r(llvm::popcount(x));
  if (name == "ffs")
    return r(x == 0 ? 0 : llvm::countr_zero(x) + 1);
  if (name == "brev")
    return r(bitReverse(x, bits));
  if (name == "byte_perm") {
    uint64_t bytes = (uint64_t(uint32_t(a.i[1])) << 32) | uint32_t(a.i[0]);
    uint32_t selector = uint32_t(a.i[2]), result = 0;
    for (unsigned k = 0; k < 4; ++k) {
      unsigned pick = (selector >> (4 * k)) & 7;
      result |= uint32_t((bytes >> (8 * pick)) & 0xff) << (8 * k);
    }
    return r(result);
  }
  bool isSigned = !ld::isUnsigned(v.operands[0]);
  if (name == "mulhi") {
    if (bits == 32)
      return r(uint64_t(a.i[0] * a.i[1]) >> 32);
    if (isSigned)
      return r(uint64_t((__int128)a.i[0] * (__int128)a.i[1] >> 64));
    return r(
        uint64_t((unsigned __int128)uint64_t(a.i[0]) * uint64_t(a.i[1]) >> 64));
  }
  if (name == "mul24") {
    if (isSigned)
      return r(uint64_t(signExtend(x & 0xffffff, 24) *
                        signExtend(y & 0xffffff, 24)));
    return r((x & 0xffffff) * (y & 0xffffff));
  }
  if (name == "hadd" || name == "rhadd") {
    int64_t round = name == "rhadd";
    if (isSigned)
      return r(uint64_t((a.i[0] + a.i[1] + round) >> 1));
    return r((x + y + uint64_t(round)) >> 1);
  }
  if (name == "sad") {
    int64_t diff = a.i[0] - a.i[1];
    return r(uint64_t(diff < 0 ? -diff : diff) + uint64_t(uint32_t(a.i[2])));
  }
  if (name == "abs" && !ld::isFloat(v.operands[0]))
    return r(a.i[0] < 0 ? uint64_t(0) - uint64_t(a.i[0]) : uint64_t(a.i[0]));
  return std::nullopt;
}

/// Bit reinterpretations and the hi/lo halves of a double.
std::optional<Value64> bitFunction(StringRef name, const Args &a) {
  auto r = [](uint64_t i) { return Value64{0, i}; };
  if (name == "int_as_float" || name == "uint_as_float")
    return Value64{llvm::bit_cast<float>(uint32_t(a.i[0])), 0};
  if (name == "float_as_int" || name == "float_as_uint")
    return r(llvm::bit_cast<uint32_t>(float(a.f[0])));
  if (name == "longlong_as_double")
    return Value64{llvm::bit_cast<double>(uint64_t(a.i[0])), 0};
  if (name == "double_as_longlong")
    return r(llvm::bit_cast<uint64_t>(a.f[0]));
  if (name == "hiloint2double")
    return Value64{llvm::bit_cast<double>((uint64_t(uint32_t(a.i[0])) << 32) |
                                          uint32_t(a.i[1])),
                   0};
  if (name == "double2loint")
    return r(uint32_t(llvm::bit_cast<uint64_t>(a.f[0])));
  if (name == "double2hiint")
    return r(uint32_t(llvm::bit_cast<uint64_t>(a.f[0]) >> 32));
  return std::nullopt;
}

/// Functions of floats answering integers.
std::optional<Value64> floatPredicate(StringRef name, double x) {
  auto r = [](uint64_t i) { return Value64{0, i}; };
  if (name == "isnan")
    return r(std::isnan(x));
  if (name == "isinf")
    return r(std::isinf(x));
  if (name == "signbit")
    return r(std::signbit(x));
  if (name == "finitef" || name == "isfinited")
    return r(std::isfinite(x));
  if (name == "ilogb")
    return r(uint64_t(int64_t(std::ilogb(x))));
  if (name == "llrint")
    return r(saturate(std::nearbyint(x), 64, true));
  if (name == "llround")
    return r(saturate(std::round(x), 64, true));
  return std::nullopt;
}

/// Float functions, computed in double (`isF32`: the operands are fp32
/// values and the result is rounded to fp32 by the caller).
std::optional<double> floatFunction(StringRef name, const Args &a, bool isF32) {
  double x = a.f[0], y = a.f[1], z = a.f[2], w = a.f[3];
  name.consume_front("fast_");
  return llvm::StringSwitch<std::function<double()>>(name)
      .Cases({"abs", "fabsf"}, [&] { return std::fabs(x); })
      .Case("floor", [&] { return std::floor(x); })
      .Case("ceil", [&] { return std::ceil(x); })
      .Case("trunc", [&] { return std::trunc(x); })
      .Case("round", [&] { return std::round(x); })
      .Cases({"rint", "nearbyint"}, [&] { return std::nearbyint(x); })
      .Case("sqrt", [&] { return std::sqrt(x); })
      .Cases({"rsqrt", "rsqrt_rn"}, [&] { return 1 / std::sqrt(x); })
      .Case("rcp64h",
            [&] {
              auto high = [](double v) {
                return llvm::bit_cast<double>(llvm::bit_cast<uint64_t>(v) &
                                              0xffffffff00000000ull);
              };
              return high(1 / high(x));
            })
      .Case("saturatef",
            [&] { return std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0), 1); })
      .Cases({"dividef", "fdividef"}, [&] { return x / y; })
      .Cases({"exp", "expf"}, [&] { return std::exp(x); })
      .Case("exp2", [&] { return std::exp2(x); })
      .Cases({"exp10", "exp10f"}, [&] { return std::pow(10.0, x); })
      .Case("expm1", [&] { return std::expm1(x); })
      .Cases({"log", "logf"}, [&] { return std::log(x); })
      .Cases({"log2", "log2f"}, [&] { return std::log2(x); })
      .Cases({"log10", "log10f"}, [&] { return std::log10(x); })
      .Case("log1p", [&] { return std::log1p(x); })
      .Case("logb", [&] { return std::logb(x); })
      .Cases({"sin", "sinf"}, [&] { return std::sin(x); })
      .Cases({"cos", "cosf"}, [&] { return std::cos(x); })
      .Cases({"tan", "tanf"}, [&] { return std::tan(x); })
      .Case("sinpi",
            [&] {
              // Exact reduction: sin(pi x) has period 2 and is odd.
              double r = std::fmod(x, 2.0);
              return double(std::sin((long double)kPi * r));
            })
      .Case("cospi",
            [&] {
              double r = std::fmod(std::fabs(x), 2.0);
              if (r == 0.5 || r == 1.5)
                return 0.0;
              return double(std::cos((long double)kPi * r));
            })
      .Case("sinh", [&] { return std::sinh(x); })
      .Case("cosh", [&] { return std::cosh(x); })
      .Case("tanh", [&] { return std::tanh(x); })
      .Case("asin", [&] { return std::asin(x); })
      .Case("acos", [&] { return std::acos(x); })
      .Case("atan", [&] { return std::atan(x); })
      .Case("atan2", [&] { return std::atan2(x, y); })
      .Case("asinh", [&] { return std::asinh(x); })
      .Case("acosh", [&] { return std::acosh(x); })
      .Case("atanh", [&] { return std::atanh(x); })
      .Case("hypot", [&] { return std::hypot(x, y); })
      .Case("rhypot", [&] { return 1 / std::hypot(x, y); })
      .Case("norm3d", [&] { return std::hypot(x, y, z); })
      .Case("rnorm3d", [&] { return 1 / std::hypot(x, y, z); })
      .Case("norm4d",
            [&] { return std::hypot(std::hypot(x, y), std::hypot(z, w)); })
      .Case("rnorm4d",
            [&] { return 1 / std::hypot(std::hypot(x, y), std::hypot(z, w)); })
      .Case("cbrt", [&] { return std::cbrt(x); })
      .Case("rcbrt", [&] { return 1 / std::cbrt(x); })
      .Case("j0", [&] { return ::j0(x); })
      .Case("j1", [&] { return ::j1(x); })
      .Case("y0", [&] { return ::y0(x); })
      .Case("y1", [&] { return ::y1(x); })
      .Case("jn", [&] { return ::jn(int(a.i[0]), y); })
      .Case("yn", [&] { return ::yn(int(a.i[0]), y); })
      .Case("cyl_bessel_i0",
            [&] { return std::cyl_bessel_i(0.0, std::fabs(x)); })
      .Case("cyl_bessel_i1",
            [&] {
              return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x);
            })
      .Case("erf", [&] { return std::erf(x); })
      .Case("erfc", [&] { return std::erfc(x); })
      .Case("erfinv", [&] { return erfInverse(x); })
      .Case("erfcinv", [&] { return erfcInverse(x); })
      .Case("erfcx", [&] { return erfcx(x); })
      .Case("normcdf", [&] { return std::erfc(-x / std::sqrt(2.0)) / 2; })
      .Case("normcdfinv", [&] { return -std::sqrt(2.0) * erfcInverse(2 * x); })
      .Case("lgamma", [&] { return std::lgamma(x); })
      .Case("tgamma", [&] { return std::tgamma(x); })
      .Cases({"ldexp", "scalbn"},
             [&] {
               return std::ldexp(
                   x, int(std::clamp<int64_t>(a.i[1], INT_MIN, INT_MAX)));
             })
      .Case("fmod", [&] { return std::fmod(x, y); })
      .Case("remainder", [&] { return std::remainder(x, y); })
      .Case("fma", [&] { return std::fma(x, y, z); })
      .Cases({"pow", "powf"}, [&] { return std::pow(x, y); })
      .Case("copysign", [&] { return std::copysign(x, y); })
      .Case("nextafter",
            [&] {
              return isF32 ? double(std::nextafter(float(x), float(y)))
                           : std::nextafter(x, y);
            })
      .Case("fdim", [&] { return std::fdim(x, y); })
      .Default([] { return std::numeric_limits<double>::quiet_NaN(); })();
}

bool isKnownFloatFunction(StringRef name) {
  static const char *const names[] = {"abs",
                                      "floor",
                                      "ceil",
                                      "trunc",
                                      "round",
                                      "rint",
                                      "nearbyint",
                                      "sqrt",
                                      "rsqrt",
                                      "rsqrt_rn",
                                      "rcp64h",
                                      "saturatef",
                                      "fast_dividef",
                                      "exp",
                                      "exp2",
                                      "exp10",
                                      "expm1",
                                      "log",
                                      "log2",
                                      "log10",
                                      "log1p",
                                      "logb",
                                      "sin",
                                      "cos",
                                      "tan",
                                      "sinpi",
                                      "cospi",
                                      "sinh",
                                      "cosh",
                                      "tanh",
                                      "asin",
                                      "acos",
                                      "atan",
                                      "atan2",
                                      "asinh",
                                      "acosh",
                                      "atanh",
                                      "hypot",
                                      "rhypot",
                                      "norm3d",
                                      "rnorm3d",
                                      "norm4d",
                                      "rnorm4d",
                                      "cbrt",
                                      "rcbrt",
                                      "j0",
                                      "j1",
                                      "y0",
                                      "y1",
                                      "jn",
                                      "yn",
                                      "cyl_bessel_i0",
                                      "cyl_bessel_i1",
                                      "erf",
                                      "erfc",
                                      "erfinv",
                                      "erfcinv",
                                      "erfcx",
                                      "normcdf",
                                      "normcdfinv",
                                      "lgamma",
                                      "tgamma",
                                      "ldexp",
                                      "scalbn",
                                      "fmod",
                                      "remainder",
                                      "fma",
                                      "pow",
                                      "copysign",
                                      "nextafter",
                                      "fdim",
                                      "fast_sinf",
                                      "fast_cosf",
                                      "fast_log2f",
                                      "fast_logf",
                                      "fast_expf",
                                      "fast_tanf",
                                      "fast_exp10f",
                                      "fast_log10f",
                                      "fast_powf"};
  return llvm::is_contained(names, name);
}

/// One element of `function` (signature `v`) on `a`.
std::optional<Value64> evaluate(const ld::Function &function,
                                const ld::Variant &v, const Args &a) {
  StringRef name = function.name;
  int mode = roundingMode(name);
  if (mode >= 0 && name != "rsqrt_rn") { // rsqrt_rn: fp32, rounded once
    StringRef base = name.drop_back(3);
    if (base.contains('2'))
      return roundedConversion(base, mode, v, a);
    if (v.result == ld::Type::F32) {
      std::optional<float> r = roundedFloatOp<float>(
          base, mode, float(a.f[0]), float(a.f[1]), float(a.f[2]));
      return r ? std::optional<Value64>(Value64{*r, 0}) : std::nullopt;
    }
    std::optional<double> r =
        roundedFloatOp<double>(base, mode, a.f[0], a.f[1], a.f[2]);
    return r ? std::optional<Value64>(Value64{*r, 0}) : std::nullopt;
  }
  if (!ld::isFloat(v.operands[0]) && !name.contains("2double") &&
      !name.contains("_as_") && name != "hiloint2double" && name != "jn" &&
      name != "yn")
    return integerFunction(name, v, a);
  if (std::optional<Value64> bits = bitFunction(name, a))
    return bits;
  if (!ld::isFloat(v.result))
    return floatPredicate(name, a.f[0]);
  if (!isKnownFloatFunction(name))
    return std::nullopt;
  Args floats = a;
  if (name == "pow" && !ld::isFloat(v.operands[1]))
    floats.f[1] = double(a.i[1]); // powi
  std::optional<double> r = floatFunction(name, floats,
                                          v.operands.back() == ld::Type::F32 ||
                                              v.result == ld::Type::F32);
  return r ? std::optional<Value64>(Value64{*r, 0}) : std::nullopt;
}
} // namespace

LogicalResult runExternElementwise(Interpreter &I, Operation *op) {
  auto extern_ = cast<ExternElementwiseOp>(op);
  auto [function, variant] = ld::lookupSymbol(extern_.getSymbol());
  if (!variant)
    return I.error(op) << "the interpreter has no implementation of '"
                       << extern_.getSymbol() << "'";
  SmallVector<const Array *> operands;
  for (Value operand : op->getOperands())
    operands.push_back(&I.get(operand));
  ArrayRef<int64_t> shape = resultShape(operands);
  Elem result = classify(op->getResult(0).getType());
  Array out = Array::make(result.isFloat(), shape);
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    Args args;
    for (auto [index, operand] : llvm::enumerate(operands)) {
      int64_t at = operand->size() > 1 ? k : 0;
      ld::Type type = variant->operands[index];
      if (ld::isFloat(type)) {
        args.f[index] = operand->f[at];
      } else {
        unsigned width = ld::getWidth(type);
        uint64_t bits = truncBits(operand->i[at], width);
        args.i[index] =
            ld::isUnsigned(type) ? int64_t(bits) : signExtend(bits, width);
      }
    }
    std::optional<Value64> value = evaluate(*function, *variant, args);
    if (!value)
      return I.error(op) << "the interpreter has no implementation of '"
                         << extern_.getSymbol() << "'";
    if (result.isFloat())
      out.f[k] = roundTo(result.kind, value->f);
    else
      out.i[k] = truncBits(value->i, result.width);
  }
  I.set(op->getResult(0), std::move(out));
  return success();
}

} // namespace mlir::tile::interp::detail
