//===- OpTable.cpp - the table of ops the interpreter runs ----------------===//
//
// One table maps every op name the interpreter executes to its handler; it
// is also the list getHandledOpNames and verifyInterpretable report. A
// second names the ops it refuses with a diagnostic (inline PTX). The
// plain elementwise ops of arith, math and tile are defined here by their
// scalar expression, with the GPU's integer semantics (division without
// traps, shifts as PTX); the others point to their family's file.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// IEEE maximum/minimum: NaN propagates, -0 < +0.
static double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
/// IEEE maximumNumber/minimumNumber: a NaN operand gives the other, and
/// -0 < +0 (std::fmax leaves the zeros' order to the C library or to the
/// instruction the compiler inlines, so results would differ by build).
static double maxNumF(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : maximumF(a, b);
}
static double minNumF(double a, double b) {
  return std::isnan(a) ? b : std::isnan(b) ? a : minimumF(a, b);
}

// Integer division as the GPU does it without trapping: by zero gives all
// ones (div) or the dividend (rem); INT_MIN / -1 wraps.
static uint64_t divSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0)
    return ~uint64_t(0);
  if (y == -1)
    return uint64_t(0) - uint64_t(x);
  return uint64_t(x / y);
}
static uint64_t remSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0)
    return a;
  if (y == -1)
    return 0;
  return uint64_t(x % y);
}
static uint64_t floorDivSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0 || y == -1)
    return divSigned(a, b, w);
  int64_t q = x / y;
  return uint64_t((x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q);
}
static uint64_t ceilDivSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w), y = signExtend(b, w);
  if (y == 0 || y == -1)
    return divSigned(a, b, w);
  int64_t q = x / y;
  return uint64_t((x % y != 0 && ((x < 0) == (y < 0))) ? q + 1 : q);
}

/// Shifts as PTX: amounts of the width or more give 0 (or the sign).
static uint64_t shiftLeft(uint64_t a, uint64_t b, unsigned w) {
  return b >= w ? 0 : a << b;
}
static uint64_t shiftRightUnsigned(uint64_t a, uint64_t b, unsigned w) {
  return b >= w ? 0 : a >> b;
}
static uint64_t shiftRightSigned(uint64_t a, uint64_t b, unsigned w) {
  int64_t x = signExtend(a, w);
  return uint64_t(b >= w ? (x < 0 ? -1 : 0) : x >> b);
}

static uint64_t mulHigh(uint64_t a, uint64_t b, unsigned w) {
  if (w == 64)
    return uint64_t((unsigned __int128)a * b >> 64);
  return (a * b) >> w; // w <= 32: the product fits
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

#define FLOAT_UNARY(NAME, EXPR)                                                \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return floatUnary(I, op, [](double x) { return EXPR; });                 \
    }                                                                          \
  }
#define FLOAT_BINARY(NAME, EXPR)                                               \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return floatBinary(I, op, [](double a, double b) { return EXPR; });      \
    }                                                                          \
  }
#define INT_BINARY(NAME, EXPR)                                                 \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return intBinary(I, op,                                                  \
                       [](uint64_t a, uint64_t b, unsigned w) -> uint64_t {    \
                         (void)w;                                              \
                         return EXPR;                                          \
                       });                                                     \
    }                                                                          \
  }
#define INT_UNARY(NAME, EXPR)                                                  \
  {                                                                            \
    NAME, [](Interpreter &I, Operation *op) {                                  \
      return intUnary(I, op, [](uint64_t a, unsigned w) -> uint64_t {          \
        (void)w;                                                               \
        return EXPR;                                                           \
      });                                                                      \
    }                                                                          \
  }
#define NO_OP(NAME)                                                            \
  {                                                                            \
    NAME, [](Interpreter &, Operation *) { return success(); }                 \
  }

static int64_t sx(uint64_t v, unsigned w) { return signExtend(v, w); }

const llvm::StringMap<Handler> &getHandlers() {
  static const llvm::StringMap<Handler> handlers = {
      // tile
      {"tile.program_id", runProgramId},
      {"tile.num_programs", runNumPrograms},
      {"tile.make_range", runMakeRange},
      {"tile.splat", runSplat},
      {"tile.addptr", runAddPtr},
      {"tile.load", runLoad},
      {"tile.store", runStore},
      {"tile.broadcast", runBroadcast},
      {"tile.expand_dims", runReshapeLike},
      {"tile.reshape", runReshapeLike},
      {"tile.trans", runTrans},
      {"tile.cat", runCat},
      {"tile.join", runJoin},
      {"tile.split", runSplit},
      {"tile.gather", runGather},
      {"tile.histogram", runHistogram},
      {"tile.dot", runDot},
      {"tile.extern_elementwise", runExternElementwise},
      {"tile.reduce", runReduce},
      {"tile.scan", runScan},
      {"tile.atomic_rmw", runAtomicRMW},
      {"tile.atomic_cas", runAtomicCAS},
      INT_BINARY("tile.umulhi", mulHigh(a, b, w)),
      FLOAT_UNARY("tile.precise_sqrt", std::sqrt(x)),
      FLOAT_BINARY("tile.precise_divf", a / b),
      {"tile.clampf",
       [](Interpreter &I, Operation *op) {
         bool propagateNan = cast<ClampFOp>(op).getPropagateNan();
         return floatTernary(I, op, [&](double x, double lo, double hi) {
           if (propagateNan && std::isnan(x))
             return x;
           return std::fmin(std::fmax(x, lo), hi);
         });
       }},
      INT_UNARY("tile.int_to_ptr", a),
      INT_UNARY("tile.ptr_to_int", a),
      INT_UNARY("tile.ptr_cast", a),
      {"tile.print", runPrint},
      {"tile.assert", runAssert},
      // Programs are single blocks evaluated op by op: nothing to wait for.
      NO_OP("tile.debug_barrier"),
      // The terminators of combine regions (runBlock returns at them).
      NO_OP("tile.reduce_return"),
      NO_OP("tile.scan_return"),

      // arith
      {"arith.constant", runConstant},
      FLOAT_BINARY("arith.addf", a + b),
      FLOAT_BINARY("arith.subf", a - b),
      FLOAT_BINARY("arith.mulf", a * b),
      FLOAT_BINARY("arith.divf", a / b),
      FLOAT_BINARY("arith.remf", std::fmod(a, b)),
      FLOAT_BINARY("arith.maxnumf", maxNumF(a, b)),
      FLOAT_BINARY("arith.minnumf", minNumF(a, b)),
      FLOAT_BINARY("arith.maximumf", maximumF(a, b)),
      FLOAT_BINARY("arith.minimumf", minimumF(a, b)),
      FLOAT_UNARY("arith.negf", -x),
      INT_BINARY("arith.addi", a + b),
      INT_BINARY("arith.subi", a - b),
      INT_BINARY("arith.muli", a * b),
      INT_BINARY("arith.divsi", divSigned(a, b, w)),
      INT_BINARY("arith.divui", b ? a / b : ~uint64_t(0)),
      INT_BINARY("arith.remsi", remSigned(a, b, w)),
      INT_BINARY("arith.remui", b ? a % b : a),
      INT_BINARY("arith.ceildivsi", ceilDivSigned(a, b, w)),
      INT_BINARY("arith.ceildivui", b ? a / b + (a % b != 0) : ~uint64_t(0)),
      INT_BINARY("arith.floordivsi", floorDivSigned(a, b, w)),
      INT_BINARY("arith.andi", a & b),
      INT_BINARY("arith.ori", a | b),
      INT_BINARY("arith.xori", a ^ b),
      INT_BINARY("arith.shli", shiftLeft(a, b, w)),
      INT_BINARY("arith.shrsi", shiftRightSigned(a, b, w)),
      INT_BINARY("arith.shrui", shiftRightUnsigned(a, b, w)),
      INT_BINARY("arith.maxsi", sx(a, w) > sx(b, w) ? a : b),
      INT_BINARY("arith.minsi", sx(a, w) < sx(b, w) ? a : b),
      INT_BINARY("arith.maxui", std::max(a, b)),
      INT_BINARY("arith.minui", std::min(a, b)),
      INT_BINARY("arith.mulhisi",
                 uint64_t((__int128)sx(a, w) * sx(b, w) >> w)),
      INT_BINARY("arith.mulhiui", mulHigh(a, b, w)),
      {"arith.cmpi", runCmpI},
      {"arith.cmpf", runCmpF},
      {"arith.select", runSelect},
      {"arith.extf", runFloatToFloat},
      {"arith.truncf", runFloatToFloat},
      {"arith.sitofp",
       [](Interpreter &I, Operation *op) { return runIntToFloat(I, op, true); }},
      {"arith.uitofp",
       [](Interpreter &I, Operation *op) {
         return runIntToFloat(I, op, false);
       }},
      {"arith.fptosi",
       [](Interpreter &I, Operation *op) { return runFloatToInt(I, op, true); }},
      {"arith.fptoui",
       [](Interpreter &I, Operation *op) {
         return runFloatToInt(I, op, false);
       }},
      {"arith.extsi",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, true); }},
      {"arith.extui",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.trunci",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.index_cast",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, true); }},
      {"arith.index_castui",
       [](Interpreter &I, Operation *op) { return runIntToInt(I, op, false); }},
      {"arith.bitcast", runBitcast},

      // math
      FLOAT_UNARY("math.exp", std::exp(x)),
      FLOAT_UNARY("math.exp2", std::exp2(x)),
      FLOAT_UNARY("math.expm1", std::expm1(x)),
      FLOAT_UNARY("math.log", std::log(x)),
      FLOAT_UNARY("math.log2", std::log2(x)),
      FLOAT_UNARY("math.log10", std::log10(x)),
      FLOAT_UNARY("math.log1p", std::log1p(x)),
      FLOAT_UNARY("math.sqrt", std::sqrt(x)),
      FLOAT_UNARY("math.rsqrt", 1.0 / std::sqrt(x)),
      FLOAT_UNARY("math.cbrt", std::cbrt(x)),
      FLOAT_UNARY("math.absf", std::fabs(x)),
      FLOAT_UNARY("math.sin", std::sin(x)),
      FLOAT_UNARY("math.cos", std::cos(x)),
      FLOAT_UNARY("math.tan", std::tan(x)),
      FLOAT_UNARY("math.asin", std::asin(x)),
      FLOAT_UNARY("math.acos", std::acos(x)),
      FLOAT_UNARY("math.atan", std::atan(x)),
      FLOAT_UNARY("math.sinh", std::sinh(x)),
      FLOAT_UNARY("math.cosh", std::cosh(x)),
      FLOAT_UNARY("math.tanh", std::tanh(x)),
      FLOAT_UNARY("math.erf", std::erf(x)),
      FLOAT_UNARY("math.erfc", std::erfc(x)),
      FLOAT_UNARY("math.floor", std::floor(x)),
      FLOAT_UNARY("math.ceil", std::ceil(x)),
      FLOAT_UNARY("math.round", std::round(x)),
      FLOAT_UNARY("math.roundeven", std::nearbyint(x)),
      FLOAT_UNARY("math.trunc", std::trunc(x)),
      FLOAT_BINARY("math.powf", std::pow(a, b)),
      FLOAT_BINARY("math.atan2", std::atan2(a, b)),
      FLOAT_BINARY("math.copysign", std::copysign(a, b)),
      {"math.fma",
       [](Interpreter &I, Operation *op) {
         return floatTernary(I, op, [](double a, double b, double c) {
           return std::fma(a, b, c);
         });
       }},
      INT_UNARY("math.absi", uint64_t(std::abs(sx(a, w)))),
      INT_UNARY("math.ctpop", uint64_t(llvm::popcount(a))),
      INT_UNARY("math.ctlz", a ? uint64_t(llvm::countl_zero(a)) - (64 - w)
                               : uint64_t(w)),
      INT_UNARY("math.cttz", a ? uint64_t(llvm::countr_zero(a)) : uint64_t(w)),

      // scf and func
      {"scf.for", runFor},
      {"scf.if", runIf},
      {"scf.while", runWhile},
      NO_OP("scf.yield"),
      NO_OP("scf.condition"),
      NO_OP("func.return"),
  };
  return handlers;
}

const llvm::StringMap<std::string> &getRefusedOps() {
  static const llvm::StringMap<std::string> refused = {
      {"tile.inline_asm_elementwise",
       "tl.inline_asm_elementwise cannot run in the interpreter (its PTX "
       "runs on the GPU only)"},
  };
  return refused;
}

#undef FLOAT_UNARY
#undef FLOAT_BINARY
#undef INT_BINARY
#undef INT_UNARY
#undef NO_OP

} // namespace mlir::tile::interp::detail
