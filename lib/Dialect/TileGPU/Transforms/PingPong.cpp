//===- PingPong.cpp - consumer warpgroups take turns at the dots ----------===//
//
// tilegpu-ping-pong: in a warp-specialized kernel (tilegpu-warp-specialize)
// with two consumer warpgroups, each loop of the consumer region that
// issues chained wgmma groups (a tilegpu.warpgroup_dot whose A is in
// registers, attention's P V) issues its dots in turns, as
// FlashAttention-3's ping-pong schedule does: a warpgroup takes
// its turn (tilegpu.take_turn) before the body's first dot and passes it
// (tilegpu.pass_turn) after the last, so that the tensor cores run one
// warpgroup's dots while the other computes its softmax. Each dot of the
// region outside those loops (a tile's first q k^T, its last P V) takes a
// turn of its own. The second warpgroup passes once at the region's start,
// so that the first goes first; the first takes once at its end, matching
// the second's last pass.
//
// Assumes what the split guarantees: both consumer warpgroups run the same
// loops the same number of times (they share each tile's rows), so every
// take meets one pass of the other warpgroup. Named barriers 2 and 3 are
// the turns' (1 is the consumers' barrier, 0 the program's).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPINGPONG
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Consumer warpgroups that can take turns: exactly two.
constexpr unsigned kConsumerWarps = 8;

/// A turn around the ops from `first` to `last` (one block's).
void wrapInTurn(Operation *first, Operation *last) {
  OpBuilder b(first);
  TakeTurnOp::create(b, first->getLoc(), IntegerAttr());
  b.setInsertionPointAfter(last);
  PassTurnOp::create(b, last->getLoc(), IntegerAttr());
}

/// Wraps the wgmma groups `loop`'s body issues in a turn; false if it
/// issues none or none chained (A in registers: attention's P V), or if a
/// loop or branch in the body issues dots too (a turn around it would
/// enclose that one's turns: its dots take single turns instead). Only a
/// chained loop has work between its dots (the softmax) that the other
/// warpgroup's dots can overlap; a matmul's loop is all dots.
bool takeTurnsIn(scf::ForOp loop) {
  Operation *first = nullptr, *last = nullptr;
  bool chained = false;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0 && op.walk([](WarpGroupDotOp) {
                                       return WalkResult::interrupt();
                                     }).wasInterrupted())
      return false;
    auto dot = dyn_cast<WarpGroupDotOp>(op);
    if (!dot)
      continue;
    chained |= isa<RankedTensorType>(dot.getA().getType());
    if (!first)
      first = &op;
    last = &op;
  }
  if (!chained)
    return false;
  wrapInTurn(first, last);
  return true;
}

struct TileGPUPingPong
    : public tilegpu::impl::TileGPUPingPongBase<TileGPUPingPong> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (getProducerWarps(module) == 0 || getNumWarps(module) != kConsumerWarps)
      return;
    module.walk([&](scf::IfOp roles) {
      if (!roles->hasAttr(kWarpRolesAttr))
        return;
      Region &consumers = roles.getElseRegion();
      SmallVector<Operation *> turned;
      consumers.walk([&](scf::ForOp loop) {
        if (takeTurnsIn(loop))
          turned.push_back(loop);
      });
      if (turned.empty())
        return;
      // The dots outside those loops (the first q k^T a tile peels, its
      // last P V) take a turn each.
      SmallVector<WarpGroupDotOp> single;
      consumers.walk([&](WarpGroupDotOp dot) {
        if (llvm::none_of(turned, [&](Operation *loop) {
              return loop->isProperAncestor(dot);
            }))
          single.push_back(dot);
      });
      for (WarpGroupDotOp dot : single)
        wrapInTurn(dot, dot);
      Block &body = consumers.front();
      OpBuilder b = OpBuilder::atBlockBegin(&body);
      // After setmaxnreg, which stays first.
      if (auto resize = dyn_cast<SetMaxRegistersOp>(body.front()))
        b.setInsertionPointAfter(resize);
      PassTurnOp::create(b, roles.getLoc(), b.getI32IntegerAttr(1));
      b.setInsertionPoint(body.getTerminator());
      TakeTurnOp::create(b, roles.getLoc(), b.getI32IntegerAttr(0));
    });
  }
};
} // namespace
