//===- PipelineOperands.cpp - which loads tilegpu-pipeline can copy ------===//
//
// The operand matching both pipeline schemes share (PipelineOperands.h).
//
//===----------------------------------------------------------------------===//

#include "PipelineOperands.h"
#include "StageCopies.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace mlir::tilegpu {

tile::LoadOp traceOperandLoad(Value operand,
                              SmallVectorImpl<Operation *> &chain,
                              bool *transposed) {
  while (Operation *def = operand.getDefiningOp()) {
    chain.push_back(def);
    if (auto load = dyn_cast<tile::LoadOp>(def))
      return load;
    if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
      operand = convert.getSrc();
    } else if (auto trans = dyn_cast<tile::TransOp>(def);
               trans && transposed && !*transposed &&
               trans.getOrder() == ArrayRef<int32_t>{1, 0}) {
      *transposed = true;
      operand = trans.getSrc();
    } else {
      break;
    }
  }
  return {};
}

tile::LoadOp getOperandLoad(Value operand, SmallVectorImpl<Operation *> &chain,
                            bool *transposed) {
  tile::LoadOp load = traceOperandLoad(operand, chain, transposed);
  if (!load ||
      !llvm::all_of(chain, [](Operation *op) { return op->hasOneUse(); }))
    return {};
  return load;
}

bool hasCopyableRuns(tile::LoadOp load, DistributedLayoutInterface layout,
                     const tile::ModuleAxisInfo &axisInfo, unsigned axis) {
  unsigned width = std::min(layout.getLayoutSizePerThread()[axis],
                            axisInfo.getPtrVectorWidth(load.getPtr(), axis));
  if (Value mask = load.getMask())
    width = std::min(width, axisInfo.getMaskConstancy(mask, axis));
  unsigned bytes =
      std::max(1u, width) *
      cast<RankedTensorType>(load.getType()).getElementTypeBitWidth() / 8;
  return bytes == 4 || bytes == 8 || bytes == 16;
}

bool hasCopyableBlock(tile::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getIsVolatile() ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return false;
  Value other = load.getOther();
  return !other || matchPattern(other, m_AnyZeroFloat());
}

bool isCopyable(tile::LoadOp load, const tile::ModuleAxisInfo &axisInfo,
                bool allowTransposed) {
  if (!hasCopyableBlock(load))
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = getDistributedLayout(type);
  if (!layout)
    return false;
  unsigned inner = layout.getLayoutOrder()[0];
  if (inner != 1 && !(allowTransposed && inner == 0))
    return false;
  // TMA copies whole boxes, bounded by the tensor map, whatever the
  // pointers' alignment.
  if (isTmaLoad(load))
    return true;
  // The swizzled stage tiles need rows of at least 32 bytes.
  if (type.getDimSize(inner) * 2 < 32)
    return false;
  return hasCopyableRuns(load, layout, axisInfo, inner);
}

void collectLoadSlice(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
                      llvm::SmallPtrSetImpl<Operation *> &slice,
                      llvm::SetVector<unsigned> &aheadArgs) {
  SmallVector<Value> worklist;
  for (tile::LoadOp load : loads)
    worklist.append(load->operand_begin(), load->operand_end());
  llvm::SmallPtrSet<Value, 32> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == loop.getBody() && arg != loop.getInductionVar()) {
        unsigned index = arg.getArgNumber() - 1;
        aheadArgs.insert(index);
        worklist.push_back(loop.getYieldedValues()[index]);
      }
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != loop.getBody() || !slice.insert(def).second)
      continue;
    worklist.append(def->operand_begin(), def->operand_end());
  }
}

bool hasCountableSteps(scf::ForOp loop) {
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return false;
  Type ivType = loop.getInductionVar().getType();
  return ivType.isInteger(32) || ivType.isIndex();
}

void eraseReplacedLoads(scf::ForOp loop,
                        ArrayRef<SmallVector<Operation *>> chains) {
  // A load two dots read is in two chains: erase each op once, users first.
  // (Erased ops become null here rather than leaving the vector while it is
  // walked.)
  llvm::SetVector<Operation *> unique;
  for (ArrayRef<Operation *> chain : chains)
    unique.insert(chain.begin(), chain.end());
  SmallVector<Operation *> ops = unique.takeVector();
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : ops)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
    if (isOpTriviallyDead(&op))
      op.erase();
}

} // namespace mlir::tilegpu
