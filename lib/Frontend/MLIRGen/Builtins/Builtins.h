//===- Builtins.h - triton.language's builtins, by family -------*- C++ -*-===//
//
// Private to lib/Frontend/MLIRGen. Every builtin of triton.language that a
// kernel can call (`tl.load`, `tl.sum`, `x.to(...)`) is one row of its
// family's table: its name, its parameters as Triton declares them, and the
// function that emits it. The families, one file each in this folder:
//
//   Creation.cpp    program_id, num_programs, arange, zeros, full, ...
//   Memory.cpp      load, store
//   BlockPointers.cpp  make_block_ptr, advance
//   TensorDescriptors.cpp  make_tensor_descriptor, desc.load, desc.store
//   Shape.cpp       reshape, view, trans, permute, expand_dims, cat, ...
//   Math.cpp        where, maximum, exp, sqrt, fdiv, cast, softmax, ...
//   Reductions.cpp  sum, max, argmax, reduce, cumsum, associative_scan, ...
//   Dot.cpp         dot
//   Atomics.cpp     atomic_add, atomic_cas, ...
//   Hints.cpp       multiple_of, max_contiguous, max_constancy, assume
//   Debug.cpp       static_print, static_assert, device_print, ...
//   Random.cpp      randint, rand, randn, philox, ... (Philox composites)
//   Standard.cpp    sort, topk, flip, interleave, swizzle2d, to_tensor
//                   (composed from other ops, as Triton's standard library)
//   Indexing.cpp    gather, histogram
//
// Adding `tl.X` is a row in its family's table and the function it names.
// Dispatch.cpp finds the row, binds and evaluates the call's arguments
// against the row's parameters as Python would, and calls the function.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_MLIRGEN_BUILTINS_BUILTINS_H
#define TILE_LIB_FRONTEND_MLIRGEN_BUILTINS_BUILTINS_H

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

/// A call of a builtin as its emitter receives it.
struct BuiltinCall {
  const ast::CallExpr &call;
  /// The builtin's name in triton.language: "zeros".
  llvm::StringRef name;
  /// The callee as the user spelled it, for messages: "tl.zeros".
  llvm::StringRef displayName;
  /// The block of a method call (`x.sum()`), or null.
  const PyValue *self;
  /// The arguments bound to the row's parameters and evaluated (`self`
  /// first); absent optional ones are None and not `present`. Empty for
  /// rows with kRawArguments.
  KernelEmitter::CallArgs args;

  const ast::Location &getLoc() const { return call.getLoc(); }
};

using BuiltinEmitter = std::optional<PyValue> (*)(KernelEmitter &emitter,
                                                  const BuiltinCall &call);

enum BuiltinFlags : unsigned {
  kNoFlags = 0,
  /// The emitter binds and evaluates the call's arguments itself.
  kRawArguments = 1u << 0,
  /// Emits IR: an error where only compile-time values may be computed
  /// (KernelEmitter::requireIR), checked after the arguments are evaluated.
  kNeedsIR = 1u << 1,
  /// Also a method of blocks: `x.NAME(...)` calls it with `x` first.
  kMethod = 1u << 2,
};

/// One row of a family's table.
struct Builtin {
  llvm::StringRef name;
  std::vector<BuiltinParam> params;
  BuiltinEmitter emit;
  unsigned flags = kNoFlags;
  /// Positional arguments from this index on form one tuple, as in
  /// `x.reshape(2, 4)`; -1 for none.
  int variadicFrom = -1;
};

/// The families' tables.
llvm::ArrayRef<Builtin> getCreationBuiltins();
llvm::ArrayRef<Builtin> getMemoryBuiltins();
llvm::ArrayRef<Builtin> getBlockPointerBuiltins();
llvm::ArrayRef<Builtin> getTensorDescriptorBuiltins();
llvm::ArrayRef<Builtin> getShapeBuiltins();
llvm::ArrayRef<Builtin> getMathBuiltins();
llvm::ArrayRef<Builtin> getReductionBuiltins();
llvm::ArrayRef<Builtin> getDotBuiltins();
llvm::ArrayRef<Builtin> getAtomicBuiltins();
llvm::ArrayRef<Builtin> getHintBuiltins();
llvm::ArrayRef<Builtin> getDebugBuiltins();
llvm::ArrayRef<Builtin> getRandomBuiltins();
llvm::ArrayRef<Builtin> getStandardBuiltins();
llvm::ArrayRef<Builtin> getIndexingBuiltins();

/// The elements of a tuple argument (a single value counts as one).
llvm::SmallVector<PyValue> tupleElements(const PyValue &value);

/// A tuple argument of `rank` integers (compile-time or runtime scalars) as
/// scalars of `type`; an error at `loc` naming `what` otherwise.
std::optional<llvm::SmallVector<mlir::Value>>
toIntegers(KernelEmitter &e, const PyValue &tuple, mlir::Type type, size_t rank,
           const ast::Location &loc, llvm::StringRef displayName,
           llvm::StringRef what);

/// A tuple argument of compile-time integers.
std::optional<llvm::SmallVector<int64_t>>
toConstants(KernelEmitter &e, const PyValue &tuple, const ast::Location &loc,
            llvm::StringRef displayName, llvm::StringRef what);

/// Whether argument `index` is a scalar pointer (a block pointer's or a
/// tensor descriptor's base); an error at it otherwise.
bool checkScalarPointer(KernelEmitter &e, const BuiltinCall &c, unsigned index);

/// Argument `index` as a block shape: compile-time powers of 2.
std::optional<llvm::SmallVector<int64_t>>
toBlockShape(KernelEmitter &e, const BuiltinCall &c, unsigned index);

/// The row of triton.language's builtin `name`, or null.
const Builtin *lookupBuiltin(llvm::StringRef name);

/// Whether blocks have a method `name` (`x.to`, `x.sum`): a builtin with
/// kMethod, or one of Triton's methods Tile does not support yet (a call
/// reports so rather than "no attribute").
bool isBlockMethod(llvm::StringRef name);

} // namespace tile::frontend::mlirgen

#endif // TILE_LIB_FRONTEND_MLIRGEN_BUILTINS_BUILTINS_H
