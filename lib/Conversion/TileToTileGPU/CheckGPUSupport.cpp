//===- CheckGPUSupport.cpp - ops the GPU path cannot lower yet ------------===//
//
// tile-check-gpu-support: before the GPU pipeline, reports every op of the
// tile-dialect module that convert-tilegpu-to-llvm has no pattern for, and
// every arith op on fp8 values (LLVM's NVPTX backend has no fp8 arithmetic
// or conversions through arith's lowering), as
//
//   file:line:col: error: tl.X is not supported on the GPU yet
//
// at the op's location, and fails. Assumes the module is in the tile
// dialect (no layouts yet); changes nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/GPUSupport.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKGPUSUPPORT
#include "tile/Conversion/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::getBuiltinSpelling(Operation *op) {
  if (auto rmw = dyn_cast<AtomicRMWOp>(op)) {
    switch (rmw.getKind()) {
    case RMWKind::add:
    case RMWKind::fadd:
      return "tl.atomic_add";
    case RMWKind::max:
    case RMWKind::umax:
    case RMWKind::fmax:
      return "tl.atomic_max";
    case RMWKind::min:
    case RMWKind::umin:
    case RMWKind::fmin:
      return "tl.atomic_min";
    case RMWKind::and_:
      return "tl.atomic_and";
    case RMWKind::or_:
      return "tl.atomic_or";
    case RMWKind::xor_:
      return "tl.atomic_xor";
    case RMWKind::xchg:
      return "tl.atomic_xchg";
    }
  }
  StringRef name = op->getName().getStringRef();
  std::string spelling =
      llvm::StringSwitch<std::string>(name)
          .Case("tile.trans", "tl.trans (tl.permute, .T)")
          .Case("tile.reshape", "tl.reshape (tl.view, tl.ravel)")
          .Case("tile.print", "tl.device_print")
          .Case("tile.assert", "tl.device_assert (assert)")
          .Case("tile.int_to_ptr", "a cast of an integer to a pointer")
          .Case("tile.ptr_to_int", "a cast of a pointer to an integer")
          .Case("tile.ptr_cast", "a cast between pointer types")
          .Default("");
  if (!spelling.empty())
    return spelling;
  if (name.consume_front("tile."))
    return ("tl." + name).str();
  return ("'" + name + "'").str();
}

namespace {
bool isFloat8(Type type) {
  Type element = mlir::getElementTypeOrSelf(type);
  return isa<FloatType>(element) && element.getIntOrFloatBitWidth() == 8;
}

struct TileCheckGPUSupport
    : public tile::impl::TileCheckGPUSupportBase<TileCheckGPUSupport> {
  LogicalResult initialize(MLIRContext *context) override {
    for (const std::string &name : getGPULoweredOpNames(context))
      lowered.insert(name);
    return success();
  }

  void runOnOperation() override {
    bool unsupported = false;
    getOperation().walk([&](Operation *op) {
      if (isa<TileDialect>(op->getDialect()) &&
          !lowered.contains(op->getName().getStringRef())) {
        op->emitError() << getBuiltinSpelling(op)
                        << " is not supported on the GPU yet";
        unsupported = true;
      } else if (isa<arith::ArithDialect>(op->getDialect()) &&
                 (llvm::any_of(op->getOperandTypes(), isFloat8) ||
                  llvm::any_of(op->getResultTypes(), isFloat8))) {
        op->emitError() << "fp8 values (tl.cast to or from "
                           "tl.float8e4nv, tl.float8e5) are not supported "
                           "on the GPU yet";
        unsupported = true;
      }
    });
    if (unsupported)
      signalPassFailure();
  }

  llvm::StringSet<> lowered;
};
} // namespace
