//===- LoopIteration.h - recompute a loop body for another iteration -*- C++
//-*-===//
//
// Shared by the passes that issue a loop's loads ahead of their iteration
// (tilegpu-prefetch, tilegpu-pipeline): which body values can be computed
// for an iteration other than the current one, and a cloner that does so.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LOOPITERATION_H
#define TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LOOPITERATION_H

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

namespace mlir::tilegpu {

/// Whether `value`, computed in `loop`'s body, can be recomputed for another
/// iteration: it comes from the induction variable, iter_args (whose
/// yielded values qualify likewise) and values from outside the loop,
/// through side-effect-free ops without regions directly in the body.
inline bool isRecomputable(scf::ForOp loop, Value value,
                           llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(value).second)
    return true;
  Block *body = loop.getBody();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != body)
      return arg.getParentRegion()->isProperAncestor(&loop.getRegion());
    if (arg == loop.getInductionVar())
      return true;
    // An iter_arg: its next value is what the body yields for it.
    Value yielded = loop.getYieldedValues()[arg.getArgNumber() - 1];
    return isRecomputable(loop, yielded, visited);
  }
  Operation *def = value.getDefiningOp();
  if (!loop->isProperAncestor(def))
    return true;
  if (def->getBlock() != body || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isRecomputable(loop, operand, visited);
  });
}

/// Whether `op`'s result reaches a tile.dot (through layout conversions).
inline bool feedsDot(Operation *op) {
  for (Operation *user : op->getUsers()) {
    if (isa<tile::DotOp>(user))
      return true;
    if (isa<ConvertLayoutOp>(user) && feedsDot(user))
      return true;
  }
  return false;
}

/// Recomputes body values of `loop` for one iteration at a builder's
/// insertion point: the induction variable and iter_args are given, body
/// ops are cloned on demand (each once).
class IterationValues {
public:
  IterationValues(scf::ForOp loop, OpBuilder &builder, Value iv,
                  std::function<Value(unsigned)> iterArg)
      : loop(loop), builder(builder), iv(iv), iterArg(std::move(iterArg)) {}

  Value get(Value value) {
    if (Value known = values.lookup(value))
      return known;
    Value result = compute(value);
    values[value] = result;
    return result;
  }

private:
  Value compute(Value value) {
    Block *body = loop.getBody();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != body)
        return value;
      if (arg == loop.getInductionVar())
        return iv;
      return iterArg(arg.getArgNumber() - 1);
    }
    Operation *def = value.getDefiningOp();
    if (!loop->isProperAncestor(def))
      return value;
    IRMapping mapping;
    for (Value operand : def->getOperands())
      mapping.map(operand, get(operand));
    Operation *copy = builder.clone(*def, mapping);
    for (auto [old, fresh] : llvm::zip(def->getResults(), copy->getResults()))
      values[old] = fresh;
    return copy->getResult(cast<OpResult>(value).getResultNumber());
  }

  scf::ForOp loop;
  OpBuilder &builder;
  Value iv;
  std::function<Value(unsigned)> iterArg;
  DenseMap<Value, Value> values;
};

} // namespace mlir::tilegpu

#endif // TILE_LIB_DIALECT_TILEGPU_TRANSFORMS_LOOPITERATION_H
