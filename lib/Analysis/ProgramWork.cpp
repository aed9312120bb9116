//===- ProgramWork.cpp - how a program's loop work varies with its id -----===//
//
// Reads loop bounds as affine functions of one program id (ProgramWork.h).
// The reading is a heuristic for scheduling: a wrong answer costs time, not
// results, since the pass that uses it only reorders programs.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramWork.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

StringRef mlir::tile::stringifyWorkTrend(WorkTrend trend) {
  switch (trend) {
  case WorkTrend::Independent:
    return "independent";
  case WorkTrend::Increasing:
    return "increasing";
  case WorkTrend::Decreasing:
    return "decreasing";
  case WorkTrend::Unknown:
    break;
  }
  return "unknown";
}

namespace {
std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

std::optional<int64_t> readCoefficient(Value value, unsigned axis,
                                       unsigned depth) {
  // Loop bounds are short chains; a deep one is not worth following.
  if (depth > 32)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Kernel arguments are the same in every program; a loop's induction
    // variable or carried value is not a bound this reading follows.
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner))
      return 0;
    return std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  if (auto pid = dyn_cast<ProgramIdOp>(op))
    return pid.getAxis() == axis ? 1 : 0;
  if (getConstant(value))
    return 0;
  auto operand = [&](unsigned i) {
    return readCoefficient(op->getOperand(i), axis, depth + 1);
  };
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op))
    return operand(0);
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    std::optional<int64_t> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    return isa<arith::AddIOp>(op) ? *lhs + *rhs : *lhs - *rhs;
  }
  if (isa<arith::MulIOp>(op)) {
    std::optional<int64_t> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    if (std::optional<int64_t> factor = getConstant(op->getOperand(1)))
      return *lhs * *factor;
    if (std::optional<int64_t> factor = getConstant(op->getOperand(0)))
      return *rhs * *factor;
    if (*lhs == 0 && *rhs == 0)
      return 0;
    return std::nullopt;
  }
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::FloorDivSIOp>(op)) {
    // (d * k * pid + r) / d = k * pid + r / d, near enough for a trend.
    std::optional<int64_t> dividend = operand(0), divisor = operand(1);
    if (!dividend || !divisor)
      return std::nullopt;
    if (*dividend == 0 && *divisor == 0)
      return 0;
    std::optional<int64_t> d = getConstant(op->getOperand(1));
    if (d && *d > 0 && *dividend % *d == 0)
      return *dividend / *d;
    return std::nullopt;
  }
  // Any other pure op of values no program id changes changes with none.
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return std::nullopt;
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    std::optional<int64_t> coefficient = operand(i);
    if (!coefficient || *coefficient != 0)
      return std::nullopt;
  }
  return 0;
}

WorkTrend combine(WorkTrend lhs, WorkTrend rhs) {
  if (lhs == WorkTrend::Independent)
    return rhs;
  if (rhs == WorkTrend::Independent || lhs == rhs)
    return lhs;
  return WorkTrend::Unknown;
}
} // namespace

std::optional<int64_t> mlir::tile::getProgramIdCoefficient(Value value,
                                                           unsigned axis) {
  return readCoefficient(value, axis, 0);
}

WorkTrend mlir::tile::getLoopWorkTrend(scf::ForOp loop, unsigned axis) {
  // A loop under a branch the program id decides runs in some programs only.
  for (Operation *parent = loop->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp()) {
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      std::optional<int64_t> condition =
          getProgramIdCoefficient(branch.getCondition(), axis);
      if (!condition || *condition != 0)
        return WorkTrend::Unknown;
      continue;
    }
    if (!isa<scf::ForOp>(parent))
      return WorkTrend::Unknown;
  }
  std::optional<int64_t> lower =
      getProgramIdCoefficient(loop.getLowerBound(), axis);
  std::optional<int64_t> upper =
      getProgramIdCoefficient(loop.getUpperBound(), axis);
  std::optional<int64_t> step = getProgramIdCoefficient(loop.getStep(), axis);
  if (!lower || !upper || !step || *step != 0)
    return WorkTrend::Unknown;
  // scf.for's step is positive, so the trip count follows upper - lower.
  if (*upper > *lower)
    return WorkTrend::Increasing;
  if (*upper < *lower)
    return WorkTrend::Decreasing;
  return WorkTrend::Independent;
}

WorkTrend mlir::tile::getKernelWorkTrend(Operation *kernel, unsigned axis) {
  WorkTrend trend = WorkTrend::Independent;
  kernel->walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      trend = combine(trend, getLoopWorkTrend(loop, axis));
    else if (isa<scf::WhileOp>(op))
      trend = WorkTrend::Unknown;
  });
  return trend;
}
