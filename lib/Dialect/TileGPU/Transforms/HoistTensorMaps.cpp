//===- HoistTensorMaps.cpp - launch-encoded maps for device descriptors ---===//
//
// tilegpu-hoist-tensor-maps: a tensor descriptor the kernel makes
// (tl.make_tensor_descriptor; the front end gives each access through it a
// tile.make_block_ptr) is the same in every program when its base is a
// kernel argument and its shape and strides are computed from kernel
// arguments and constants alone. Its TMA tensor map can then be encoded
// once, by the launch, as a host descriptor's is (Triton's device
// descriptors build one per program in global scratch memory instead):
// each tile.block_load and tile.block_store through such a block pointer
// gets the map as its `tensormap`, a new kernel argument (tile.tensormap,
// passed by value) after the kernel's own, one per distinct descriptor,
// and the module's tilegpu.tensor-maps attribute records how the launch
// computes each map from the kernel's arguments (TensorMapRecipe.h).
// tilegpu-pipeline and tilegpu-tma-stores then copy and store those blocks
// with TMA where they would a host descriptor's; elsewhere the accesses
// stay pointer blocks with masks. Only descriptors that a store goes
// through or a load for a tile.dot reads get maps (TMA copies nothing
// else), so that the launch encodes no map for nothing.
//
// Block pointers the kernel makes so (tl.make_block_ptr) qualify too: an
// access's block pointer is followed back through tile.advance (which moves
// only its offsets) and the scf.for iter_args that carry it to its
// tile.make_block_ptr. It qualifies when it is 2-D, row-major (order [1, 0],
// the last stride the constant 1), of fp16 or bf16 elements in a TMA box
// (TensorMapBox.h), padded with zeros (or not), and when its base pointer's
// divisibility (16 bytes) and its row stride's (a multiple of 16 bytes,
// from its arguments' tile.divisibility) meet TMA's alignment rules for
// every launch of this specialization. The launch checks the extents
// (at most 2^32; an empty one gets no map). Assumes the launcher passes the
// maps: tile-run and the C++ API ask for this pass
// (CompileOptions::hoistTensorMaps), for targets with TMA; tile-compile,
// whose launchers do not, does not.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <numeric>
#include <set>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUHOISTTENSORMAPS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Divisibilities beyond this are as good as infinite.
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

/// The kernel argument `value` is, if any.
std::optional<unsigned> getKernelArgument(func::FuncOp kernel, Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &kernel.getBody().front())
    return std::nullopt;
  return argument.getArgNumber();
}

/// Appends the steps that compute the integer `value` from the kernel's
/// arguments and constants (TensorMapRecipe.h); false where anything else
/// feeds it.
bool appendSteps(func::FuncOp kernel, Value value, std::vector<int64_t> &steps,
                 unsigned depth = 0) {
  auto type = dyn_cast<IntegerType>(value.getType());
  if (!type || (type.getWidth() != 32 && type.getWidth() != 64) || depth > 32)
    return false;
  bool narrow = type.getWidth() == 32;
  if (std::optional<unsigned> index = getKernelArgument(kernel, value)) {
    steps.insert(steps.end(), {kArgument, int64_t(*index)});
    if (narrow)
      steps.push_back(kWrap32);
    return true;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    if (!attr)
      return false;
    steps.insert(steps.end(), {kConstant, attr.getValue().getSExtValue()});
    return true;
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def)) {
    Value source = def->getOperand(0);
    if (!appendSteps(kernel, source, steps, depth + 1))
      return false;
    if (isa<arith::ExtUIOp>(def))
      steps.push_back(kZeroExtend32);
    else if (isa<arith::TruncIOp>(def))
      steps.push_back(kWrap32);
    return true;
  }
  int64_t step = isa<arith::AddIOp>(def)   ? kAdd
                 : isa<arith::SubIOp>(def) ? kSub
                 : isa<arith::MulIOp>(def) ? kMul
                                           : 0;
  if (!step || !appendSteps(kernel, def->getOperand(0), steps, depth + 1) ||
      !appendSteps(kernel, def->getOperand(1), steps, depth + 1))
    return false;
  steps.push_back(step);
  if (narrow)
    steps.push_back(kWrap32);
  return true;
}

/// A number that divides `value` in every launch of this specialization,
/// from its arguments' tile.divisibility and its constants.
int64_t getDivisibility(func::FuncOp kernel, Value value) {
  if (std::optional<unsigned> index = getKernelArgument(kernel, value)) {
    auto attr =
        kernel.getArgAttrOfType<IntegerAttr>(*index, tile::kDivisibilityAttr);
    if (attr)
      return std::max<int64_t>(attr.getInt(), 1);
    return kernel.getArgAttr(*index, tile::kMultipleOf8Attr) ? 8 : 1;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    int64_t c = attr ? std::abs(attr.getValue().getSExtValue()) : 1;
    return c == 0 ? kMaxDivisibility : std::min(c, kMaxDivisibility);
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp>(def))
    return getDivisibility(kernel, def->getOperand(0));
  int64_t lhs = getDivisibility(kernel, def->getOperand(0));
  if (isa<arith::MulIOp>(def))
    return std::min(lhs * getDivisibility(kernel, def->getOperand(1)),
                    kMaxDivisibility);
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::gcd(lhs, getDivisibility(kernel, def->getOperand(1)));
  return 1;
}

/// The recipe of the map of `block` (its steps, block and base; `argument`
/// left for the caller), where it qualifies.
std::optional<TensorMapRecipe> getRecipe(func::FuncOp kernel,
                                         tile::MakeBlockPtrOp block) {
  auto blockType =
      cast<RankedTensorType>(block.getResult().getType().getBlockType());
  Type element = blockType.getElementType();
  if (blockType.getRank() != 2 || !(element.isF16() || element.isBF16()) ||
      !getTensorMapBox(blockType.getShape(), 2) ||
      block.getOrder() != ArrayRef<int32_t>{1, 0})
    return std::nullopt;
  std::optional<unsigned> base = getKernelArgument(kernel, block.getBase());
  // The last stride the constant 1 (an argument equal to 1 specializes to
  // one, extended).
  std::vector<int64_t> lastStride;
  if (!base || !appendSteps(kernel, block.getStrides()[1], lastStride) ||
      lastStride != std::vector<int64_t>{kConstant, 1})
    return std::nullopt;
  // TMA's rules: a 16-byte aligned base and row stride.
  auto baseDivisibility =
      kernel.getArgAttrOfType<IntegerAttr>(*base, tile::kDivisibilityAttr);
  if (!baseDivisibility || baseDivisibility.getInt() % 16 != 0 ||
      getDivisibility(kernel, block.getStrides()[0]) % 8 != 0)
    return std::nullopt;
  TensorMapRecipe recipe;
  recipe.base = *base;
  recipe.element = element.isF16() ? 0 : 1;
  recipe.blockRows = blockType.getDimSize(0);
  recipe.blockCols = blockType.getDimSize(1);
  if (!appendSteps(kernel, block.getShape()[0], recipe.rows) ||
      !appendSteps(kernel, block.getShape()[1], recipe.cols) ||
      !appendSteps(kernel, block.getStrides()[0], recipe.rowStride))
    return std::nullopt;
  return recipe;
}

/// The tile.make_block_ptr `ptr` comes from: itself, moved by tile.advance
/// (which changes only its offsets), or carried by an scf.for whose every
/// iteration yields it moved so; null otherwise.
tile::MakeBlockPtrOp getBlockOrigin(Value ptr, unsigned depth = 0) {
  if (depth > 16)
    return {};
  if (auto block = ptr.getDefiningOp<tile::MakeBlockPtrOp>())
    return block;
  if (auto advance = ptr.getDefiningOp<tile::AdvanceOp>())
    return getBlockOrigin(advance.getPtr(), depth + 1);
  auto loopResult = dyn_cast<OpResult>(ptr);
  auto carried = dyn_cast<BlockArgument>(ptr);
  scf::ForOp loop;
  unsigned index = 0;
  if (loopResult && (loop = dyn_cast<scf::ForOp>(loopResult.getOwner()))) {
    index = loopResult.getResultNumber();
  } else if (carried &&
             (loop = dyn_cast<scf::ForOp>(carried.getOwner()->getParentOp())) &&
             carried.getArgNumber() > 0) {
    index = carried.getArgNumber() - 1;
  } else {
    return {};
  }
  tile::MakeBlockPtrOp origin =
      getBlockOrigin(loop.getInitArgs()[index], depth + 1);
  // The yielded value moves the carried one (or another that shares its
  // origin): every iteration's block pointer is the same tensor's.
  Value yielded = loop.getYieldedValues()[index];
  while (auto advance = yielded.getDefiningOp<tile::AdvanceOp>())
    yielded = advance.getPtr();
  if (yielded != loop.getRegionIterArgs()[index] &&
      getBlockOrigin(yielded, depth + 1) != origin)
    return {};
  return origin;
}

/// The block pointer an access goes through, where the access may read or
/// write it with TMA.
tile::MakeBlockPtrOp getHoistableBlock(Operation *access) {
  if (auto load = dyn_cast<tile::BlockLoadOp>(access)) {
    if (load.getTensormap() || load.getIsVolatile() ||
        load.getPadding() == tile::PaddingOption::nan)
      return {};
    return getBlockOrigin(load.getPtr());
  }
  if (auto store = dyn_cast<tile::BlockStoreOp>(access)) {
    if (store.getTensormap())
      return {};
    return getBlockOrigin(store.getPtr());
  }
  return {};
}

/// Whether `value` is an operand of a tile.dot, directly or transposed:
/// a load tilegpu-pipeline may copy with TMA.
bool feedsDot(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    if (isa<tile::DotOp>(user))
      return true;
    return isa<tile::TransOp>(user) && feedsDot(user->getResult(0));
  });
}

struct HoistTensorMaps
    : public tilegpu::impl::TileGPUHoistTensorMapsBase<HoistTensorMaps> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The launch passes one kernel's maps: a module of one kernel (the
    // front end inlines helpers).
    SmallVector<func::FuncOp> kernels;
    for (func::FuncOp kernel : module.getOps<func::FuncOp>())
      if (!kernel.isExternal())
        kernels.push_back(kernel);
    if (kernels.size() != 1 || kernels[0].getNumResults() != 0 ||
        !kernels[0].getBody().hasOneBlock())
      return;
    std::vector<int64_t> flat = {0};
    hoist(kernels[0], flat);
    if (flat[0] > 0)
      module->setAttr(kTensorMapsAttr,
                      DenseI64ArrayAttr::get(&getContext(), flat));
  }

  /// Adds `kernel`'s maps to `flat` (the count in flat[0]).
  static void hoist(func::FuncOp kernel, std::vector<int64_t> &flat) {
    // Each access with its descriptor's recipe, serialized (its map
    // argument left 0) as the key of the descriptor.
    using Key = std::vector<int64_t>;
    struct Access {
      Operation *op;
      TensorMapRecipe recipe;
      Key key;
    };
    std::vector<Access> accesses;
    kernel.walk([&](Operation *op) {
      if (tile::MakeBlockPtrOp block = getHoistableBlock(op))
        if (std::optional<TensorMapRecipe> recipe = getRecipe(kernel, block)) {
          Key key;
          appendTensorMapRecipe(key, *recipe);
          accesses.push_back({op, std::move(*recipe), std::move(key)});
        }
    });
    // One map per distinct recipe, in the order the accesses come, for
    // the descriptors TMA may use: stored through, or loaded for a dot
    // (the launch would encode the others' maps for nothing). Every
    // access through such a descriptor gets its map, so that
    // tilegpu-tma-stores sees a store's tensor loaded through it too.
    std::set<Key> wanted;
    for (const Access &access : accesses) {
      auto load = dyn_cast<tile::BlockLoadOp>(access.op);
      if (!load || feedsDot(load.getResult()))
        wanted.insert(access.key);
    }
    std::map<Key, Value> maps;
    MLIRContext *ctx = kernel.getContext();
    auto mapType = tile::PointerType::get(ctx, IntegerType::get(ctx, 8));
    NamedAttribute mapAttr(StringAttr::get(ctx, tile::kTensorMapArgAttr),
                           UnitAttr::get(ctx));
    for (Access &access : accesses) {
      if (!wanted.count(access.key))
        continue;
      Value &map = maps[access.key];
      if (!map) {
        unsigned index = kernel.getNumArguments();
        if (failed(kernel.insertArgument(index, mapType,
                                         DictionaryAttr::get(ctx, {mapAttr}),
                                         kernel.getLoc())))
          continue;
        map = kernel.getArgument(index);
        access.recipe.argument = index;
        appendTensorMapRecipe(flat, access.recipe);
        ++flat[0];
      }
      if (auto load = dyn_cast<tile::BlockLoadOp>(access.op))
        load.getTensormapMutable().assign(map);
      else
        cast<tile::BlockStoreOp>(access.op).getTensormapMutable().assign(map);
    }
  }
};
} // namespace
