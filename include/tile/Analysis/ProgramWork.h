//===- ProgramWork.h - how a program's work varies with its id --*- C++ -*-===//
//
// Whether the loops of a kernel run more iterations in programs with larger
// ids along a grid axis: causal attention's off-diagonal loop runs
// `start_m * BLOCK_M / BLOCK_N` iterations, so its last row blocks do the
// most work. The analysis follows scalar integer arithmetic from
// tile.program_id to each scf.for's bounds (additions, subtractions,
// multiplications and divisions by constants, extensions, min and max);
// anything else that depends on the program id makes the trend unknown.
// Where a value is `slope * program_id + (independent of it)`, the slope is
// kept, so the diagonal loop from `start_m * BLOCK_M` to
// `(start_m + 1) * BLOCK_M` runs as many iterations in every program.
// tilegpu-order-programs reads it to start the heaviest programs first.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_PROGRAMWORK_H
#define TILE_ANALYSIS_PROGRAMWORK_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// How a value changes as one program id grows (non-strictly).
enum class Trend { Independent, Increasing, Decreasing, Unknown };

llvm::StringRef stringifyTrend(Trend trend);

/// Whether ProgramWork follows a program id through `op`: integer add, sub,
/// mul, div, min, max and extensions (the rest make a trend unknown).
bool isFollowedArithmetic(Operation *op);

class ProgramWork {
public:
  explicit ProgramWork(FunctionOpInterface kernel) : kernel(kernel) {}

  /// How the scalar integer `value` changes with tile.program_id(axis).
  Trend getTrend(Value value, unsigned axis);

  /// How the number of iterations of `loop` changes with program_id(axis).
  Trend getTripCountTrend(scf::ForOp loop, unsigned axis);

  /// How the kernel's work changes with program_id(axis): Increasing when
  /// some loop's trip count increases and none decreases or is unknown,
  /// and no branch or while loop depends on the axis.
  Trend getWorkTrend(unsigned axis);

  /// The loops whose trip count increases with program_id(axis).
  llvm::SmallVector<scf::ForOp> getGrowingLoops(unsigned axis);

  /// Bytes the tile.load and tile.block_load ops in one iteration of `loop`
  /// read (loads of nested loops counted once).
  static int64_t getBytesLoadedPerIteration(scf::ForOp loop);

private:
  /// How a value depends on one program id: its trend, and its slope where
  /// it is `slope * program_id + (independent of it)`.
  struct Dependence {
    Trend trend;
    std::optional<int64_t> slope;
  };
  Dependence getDependence(Value value, unsigned axis);
  Dependence computeDependence(Value value, unsigned axis);

  FunctionOpInterface kernel;
  llvm::DenseMap<std::pair<Value, unsigned>, Dependence> dependences;
};

} // namespace mlir::tile

#endif // TILE_ANALYSIS_PROGRAMWORK_H
