//===- Standard.cpp - Builtins composed from other ops --------------------===//
//
// The builtins Triton writes in its standard library on top of other ops,
// composed here from the same ops with the same algorithms, so that they
// give Triton's results (ties and NaNs included) and run wherever those ops
// run:
//
//   sort(x, dim, descending)  a bitonic sorting network on the last axis,
//                             viewed as a hypercube of 2s: each
//                             compare-and-swap finds its partner with an
//                             xor_sum over one axis of 2 and keeps
//                             where((x > y) != (flip ^ is_right), y, x)
//   topk(x, k, dim)           the same network sorting runs of k, then
//                             halving with max and merging (descending)
//   flip(x, dim)              xor_sum swaps along each axis of 2 of `dim`
//   interleave(a, b)          join, then reshape
//   swizzle2d(i, j, ...)      integer arithmetic
//   to_tensor(x)              a number as a scalar of Triton's type for it
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

#include <cmath>
#include <limits>

namespace tile::frontend::mlirgen {

namespace {

/// Emits the ops the compositions share, at one location.
class Composer {
public:
  Composer(KernelEmitter &e, mlir::Location loc)
      : e(e), b(e.builder), loc(loc) {}

  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape) {
    if (getShape(v) == shape)
      return v;
    if (!isBlock(v))
      return e.broadcastTo(v, shape, loc);
    return mlir::tile::ReshapeOp::create(
        b, loc, mlir::RankedTensorType::get(shape, getElementType(v)), v,
        /*canReorder=*/false);
  }

  mlir::Value bitcast(mlir::Value v, mlir::Type element) {
    if (getElementType(v) == element)
      return v;
    return arith::BitcastOp::create(
        b, loc, mlir::tile::withElementType(v.getType(), element), v);
  }

  /// xor_sum(v, axis, keep_dims=True), broadcast back to v's shape.
  mlir::Value xorSumBroadcast(mlir::Value v, int64_t axis) {
    llvm::SmallVector<int64_t> shape(getShape(v));
    auto reduced = e.buildReduce(
        {v}, axis,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          return llvm::SmallVector<mlir::Value>{
              arith::XOrIOp::create(b, loc, a[0], a[1])};
        },
        loc);
    mlir::Value r = (*reduced)[0];
    llvm::SmallVector<int64_t> kept(shape);
    kept[axis] = 1;
    if (isBlock(r))
      r = mlir::tile::ExpandDimsOp::create(
          b, loc, mlir::RankedTensorType::get(kept, getElementType(v)), r,
          b.getI32IntegerAttr(axis));
    return e.broadcastTo(r, shape, loc);
  }

  /// Max (or min) along `axis`: Triton's tl.max/tl.min without indices
  /// (maxnumf on floats, signedness on integers).
  mlir::Value reduceMinMax(mlir::Value v, bool isMax, bool isUnsigned,
                           int64_t axis) {
    mlir::Type element = getElementType(v);
    auto reduced = e.buildReduce(
        {v}, axis,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          mlir::Value r;
          if (isFloat(element))
            r = isMax
                    ? mlir::Value(arith::MaxNumFOp::create(b, loc, a[0], a[1]))
                    : mlir::Value(arith::MinNumFOp::create(b, loc, a[0], a[1]));
          else if (isUnsigned || isBool(element))
            r = isMax ? mlir::Value(arith::MaxUIOp::create(b, loc, a[0], a[1]))
                      : mlir::Value(arith::MinUIOp::create(b, loc, a[0], a[1]));
          else
            r = isMax ? mlir::Value(arith::MaxSIOp::create(b, loc, a[0], a[1]))
                      : mlir::Value(arith::MinSIOp::create(b, loc, a[0], a[1]));
          return llvm::SmallVector<mlir::Value>{r};
        },
        loc);
    return (*reduced)[0];
  }

  /// An i1 block of rank `rank`, all 1s but axis rank - 1 - j, which holds
  /// (false, true): whether an element is the right one of its pair along
  /// the j-th innermost axis.
  mlir::Value indicator(int64_t rank, int64_t j) {
    mlir::Value range = mlir::tile::MakeRangeOp::create(
        b, loc, mlir::RankedTensorType::get({2}, b.getI32Type()),
        b.getI32IntegerAttr(0), b.getI32IntegerAttr(2));
    mlir::Value zero = e.materialize(PyValue::integer(0), b.getI32Type(),
                                     /*asBlock=*/true, {2}, loc);
    mlir::Value bits =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, range, zero);
    int64_t axis = rank - 1 - j;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      llvm::SmallVector<int64_t> shape(getShape(bits));
      shape.insert(shape.begin() + d, 1);
      bits = mlir::tile::ExpandDimsOp::create(
          b, loc, mlir::RankedTensorType::get(shape, b.getI1Type()), bits,
          b.getI32IntegerAttr(d));
    }
    return bits;
  }

  mlir::Value boolConstant(bool value, llvm::ArrayRef<int64_t> shape) {
    return e.materialize(PyValue::boolean(value), b.getI1Type(),
                         /*asBlock=*/true, shape, loc);
  }

  /// Compare-and-swap along the i-th innermost axis of the hypercube `x`:
  /// each element meets its partner y and keeps y where
  /// (x > y) != (flip ^ is_right), as Triton's _compare_and_swap.
  mlir::Value compareAndSwap(mlir::Value x, bool isUnsigned,
                             mlir::Value flipBits, bool flipConstant,
                             int64_t i) {
    llvm::SmallVector<int64_t> shape(getShape(x));
    int64_t rank = shape.size();
    mlir::Type element = getElementType(x);
    mlir::Type intType = b.getIntegerType(element.getIntOrFloatBitWidth());
    mlir::Value ix = bitcast(x, intType);
    mlir::Value iy =
        arith::XOrIOp::create(b, loc, ix, xorSumBroadcast(ix, rank - 1 - i));
    mlir::Value y = bitcast(iy, element);
    mlir::Value greater;
    if (isFloat(element))
      greater = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
    else
      greater = arith::CmpIOp::create(b, loc,
                                      isUnsigned || isBool(element)
                                          ? arith::CmpIPredicate::ugt
                                          : arith::CmpIPredicate::sgt,
                                      x, y);
    mlir::Value right = e.broadcastTo(indicator(rank, i), shape, loc);
    mlir::Value flip = flipBits ? e.broadcastTo(flipBits, shape, loc)
                                : boolConstant(flipConstant, shape);
    mlir::Value side = arith::XOrIOp::create(b, loc, flip, right);
    mlir::Value swap = arith::XOrIOp::create(b, loc, greater, side);
    return arith::SelectOp::create(b, loc, swap, y, x);
  }

  /// Triton's _bitonic_merge_hypercube: `stage` rounds of compare-and-swap
  /// on the innermost axes; order 0 ascending, 1 descending, 2 alternating
  /// along axis `stage`.
  mlir::Value bitonicMerge(mlir::Value h, bool isUnsigned, int64_t stage,
                           int order) {
    int64_t rank = getShape(h).size();
    mlir::Value flipBits = order == 2 ? indicator(rank, stage) : mlir::Value();
    for (int64_t i = 0; i < stage; ++i)
      h = compareAndSwap(h, isUnsigned, flipBits, order == 1, stage - 1 - i);
    return h;
  }

  KernelEmitter &e;
  mlir::OpBuilder &b;
  mlir::Location loc;
};

int64_t log2Exact(int64_t n) { return llvm::Log2_64(uint64_t(n)); }

/// The block operand of sort, topk and flip, or a diagnostic.
std::optional<PyValue> sortableBlock(KernelEmitter &e, const BuiltinCall &c) {
  std::optional<PyValue> x = e.toRuntime(c.args.values[0], c.args.locs[0]);
  if (!x)
    return std::nullopt;
  if (!isBlock(x->value))
    return e.error(c.args.locs[0],
                   c.displayName + "() needs a block, got " + describe(*x));
  mlir::Type element = getElementType(x->value);
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() > 64)
    return e.error(c.args.locs[0], c.displayName +
                                       "() needs a block of numbers, got " +
                                       describe(*x));
  return x;
}

/// The sorted axis of sort and topk: `dim` (None: the last), which must be
/// the last axis, as in Triton.
std::optional<int64_t> lastAxisArgument(KernelEmitter &e, const BuiltinCall &c,
                                        size_t index, int64_t rank) {
  const PyValue &dim = c.args.values[index];
  if (dim.kind == PyValue::Kind::None)
    return rank - 1;
  if (dim.kind != PyValue::Kind::Int) {
    e.error(c.args.locs[index], c.displayName +
                                    "() dim must be a compile-time integer, "
                                    "got " +
                                    describe(dim));
    return std::nullopt;
  }
  int64_t axis = dim.intValue < 0 ? dim.intValue + rank : dim.intValue;
  if (axis != rank - 1) {
    e.error(c.args.locs[index],
            c.displayName + "() dim " + llvm::Twine(dim.intValue) +
                ": only the last dimension (" + llvm::Twine(rank - 1) +
                ") can be sorted, as in Triton");
    return std::nullopt;
  }
  return axis;
}

/// Triton's sort_impl: sorts the last axis, keeping its first k elements
/// (all when k is 0) after bitonic top-k halving.
PyValue sortImpl(KernelEmitter &e, const PyValue &input, int64_t k,
                 bool descending, mlir::Location loc) {
  Composer m(e, loc);
  mlir::Value x = input.value;
  bool isUnsigned = input.isUnsigned;
  llvm::SmallVector<int64_t> shape(getShape(x));
  int64_t logN = log2Exact(shape.back());
  int64_t logK = k ? log2Exact(k) : logN;
  if (logN == 0)
    return input;
  llvm::SmallVector<int64_t> cube(shape.begin(), shape.end() - 1);
  cube.append(logN, 2);
  mlir::Value h = m.reshape(x, cube);
  for (int64_t i = 1; i <= logK; ++i)
    h = m.bitonicMerge(h, isUnsigned, i, i < logN ? 2 : int(descending));
  for (int64_t i = logK + 1; i <= logN; ++i) {
    // Triton's tl.max/tl.min widen narrower types to 32 bits first.
    mlir::Type element = getElementType(h);
    if (element.getIntOrFloatBitWidth() < 32) {
      mlir::Type wide = isFloat(element) ? mlir::Type(e.builder.getF32Type())
                                         : e.builder.getI32Type();
      h = e.castValue(h, isUnsigned || isBool(element), wide,
                      /*toUnsigned=*/false, loc);
      isUnsigned = false;
    }
    int64_t axis = int64_t(getShape(h).size()) - 1 - logK;
    h = m.reduceMinMax(h, descending, isUnsigned, axis);
    if (isBlock(h))
      h = m.bitonicMerge(h, isUnsigned, logK, i < logN ? 2 : int(descending));
  }
  llvm::SmallVector<int64_t> resultShape(shape.begin(), shape.end() - 1);
  resultShape.push_back(int64_t(1) << logK);
  return PyValue::runtime(m.reshape(h, resultShape), isUnsigned);
}

KernelEmitter::Result emitSort(KernelEmitter &e, const BuiltinCall &c) {
  std::optional<PyValue> x = sortableBlock(e, c);
  if (!x)
    return std::nullopt;
  int64_t rank = getShape(x->value).size();
  if (!lastAxisArgument(e, c, 1, rank))
    return std::nullopt;
  bool descending = false;
  if (c.args.present[2]) {
    const PyValue &d = c.args.values[2];
    if (d.kind != PyValue::Kind::Bool && d.kind != PyValue::Kind::Int)
      return e.error(c.args.locs[2], c.displayName +
                                         "() descending must be a "
                                         "compile-time bool, got " +
                                         describe(d));
    descending = isTruthy(d);
  }
  return sortImpl(e, *x, 0, descending, e.getLoc(c.getLoc()));
}

KernelEmitter::Result emitTopk(KernelEmitter &e, const BuiltinCall &c) {
  std::optional<PyValue> x = sortableBlock(e, c);
  if (!x)
    return std::nullopt;
  int64_t rank = getShape(x->value).size();
  if (!lastAxisArgument(e, c, 2, rank))
    return std::nullopt;
  const PyValue &k = c.args.values[1];
  int64_t n = getShape(x->value).back();
  if (k.kind != PyValue::Kind::Int)
    return e.error(c.args.locs[1], c.displayName +
                                       "() k must be a compile-time integer, "
                                       "got " +
                                       describe(k));
  if (k.intValue < 1 || k.intValue > n || !llvm::isPowerOf2_64(k.intValue))
    return e.error(c.args.locs[1],
                   c.displayName + "() k must be a power of two from 1 to " +
                       llvm::Twine(n) + " (the last dimension), got " +
                       llvm::Twine(k.intValue));
  return sortImpl(e, *x, k.intValue, /*descending=*/true, e.getLoc(c.getLoc()));
}

KernelEmitter::Result emitFlip(KernelEmitter &e, const BuiltinCall &c) {
  std::optional<PyValue> x = sortableBlock(e, c);
  if (!x)
    return std::nullopt;
  llvm::SmallVector<int64_t> shape(getShape(x->value));
  int64_t rank = shape.size();
  int64_t axis = rank - 1;
  const PyValue &dim = c.args.values[1];
  if (dim.kind != PyValue::Kind::None) {
    if (dim.kind != PyValue::Kind::Int)
      return e.error(c.args.locs[1], c.displayName +
                                         "() dim must be a compile-time "
                                         "integer, got " +
                                         describe(dim));
    axis = dim.intValue < 0 ? dim.intValue + rank : dim.intValue;
    if (axis < 0 || axis >= rank)
      return e.error(c.args.locs[1],
                     c.displayName + "() dim " + llvm::Twine(dim.intValue) +
                         " is out of range for " + describe(*x));
  }
  int64_t steps = log2Exact(shape[axis]);
  Composer m(e, e.getLoc(c.getLoc()));
  mlir::Type element = getElementType(x->value);
  mlir::Value y = m.bitcast(
      x->value, e.builder.getIntegerType(element.getIntOrFloatBitWidth()));
  llvm::SmallVector<int64_t> cube(shape.begin(), shape.begin() + axis);
  cube.append(steps, 2);
  cube.append(shape.begin() + axis + 1, shape.end());
  y = m.reshape(y, cube);
  for (int64_t i = 0; i < steps; ++i)
    y = arith::XOrIOp::create(e.builder, m.loc, y,
                              m.xorSumBroadcast(y, axis + i));
  y = m.bitcast(m.reshape(y, shape), element);
  return PyValue::runtime(y, x->isUnsigned);
}

KernelEmitter::Result emitInterleave(KernelEmitter &e, const BuiltinCall &c) {
  const ast::Location &callLoc = c.getLoc();
  mlir::Location loc = e.getLoc(callLoc);
  std::optional<PyValue> a = e.toRuntime(c.args.values[0], c.args.locs[0]);
  if (!a)
    return std::nullopt;
  std::optional<PyValue> b = e.toRuntime(c.args.values[1], c.args.locs[1]);
  if (!b)
    return std::nullopt;
  mlir::Type element = getElementType(a->value);
  if (getElementType(b->value) != element)
    return e.error(callLoc, c.displayName +
                                "() operands must have one element type, "
                                "got " +
                                describe(*a) + " and " + describe(*b));
  auto common =
      e.commonShape({&*a, &*b}, (c.displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  llvm::SmallVector<int64_t> shape = common->second;
  if (shape.empty())
    shape.push_back(1); // two scalars interleave into a block of 2
  mlir::Value lhs = e.broadcastTo(a->value, shape, loc);
  mlir::Value rhs = e.broadcastTo(b->value, shape, loc);
  llvm::SmallVector<int64_t> joined(shape);
  joined.push_back(2);
  mlir::Value pairs = mlir::tile::JoinOp::create(
      e.builder, loc, mlir::RankedTensorType::get(joined, element), lhs, rhs);
  llvm::SmallVector<int64_t> result(shape.begin(), shape.end() - 1);
  result.push_back(2 * shape.back());
  return PyValue::runtime(Composer(e, loc).reshape(pairs, result),
                          a->isUnsigned);
}

KernelEmitter::Result emitSwizzle2d(KernelEmitter &e, const BuiltinCall &c) {
  const ast::Location &loc = c.getLoc();
  using Op = ast::BinaryOp;
  const auto &v = c.args.values;
  const PyValue &i = v[0], &j = v[1], &sizeI = v[2], &sizeJ = v[3];
  PyValue sizeG = v[4];
  auto bin = [&](Op op, const PyValue &l, const PyValue &r) {
    return e.emitBinary(op, l, r, loc);
  };
  // The flat index, the group of size_g rows it falls in, and the group's
  // first row; the last group may have fewer rows.
  KernelEmitter::Result ij = bin(Op::Mul, i, sizeJ);
  if (!ij || !(ij = bin(Op::Add, *ij, j)))
    return std::nullopt;
  KernelEmitter::Result sizeGJ = bin(Op::Mul, sizeG, sizeJ);
  if (!sizeGJ)
    return std::nullopt;
  KernelEmitter::Result group = bin(Op::FloorDiv, *ij, *sizeGJ);
  if (!group)
    return std::nullopt;
  KernelEmitter::Result offI = bin(Op::Mul, *group, sizeG);
  if (!offI)
    return std::nullopt;
  KernelEmitter::Result rowsLeft = bin(Op::Sub, sizeI, *offI);
  if (!rowsLeft)
    return std::nullopt;
  KernelEmitter::Result rows;
  if (rowsLeft->kind == PyValue::Kind::Int && sizeG.kind == PyValue::Kind::Int)
    rows = PyValue::integer(std::min(rowsLeft->intValue, sizeG.intValue));
  else
    rows = e.emitMinMax(/*isMax=*/false, *rowsLeft, sizeG,
                        /*propagateNan=*/false, loc);
  if (!rows)
    return std::nullopt;
  KernelEmitter::Result inGroup = bin(Op::Mod, *ij, *sizeGJ);
  if (!inGroup)
    return std::nullopt;
  KernelEmitter::Result rowInGroup = bin(Op::Mod, *inGroup, *rows);
  if (!rowInGroup)
    return std::nullopt;
  KernelEmitter::Result newI = bin(Op::Add, *offI, *rowInGroup);
  if (!newI)
    return std::nullopt;
  KernelEmitter::Result newJ = bin(Op::FloorDiv, *inGroup, *rows);
  if (!newJ)
    return std::nullopt;
  return PyValue::tuple({*newI, *newJ});
}

/// Triton's to_tensor: bool is int1; an int is int32, uint32, int64 (or
/// uint64) by range; a float fp32 unless only fp64 represents its
/// magnitude; a block or scalar is returned as it is.
KernelEmitter::Result emitToTensor(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &x = c.args.values[0];
  if (x.isRuntime())
    return x;
  mlir::Location loc = e.getLoc(c.getLoc());
  mlir::OpBuilder &b = e.builder;
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  switch (x.kind) {
  case PyValue::Kind::Bool:
    return PyValue::runtime(e.materialize(x, b.getI1Type(), false, {}, loc));
  case PyValue::Kind::Int: {
    bool isUnsigned = false;
    mlir::Type type = b.getI64Type();
    if (llvm::isInt<32>(x.intValue)) {
      type = b.getI32Type();
    } else if (llvm::isUInt<32>(x.intValue)) {
      type = b.getI32Type();
      isUnsigned = true;
    }
    return PyValue::runtime(e.materialize(x, type, false, {}, loc), isUnsigned);
  }
  case PyValue::Kind::Float: {
    double magnitude = std::fabs(x.floatValue);
    bool fitsF32 = std::isinf(magnitude) || magnitude == 0.0 ||
                   std::isnan(magnitude) ||
                   (magnitude >= 0x1p-126 &&
                    magnitude <= double(std::numeric_limits<float>::max()));
    mlir::Type type =
        fitsF32 ? mlir::Type(b.getF32Type()) : mlir::Type(b.getF64Type());
    return PyValue::runtime(e.materialize(x, type, false, {}, loc));
  }
  default:
    return e.error(c.args.locs[0], c.displayName +
                                       "() needs a number or a block, got " +
                                       describe(x));
  }
}

} // namespace

llvm::ArrayRef<Builtin> getStandardBuiltins() {
  static const Builtin builtins[] = {
      {"sort",
       {{"x", true}, {"dim", false}, {"descending", false}},
       emitSort,
       kMethod | kNeedsIR},
      {"topk",
       {{"x", true}, {"k", true}, {"dim", false}},
       emitTopk,
       kMethod | kNeedsIR},
      {"flip", {{"x", true}, {"dim", false}}, emitFlip, kMethod | kNeedsIR},
      {"interleave", {{"a", true}, {"b", true}}, emitInterleave, kNeedsIR},
      {"swizzle2d",
       {{"i", true},
        {"j", true},
        {"size_i", true},
        {"size_j", true},
        {"size_g", true}},
       emitSwizzle2d},
      {"to_tensor", {{"x", true}}, emitToTensor},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
