//===- Allocation.cpp - shared-memory buffers and their offsets -----------===//

#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/ScratchBuffers.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace mlir;
using namespace mlir::tilegpu;

/// Scratch buffers start on 16 bytes, enough for any 128-bit access.
/// Extra bytes staggering consecutive scratch buffers may cost.
static constexpr uint64_t kStaggerBudget = 4096;

std::optional<uint64_t> mlir::tilegpu::getSharedOffset(Operation *op) {
  auto attr = op->getAttrOfType<IntegerAttr>(kSharedOffsetAttr);
  if (!attr || attr.getValue().isNegative())
    return std::nullopt;
  return attr.getValue().getZExtValue();
}

SharedMemoryAllocation::SharedMemoryAllocation(Operation *func,
                                               ExplicitBufferFn explicitBuffers,
                                               StaggerPolicy stagger) {
  numberOps(func);
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func)
      return;
    if (unsigned bytes = getScratchBytes(op)) {
      scratchIndex[op] = buffers.size();
      buffers.push_back({Buffer::Kind::Scratch, op, Value(), bytes,
                         getScratchAlignment(op), 0,
                         Interval{opNumber[op], lastNestedNumber[op] + 1}});
    }
    if (!explicitBuffers)
      return;
    auto addExplicit = [&](Value value, Operation *owner) {
      auto sizeAndAlign = explicitBuffers(value);
      if (sizeAndAlign && sizeAndAlign->first > 0)
        buffers.push_back({Buffer::Kind::Explicit, owner, value,
                           sizeAndAlign->first,
                           std::max<uint64_t>(1, sizeAndAlign->second), 0,
                           getValueLiveness(value)});
    };
    for (Value result : op->getResults())
      addExplicit(result, op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          addExplicit(arg, op);
  });
  assignOffsets();
  if (stagger.enabled)
    staggerScratch(stagger);
}

void SharedMemoryAllocation::staggerScratch(StaggerPolicy policy) {
  // Staggering: a scratch buffer that stays alive until the next scratch
  // op starts gets bytes of its own, apart from that op's. The next op's
  // writes then cannot race with its reads, and barrier insertion needs no
  // bar.sync between the two (Triton reuses the bytes and synchronizes).
  // Worth a little memory: kept when it costs at most kStaggerBudget bytes
  // more than packing.
  SmallVector<unsigned> scratchInOrder;
  for (auto [i, buffer] : llvm::enumerate(buffers))
    if (buffer.kind == Buffer::Kind::Scratch)
      scratchInOrder.push_back(i);
  llvm::sort(scratchInOrder, [&](unsigned a, unsigned b) {
    return buffers[a].live.start < buffers[b].live.start;
  });
  if (scratchInOrder.size() < 2)
    return;
  SmallVector<Buffer> packed = buffers;
  uint64_t packedTotal = totalBytes;
  for (auto [i, next] : llvm::zip(ArrayRef(scratchInOrder).drop_back(),
                                  ArrayRef(scratchInOrder).drop_front())) {
    Interval &live = buffers[i].live;
    live.end = std::max(live.end, buffers[next].live.start + 1);
  }
  totalBytes = 0;
  assignOffsets();
  if (totalBytes > packedTotal + kStaggerBudget || totalBytes > policy.limit) {
    buffers = std::move(packed);
    totalBytes = packedTotal;
    return;
  }
  // The extension was only a placement device: report the real lifetimes.
  for (auto [i, buffer] : llvm::enumerate(buffers))
    buffer.live = packed[i].live;
}

void SharedMemoryAllocation::numberOps(Operation *func) {
  uint64_t next = 0;
  // Pre-order numbers; each op's last nested number is known on the way out.
  std::function<void(Operation *)> visit = [&](Operation *op) {
    opNumber[op] = next++;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          visit(&nested);
    lastNestedNumber[op] = next - 1;
  };
  visit(func);
}

/// Whether the region holding `op` may run more than once while its parent
/// op runs. Region ops that do not say are assumed to.
static bool inRepeatingRegion(Operation *op) {
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op->getParentOp()))
    return branch.isRepetitiveRegion(op->getParentRegion()->getRegionNumber());
  return true;
}

Interval SharedMemoryAllocation::getValueLiveness(Value value) const {
  Region *defRegion = value.getParentRegion();
  Operation *def = value.getDefiningOp();
  if (!def)
    def = value.getParentRegion()->getParentOp();
  uint64_t start = opNumber.lookup(def);
  uint64_t end = start + 1;
  for (Operation *user : value.getUsers()) {
    end = std::max(end, lastNestedNumber.lookup(user) + 1);
    // A use inside a loop that does not contain the definition reads the
    // value in every iteration: alive until the loop ends.
    for (Operation *child = user, *parent = user->getParentOp();
         parent && child->getParentRegion() != defRegion;
         child = parent, parent = parent->getParentOp())
      if (inRepeatingRegion(child))
        end = std::max(end, lastNestedNumber.lookup(parent) + 1);
  }
  return {start, end};
}

void SharedMemoryAllocation::assignOffsets() {
  // Largest first; ties in program order, so the result is deterministic.
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < buffers.size(); ++i)
    order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    if (buffers[a].size != buffers[b].size)
      return buffers[a].size > buffers[b].size;
    return buffers[a].live < buffers[b].live;
  });
  SmallVector<unsigned> placed;
  for (unsigned i : order) {
    Buffer &buffer = buffers[i];
    SmallVector<Interval> taken;
    for (unsigned j : placed)
      if (buffers[j].live.intersects(buffer.live))
        taken.push_back(buffers[j].bytes());
    llvm::sort(taken);
    // First fit: the lowest aligned gap between buffers alive with this one.
    uint64_t offset = 0;
    for (const Interval &bytes : taken) {
      if (offset + buffer.size <= bytes.start)
        break;
      offset = std::max(offset, llvm::alignTo(bytes.end, buffer.alignment));
    }
    buffer.offset = offset;
    totalBytes = std::max(totalBytes, offset + buffer.size);
    placed.push_back(i);
  }
}

const SharedMemoryAllocation::Buffer *
SharedMemoryAllocation::getScratchBuffer(Operation *op) const {
  auto it = scratchIndex.find(op);
  return it == scratchIndex.end() ? nullptr : &buffers[it->second];
}

uint64_t mlir::tilegpu::getTargetSharedMemoryLimit(ModuleOp module) {
  auto target =
      module->getAttrOfType<StringAttr>(TileGPUDialect::getTargetAttrName());
  if (!target)
    return kMaxStaticSharedBytes;
  unsigned arch = 0;
  StringRef name = target.getValue();
  if (!name.consume_front("sm_") ||
      name.take_while(llvm::isDigit).getAsInteger(10, arch))
    return kMaxStaticSharedBytes;
  // Consumer Blackwell (sm_120, sm_121) has the 99 KiB of sm_86/89.
  if (arch >= 120)
    return 99 * 1024;
  if (arch >= 90)
    return 227 * 1024;
  if (arch == 80 || arch == 87)
    return 163 * 1024;
  if (arch >= 86)
    return 99 * 1024;
  if (arch >= 70)
    return 96 * 1024;
  return kMaxStaticSharedBytes;
}
