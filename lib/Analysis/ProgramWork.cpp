//===- ProgramWork.cpp - how a program's work varies with its id ----------===//

#include "tile/Analysis/ProgramWork.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;

llvm::StringRef mlir::tile::stringifyTrend(Trend trend) {
  static constexpr llvm::StringLiteral names[] = {"independent", "increasing",
                                                  "decreasing", "unknown"};
  return names[static_cast<unsigned>(trend)];
}

bool mlir::tile::isFollowedArithmetic(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
             arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::MinSIOp,
             arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op);
}

namespace {
/// The trend of a sum of two values with these trends.
Trend addTrends(Trend lhs, Trend rhs) {
  if (lhs == Trend::Independent)
    return rhs;
  if (rhs == Trend::Independent || lhs == rhs)
    return lhs;
  return Trend::Unknown;
}

Trend negateTrend(Trend trend) {
  if (trend == Trend::Increasing)
    return Trend::Decreasing;
  if (trend == Trend::Decreasing)
    return Trend::Increasing;
  return trend;
}

/// The trend of `trend` scaled by a constant.
Trend scaleTrend(Trend trend, int64_t factor) {
  if (factor == 0)
    return Trend::Independent;
  return factor > 0 ? trend : negateTrend(trend);
}

int64_t getElementBytes(Type type) {
  if (isa<PointerType>(type))
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return 0;
}
} // namespace

Trend ProgramWork::getTrend(Value value, unsigned axis) {
  return getDependence(value, axis).trend;
}

ProgramWork::Dependence ProgramWork::getDependence(Value value, unsigned axis) {
  auto key = std::make_pair(value, axis);
  if (auto it = dependences.find(key); it != dependences.end())
    return it->second;
  dependences[key] = {Trend::Unknown, std::nullopt}; // until known
  Dependence dependence = computeDependence(value, axis);
  // A known slope decides the trend.
  if (dependence.slope)
    dependence.trend = scaleTrend(Trend::Increasing, *dependence.slope);
  dependences[key] = dependence;
  return dependence;
}

ProgramWork::Dependence ProgramWork::computeDependence(Value value,
                                                       unsigned axis) {
  const Dependence independent{Trend::Independent, 0};
  const Dependence unknown{Trend::Unknown, std::nullopt};
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == kernel.getOperation())
      return independent; // a kernel argument
    // A loop's induction variable is the same in every program when its
    // bounds are; iter_args and other block arguments are not followed.
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || arg != loop.getInductionVar())
      return unknown;
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (getTrend(bound, axis) != Trend::Independent)
        return unknown;
    return independent;
  }
  Operation *op = value.getDefiningOp();
  if (auto programId = dyn_cast<ProgramIdOp>(op))
    return programId.getAxis() == axis ? Dependence{Trend::Increasing, 1}
                                       : independent;
  // Results of ops with regions (branches, loops) depend on what their
  // regions yield. Ops without operands (constants, num_programs) and ops
  // of independent operands are independent.
  if (op->getNumRegions() != 0)
    return unknown;

  SmallVector<Dependence, 2> operands;
  for (Value operand : op->getOperands())
    operands.push_back(getDependence(operand, axis));
  if (llvm::all_of(operands, [](const Dependence &operand) {
        return operand.trend == Trend::Independent;
      }))
    return independent;

  if (!isFollowedArithmetic(op))
    return unknown;
  auto slopeOf = [&](auto combine) -> std::optional<int64_t> {
    if (operands[0].slope && operands[1].slope)
      return combine(*operands[0].slope, *operands[1].slope);
    return std::nullopt;
  };
  if (isa<arith::AddIOp>(op))
    return {addTrends(operands[0].trend, operands[1].trend),
            slopeOf([](int64_t a, int64_t b) { return a + b; })};
  if (isa<arith::SubIOp>(op))
    return {addTrends(operands[0].trend, negateTrend(operands[1].trend)),
            slopeOf([](int64_t a, int64_t b) { return a - b; })};
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op))
    return {addTrends(operands[0].trend, operands[1].trend), std::nullopt};
  if (isa<arith::MulIOp>(op)) {
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<int64_t> factor = getConstantIntValue(op->getOperand(i));
      if (!factor)
        continue;
      const Dependence &other = operands[1 - i];
      std::optional<int64_t> slope;
      if (other.slope)
        slope = *other.slope * *factor;
      return {scaleTrend(other.trend, *factor), slope};
    }
    return unknown; // the other factor's sign is not known
  }
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp>(op)) {
    std::optional<int64_t> divisor = getConstantIntValue(op->getOperand(1));
    if (divisor && *divisor > 0)
      return {operands[0].trend, std::nullopt};
    return unknown;
  }
  // Extensions and index casts keep the dependence.
  return operands[0];
}

Trend ProgramWork::getTripCountTrend(scf::ForOp loop, unsigned axis) {
  if (getTrend(loop.getStep(), axis) != Trend::Independent)
    return Trend::Unknown;
  Dependence upper = getDependence(loop.getUpperBound(), axis);
  Dependence lower = getDependence(loop.getLowerBound(), axis);
  if (upper.slope && lower.slope)
    return scaleTrend(Trend::Increasing, *upper.slope - *lower.slope);
  return addTrends(upper.trend, negateTrend(lower.trend));
}

Trend ProgramWork::getWorkTrend(unsigned axis) {
  Trend work = Trend::Independent;
  kernel->walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      work = addTrends(work, getTripCountTrend(loop, axis));
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (getTrend(branch.getCondition(), axis) != Trend::Independent)
        work = Trend::Unknown;
    } else if (isa<scf::WhileOp>(op)) {
      work = Trend::Unknown; // its trip count is not followed
    }
  });
  return work;
}

SmallVector<scf::ForOp> ProgramWork::getGrowingLoops(unsigned axis) {
  SmallVector<scf::ForOp> loops;
  kernel->walk([&](scf::ForOp loop) {
    if (getTripCountTrend(loop, axis) == Trend::Increasing)
      loops.push_back(loop);
  });
  return loops;
}

int64_t ProgramWork::getBytesLoadedPerIteration(scf::ForOp loop) {
  int64_t bytes = 0;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<LoadOp, BlockLoadOp>(op))
      return;
    Type type = op->getResult(0).getType();
    if (auto shaped = dyn_cast<ShapedType>(type))
      bytes +=
          shaped.getNumElements() * getElementBytes(shaped.getElementType());
    else
      bytes += getElementBytes(type);
  });
  return bytes;
}
