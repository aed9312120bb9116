//===- TensorMapRecipe.h - tensor maps the launch encodes ----*- C++ -*-===//
//
// tilegpu-hoist-tensor-maps gives a tensor descriptor the kernel makes from
// its arguments a TMA tensor map that the launch encodes, as it does a host
// descriptor's, and passes as a kernel argument after the kernel's own. The
// recipe of each map travels with the compiled kernel (the module's
// tilegpu.tensor-maps attribute, then the PTX's i64 array global
// tile_tensor_maps, which the launcher reads once the module is loaded):
//
//   count, then per map:
//     argument   the kernel argument that takes the map
//     base       the argument holding the tensor's base pointer
//     element    0 fp16, 1 bf16; -1 where no TMA copy or store reads the
//                map (the launch then passes zeros, and checks nothing)
//     block rows, block columns   (the box: TensorMapBox.h)
//     n, n steps: the rows (the outer extent)
//     n, n steps: the columns (the contiguous extent)
//     n, n steps: the row stride, in elements
//
// A value's steps run on a stack of int64: kConstant c and kArgument i push
// c and the i-th argument's integer value; kAdd, kSub and kMul pop two and
// push their wrapping result; kWrap32 and kZeroExtend32 sign- and
// zero-extend the top's low 32 bits (the kernel's i32 arithmetic wraps).
// Header-only and needing no LLVM library (ArrayRef and function_ref are
// header-only): the launchers read it without the compiler, and
// tile-compile's launchers evaluate it in C.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TENSORMAPRECIPE_H
#define TILE_DIALECT_TILEGPU_IR_TENSORMAPRECIPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::tilegpu {

/// The module attribute (a DenseI64ArrayAttr) and the PTX global holding
/// the recipes.
inline constexpr llvm::StringLiteral kTensorMapsAttr = "tilegpu.tensor-maps";
inline constexpr llvm::StringLiteral kTensorMapsSymbol = "tile_tensor_maps";

/// The element of a map that no TMA copy or store reads.
inline constexpr int64_t kUnusedTensorMap = -1;

enum TensorMapStep : int64_t {
  kConstant = 1,
  kArgument = 2,
  kAdd = 3,
  kSub = 4,
  kMul = 5,
  kWrap32 = 6,
  kZeroExtend32 = 7,
};

struct TensorMapRecipe {
  int64_t argument = 0, base = 0, element = 0, blockRows = 0, blockCols = 0;
  std::vector<int64_t> rows, cols, rowStride;
};

inline void appendTensorMapRecipe(std::vector<int64_t> &flat,
                                  const TensorMapRecipe &recipe) {
  flat.insert(flat.end(), {recipe.argument, recipe.base, recipe.element,
                           recipe.blockRows, recipe.blockCols});
  for (const auto *steps : {&recipe.rows, &recipe.cols, &recipe.rowStride}) {
    flat.push_back(int64_t(steps->size()));
    flat.insert(flat.end(), steps->begin(), steps->end());
  }
}

/// The recipes `flat` holds (count first), or nothing if it is malformed.
inline std::optional<std::vector<TensorMapRecipe>>
parseTensorMapRecipes(llvm::ArrayRef<int64_t> flat) {
  if (flat.empty() || flat[0] < 0)
    return std::nullopt;
  std::vector<TensorMapRecipe> recipes(static_cast<size_t>(flat[0]));
  size_t at = 1;
  auto take = [&](int64_t &out) {
    if (at >= flat.size())
      return false;
    out = flat[at++];
    return true;
  };
  for (TensorMapRecipe &recipe : recipes) {
    if (!take(recipe.argument) || !take(recipe.base) || !take(recipe.element) ||
        !take(recipe.blockRows) || !take(recipe.blockCols))
      return std::nullopt;
    for (auto *steps : {&recipe.rows, &recipe.cols, &recipe.rowStride}) {
      int64_t count = 0;
      if (!take(count) || count < 1 || at + size_t(count) > flat.size())
        return std::nullopt;
      steps->assign(flat.begin() + at, flat.begin() + at + count);
      at += size_t(count);
    }
  }
  if (at != flat.size())
    return std::nullopt;
  return recipes;
}

/// The value `steps` compute, given each argument's integer value; nothing
/// where the steps are malformed or an argument has no integer value.
inline std::optional<int64_t> evaluateTensorMapSteps(
    llvm::ArrayRef<int64_t> steps,
    llvm::function_ref<std::optional<int64_t>(int64_t)> argument) {
  std::vector<uint64_t> stack;
  for (size_t i = 0; i < steps.size(); ++i) {
    switch (steps[i]) {
    case kConstant:
    case kArgument: {
      if (i + 1 >= steps.size())
        return std::nullopt;
      int64_t operand = steps[++i];
      if (steps[i - 1] == kConstant) {
        stack.push_back(uint64_t(operand));
        break;
      }
      std::optional<int64_t> value = argument(operand);
      if (!value)
        return std::nullopt;
      stack.push_back(uint64_t(*value));
      break;
    }
    case kAdd:
    case kSub:
    case kMul: {
      if (stack.size() < 2)
        return std::nullopt;
      uint64_t rhs = stack.back();
      stack.pop_back();
      uint64_t lhs = stack.back();
      stack.pop_back();
      stack.push_back(steps[i] == kAdd   ? lhs + rhs
                      : steps[i] == kSub ? lhs - rhs
                                         : lhs * rhs);
      break;
    }
    case kWrap32:
    case kZeroExtend32:
      if (stack.empty())
        return std::nullopt;
      stack.back() = steps[i] == kWrap32
                         ? uint64_t(int64_t(int32_t(uint32_t(stack.back()))))
                         : uint64_t(uint32_t(stack.back()));
      break;
    default:
      return std::nullopt;
    }
  }
  if (stack.size() != 1)
    return std::nullopt;
  return int64_t(stack.back());
}

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_TENSORMAPRECIPE_H
