//===- Allocation.h - shared-memory buffers and their offsets ---*- C++ -*-===//
//
// Assigns every shared-memory buffer of a function a byte offset such that
// buffers alive at the same time never overlap, in the manner of Triton's
// Allocation analysis.
//
// Ops are numbered in program order (pre-order: an op before the ops nested
// in it); a buffer is alive over a half-open interval of those numbers.
//   - A scratch buffer (getScratchBytes) belongs to one op and is alive only
//     while that op runs, nested ops included.
//   - An explicit buffer holds the contents of an SSA value (a
//     !tilegpu.memdesc from tilegpu.local_alloc, the stages of a pipelined
//     dot): it is alive from the value's definition to its last use, and a use
//     inside a loop (or any region that may run repeatedly) that does not
//     contain the definition keeps it alive to the end of that loop. Values
//     carried through loop iter_args or yields would need an alias analysis,
//     which is not done.
// Offsets are assigned greedily, largest buffer first, each at the lowest
// offset (aligned) that overlaps no buffer placed before whose live
// interval intersects its own. The total is the highest end.
// Then consecutive scratch buffers are staggered when that costs at most
// 4 KiB more: placed as if each lived until the next scratch op starts, so
// neighbours never share bytes and need no barrier between them (see
// Membar.h); reported lifetimes stay the real ones.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_ALLOCATION_H
#define TILE_ANALYSIS_ALLOCATION_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir {
class ModuleOp;
}

namespace mlir::tilegpu {

/// The op attribute holding the byte offset of an op's scratch buffer.
inline constexpr llvm::StringLiteral kSharedOffsetAttr =
    "tilegpu.shared_offset";
/// The module attribute recording the shared memory a kernel uses (bytes).
inline constexpr llvm::StringLiteral kSharedBytesAttr = "tilegpu.shared";
/// Static shared memory a program may use without opting in.
inline constexpr unsigned kMaxStaticSharedBytes = 48 * 1024;
/// The symbol of the program's shared memory, in which
/// tilegpu-allocate-shared-memory placed every buffer.
inline constexpr llvm::StringLiteral kSharedScratchSymbol = "tile_smem";
/// A kernel using more declares its shared memory as dynamic and its size
/// in an i32 global of this name, which the launch reads to size and opt in.
inline constexpr llvm::StringLiteral kDynamicSharedBytesSymbol =
    "tile_dynamic_shared_bytes";
/// A warp-specialized kernel (tilegpu-warp-specialize) records the warps it
/// adds to each program in an i32 global of this name: the launch starts
/// num_warps plus that many.
inline constexpr llvm::StringLiteral kProducerWarpsSymbol =
    "tile_producer_warps";
/// A persistent kernel (tilegpu-persistent-programs) declares an i32 global
/// of this name, 1: each launch passes the grid's sizes after the kernel's
/// arguments and starts as many programs as fit on the GPU at once.
inline constexpr llvm::StringLiteral kPersistentProgramsSymbol =
    "tile_persistent_programs";

/// The shared memory a program may opt in to on `module`'s target (the
/// CUDA programming guide's table); 48 KiB, what any program may use
/// statically, where the module names no target.
uint64_t getTargetSharedMemoryLimit(ModuleOp module);

/// The offset recorded on `op` by tilegpu-allocate-shared-memory, if any (an
/// attribute of another type counts as none).
std::optional<uint64_t> getSharedOffset(Operation *op);

/// A half-open interval [start, end).
struct Interval {
  uint64_t start = 0, end = 0;
  bool intersects(const Interval &other) const {
    return start < other.end && other.start < end;
  }
  bool operator==(const Interval &other) const {
    return start == other.start && end == other.end;
  }
  bool operator<(const Interval &other) const {
    return start < other.start || (start == other.start && end < other.end);
  }
};

/// Whether to stagger consecutive scratch buffers, and the total it may not
/// push a function past (over it, buffers are packed, so an over-the-limit
/// error reports the least the function needs).
struct ScratchStaggerPolicy {
  bool enabled = true;
  uint64_t limit = UINT64_MAX;
};

class SharedMemoryAllocation {
public:
  struct Buffer {
    enum class Kind { Scratch, Explicit };
    Kind kind;
    /// The op a scratch buffer belongs to; for an explicit buffer, the op
    /// defining its value (or owning the block argument).
    Operation *owner;
    /// The value an explicit buffer holds (null for scratch).
    Value value;
    uint64_t size, alignment;
    /// Where the buffer lies in shared memory, once allocated.
    uint64_t offset = 0;
    /// When it is alive, over the op numbering.
    Interval live;

    Interval bytes() const { return {offset, offset + size}; }
  };

  /// (size, alignment) of the explicit buffer holding `value`, or nullopt
  /// when none does.
  using ExplicitBufferFn =
      llvm::function_ref<std::optional<std::pair<uint64_t, uint64_t>>(Value)>;

  using StaggerPolicy = ScratchStaggerPolicy;

  /// Collects and places the buffers of `func` (a function-like op).
  /// `explicitBuffers`, when given, is asked about every op result and block
  /// argument in it.
  explicit SharedMemoryAllocation(Operation *func,
                                  ExplicitBufferFn explicitBuffers = nullptr,
                                  StaggerPolicy stagger = StaggerPolicy());

  llvm::ArrayRef<Buffer> getBuffers() const { return buffers; }
  /// The scratch buffer of `op`, or null.
  const Buffer *getScratchBuffer(Operation *op) const;
  /// Bytes of shared memory the function needs (the highest buffer end).
  uint64_t getTotalBytes() const { return totalBytes; }
  /// The number of `op` in program order.
  uint64_t getOpNumber(Operation *op) const { return opNumber.lookup(op); }

private:
  void numberOps(Operation *func);
  Interval getValueLiveness(Value value) const;
  void assignOffsets();
  void staggerScratch(StaggerPolicy policy);

  llvm::DenseMap<Operation *, uint64_t> opNumber;
  /// The number of the last op nested in each op (itself if none).
  llvm::DenseMap<Operation *, uint64_t> lastNestedNumber;
  llvm::SmallVector<Buffer> buffers;
  llvm::DenseMap<Operation *, unsigned> scratchIndex;
  uint64_t totalBytes = 0;
};

} // namespace mlir::tilegpu

#endif // TILE_ANALYSIS_ALLOCATION_H
