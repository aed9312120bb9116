//===- ProgramWork.h - how a program's loop work varies with its id -*- C++
//-*-===//
//
// For each axis of the launch grid, whether the loops of a kernel run more
// or fewer iterations in programs of higher id along that axis. A loop's
// bounds are read as affine functions of tile.program_id(axis) (constants,
// kernel arguments and values computed from them do not vary); its trip
// count grows when the upper bound's coefficient exceeds the lower bound's.
// A causal attention forward, whose row block program_id(0) walks the key
// blocks up to the diagonal, does more work the higher its id along axis 0.
// Anything the reading cannot follow (a bound computed in a loop, a
// division that is not exact, a loop under a branch on the program id, a
// while loop) makes the answer Unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_PROGRAMWORK_H
#define TILE_ANALYSIS_PROGRAMWORK_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
namespace scf {
class ForOp;
} // namespace scf
} // namespace mlir

namespace mlir::tile {

/// How a loop's trip count, or a kernel's loop work, changes as the program
/// id along one axis grows.
enum class WorkTrend { Independent, Increasing, Decreasing, Unknown };

llvm::StringRef stringifyWorkTrend(WorkTrend trend);

/// The coefficient c of `value` = c * program_id(axis) + (a term the id does
/// not change); nullopt when `value` is not of that form.
std::optional<int64_t> getProgramIdCoefficient(Value value, unsigned axis);

/// The trend of `loop`'s trip count along `axis`, enclosing branches
/// included.
WorkTrend getLoopWorkTrend(scf::ForOp loop, unsigned axis);

/// The trend of all loops in `kernel` along `axis`: Independent without
/// loops that vary, Increasing (Decreasing) when some loop's trip count
/// grows (shrinks) and none goes the other way or is Unknown.
WorkTrend getKernelWorkTrend(Operation *kernel, unsigned axis);

} // namespace mlir::tile

#endif // TILE_ANALYSIS_PROGRAMWORK_H
