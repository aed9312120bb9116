//===- TileGPUDialect.cpp - GPU-level tile IR -----------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tile/Dialect/TileGPU/IR/TileGPUAttrInterfaces.cpp.inc"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`... aliases, as Triton does.
struct TileGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::OverridableAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one axis";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must have one entry per axis ("
                       << rank << ")";
  SmallVector<bool> seen(rank, false);
  for (unsigned axis : order) {
    if (axis >= rank || seen[axis])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[axis] = true;
  }
  for (auto [name, values] : {std::pair<StringRef, ArrayRef<unsigned>>{
                                  "sizePerThread", sizePerThread},
                              {"threadsPerWarp", threadsPerWarp},
                              {"warpsPerCTA", warpsPerCTA}})
    for (unsigned v : values)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << name << " entries must be powers of two, got "
                           << v;
  return success();
}

SmallVector<int64_t> BlockedEncodingAttr::getShapePerCTATile() const {
  SmallVector<int64_t> tile;
  for (unsigned d = 0; d < getRank(); ++d)
    tile.push_back(int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] *
                   getWarpsPerCTA()[d]);
  return tile;
}

SmallVector<unsigned>
BlockedEncodingAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> tile = getShapePerCTATile();
  SmallVector<unsigned> elems;
  for (unsigned d = 0; d < getRank(); ++d) {
    int64_t reps = std::max<int64_t>(1, llvm::divideCeil(shape[d], tile[d]));
    elems.push_back(getSizePerThread()[d] * reps);
  }
  return elems;
}

unsigned
BlockedEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  unsigned total = 1;
  for (unsigned e : getElemsPerThread(shape))
    total *= e;
  return total;
}

SmallVector<unsigned> BlockedEncodingAttr::getLayoutOrder() const {
  return SmallVector<unsigned>(getOrder());
}
SmallVector<unsigned> BlockedEncodingAttr::getLayoutSizePerThread() const {
  return SmallVector<unsigned>(getSizePerThread());
}
SmallVector<unsigned> BlockedEncodingAttr::getLayoutThreadsPerWarp() const {
  return SmallVector<unsigned>(getThreadsPerWarp());
}
SmallVector<unsigned> BlockedEncodingAttr::getLayoutWarpsPerCTA() const {
  return SmallVector<unsigned>(getWarpsPerCTA());
}

//===----------------------------------------------------------------------===//
// MmaEncodingAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "mma layout version " << versionMajor
                       << " is not supported (2: mma.sync, 3: wgmma)";
  if (warpsPerCTA.size() != 2 || instrShape.size() != 2)
    return emitError() << "mma layout needs two warpsPerCTA and two "
                          "instrShape entries";
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "warpsPerCTA entries must be powers of two";
  if (versionMajor == 3 && warpsPerCTA[0] % 4 != 0)
    return emitError() << "version 3 stacks the four warps of a warpgroup "
                          "along the rows: warpsPerCTA[0] must be a "
                          "multiple of 4, got "
                       << warpsPerCTA[0];
  if (instrShape[0] != 16 || instrShape[1] % 8 != 0 || instrShape[1] < 8 ||
      instrShape[1] > 256)
    return emitError() << "instrShape must be [16, n] with n a multiple of 8 "
                          "up to 256";
  return success();
}

SmallVector<int64_t> MmaEncodingAttr::getShapePerCTATile() const {
  return {16 * int64_t(getWarpsPerCTA()[0]),
          int64_t(getInstrN()) * getWarpsPerCTA()[1]};
}

SmallVector<int64_t> MmaEncodingAttr::getReps(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> tile = getShapePerCTATile();
  return {std::max<int64_t>(1, llvm::divideCeil(shape[0], tile[0])),
          std::max<int64_t>(1, llvm::divideCeil(shape[1], tile[1]))};
}

SmallVector<unsigned>
MmaEncodingAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  // An axis of extent 1 (a row or column reduction expanded back) holds one
  // register per element of the other axis: no copies within a thread.
  SmallVector<int64_t> reps = getReps(shape);
  return {shape[0] == 1 ? 1u : unsigned(reps[0] * 2),
          shape[1] == 1 ? 1u : unsigned(reps[1] * (getInstrN() / 8) * 2)};
}

unsigned
MmaEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  SmallVector<unsigned> elems = getElemsPerThread(shape);
  return elems[0] * elems[1];
}

// The per-axis description below is the part of the layout a blocked layout
// can state (pairs of columns, 8 x 4 lanes); the rows a warp holds are not
// contiguous, so code that needs the whole mapping asks the attribute.
SmallVector<unsigned> MmaEncodingAttr::getLayoutOrder() const { return {1, 0}; }
SmallVector<unsigned> MmaEncodingAttr::getLayoutSizePerThread() const {
  return {1, 2};
}
SmallVector<unsigned> MmaEncodingAttr::getLayoutThreadsPerWarp() const {
  return {8, 4};
}
SmallVector<unsigned> MmaEncodingAttr::getLayoutWarpsPerCTA() const {
  return SmallVector<unsigned>(getWarpsPerCTA());
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

SmallVector<int64_t>
SliceEncodingAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parent(shape);
  parent.insert(parent.begin() + getDim(), 1);
  return parent;
}

/// `values` without entry `dim`.
static SmallVector<unsigned> dropAxis(ArrayRef<unsigned> values, unsigned dim) {
  SmallVector<unsigned> result(values);
  result.erase(result.begin() + dim);
  return result;
}

SmallVector<unsigned>
SliceEncodingAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  return dropAxis(getParent().getElemsPerThread(getParentShape(shape)),
                  getDim());
}
unsigned
SliceEncodingAttr::getTotalElemsPerThread(ArrayRef<int64_t> shape) const {
  return getParent().getTotalElemsPerThread(getParentShape(shape));
}
SmallVector<unsigned> SliceEncodingAttr::getLayoutOrder() const {
  SmallVector<unsigned> order;
  for (unsigned axis : getParent().getLayoutOrder())
    if (axis != getDim())
      order.push_back(axis > getDim() ? axis - 1 : axis);
  return order;
}
SmallVector<unsigned> SliceEncodingAttr::getLayoutSizePerThread() const {
  return dropAxis(getParent().getLayoutSizePerThread(), getDim());
}
SmallVector<unsigned> SliceEncodingAttr::getLayoutThreadsPerWarp() const {
  return dropAxis(getParent().getLayoutThreadsPerWarp(), getDim());
}
SmallVector<unsigned> SliceEncodingAttr::getLayoutWarpsPerCTA() const {
  return dropAxis(getParent().getLayoutWarpsPerCTA(), getDim());
}

BlockedEncodingAttr mlir::tilegpu::getBlockedLayout(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> sizePerThread,
    ArrayRef<unsigned> order, unsigned numWarps, unsigned threadsPerWarp) {
  unsigned rank = shape.size();
  SmallVector<unsigned> lanes(rank, 1), warps(rank, 1);
  // Lanes first, then warps, along the axes fastest first, each axis taking
  // only as many as it has elements left for; leftovers go to the slowest
  // axis, where they replicate or wrap.
  unsigned lanesLeft = threadsPerWarp, warpsLeft = numWarps;
  for (unsigned axis : order) {
    int64_t perThread = sizePerThread[axis];
    int64_t room = std::max<int64_t>(1, shape[axis] / perThread);
    lanes[axis] = std::min<int64_t>(lanesLeft, llvm::PowerOf2Ceil(room));
    lanes[axis] = std::min<unsigned>(lanes[axis], lanesLeft);
    lanesLeft /= lanes[axis];
  }
  lanes[order.back()] *= lanesLeft;
  for (unsigned axis : order) {
    int64_t covered = int64_t(sizePerThread[axis]) * lanes[axis];
    int64_t room = std::max<int64_t>(1, shape[axis] / covered);
    warps[axis] = std::min<int64_t>(warpsLeft, llvm::PowerOf2Ceil(room));
    warpsLeft /= warps[axis];
  }
  warps[order.back()] *= warpsLeft;
  return BlockedEncodingAttr::get(ctx, sizePerThread, lanes, warps, order);
}

DistributedLayoutInterface mlir::tilegpu::getDistributedLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<DistributedLayoutInterface>(tensor.getEncoding());
}

BlockedEncodingAttr
mlir::tilegpu::permuteBlockedLayout(BlockedEncodingAttr layout,
                                    ArrayRef<int32_t> order) {
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA;
  SmallVector<unsigned> inverse(order.size()), fastestFirst;
  for (auto [axis, from] : llvm::enumerate(order)) {
    sizePerThread.push_back(layout.getSizePerThread()[from]);
    threadsPerWarp.push_back(layout.getThreadsPerWarp()[from]);
    warpsPerCTA.push_back(layout.getWarpsPerCTA()[from]);
    inverse[from] = axis;
  }
  for (unsigned from : layout.getOrder())
    fastestFirst.push_back(inverse[from]);
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                  threadsPerWarp, warpsPerCTA, fastestFirst);
}

BlockedEncodingAttr
mlir::tilegpu::joinBlockedLayout(BlockedEncodingAttr layout) {
  SmallVector<unsigned> sizePerThread(layout.getSizePerThread());
  SmallVector<unsigned> threadsPerWarp(layout.getThreadsPerWarp());
  SmallVector<unsigned> warpsPerCTA(layout.getWarpsPerCTA());
  unsigned axis = sizePerThread.size();
  sizePerThread.push_back(2);
  threadsPerWarp.push_back(1);
  warpsPerCTA.push_back(1);
  SmallVector<unsigned> order{axis};
  order.append(layout.getOrder().begin(), layout.getOrder().end());
  return BlockedEncodingAttr::get(layout.getContext(), sizePerThread,
                                  threadsPerWarp, warpsPerCTA, order);
}

BlockedEncodingAttr
mlir::tilegpu::splitBlockedLayout(BlockedEncodingAttr layout) {
  unsigned axis = layout.getSizePerThread().size() - 1;
  if (axis == 0 || layout.getSizePerThread()[axis] != 2 ||
      layout.getThreadsPerWarp()[axis] != 1 ||
      layout.getWarpsPerCTA()[axis] != 1 || layout.getOrder()[0] != axis)
    return {};
  return BlockedEncodingAttr::get(
      layout.getContext(), layout.getSizePerThread().drop_back(),
      layout.getThreadsPerWarp().drop_back(),
      layout.getWarpsPerCTA().drop_back(), layout.getOrder().drop_front());
}

RankedTensorType mlir::tilegpu::withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

Value mlir::tilegpu::convertToLayout(OpBuilder &builder, Location loc,
                                     Value value, Attribute layout) {
  auto tensor = cast<RankedTensorType>(value.getType());
  if (tensor.getEncoding() == layout)
    return value;
  return ConvertLayoutOp::create(builder, loc, withLayout(tensor, layout),
                                 value);
}

/// `op` if it is a module, else its enclosing module (or null).
static ModuleOp getModuleOf(Operation *op) {
  return isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                           : op->getParentOfType<ModuleOp>();
}

unsigned mlir::tilegpu::getNumWarps(Operation *op) {
  ModuleOp module = getModuleOf(op);
  if (module)
    if (auto attr = module->getAttrOfType<IntegerAttr>(
            TileGPUDialect::getNumWarpsAttrName()))
      return attr.getInt();
  return 4;
}

unsigned mlir::tilegpu::getProducerWarps(Operation *op) {
  ModuleOp module = getModuleOf(op);
  if (module)
    if (auto attr = module->getAttrOfType<IntegerAttr>(kProducerWarpsAttr))
      return attr.getInt();
  return 0;
}

bool mlir::tilegpu::asksForWarpSpecialization(Operation *kernel) {
  return kernel
      ->walk([](Operation *op) {
        return op->hasAttr("tile.warp_specialize") ? WalkResult::interrupt()
                                                   : WalkResult::advance();
      })
      .wasInterrupted();
}

WarpRole mlir::tilegpu::getWarpRole(Region *region) {
  for (; region; region = region->getParentRegion())
    if (Operation *parent = region->getParentOp();
        parent && parent->hasAttr(kWarpRolesAttr))
      return region->getRegionNumber() == 0 ? WarpRole::Producer
                                            : WarpRole::Consumers;
  return WarpRole::Whole;
}

WarpRole mlir::tilegpu::getWarpRole(Operation *op) {
  return getWarpRole(op->getParentRegion());
}

unsigned mlir::tilegpu::getComputeCapability(StringRef target) {
  unsigned capability = 0;
  if (!target.consume_front("sm_"))
    return 0;
  target.consume_back("a");
  if (target.getAsInteger(10, capability))
    return 0;
  return capability;
}

SmallVector<unsigned> mlir::tilegpu::getTmaTensorMapArguments(Operation *op) {
  SmallVector<unsigned> arguments;
  op->walk([&](Operation *nested) {
    Value map;
    if (auto copy = dyn_cast<TmaCopyOp>(nested))
      map = copy.getTensormap();
    else if (auto store = dyn_cast<TmaStoreOp>(nested))
      map = store.getTensormap();
    if (auto argument = dyn_cast_or_null<BlockArgument>(map))
      if (!llvm::is_contained(arguments, argument.getArgNumber()))
        arguments.push_back(argument.getArgNumber());
  });
  return arguments;
}

DenseI64ArrayAttr mlir::tilegpu::getUsedTensorMapRecipes(Operation *module) {
  auto flat = module->getAttrOfType<DenseI64ArrayAttr>(kTensorMapsAttr);
  if (!flat)
    return {};
  auto recipes = parseTensorMapRecipes(flat.asArrayRef());
  if (!recipes)
    return flat; // the launcher reports it
  SmallVector<unsigned> used = getTmaTensorMapArguments(module);
  std::vector<int64_t> marked = {int64_t(recipes->size())};
  for (TensorMapRecipe &recipe : *recipes) {
    if (!llvm::is_contained(used, unsigned(recipe.argument)))
      recipe.element = kUnusedTensorMap;
    appendTensorMapRecipe(marked, recipe);
  }
  return DenseI64ArrayAttr::get(module->getContext(), marked);
}

unsigned mlir::tilegpu::getTargetComputeCapability(Operation *op) {
  ModuleOp module = getModuleOf(op);
  if (module)
    if (auto attr = module->getAttrOfType<StringAttr>(
            TileGPUDialect::getTargetAttrName()))
      return getComputeCapability(attr.getValue());
  return 0;
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // convert(convert(x)) is convert(x).
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  // A converted constant is the constant in the new layout.
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return splat.reshape(getType());
  return {};
}

/// Folded constants (splats of constants, converted constants) become
/// arith constants.
Operation *TileGPUDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// MemDescType and the pipelined-dot ops
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return MemDescType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType) {
  if ((shape.size() != 2 && shape.size() != 3) ||
      llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "a memdesc is stages x rows x columns (or stages x "
                          "elements), got "
                       << shape.size() << " dimensions";
  if (shape.size() == 3 && !elementType.isF16() && !elementType.isBF16())
    return emitError() << "a memdesc of 2-D stages holds f16 or bf16, got "
                       << elementType;
  if (shape.size() == 2 && (!elementType.isIntOrFloat() ||
                            (elementType.getIntOrFloatBitWidth() != 16 &&
                             elementType.getIntOrFloatBitWidth() != 32)))
    return emitError() << "a memdesc of 1-D stages holds 2- or 4-byte "
                          "elements, got "
                       << elementType;
  return success();
}

int64_t MemDescType::getStageBytes() const {
  int64_t elements = 1;
  for (int64_t dim : getShape().drop_front())
    elements *= dim;
  return elements * int64_t(getElementType().getIntOrFloatBitWidth() / 8);
}

int64_t MemDescType::getTotalBytes() const {
  return getShape()[0] * getStageBytes();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrType = cast<RankedTensorType>(getPtr().getType());
  auto buffer = cast<MemDescType>(getBuffer().getType());
  SmallVector<int64_t> stageShape(ptrType.getShape());
  if (getTransposed())
    std::reverse(stageShape.begin(), stageShape.end());
  if (ArrayRef<int64_t>(stageShape) != buffer.getShape().drop_front())
    return emitOpError("copies a ")
           << ptrType << " block into stages of " << buffer;
  if (cast<tile::PointerType>(ptrType.getElementType()).getPointeeType() !=
      buffer.getElementType())
    return emitOpError("pointers to ")
           << ptrType.getElementType() << " into a buffer of "
           << buffer.getElementType();
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() !=
                       ptrType.getShape())
    return emitOpError("mask shape differs from the pointers'");
  return success();
}

LogicalResult LocalLoadOp::verify() {
  auto type = cast<RankedTensorType>(getResult().getType());
  auto buffer = cast<MemDescType>(getBuffer().getType());
  if (buffer.getShape().size() != 2 ||
      type.getShape() != buffer.getShape().drop_front() ||
      type.getElementType() != buffer.getElementType())
    return emitOpError("reads a ")
           << type << " block from stages of " << buffer
           << " (1-D stages of its shape and element type)";
  return success();
}

/// A TMA copy's or store's stages and coordinates: a 2-D box per stage
/// (`verb` names what the op does with boxes).
static LogicalResult verifyTmaStages(Operation *op, Value bufferValue,
                                     ValueRange coords, StringRef verb) {
  auto buffer = cast<MemDescType>(bufferValue.getType());
  if (coords.size() != 2)
    return op->emitOpError(verb)
           << " 2-D boxes, got " << coords.size() << " coordinates";
  unsigned elementBytes = buffer.getElementType().getIntOrFloatBitWidth() / 8;
  if (!getTensorMapBox(buffer.getShape().drop_front(), elementBytes))
    return op->emitOpError("stages of ")
           << buffer << " are no TMA box (TensorMapBox.h)";
  return success();
}

LogicalResult SetMaxRegistersOp::verify() {
  int32_t registers = getRegisters();
  if (registers < 24 || registers > 256 || registers % 8 != 0)
    return emitOpError("needs a multiple of 8 from 24 to 256 registers, got ")
           << registers;
  if (getWarpRole(*this) == WarpRole::Whole)
    return emitOpError("must be inside a tilegpu.warp_roles split");
  return success();
}

/// take_turn and pass_turn: in the consumers' region of a split, whose two
/// warpgroups (groups 0 and 1) take the turns.
static LogicalResult verifyTurn(Operation *op, std::optional<uint32_t> group) {
  if (getWarpRole(op) != WarpRole::Consumers)
    return op->emitOpError(
        "must be in the consumers' region of a tilegpu.warp_roles split");
  if (group && *group > 1)
    return op->emitOpError("names consumer warpgroup ")
           << *group << "; there are two (0 and 1)";
  return success();
}

LogicalResult TakeTurnOp::verify() { return verifyTurn(*this, getGroup()); }

LogicalResult PassTurnOp::verify() { return verifyTurn(*this, getGroup()); }

LogicalResult TmaCopyOp::verify() {
  return verifyTmaStages(*this, getBuffer(), getCoords(), "copies");
}

LogicalResult ExtractColumnsOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  auto srcMma = dyn_cast<MmaEncodingAttr>(src.getEncoding());
  auto dstMma = dyn_cast<MmaEncodingAttr>(dst.getEncoding());
  if (src.getRank() != 2 || dst.getRank() != 2 || !srcMma || !dstMma ||
      src.getElementType() != dst.getElementType())
    return emitOpError("takes a 2-D block in an mma layout to one of the "
                       "same element type");
  if (srcMma.getVersionMajor() != dstMma.getVersionMajor() ||
      srcMma.getWarpsPerCTA() != dstMma.getWarpsPerCTA())
    return emitOpError("keeps the mma version and warps");
  int64_t offset = getOffset();
  if (dst.getDimSize(0) != src.getDimSize(0) || offset < 0 ||
      offset + dst.getDimSize(1) > src.getDimSize(1))
    return emitOpError("takes whole columns within its operand");
  return success();
}

LogicalResult TmaStoreOp::verify() {
  return verifyTmaStages(*this, getBuffer(), getCoords(), "stores");
}

LogicalResult InitBarriersOp::verify() {
  if (getArrivals() < 1)
    return emitOpError("needs at least one arrival per phase, got ")
           << getArrivals();
  return success();
}

LogicalResult AcquireStageOp::verify() {
  auto buffer = cast<MemDescType>(getBuffer().getType());
  int64_t barriers = getBarriers().getType().getCount();
  if (buffer.getShape()[0] != barriers)
    return emitOpError("guards ") << buffer.getShape()[0] << " stages with "
                                  << barriers << " barriers";
  return success();
}

LogicalResult LocalStoreOp::verify() {
  auto type = cast<RankedTensorType>(getSrc().getType());
  auto buffer = cast<MemDescType>(getBuffer().getType());
  if (type.getShape() != buffer.getShape().drop_front() ||
      type.getElementType() != buffer.getElementType())
    return emitOpError("stores a ")
           << type << " block into stages of " << buffer;
  return success();
}

/// The checks warpgroup_dot and shared_dot share: stage operands that
/// multiply into an f32 accumulator with an mma layout of `version`; B's
/// stages are N x K when `bKMajor`, else K x N.
static LogicalResult verifyStagedDot(Operation *op, Value aValue, Value bValue,
                                     Value accValue, unsigned version,
                                     bool bKMajor = false,
                                     bool ownAStage = false) {
  auto a = cast<MemDescType>(aValue.getType());
  auto b = cast<MemDescType>(bValue.getType());
  auto acc = cast<RankedTensorType>(accValue.getType());
  if (a.getShape().size() != 3 || b.getShape().size() != 3)
    return op->emitOpError("reads 2-D stages, got ") << a << " and " << b;
  auto mma = dyn_cast<MmaEncodingAttr>(acc.getEncoding());
  if (acc.getRank() != 2 || !mma || mma.getVersionMajor() != version)
    return op->emitOpError("accumulator must be a 2-D tensor with an "
                           "#tilegpu.mma version ")
           << version << " layout, got " << acc;
  int64_t bK = b.getShape()[bKMajor ? 2 : 1],
          bN = b.getShape()[bKMajor ? 1 : 2];
  if ((!ownAStage && a.getShape()[0] != b.getShape()[0]) ||
      a.getShape()[2] != bK || a.getShape()[1] != acc.getDimSize(0) ||
      bN != acc.getDimSize(1))
    return op->emitOpError("operand stages ")
           << a << " and " << b << " do not multiply into " << acc;
  if (a.getElementType() != b.getElementType() || !acc.getElementType().isF32())
    return op->emitOpError("needs f16 or bf16 operands of one type and an "
                           "f32 accumulator");
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  if (auto a = dyn_cast<RankedTensorType>(getA().getType())) {
    // A from registers: an mma version 3 block tiled along M as the result.
    auto b = cast<MemDescType>(getB().getType());
    auto acc = cast<RankedTensorType>(getAcc().getType());
    auto aMma = dyn_cast<MmaEncodingAttr>(a.getEncoding());
    auto accMma = dyn_cast<MmaEncodingAttr>(acc.getEncoding());
    if (!aMma || !accMma || aMma.getVersionMajor() != 3 ||
        accMma.getVersionMajor() != 3 || aMma.getWarpsPerCTA()[1] != 1 ||
        aMma.getWarpsPerCTA() != accMma.getWarpsPerCTA() || getAStage())
      return emitOpError("takes A from registers only in an mma version 3 "
                         "layout with the result's warps, all along M, and "
                         "no A stage; got ")
             << a << " for " << acc;
    int64_t bK = b.getShape()[getBKMajor() ? 2 : 1],
            bN = b.getShape()[getBKMajor() ? 1 : 2];
    if (a.getRank() != 2 || a.getDimSize(0) != acc.getDimSize(0) ||
        a.getDimSize(1) != bK || bN != acc.getDimSize(1) ||
        a.getElementType() != b.getElementType() ||
        !acc.getElementType().isF32())
      return emitOpError("operands ")
             << a << " and " << b << " do not multiply into " << acc;
    return success();
  }
  return verifyStagedDot(*this, getA(), getB(), getAcc(), 3, getBKMajor(),
                         bool(getAStage()));
}

LogicalResult SharedDotOp::verify() {
  return verifyStagedDot(*this, getA(), getB(), getAcc(), 2);
}

#define GET_OP_CLASSES
#include "tile/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
