//===- TensorDescriptors.cpp - tl.make_tensor_descriptor, desc.load/store -===//
//
// Tensor descriptors as Triton types them: a base pointer, a shape (i32)
// and strides (i64) per dimension, a compile-time block shape, and loads
// and stores of one block at given offsets with every dimension bounds-
// checked (out-of-bounds elements read as zero, or NaN with
// padding_option="nan"). Triton's limits, which Hopper's TMA sets, hold:
// 1 to 5 dimensions, a last stride of 1, at least 16 bytes in a block's
// last dimension. A descriptor is a compile-time object whose parts are
// scalars; each load or store becomes a block pointer (tile.make_block_ptr)
// and a bounds-checked tile.block_load or tile.block_store. A descriptor
// made on the host also has the TMA tensor map the host encoded for it (the
// kernel argument after its strides), which its loads and stores carry.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace {
using Result = KernelEmitter::Result;

Result emitMakeTensorDescriptor(KernelEmitter &e, const BuiltinCall &c) {
  const KernelEmitter::CallArgs &args = c.args;
  const PyValue &base = args.values[0];
  if (!checkScalarPointer(e, c, 0))
    return std::nullopt;
  mlir::Type element =
      cast<mlir::tile::PointerType>(base.value.getType()).getPointeeType();
  auto blockShape = toBlockShape(e, c, 3);
  if (!blockShape)
    return std::nullopt;
  size_t rank = blockShape->size();
  if (rank < 1 || rank > 5)
    return e.error(args.locs[3], c.displayName +
                                     "() needs 1 to 5 dimensions, got " +
                                     llvm::Twine(rank));
  unsigned elementBytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  if (blockShape->back() * elementBytes < 16)
    return e.error(args.locs[3],
                   c.displayName +
                       "(): a block's last dimension must hold at least 16 "
                       "bytes, got " +
                       llvm::Twine(blockShape->back()) + " x " +
                       llvm::Twine(elementBytes) + " bytes");
  llvm::SmallVector<PyValue> strideValues = tupleElements(args.values[2]);
  if (strideValues.size() == rank &&
      !(strideValues.back().kind == PyValue::Kind::Int &&
        strideValues.back().intValue == 1))
    return e.error(args.locs[2],
                   c.displayName +
                       "(): the last stride must be the constant 1 (the "
                       "innermost dimension contiguous), got " +
                       (strideValues.back().kind == PyValue::Kind::Int
                            ? std::to_string(strideValues.back().intValue)
                            : describe(strideValues.back())));
  std::string padding = "zero";
  if (args.present[4]) {
    const PyValue &option = args.values[4];
    if (option.kind != PyValue::Kind::String ||
        (option.text != "zero" && option.text != "nan"))
      return e.error(args.locs[4], c.displayName +
                                       "() 'padding_option' must be \"zero\" "
                                       "or \"nan\", got " +
                                       describe(option));
    padding = option.text;
    if (padding == "nan" && !isa<mlir::FloatType>(element))
      return e.error(args.locs[4],
                     c.displayName +
                         "() padding_option \"nan\" needs a floating-point "
                         "element type, got " +
                         getTypeName(element, base.isUnsigned));
  }
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  auto shape = toIntegers(e, args.values[1], e.builder.getI32Type(), rank,
                          args.locs[1], c.displayName, "shape");
  if (!shape)
    return std::nullopt;
  auto strides = toIntegers(e, args.values[2], e.builder.getI64Type(), rank,
                            args.locs[2], c.displayName, "strides");
  if (!strides)
    return std::nullopt;
  std::vector<PyValue> parts = {base};
  for (mlir::Value v : *shape)
    parts.push_back(PyValue::runtime(v));
  for (mlir::Value v : *strides)
    parts.push_back(PyValue::runtime(v));
  return PyValue::tensorDescriptor(
      std::move(parts), mlir::RankedTensorType::get(*blockShape, element),
      base.isUnsigned, padding);
}

/// The block pointer of `descriptor`'s block at `offsets`.
std::optional<mlir::Value> makeBlockPointer(KernelEmitter &e,
                                            const BuiltinCall &c,
                                            const PyValue &descriptor) {
  auto block = cast<mlir::RankedTensorType>(descriptor.type);
  size_t rank = block.getRank();
  auto offsets = toIntegers(e, c.args.values[1], e.builder.getI32Type(), rank,
                            c.args.locs[1], c.displayName, "offsets");
  if (!offsets)
    return std::nullopt;
  mlir::Location loc = e.getLoc(c.getLoc());
  llvm::SmallVector<mlir::Value> shape, strides;
  for (size_t d = 0; d < rank; ++d) {
    shape.push_back(e.prepareOperand(descriptor.elements[1 + d],
                                     e.builder.getI64Type(), false, {}, loc));
    strides.push_back(descriptor.elements[1 + rank + d].value);
  }
  llvm::SmallVector<int32_t> order;
  for (size_t d = rank; d-- > 0;)
    order.push_back(int32_t(d));
  auto type = mlir::tile::BlockPointerType::get(&e.context, block);
  return mlir::tile::MakeBlockPtrOp::create(
      e.builder, loc, type, descriptor.elements[0].value, shape, strides,
      *offsets, e.builder.getDenseI32ArrayAttr(order));
}

llvm::SmallVector<int32_t> allDimensions(const PyValue &descriptor) {
  llvm::SmallVector<int32_t> dims;
  for (int64_t d = 0;
       d < cast<mlir::RankedTensorType>(descriptor.type).getRank(); ++d)
    dims.push_back(int32_t(d));
  return dims;
}

const PyValue *getDescriptor(KernelEmitter &e, const BuiltinCall &c) {
  if (c.self && c.self->kind == PyValue::Kind::TensorDescriptor)
    return c.self;
  e.error(c.getLoc(), c.displayName + "() is a method of tensor descriptors");
  return nullptr;
}

Result emitDescriptorLoad(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue *descriptor = getDescriptor(e, c);
  if (!descriptor)
    return std::nullopt;
  std::optional<mlir::Value> pointer = makeBlockPointer(e, c, *descriptor);
  if (!pointer)
    return std::nullopt;
  auto block = cast<mlir::RankedTensorType>(descriptor->type);
  mlir::Value tensormap;
  if (descriptor->elements.size() == size_t(2 + 2 * block.getRank()))
    tensormap = descriptor->elements.back().value;
  return PyValue::runtime(
      mlir::tile::BlockLoadOp::create(
          e.builder, e.getLoc(c.getLoc()), block, *pointer,
          e.builder.getDenseI32ArrayAttr(allDimensions(*descriptor)),
          descriptor->text == "nan" ? mlir::tile::PaddingOption::nan
                                    : mlir::tile::PaddingOption::zero,
          mlir::tile::CacheModifier::none, mlir::tile::EvictionPolicy::normal,
          /*isVolatile=*/false, tensormap),
      descriptor->isUnsigned);
}

Result emitDescriptorStore(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue *descriptor = getDescriptor(e, c);
  if (!descriptor)
    return std::nullopt;
  auto block = cast<mlir::RankedTensorType>(descriptor->type);
  const PyValue &value = c.args.values[2];
  // Triton stores a block of the descriptor's block shape.
  if (!value.isRuntime() || !isBlock(value.value) ||
      getShape(value.value) != block.getShape())
    return e.error(c.args.locs[2], c.displayName +
                                       "(): 'value' must be a block of shape " +
                                       formatShape(block.getShape()) +
                                       ", got " + describe(value));
  std::optional<mlir::Value> pointer = makeBlockPointer(e, c, *descriptor);
  if (!pointer)
    return std::nullopt;
  mlir::Location loc = e.getLoc(c.getLoc());
  mlir::Value stored = e.prepareOperand(value, block.getElementType(), true,
                                        block.getShape(), loc);
  mlir::Value tensormap;
  if (descriptor->elements.size() == size_t(2 + 2 * block.getRank()))
    tensormap = descriptor->elements.back().value;
  mlir::tile::BlockStoreOp::create(
      e.builder, loc, *pointer, stored,
      e.builder.getDenseI32ArrayAttr(allDimensions(*descriptor)),
      mlir::tile::CacheModifier::none, mlir::tile::EvictionPolicy::normal,
      tensormap);
  return PyValue::none();
}
} // namespace

KernelEmitter::Result
KernelEmitter::emitDescriptorAttribute(const PyValue &descriptor,
                                       const ast::AttributeExpr &attribute) {
  llvm::StringRef attr = attribute.getAttr();
  auto block = cast<mlir::RankedTensorType>(descriptor.type);
  size_t rank = block.getRank();
  if (attr == "load" || attr == "store")
    return PyValue::boundMethod(descriptor,
                                ("triton.language._descriptor_" + attr).str());
  if (attr == "block_shape") {
    std::vector<PyValue> dims;
    for (int64_t dim : block.getShape())
      dims.push_back(PyValue::integer(dim));
    return PyValue::tuple(std::move(dims));
  }
  if (attr == "shape" || attr == "strides") {
    size_t first = attr == "shape" ? 1 : 1 + rank;
    return PyValue::tuple(
        std::vector<PyValue>(descriptor.elements.begin() + first,
                             descriptor.elements.begin() + first + rank));
  }
  if (attr == "dtype")
    return PyValue::dtype(block.getElementType(), descriptor.isUnsigned);
  if (attr == "base")
    return descriptor.elements[0];
  return error(attribute.getAttrLoc(),
               "'." + attr +
                   "' of a tensor descriptor is not supported yet; "
                   "descriptors have .load(), .store(), .block_shape, "
                   ".shape, .strides and .dtype");
}

llvm::ArrayRef<Builtin> getTensorDescriptorBuiltins() {
  static const Builtin builtins[] = {
      {"make_tensor_descriptor",
       {{"base", true},
        {"shape", true},
        {"strides", true},
        {"block_shape", true},
        {"padding_option", false}},
       emitMakeTensorDescriptor},
      {"_descriptor_load",
       {{"self", true}, {"offsets", true}},
       emitDescriptorLoad,
       kNeedsIR | kMethod},
      {"_descriptor_store",
       {{"self", true}, {"offsets", true}, {"value", true}},
       emitDescriptorStore,
       kNeedsIR | kMethod},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
