//===- ControlFlowOps.cpp - scf.for, scf.if and scf.while -----------------===//
//
// The structured control flow of a program: loops and branches run their
// regions through Interpreter::runBlock.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

static SmallVector<Array> getAll(Interpreter &I, ValueRange values) {
  SmallVector<Array> blocks;
  for (Value v : values)
    blocks.push_back(I.get(v));
  return blocks;
}

static void setAll(Interpreter &I, ResultRange results,
                   SmallVector<Array> &values) {
  for (auto [r, v] : llvm::zip(results, values))
    I.set(r, std::move(v));
}

LogicalResult runFor(Interpreter &I, Operation *op) {
  auto forOp = cast<scf::ForOp>(op);
  unsigned width = classify(forOp.getInductionVar().getType()).width;
  int64_t lb = signExtend(I.get(forOp.getLowerBound()).i[0], width);
  int64_t ub = signExtend(I.get(forOp.getUpperBound()).i[0], width);
  int64_t step = signExtend(I.get(forOp.getStep()).i[0], width);
  if (step <= 0)
    return I.error(op) << "scf.for step must be positive, got " << step;
  SmallVector<Array> args(1), results;
  SmallVector<Array> iter = getAll(I, forOp.getInitArgs());
  args.append(iter.begin(), iter.end());
  for (int64_t iv = lb; iv < ub; iv += step) {
    args[0] = Array::scalarInt(truncBits(uint64_t(iv), width));
    if (failed(I.runBlock(*forOp.getBody(), args, results)))
      return failure();
    for (size_t r = 0; r < results.size(); ++r)
      args[r + 1] = std::move(results[r]);
  }
  SmallVector<Array> final(std::make_move_iterator(args.begin() + 1),
                           std::make_move_iterator(args.end()));
  setAll(I, forOp.getResults(), final);
  return success();
}

LogicalResult runIf(Interpreter &I, Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool taken = I.get(ifOp.getCondition()).i[0] & 1;
  Region &region = taken ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  SmallVector<Array> results;
  if (failed(I.runBlock(region.front(), {}, results)))
    return failure();
  setAll(I, ifOp.getResults(), results);
  return success();
}

LogicalResult runWhile(Interpreter &I, Operation *op) {
  auto whileOp = cast<scf::WhileOp>(op);
  SmallVector<Array> args = getAll(I, whileOp.getInits()), results;
  while (true) {
    if (failed(I.runBlock(whileOp.getBefore().front(), args, results)))
      return failure();
    // scf.condition(%cond) %values...
    bool proceed = results.front().i[0] & 1;
    args.assign(std::make_move_iterator(results.begin() + 1),
                std::make_move_iterator(results.end()));
    if (!proceed)
      break;
    if (failed(I.runBlock(whileOp.getAfter().front(), args, results)))
      return failure();
    args = std::move(results);
    results = {};
  }
  setAll(I, whileOp.getResults(), args);
  return success();
}

} // namespace mlir::tile::interp::detail
