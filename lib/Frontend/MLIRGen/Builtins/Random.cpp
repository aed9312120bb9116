//===- Random.cpp - Triton's Philox random numbers ------------------------===//
//
// triton.language's random numbers (triton/language/random.py of Triton 3.4
// and later), emitted as the composites Triton's own library is: Philox-4x32
// (or 4x64) rounds of tl.umulhi, multiplications, xors and key increments,
// the uint-to-[0, 1) conversion and the Box-Muller transform. Every step goes
// through the emitter's operators, so types, signedness and broadcasting
// follow Triton's promotion exactly as the Python source would:
//
//   philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=10)   uint32/uint64 state
//   philox(seed, c0, c1, c2, c3, n_rounds=10)   seed split into the key
//   randint(seed, offset, ...), randint4x(...)   uint32 words of Philox
//       with counter (offset's low word, its high word for 64-bit offsets,
//       0, 0) and key (seed's low word, its high word)
//   rand, rand4x, randn, randn4x   fp32 in [0, 1) and N(0, 1)
//   uint_to_uniform_float(x), pair_uniform_to_normal(u1, u2)
//
// Nothing here is a new op: the results run wherever the ops they are made
// of run (the interpreter and the GPU).
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {
using Result = KernelEmitter::Result;

/// Triton's N_ROUNDS_DEFAULT.
constexpr int64_t kDefaultRounds = 10;
/// Rounds are unrolled (tl.static_range); more than this is refused rather
/// than emitted.
constexpr int64_t kMaxRounds = 128;

/// Philox's constants for one word size.
struct PhiloxConstants {
  uint64_t keyA, keyB, roundA, roundB;
};
constexpr PhiloxConstants kPhilox32 = {0x9E3779B9, 0xBB67AE85, 0xD2511F53,
                                       0xCD9E8D57};
constexpr PhiloxConstants kPhilox64 = {0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B,
                                       0xD2E7470EE14C6C93, 0xCA5A826395121157};

/// The emitter's operators at one call's location, each step of Triton's
/// random.py one method.
class RandomEmitter {
public:
  RandomEmitter(KernelEmitter &e, const BuiltinCall &c)
      : e(e), c(c), loc(c.getLoc()) {}

  Result binary(ast::BinaryOp op, const PyValue &a, const PyValue &b) {
    return e.emitBinary(op, a, b, loc);
  }

  /// `x.to(dtype, bitcast=...)`.
  Result to(const PyValue &x, mlir::Type type, bool isUnsigned,
            bool bitcast = false) {
    return e.emitCast(x, PyValue::dtype(type, isUnsigned), bitcast, loc,
                      c.displayName);
  }

  /// A math builtin (`tl.umulhi`, `tl.log`...) on runtime operands.
  Result math(llvm::StringRef name, llvm::ArrayRef<PyValue> operands) {
    KernelEmitter::CallArgs args;
    args.values.assign(operands.begin(), operands.end());
    args.present.assign(operands.size(), true);
    args.locs.assign(operands.size(), loc);
    return e.emitMath(name, args, c.call, ("tl." + name).str());
  }

  /// An unsigned scalar constant of `bits` bits (Philox's constants do not
  /// all fit Python's int64 literals; as runtime uint scalars they promote
  /// with the state as Triton's uint constexprs do).
  PyValue unsignedConstant(uint64_t value, unsigned bits) {
    mlir::Type type = e.builder.getIntegerType(bits);
    return PyValue::runtime(
        e.materialize(PyValue::integer(static_cast<int64_t>(value)), type,
                      /*asBlock=*/false, {}, e.getLoc(loc)),
        /*isUnsigned=*/true);
  }

  std::optional<int64_t> rounds(size_t index) {
    if (!c.args.present[index])
      return kDefaultRounds;
    const PyValue &n = c.args.values[index];
    if (n.kind != PyValue::Kind::Int || n.intValue < 0 ||
        n.intValue > kMaxRounds)
      return e.error(c.args.locs[index],
                     c.displayName +
                         "() 'n_rounds' must be a compile-time "
                         "integer in [0, " +
                         std::to_string(kMaxRounds) + "], got " + describe(n));
    return n.intValue;
  }

  /// philox_impl: n rounds on the state (c0, c1, c2, c3) with key (k0, k1).
  Result philoxImpl(std::array<PyValue, 4> state, PyValue k0, PyValue k1,
                    int64_t nRounds, const ast::Location &stateLoc) {
    const PyValue &c0 = state[0];
    mlir::Type type = c0.isRuntime() ? getElementType(c0.value) : nullptr;
    bool is32 = type && type.isInteger(32) && c0.isUnsigned;
    bool is64 = type && type.isInteger(64) && c0.isUnsigned;
    if (!is32 && !is64)
      return e.error(stateLoc, c.displayName +
                                   "() needs a uint32 or uint64 state "
                                   "(dtype not supported in philox_impl), "
                                   "got " +
                                   describe(c0));
    const PhiloxConstants &k = is32 ? kPhilox32 : kPhilox64;
    unsigned bits = is32 ? 32 : 64;
    PyValue roundA = unsignedConstant(k.roundA, bits);
    PyValue roundB = unsignedConstant(k.roundB, bits);
    PyValue keyA = unsignedConstant(k.keyA, bits);
    PyValue keyB = unsignedConstant(k.keyB, bits);
    using ast::BinaryOp;
    auto &[s0, s1, s2, s3] = state;
    for (int64_t round = 0; round < nRounds; ++round) {
      PyValue old0 = s0, old2 = s2;
      Result hiB = math("umulhi", {roundB, old2});
      if (!hiB)
        return std::nullopt;
      Result x = binary(BinaryOp::BitXor, *hiB, s1);
      if (!x || !(x = binary(BinaryOp::BitXor, *x, k0)))
        return std::nullopt;
      Result hiA = math("umulhi", {roundA, old0});
      if (!hiA)
        return std::nullopt;
      Result z = binary(BinaryOp::BitXor, *hiA, s3);
      if (!z || !(z = binary(BinaryOp::BitXor, *z, k1)))
        return std::nullopt;
      Result y = binary(BinaryOp::Mul, roundB, old2);
      Result w = binary(BinaryOp::Mul, roundA, old0);
      Result nextK0 = binary(BinaryOp::Add, k0, keyA);
      Result nextK1 = binary(BinaryOp::Add, k1, keyB);
      if (!y || !w || !nextK0 || !nextK1)
        return std::nullopt;
      s0 = *x, s1 = *y, s2 = *z, s3 = *w;
      k0 = *nextK0, k1 = *nextK1;
    }
    return PyValue::tuple({s0, s1, s2, s3});
  }

  /// philox: the seed becomes the key; the counters are reinterpreted as
  /// unsigned words of c0's width.
  Result philox(const PyValue &seedArg, llvm::ArrayRef<PyValue> counters,
                llvm::ArrayRef<ast::Location> counterLocs, int64_t nRounds,
                const ast::Location &seedLoc) {
    std::optional<PyValue> seed = e.toRuntime(seedArg, seedLoc);
    if (!seed)
      return std::nullopt;
    mlir::Type seedType = getElementType(seed->value);
    if (!isInteger(seedType) || isBool(seedType))
      return e.error(seedLoc, c.displayName +
                                  "() 'seed' must be an integer scalar or "
                                  "block, got " +
                                  describe(*seed));
    mlir::Type i32 = e.builder.getI32Type(), i64 = e.builder.getI64Type();
    Result seed64 = to(*seed, i64, /*isUnsigned=*/true);
    if (!seed64)
      return std::nullopt;
    std::array<PyValue, 4> state;
    for (size_t i = 0; i < 4; ++i) {
      std::optional<PyValue> counter = e.toRuntime(counters[i], counterLocs[i]);
      if (!counter)
        return std::nullopt;
      state[i] = *counter;
    }
    mlir::Type c0Type = getElementType(state[0].value);
    unsigned width = c0Type.isIntOrFloat() ? c0Type.getIntOrFloatBitWidth() : 0;
    if (width != 32 && width != 64)
      return e.error(counterLocs[0], c.displayName +
                                         "() needs 32- or 64-bit counters "
                                         "(bitwidth not supported in "
                                         "philox), got " +
                                         describe(state[0]));
    using ast::BinaryOp;
    PyValue seedLo, seedHi;
    if (width == 32) {
      PyValue lowMask = PyValue::integer(0xffffffff);
      Result hi = binary(BinaryOp::RShift, *seed64, PyValue::integer(32));
      if (!hi || !(hi = binary(BinaryOp::BitAnd, *hi, lowMask)) ||
          !(hi = to(*hi, i32, true)))
        return std::nullopt;
      Result lo = binary(BinaryOp::BitAnd, *seed64, lowMask);
      if (!lo || !(lo = to(*lo, i32, true)))
        return std::nullopt;
      seedLo = *lo, seedHi = *hi;
    } else {
      // tl.full((1,), 0, dtype=tl.uint64), as Triton's library writes it.
      seedHi =
          PyValue::runtime(e.materialize(PyValue::integer(0), i64,
                                         /*asBlock=*/true, {1}, e.getLoc(loc)),
                           /*isUnsigned=*/true);
      seedLo = *seed64;
    }
    mlir::Type word = width == 32 ? i32 : i64;
    for (PyValue &counter : state) {
      Result cast = to(counter, word, /*isUnsigned=*/true, /*bitcast=*/true);
      if (!cast)
        return std::nullopt;
      counter = *cast;
    }
    return philoxImpl(state, seedLo, seedHi, nRounds, counterLocs[0]);
  }

  /// randint4x: four uint32 words for each offset.
  Result randint4x(const PyValue &seed, const PyValue &offsetArg,
                   int64_t nRounds, const ast::Location &seedLoc,
                   const ast::Location &offsetLoc) {
    std::optional<PyValue> offset = e.toRuntime(offsetArg, offsetLoc);
    if (!offset)
      return std::nullopt;
    mlir::Type offsetType = getElementType(offset->value);
    if (!isInteger(offsetType) || isBool(offsetType))
      return e.error(offsetLoc, c.displayName +
                                    "() 'offset' must be an integer scalar "
                                    "or block, got " +
                                    describe(*offset));
    mlir::Type i32 = e.builder.getI32Type();
    using ast::BinaryOp;
    Result lo = to(*offset, i32, /*isUnsigned=*/true);
    if (!lo)
      return std::nullopt;
    Result zero = binary(BinaryOp::Mul, *lo, PyValue::integer(0));
    if (!zero)
      return std::nullopt;
    PyValue hi = *zero;
    if (offsetType.getIntOrFloatBitWidth() > 32) {
      Result shifted = binary(BinaryOp::RShift, *offset, PyValue::integer(32));
      if (!shifted || !(shifted = to(*shifted, i32, true)))
        return std::nullopt;
      hi = *shifted;
    }
    ast::Location locs[4] = {offsetLoc, offsetLoc, offsetLoc, offsetLoc};
    return philox(seed, {*lo, hi, *zero, *zero}, locs, nRounds, seedLoc);
  }

  /// uint_to_uniform_float: a random 32- or 64-bit word to fp32 in [0, 1).
  Result uniform(const PyValue &word, const ast::Location &wordLoc) {
    mlir::Type type = word.isRuntime() ? getElementType(word.value) : nullptr;
    bool is32 = type && type.isInteger(32), is64 = type && type.isInteger(64);
    if (!is32 && !is64)
      return e.error(wordLoc, c.displayName +
                                  "() needs int32, uint32, int64 or uint64 "
                                  "values, got " +
                                  describe(word));
    using ast::BinaryOp;
    // The largest scale with MAX_INT * scale < 1.0 in fp32.
    double scale = is32 ? 4.6566127342e-10 : 1.0842020432385337e-19;
    Result x = to(word, type, /*isUnsigned=*/false, /*bitcast=*/true);
    if (!x)
      return std::nullopt;
    Result negative =
        e.emitRuntimeCompare(ast::CompareOp::Lt, *x, PyValue::integer(0), loc);
    Result flipped = binary(BinaryOp::Sub, PyValue::integer(0), *x);
    if (!negative || !flipped ||
        !(flipped = binary(BinaryOp::Sub, *flipped, PyValue::integer(1))))
      return std::nullopt;
    Result folded = e.emitWhere(*negative, *flipped, *x, loc);
    if (!folded)
      return std::nullopt;
    return binary(BinaryOp::Mul, *folded, PyValue::floating(scale));
  }

  /// pair_uniform_to_normal: the Box-Muller transform of two uniforms.
  Result normalPair(const PyValue &u1Arg, const PyValue &u2) {
    using ast::BinaryOp;
    Result u1 = e.emitMinMax(/*isMax=*/true, PyValue::floating(1.0e-7), u1Arg,
                             /*propagateNan=*/false, loc);
    if (!u1)
      return std::nullopt;
    Result th = binary(BinaryOp::Mul, PyValue::floating(6.283185307179586), u2);
    Result log = math("log", {*u1});
    if (!th || !log)
      return std::nullopt;
    Result r = binary(BinaryOp::Mul, PyValue::floating(-2.0), *log);
    if (!r || !(r = math("sqrt", {*r})))
      return std::nullopt;
    Result cos = math("cos", {*th});
    Result sin = math("sin", {*th});
    if (!cos || !sin)
      return std::nullopt;
    Result n1 = binary(BinaryOp::Mul, *r, *cos);
    Result n2 = binary(BinaryOp::Mul, *r, *sin);
    if (!n1 || !n2)
      return std::nullopt;
    return PyValue::tuple({*n1, *n2});
  }

  /// The uniforms of rand4x (of each word of a tuple).
  Result uniform4x(const PyValue &words) {
    std::vector<PyValue> u;
    for (const PyValue &w : words.elements) {
      Result f = uniform(w, loc);
      if (!f)
        return std::nullopt;
      u.push_back(*f);
    }
    return PyValue::tuple(std::move(u));
  }

  KernelEmitter &e;
  const BuiltinCall &c;
  const ast::Location &loc;
};

/// randint, randint4x, rand, rand4x, randn, randn4x: (seed, offset,
/// n_rounds).
Result emitRandomCall(KernelEmitter &e, const BuiltinCall &c) {
  RandomEmitter r(e, c);
  const auto &args = c.args;
  std::optional<int64_t> nRounds = r.rounds(2);
  if (!nRounds)
    return std::nullopt;
  Result words = r.randint4x(args.values[0], args.values[1], *nRounds,
                             args.locs[0], args.locs[1]);
  if (!words)
    return std::nullopt;
  llvm::StringRef name = c.name;
  if (name == "randint4x")
    return words;
  if (name == "randint")
    return words->elements[0];
  if (name == "rand")
    return r.uniform(words->elements[0], c.getLoc());
  // randn uses the first two words only.
  if (name == "randn")
    words->elements.resize(2);
  Result uniforms = r.uniform4x(*words);
  if (!uniforms || name == "rand4x")
    return uniforms;
  const std::vector<PyValue> &u = uniforms->elements;
  Result first = r.normalPair(u[0], u[1]);
  if (!first || name == "randn")
    return first ? std::optional<PyValue>(first->elements[0]) : std::nullopt;
  Result second = r.normalPair(u[2], u[3]);
  if (!second)
    return std::nullopt;
  return PyValue::tuple({first->elements[0], first->elements[1],
                         second->elements[0], second->elements[1]});
}

/// philox(seed, c0, c1, c2, c3, n_rounds).
Result emitPhiloxCall(KernelEmitter &e, const BuiltinCall &c) {
  RandomEmitter r(e, c);
  const auto &args = c.args;
  std::optional<int64_t> nRounds = r.rounds(5);
  if (!nRounds)
    return std::nullopt;
  return r.philox(args.values[0], llvm::ArrayRef(args.values).slice(1, 4),
                  llvm::ArrayRef(args.locs).slice(1, 4), *nRounds,
                  args.locs[0]);
}

/// philox_impl(c0, c1, c2, c3, k0, k1, n_rounds).
Result emitPhiloxImplCall(KernelEmitter &e, const BuiltinCall &c) {
  RandomEmitter r(e, c);
  const auto &args = c.args;
  std::optional<int64_t> nRounds = r.rounds(6);
  if (!nRounds)
    return std::nullopt;
  std::array<PyValue, 4> state = {args.values[0], args.values[1],
                                  args.values[2], args.values[3]};
  return r.philoxImpl(state, args.values[4], args.values[5], *nRounds,
                      args.locs[0]);
}

Result emitUniformCall(KernelEmitter &e, const BuiltinCall &c) {
  RandomEmitter r(e, c);
  return r.uniform(c.args.values[0], c.args.locs[0]);
}

Result emitNormalPairCall(KernelEmitter &e, const BuiltinCall &c) {
  RandomEmitter r(e, c);
  return r.normalPair(c.args.values[0], c.args.values[1]);
}
} // namespace

llvm::ArrayRef<Builtin> getRandomBuiltins() {
  static const std::vector<BuiltinParam> seedOffset = {
      {"seed", true}, {"offset", true}, {"n_rounds", false}};
  static const Builtin builtins[] = {
      {"randint", seedOffset, emitRandomCall, kNeedsIR},
      {"randint4x", seedOffset, emitRandomCall, kNeedsIR},
      {"rand", seedOffset, emitRandomCall, kNeedsIR},
      {"rand4x",
       {{"seed", true}, {"offsets", true}, {"n_rounds", false}},
       emitRandomCall,
       kNeedsIR},
      {"randn", seedOffset, emitRandomCall, kNeedsIR},
      {"randn4x", seedOffset, emitRandomCall, kNeedsIR},
      {"philox",
       {{"seed", true},
        {"c0", true},
        {"c1", true},
        {"c2", true},
        {"c3", true},
        {"n_rounds", false}},
       emitPhiloxCall,
       kNeedsIR},
      {"philox_impl",
       {{"c0", true},
        {"c1", true},
        {"c2", true},
        {"c3", true},
        {"k0", true},
        {"k1", true},
        {"n_rounds", false}},
       emitPhiloxImplCall,
       kNeedsIR},
      {"uint_to_uniform_float", {{"x", true}}, emitUniformCall, kNeedsIR},
      {"pair_uniform_to_normal",
       {{"u1", true}, {"u2", true}},
       emitNormalPairCall,
       kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
