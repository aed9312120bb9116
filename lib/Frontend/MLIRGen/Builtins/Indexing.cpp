//===- Indexing.cpp - gather and histogram --------------------------------===//
//
// Builtins that pick or count elements by their values: gather (elements of
// a block at the indices of another, along one axis) and histogram (counts
// of the values of a 1-D integer block), each one tile op.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {

KernelEmitter::Result emitGatherCall(KernelEmitter &e, const BuiltinCall &c) {
  std::optional<PyValue> src = e.toRuntime(c.args.values[0], c.args.locs[0]);
  if (!src)
    return std::nullopt;
  std::optional<PyValue> index = e.toRuntime(c.args.values[1], c.args.locs[1]);
  if (!index)
    return std::nullopt;
  if (!isBlock(src->value))
    return e.error(c.args.locs[0], c.displayName +
                                       "() src must be a block, got " +
                                       describe(*src));
  if (!isBlock(index->value) || !isInteger(getElementType(index->value)))
    return e.error(c.args.locs[1], c.displayName +
                                       "() index must be a block of integers, "
                                       "got " +
                                       describe(*index));
  llvm::ArrayRef<int64_t> srcShape = getShape(src->value);
  llvm::ArrayRef<int64_t> indexShape = getShape(index->value);
  int64_t rank = srcShape.size();
  if (int64_t(indexShape.size()) != rank)
    return e.error(c.getLoc(), c.displayName +
                                   "() src and index must have one rank, got " +
                                   describe(*src) + " and " + describe(*index));
  const PyValue &axisValue = c.args.values[2];
  if (axisValue.kind != PyValue::Kind::Int)
    return e.error(c.args.locs[2], c.displayName +
                                       "() axis must be a compile-time "
                                       "integer, got " +
                                       describe(axisValue));
  int64_t axis =
      axisValue.intValue < 0 ? axisValue.intValue + rank : axisValue.intValue;
  if (axis < 0 || axis >= rank)
    return e.error(c.args.locs[2], c.displayName + "() axis " +
                                       llvm::Twine(axisValue.intValue) +
                                       " is out of range for rank " +
                                       llvm::Twine(rank));
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && srcShape[d] != indexShape[d])
      return e.error(c.getLoc(), c.displayName + "() index dimension " +
                                     llvm::Twine(d) + " must match src's (" +
                                     describe(*src) + " and " +
                                     describe(*index) + ")");
  mlir::Location loc = e.getLoc(c.getLoc());
  // The op reads indices as signed: unsigned ones widen first, keeping
  // their values.
  mlir::Value indices = index->value;
  unsigned width = getElementType(indices).getIntOrFloatBitWidth();
  if (index->isUnsigned && width < 64)
    indices = e.castValue(indices, /*fromUnsigned=*/true,
                          width < 32 ? e.builder.getI32Type()
                                     : e.builder.getI64Type(),
                          /*toUnsigned=*/false, loc);
  auto type =
      mlir::RankedTensorType::get(indexShape, getElementType(src->value));
  return PyValue::runtime(
      mlir::tile::GatherOp::create(e.builder, loc, type, src->value, indices,
                                   e.builder.getI32IntegerAttr(axis)),
      src->isUnsigned);
}

KernelEmitter::Result emitHistogramCall(KernelEmitter &e,
                                        const BuiltinCall &c) {
  std::optional<PyValue> input = e.toRuntime(c.args.values[0], c.args.locs[0]);
  if (!input)
    return std::nullopt;
  if (!isBlock(input->value) || getShape(input->value).size() != 1 ||
      !isInteger(getElementType(input->value)))
    return e.error(c.args.locs[0], c.displayName +
                                       "() needs a 1-D block of integers, "
                                       "got " +
                                       describe(*input));
  const PyValue &bins = c.args.values[1];
  if (bins.kind != PyValue::Kind::Int || bins.intValue < 1 ||
      !llvm::isPowerOf2_64(bins.intValue) || bins.intValue > (1 << 20))
    return e.error(c.args.locs[1], c.displayName +
                                       "() num_bins must be a compile-time "
                                       "power of two, got " +
                                       describe(bins));
  mlir::Location loc = e.getLoc(c.getLoc());
  mlir::Value mask;
  if (c.args.present[2] && c.args.values[2].kind != PyValue::Kind::None) {
    std::optional<PyValue> m = e.toRuntime(c.args.values[2], c.args.locs[2]);
    if (!m)
      return std::nullopt;
    if (!isBool(getElementType(m->value)))
      return e.error(c.args.locs[2], c.displayName +
                                         "() mask must be a bool, got " +
                                         describe(*m));
    llvm::ArrayRef<int64_t> shape = getShape(input->value);
    auto merged = KernelEmitter::broadcastShapes(getShape(m->value), shape);
    if (!merged || *merged != llvm::ArrayRef<int64_t>(shape))
      return e.error(c.args.locs[2], c.displayName + "() mask " + describe(*m) +
                                         " does not broadcast to " +
                                         describe(*input));
    mask = e.broadcastTo(m->value, shape, loc);
  }
  // The op compares signed values with the bins: narrower integers widen
  // to i32 and uint32 to i64, keeping their values (a uint8 200 is bin 200).
  mlir::Value values = input->value;
  unsigned width = getElementType(values).getIntOrFloatBitWidth();
  if (width < 32 || (width == 32 && input->isUnsigned))
    values = e.castValue(values, input->isUnsigned || width == 1,
                         width < 32 ? e.builder.getI32Type()
                                    : e.builder.getI64Type(),
                         /*toUnsigned=*/false, loc);
  auto type =
      mlir::RankedTensorType::get({bins.intValue}, e.builder.getI32Type());
  return PyValue::runtime(
      mlir::tile::HistogramOp::create(e.builder, loc, type, values, mask));
}

} // namespace

llvm::ArrayRef<Builtin> getIndexingBuiltins() {
  static const Builtin builtins[] = {
      {"gather",
       {{"src", true}, {"index", true}, {"axis", true}},
       emitGatherCall,
       kMethod | kNeedsIR},
      {"histogram",
       {{"input", true}, {"num_bins", true}, {"mask", false}},
       emitHistogramCall,
       kMethod | kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
