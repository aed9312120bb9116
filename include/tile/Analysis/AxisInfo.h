//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// For every integer or pointer value (scalar or block) of a tile program the
// analysis computes, per axis:
//   - contiguity: elements come in runs of this length whose values increase
//     by one (pointers: by one element);
//   - divisibility: the first value of each such run is divisible by this
//     power of two (pointers: in bytes);
//   - constancy: elements come in runs of this length with equal values.
// It is seeded by make_range, constants and the `tile.divisibility` argument
// attribute that launch specialization writes, and propagated through
// arithmetic and pointer ops. Coalescing and vectorized memory access read it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tile {

class AxisInfo {
public:
  using DimVector = llvm::SmallVector<int64_t, 4>;
  /// Upper bound on recorded divisibility (the divisibility of zero).
  static constexpr int64_t kMaxDivisor = int64_t(1) << 30;

  /// The uninitialized state (nothing known yet, joins as identity).
  AxisInfo() = default;
  AxisInfo(DimVector contiguity, DimVector divisibility, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt)
      : contiguity(std::move(contiguity)),
        divisibility(std::move(divisibility)), constancy(std::move(constancy)),
        constantValue(constantValue) {}

  /// Nothing known about `value`: runs of length one, divisible by one.
  static AxisInfo getPessimisticValueState(Value value);
  static AxisInfo join(const AxisInfo &lhs, const AxisInfo &rhs);

  bool isInitialized() const { return !contiguity.empty(); }
  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned axis) const { return contiguity[axis]; }
  int64_t getDivisibility(unsigned axis) const { return divisibility[axis]; }
  int64_t getConstancy(unsigned axis) const { return constancy[axis]; }
  const DimVector &getContiguity() const { return contiguity; }
  const DimVector &getDivisibility() const { return divisibility; }
  const DimVector &getConstancy() const { return constancy; }
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy &&
           constantValue == other.constantValue;
  }
  void print(llvm::raw_ostream &os) const;

private:
  DimVector contiguity, divisibility, constancy;
  std::optional<int64_t> constantValue;
};

/// Runs the analysis over `root` (a module or function) once and answers
/// queries about its values.
class ModuleAxisInfo {
public:
  explicit ModuleAxisInfo(Operation *root);
  /// Null for values the analysis does not cover (floats).
  const AxisInfo *lookup(Value value) const;

  /// Elements per vector access through the block of pointers `ptr` along
  /// its axis `axis`: bounded by contiguity, by alignment and by 128 bits.
  unsigned getPtrVectorWidth(Value ptr, unsigned axis) const;
  /// Length of the runs along `axis` in which `mask` is constant.
  unsigned getMaskConstancy(Value mask, unsigned axis) const;
  /// The axes of `ptr` ordered by decreasing contiguity (ties: the last axis
  /// first, i.e. row-major).
  llvm::SmallVector<unsigned> getOrderByContiguity(Value ptr) const;

private:
  DataFlowSolver solver;
};

} // namespace mlir::tile

#endif // TILE_ANALYSIS_AXISINFO_H
