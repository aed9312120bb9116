//===- AllocateSharedMemory.cpp - offsets for shared-memory buffers -------===//
//
// tilegpu-allocate-shared-memory runs the liveness-based allocation
// (tile/Analysis/Allocation.h) on every function and records the result:
// `tilegpu.shared_offset` on each op with a scratch buffer and on each
// tilegpu.local_alloc (the explicit buffers of !tilegpu.memdesc values),
// `tilegpu.shared` (the largest function's total) on the module. Assumes
// layouts are final: scratch sizes depend on them, so no pass may change a
// scratch op's types afterwards.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/ScratchBuffers.h"
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
          func, getExplicitBufferSize,
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
