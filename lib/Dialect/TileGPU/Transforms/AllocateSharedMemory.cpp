//===- AllocateSharedMemory.cpp - offsets for shared-memory buffers -------===//
//
// tilegpu-allocate-shared-memory runs the liveness-based allocation
// (tile/Analysis/Allocation.h) on every function and records the result:
// `tilegpu.shared_offset` on each op with a scratch buffer, `tilegpu.shared`
// (the largest function's total) on the module. Assumes layouts are final:
// scratch sizes depend on them, so no pass may change a scratch op's types
// afterwards.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <limits>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The shared memory a program may opt in to on the module's target (the
/// CUDA programming guide's table); 48 KiB, what any program may use
/// statically, where the module names no target.
uint64_t getTargetSharedMemoryLimit(ModuleOp module) {
  auto target =
      module->getAttrOfType<StringAttr>(TileGPUDialect::getTargetAttrName());
  if (!target)
    return kMaxStaticSharedBytes;
  unsigned arch = 0;
  StringRef name = target.getValue();
  if (!name.consume_front("sm_") || name.take_while(llvm::isDigit)
                                        .getAsInteger(10, arch))
    return kMaxStaticSharedBytes;
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

struct AllocateSharedMemory
    : public tilegpu::impl::TileGPUAllocateSharedMemoryBase<
          AllocateSharedMemory> {
  using TileGPUAllocateSharedMemoryBase::TileGPUAllocateSharedMemoryBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    // Offsets are i32 attributes.
    uint64_t limit = std::min<uint64_t>(
        sharedMemoryLimit.getValue() ? sharedMemoryLimit.getValue()
                                     : getTargetSharedMemoryLimit(module),
        std::numeric_limits<int32_t>::max());
    uint64_t moduleBytes = 0;
    bool overLimit = false;
    // Offsets of an earlier run may be stale.
    module.walk([](Operation *op) { op->removeAttr(kSharedOffsetAttr); });
    for (auto func : module.getOps<FunctionOpInterface>()) {
      SharedMemoryAllocation allocation(
          func, /*explicitBuffers=*/nullptr,
          SharedMemoryAllocation::StaggerPolicy{stagger, limit});
      for (const auto &buffer : allocation.getBuffers())
        buffer.owner->setAttr(kSharedOffsetAttr,
                              builder.getI32IntegerAttr(buffer.offset));
      uint64_t total = allocation.getTotalBytes();
      moduleBytes = std::max(moduleBytes, total);
      if (total <= limit)
        continue;
      // Blame the buffer that reaches highest (the first one, in program
      // order, among equals).
      const SharedMemoryAllocation::Buffer *top = nullptr;
      for (const auto &buffer : allocation.getBuffers())
        if (!top || buffer.bytes().end > top->bytes().end ||
            (buffer.bytes().end == top->bytes().end && buffer.live < top->live))
          top = &buffer;
      InFlightDiagnostic diag =
          top->owner->emitError("the kernel needs ")
          << total << " bytes of shared memory; the limit is " << limit;
      diag.attachNote() << "this op's buffer takes bytes " << top->offset
                        << " to " << top->bytes().end << " (" << top->size
                        << " bytes)";
      overLimit = true;
    }
    if (overLimit)
      return signalPassFailure();
    module->setAttr(kSharedBytesAttr,
                    builder.getI32IntegerAttr(int32_t(moduleBytes)));
  }
};
} // namespace
