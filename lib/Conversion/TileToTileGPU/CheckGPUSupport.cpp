//===- CheckGPUSupport.cpp - ops the GPU path cannot lower yet ------------===//
//
// tile-check-gpu-support: before the GPU pipeline, reports every op of the
// tile-dialect module that convert-tilegpu-to-llvm has no pattern for, and
// every arith or math op on fp8 values but conversions, bitcasts, selects and
// constants (the GPU has no fp8 arithmetic; Triton has none either), as
//
//   file:line:col: error: tl.X is not supported on the GPU yet
//
// at the op's location, and the fp8 conversions the target lacks (fp8e4nv
// below sm_89), naming the target; then fails. Assumes the module is in
// the tile dialect (no layouts yet); changes nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/GPUSupport.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/StringExtras.h"
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

/// The compute capability of `target` (sm_90a: 90; 90 if unreadable).
unsigned getComputeCapability(StringRef target) {
  unsigned capability = 90;
  target.consume_front("sm_");
  target.take_while([](char c) { return llvm::isDigit(c); })
      .getAsInteger(10, capability);
  return capability;
}

/// Why `op`, an arith op on fp8 values, does not run on `target`, or "".
std::string checkFp8Op(Operation *op, StringRef target) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    // MLIR's f8E4M3B11FNUZ (Triton's carrier of fp8e4b15) encodes nonzero
    // values otherwise than fp8e4b15.
    Attribute value = constant.getValue();
    if (auto splat = dyn_cast<SplatElementsAttr>(value))
      value = splat.getSplatValue<Attribute>();
    auto number = dyn_cast<FloatAttr>(value);
    if (isa<Float8E4M3B11FNUZType>(getElementTypeOrSelf(constant.getType())) &&
        (!number || !number.getValue().isZero()))
      return "a nonzero tl.float8e4b15 constant is not supported on the GPU "
             "yet";
    return "";
  }
  if (isa<arith::BitcastOp, arith::SelectOp>(op))
    return "";
  if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
    return "arithmetic on fp8 values is not supported on the GPU yet "
           "(Triton has none; convert to tl.float16 or tl.float32 first)";
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  if (getComputeCapability(target) >= 89)
    return "";
  std::string suffix = " needs sm_89 or later; the target is " + target.str() +
                       " (as in Triton)";
  if (isa<Float8E4M3FNType>(from) || isa<Float8E4M3FNType>(to))
    return "a conversion to or from tl.float8e4nv" + suffix;
  return "";
}

struct TileCheckGPUSupport
    : public tile::impl::TileCheckGPUSupportBase<TileCheckGPUSupport> {
  using TileCheckGPUSupportBase::TileCheckGPUSupportBase;

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
      } else if (isa<arith::ArithDialect, math::MathDialect>(
                     op->getDialect()) &&
                 (llvm::any_of(op->getOperandTypes(), isFloat8) ||
                  llvm::any_of(op->getResultTypes(), isFloat8))) {
        std::string problem = checkFp8Op(op, target);
        if (!problem.empty()) {
          op->emitError() << problem;
          unsupported = true;
        }
      }
    });
    if (unsupported)
      signalPassFailure();
  }

  llvm::StringSet<> lowered;
};
} // namespace
