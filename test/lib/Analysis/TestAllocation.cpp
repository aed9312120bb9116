//===- TestAllocation.cpp - print the shared-memory allocation ------------===//
//
// test-print-shared-memory-allocation attaches each shared-memory buffer's
// placement (offset, size, live interval over the op numbering) to the op
// owning it as a remark, and each function's total to the function, so lit
// tests check the analysis with -verify-diagnostics. An op result carrying
// `test.shared_bytes = N` is treated as an explicit buffer of N bytes, which
// exercises the liveness of buffers that outlive one op (no op makes one
// yet).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/Allocation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct TestAllocationPass
    : public PassWrapper<TestAllocationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAllocationPass)

  StringRef getArgument() const final {
    return "test-print-shared-memory-allocation";
  }
  StringRef getDescription() const final {
    return "Print the shared-memory allocation as remarks";
  }

  void runOnOperation() override {
    auto explicitBuffers =
        [](Value value) -> std::optional<std::pair<uint64_t, uint64_t>> {
      Operation *def = value.getDefiningOp();
      if (!def)
        return std::nullopt;
      auto bytes = def->getAttrOfType<IntegerAttr>("test.shared_bytes");
      if (!bytes)
        return std::nullopt;
      return std::make_pair(bytes.getValue().getZExtValue(), uint64_t(16));
    };
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      SharedMemoryAllocation allocation(func, explicitBuffers);
      for (const auto &buffer : allocation.getBuffers())
        buffer.owner->emitRemark()
            << (buffer.kind == SharedMemoryAllocation::Buffer::Kind::Scratch
                    ? "scratch"
                    : "explicit")
            << ": offset " << buffer.offset << ", size " << buffer.size
            << ", live [" << buffer.live.start << ", " << buffer.live.end
            << ")";
      func->emitRemark() << "shared memory: " << allocation.getTotalBytes()
                         << " bytes";
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestAllocationPass() { PassRegistration<TestAllocationPass>(); }
} // namespace mlir::tile::test
