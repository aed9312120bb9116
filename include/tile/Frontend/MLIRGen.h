//===- MLIRGen.h - Triton kernels to the tile dialect -----------*- C++ -*-===//
//
// Turns one @triton.jit function of a parsed .tile module into an MLIR module
// holding a func.func in the tile and arith dialects, specialized the way
// Triton specializes a kernel for a launch: tl.constexpr parameters become
// compile-time values, integer parameters equal to 1 become the constant 1,
// and the remaining parameters become the function's arguments, typed from
// the launch signature (`*fp32`, `i32`, ...). Every operation carries the
// FileLineColLoc of the Python expression it comes from.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_MLIRGEN_H
#define TILE_FRONTEND_MLIRGEN_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mlir {
class MLIRContext;
class ModuleOp;
template <typename OpTy> class OwningOpRef;
} // namespace mlir

namespace tile::frontend {

/// How the launch specializes one kernel parameter, as Triton's signature
/// does.
struct ParamSpec {
  std::string name;
  /// "*fp32", "*fp16", "*bf16", "*fp64", "*i8", "*i16", "*i32", "*i64",
  /// "*u8", "*i1" for pointers; "i1", "i32", "i64", "fp32", "fp64" (also
  /// "i8", "i16", "u8".."u64", "fp16", "bf16") for scalars; "constexpr" for
  /// tl.constexpr parameters.
  std::string type;
  /// A dtype given to a constexpr (`TO_TYPE = tl.int16`): its
  /// triton.language name ("int16").
  struct DTypeName {
    std::string name;
  };
  /// None given to a constexpr (`AXIS = None`).
  struct NoneValue {};
  /// A tuple of integers given to a constexpr (a shape: `(8, 8)`).
  using IntTuple = std::vector<int64_t>;
  /// The constexpr value when type == "constexpr". Left empty, the
  /// parameter's default (a literal) is used.
  std::variant<std::monostate, int64_t, double, bool, std::string, DTypeName,
               NoneValue, IntTuple>
      value;
  /// Pointer (address) or integer (value) % 16 == 0.
  bool divisibleBy16 = false;
  /// Integer % 8 == 0: a row stride of 16 bytes' multiple for 2-byte
  /// elements, which only tilegpu-hoist-tensor-maps reads (the
  /// `tile.multiple_of_8` argument attribute); the contiguity analysis keeps
  /// Triton's 16-or-nothing.
  bool divisibleBy8 = false;
  /// Integer == 1: the parameter becomes the constant 1.
  bool equalsOne = false;
  /// A tensor descriptor's shape: which extents are multiples of 16 (as
  /// integer arguments are specialized, so that its bounds checks keep
  /// 16-element runs whole).
  std::vector<bool> shapeDivisibleBy16;
};

struct KernelSpecialization {
  std::vector<ParamSpec> params;
};

/// Emits a module with one func.func named after the kernel, whose arguments
/// are the non-constexpr, non-equal-to-one parameters; pointer arguments are
/// typed !tile.ptr<T>; arguments marked divisibleBy16 carry the
/// `tile.divisibility = 16 : i32` argument attribute (read by the contiguity
/// analysis). The module is verified. Returns null after reporting a
/// diagnostic.
mlir::OwningOpRef<mlir::ModuleOp> emitKernel(mlir::MLIRContext &context,
                                             const ast::Module &module,
                                             llvm::StringRef kernelName,
                                             const KernelSpecialization &spec,
                                             DiagEmitter &diag);

/// One parameter of a kernel, as a caller needs it to build the
/// specialization of a launch.
struct KernelParam {
  std::string name;
  /// Annotated `tl.constexpr`.
  bool isConstexpr = false;
  /// The default value expression, or null. Points into the ast::Module.
  const ast::Expr *defaultValue = nullptr;
  SourceLocation loc;
};

/// The parameters of `kernelName` in order; reports "no kernel named ..."
/// and returns std::nullopt when the module has no such @triton.jit
/// function.
std::optional<std::vector<KernelParam>>
getKernelParams(const ast::Module &module, llvm::StringRef kernelName,
                DiagEmitter &diag);

/// The names of the module's @triton.jit functions, in source order.
std::vector<std::string> getKernelNames(const ast::Module &module);

/// A compile-time value of an autotuning configuration.
using ConstexprValue = std::variant<int64_t, double, bool, std::string>;

/// One `triton.Config({...}, num_warps=, num_stages=, num_ctas=)`.
struct AutotuneConfig {
  /// The constexpr parameters the configuration sets, in source order.
  std::vector<std::pair<std::string, ConstexprValue>> kwargs;
  /// triton.Config's defaults.
  int64_t numWarps = 4;
  int64_t numStages = 3;
  int64_t numCtas = 1;
  SourceLocation loc;
};

/// What `@triton.autotune(configs=[...], key=[...])` says.
struct AutotuneInfo {
  std::vector<AutotuneConfig> configs;
  /// The parameters whose values select a tuning result.
  std::vector<std::string> key;
  /// prune_configs_by={'early_config_prune': NAME}: a module-level function
  /// of (configs, named_args, **kwargs) that returns the configurations to
  /// try for a launch's arguments (pruneAutotuneConfigs); empty without one.
  std::string earlyConfigPrune;
  SourceLocation loc;
};

/// The @triton.autotune decorator of `kernelName`: std::nullopt inside when
/// the kernel has none; failure after a diagnostic (no such kernel, a
/// configuration list the evaluator cannot read). The host code that
/// builds the list sees a GPU of `computeCapability` (90: sm_90a).
llvm::FailureOr<std::optional<AutotuneInfo>>
getAutotuneInfo(const ast::Module &module, llvm::StringRef kernelName,
                DiagEmitter &diag, unsigned computeCapability = 90);

/// The indices of `info.configs` that `info.earlyConfigPrune` keeps for a
/// launch whose arguments are `arguments` (its numbers and bools), as
/// Triton's autotuner calls it: (configs, named_args, **kwargs). All of them
/// without a pruner; failure after a diagnostic.
llvm::FailureOr<std::vector<size_t>> pruneAutotuneConfigs(
    const ast::Module &module, const AutotuneInfo &info,
    llvm::ArrayRef<std::pair<std::string, ConstexprValue>> arguments,
    DiagEmitter &diag, unsigned computeCapability = 90);

} // namespace tile::frontend

#endif // TILE_FRONTEND_MLIRGEN_H
