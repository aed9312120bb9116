//===- WidenBoolMemory.cpp - bool blocks in memory are bytes --------------===//
//
// tile-widen-bool-memory: in memory a bool (i1) element is one byte, as in
// Triton and PyTorch (a torch.bool tensor, tile-run's i1 buffers). The GPU
// lowering accesses whole bytes, so this pass rewrites every load and store
// through pointers to i1 as one through pointers to i8: a load reads bytes
// and compares them with zero (any non-zero byte is true), a store writes
// zext(value), 0 or 1. `other` is widened the same way. Runs on the tile
// dialect before convert-tile-to-tilegpu; the interpreter reads and writes
// bools as bytes itself and does not need it.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEWIDENBOOLMEMORY
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

bool pointsAtBool(Type ptrLike) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrLike));
  return ptr && ptr.getPointeeType().isInteger(1);
}

/// The same pointers, as pointers to bytes.
Value toBytePointers(OpBuilder &b, Location loc, Value ptr) {
  Type bytePtr = PointerType::get(b.getContext(), b.getI8Type());
  return PtrCastOp::create(b, loc, withElementType(ptr.getType(), bytePtr),
                           ptr);
}

Value widen(OpBuilder &b, Location loc, Value bools) {
  return arith::ExtUIOp::create(
      b, loc, withElementType(bools.getType(), b.getI8Type()), bools);
}

struct TileWidenBoolMemory
    : public tile::impl::TileWidenBoolMemoryBase<TileWidenBoolMemory> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp>(op) && pointsAtBool(op->getOperand(0).getType()))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto load = dyn_cast<LoadOp>(op)) {
        Value other =
            load.getOther() ? widen(b, loc, load.getOther()) : Value();
        Value bytePointers = toBytePointers(b, loc, load.getPtr());
        auto bytes =
            LoadOp::create(b, loc, getPointeeShapedType(bytePointers.getType()),
                           bytePointers, load.getMask(), other, load.getCache(),
                           load.getEvict(), load.getIsVolatile());
        Value zero =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(bytes.getType()));
        Value isTrue = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             bytes, zero);
        load.replaceAllUsesWith(isTrue);
        load.erase();
        continue;
      }
      auto store = cast<StoreOp>(op);
      Value bytePointers = toBytePointers(b, loc, store.getPtr());
      Value bytes = widen(b, loc, store.getValue());
      StoreOp::create(b, loc, bytePointers, bytes, store.getMask(),
                      store.getCache(), store.getEvict());
      store.erase();
    }
  }
};

} // namespace
