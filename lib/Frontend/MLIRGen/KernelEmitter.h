//===- KernelEmitter.h - The walk from AST to the tile dialect --*- C++ -*-===//
//
// Private to lib/Frontend/MLIRGen. The KernelEmitter walks the AST of one
// @triton.jit function and emits a func.func in the tile and arith dialects,
// following Triton's semantics: Python values known at compile time
// (literals, tl.constexpr parameters, constant globals) stay compile-time
// values (PyValue) and fold with each other, while everything else is an SSA
// value; scalars meet blocks through tile.splat, pointers advance through
// tile.addptr, and mixed operand types are promoted with Triton's rules.
// What the front end cannot lower yet is reported as "... is not supported
// yet" at the construct's location.
//
// Where each part lives:
//   Module.cpp         imports, decorators, kernel lookup, autotune configs
//   Kernel.cpp         the kernel's signature and specialization
//   Names.cpp          name lookup with Python scoping
//   Statements.cpp     statements; ControlFlow.cpp scf.if/for/while
//   Expressions.cpp    the expression walker; Calls.cpp argument binding
//   HelperCalls.cpp    @triton.jit helpers, inlined
//   Operators.cpp      operators on runtime values
//   Constexpr.cpp      compile-time folding with Python semantics
//   Broadcast.cpp      shapes and broadcasting; TypePromotion.cpp promotion
//   PythonBuiltins.cpp min, max, abs, int, float, bool
//   Builtins/          triton.language's builtins by family, each family a
//                      table (Builtins/Builtins.h) and its emitters
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_MLIRGEN_KERNELEMITTER_H
#define TILE_LIB_FRONTEND_MLIRGEN_KERNELEMITTER_H

#include "PyValue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

namespace tile::frontend::mlirgen {

/// triton.language's dtype named `name` ("int16"): its MLIR type and
/// whether it is unsigned; nullopt for another name.
std::optional<std::pair<mlir::Type, bool>>
lookupDType(mlir::MLIRContext &context, llvm::StringRef name);

namespace arith = mlir::arith;

class KernelEmitter {
public:
  KernelEmitter(mlir::MLIRContext &context, const ast::Module &module,
                DiagEmitter &diag)
      : context(context), module(module), diag(diag), builder(&context),
        aliases(collectImportAliases(module)) {
    filename = builder.getStringAttr(module.getFilename());
    collectGlobalAssignments();
  }

  mlir::OwningOpRef<mlir::ModuleOp> emit(const ast::FunctionDef &kernel,
                                         const KernelSpecialization &spec);

  // The members below are shared by the files of lib/Frontend/MLIRGen: each
  // file defines one part of the walk (statements, expressions, operators,
  // a family of builtins).
  using Result = std::optional<PyValue>;

  //===--------------------------------------------------------------------===//
  // Diagnostics and locations
  //===--------------------------------------------------------------------===//

  std::nullopt_t error(const ast::Location &loc, const llvm::Twine &message) {
    diag.error(loc, message);
    return std::nullopt;
  }
  mlir::LogicalResult fail(const ast::Location &loc,
                           const llvm::Twine &message) {
    diag.error(loc, message);
    return mlir::failure();
  }
  mlir::Location getLoc(const ast::Location &loc) {
    return mlir::FileLineColLoc::get(filename, loc.line, loc.col);
  }

  //===--------------------------------------------------------------------===//
  // The kernel's signature
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult checkDecorators(const ast::FunctionDef &kernel);
  /// Fails at the first `*args` or `**kwargs` parameter of a @triton.jit
  /// function.
  mlir::LogicalResult checkPlainParams(const ast::FunctionDef &function);
  std::optional<mlir::Type> parseSpecType(llvm::StringRef type,
                                          const ast::Param &param);
  /// The block of a "tensordesc<fp16[64, 64]>" specialization type.
  std::optional<mlir::RankedTensorType>
  parseDescriptorType(llvm::StringRef type, const ast::Param &param);

  //===--------------------------------------------------------------------===//
  // Names
  //===--------------------------------------------------------------------===//

  void collectGlobalAssignments();
  void collectAssignedNames(const ast::StmtList &body);
  Result lookupName(const ast::NameExpr &name);
  Result evaluateGlobal(llvm::StringRef name, const ast::Location &useLoc);
  /// Evaluates a global's value or a parameter default, which Python
  /// evaluates at module level.
  Result evaluateInModuleScope(const ast::Expr &expr);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult emitBlock(llvm::ArrayRef<ast::StmtPtr> body);
  /// Statement sequences run one after the other at one block's level.
  mlir::LogicalResult
  emitParts(llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> parts);
  mlir::LogicalResult emitStmt(const ast::Stmt &stmt);
  mlir::LogicalResult emitAssign(const ast::AssignStmt &assign);
  mlir::LogicalResult bindTarget(const ast::Expr &target, const PyValue &value);
  mlir::LogicalResult emitIf(const ast::IfStmt &stmt);
  mlir::LogicalResult emitRuntimeIf(const ast::IfStmt &stmt,
                                    mlir::Value condition);
  /// An scf.if whose branches are the given statement sequences; variables
  /// both branches bind become its results.
  mlir::LogicalResult
  emitBranches(const ast::Location &loc, mlir::Value condition,
               llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> thenParts,
               llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> elseParts);
  mlir::LogicalResult emitFor(const ast::ForStmt &stmt);
  mlir::LogicalResult emitWhile(const ast::WhileStmt &stmt);
  /// The names a loop body assigns that already have values: Triton's
  /// loop-carried variables, with their values before the loop turned into
  /// IR (numbers take their default type). Fails on a variable whose value
  /// cannot be carried.
  mlir::LogicalResult
  collectCarried(const ast::StmtList &body, llvm::StringRef loopVariable,
                 const ast::Location &loc,
                 llvm::SmallVectorImpl<std::string> &names,
                 llvm::SmallVectorImpl<mlir::Value> &initial,
                 llvm::SmallVectorImpl<bool> &unsignedness);
  /// The current values of `names` for a yield, each converted to the
  /// carried type when it is a number; reports a type change.
  std::optional<llvm::SmallVector<mlir::Value>>
  yieldCarried(llvm::ArrayRef<std::string> names,
               llvm::ArrayRef<mlir::Value> initial, const ast::Location &loc,
               llvm::StringRef construct);
  /// A scalar i1 from the condition of an `if` or `while`.
  std::optional<mlir::Value> toCondition(const PyValue &value,
                                         const ast::Expr &expr,
                                         llvm::StringRef construct);
  /// Fails when a `return` ran inside a region (Tile cannot leave one).
  mlir::LogicalResult checkNoReturnInRegion(const ast::Location &loc,
                                            llvm::StringRef construct);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Result emitExpr(const ast::Expr &expr);
  Result emitConstant(const ast::ConstantExpr &constant);
  Result emitAttribute(const ast::AttributeExpr &attribute);
  Result emitCall(const ast::CallExpr &call);
  Result emitSubscript(const ast::SubscriptExpr &subscript);
  Result emitSequence(const ast::ExprList &elements);
  /// `module.attr` (tl.float16, tl.clamp, tl.PropagateNan.ALL).
  Result emitNamespaceAttribute(const PyValue &base, llvm::StringRef attr,
                                const ast::Location &loc);
  /// `[element for x in t if c]` over compile-time tuples: a tuple.
  Result emitListComp(const ast::ListCompExpr &comp);
  Result emitRuntimeIfExp(const ast::IfExpExpr &ifExp, mlir::Value condition);
  /// Inlines the @triton.jit helper `function` with bound arguments.
  Result callFunction(const ast::FunctionDef &function,
                      llvm::ArrayRef<PyValue> args,
                      llvm::ArrayRef<std::pair<std::string, PyValue>> keywords,
                      const ast::Location &loc);
  Result emitFunctionCall(const ast::CallExpr &call,
                          const ast::FunctionDef &function);
  Result emitPythonBuiltin(const ast::CallExpr &call, llvm::StringRef name);
  Result emitIsInstance(const PyValue &value, const PyValue &classInfo,
                        const ast::Expr &classExpr);
  Result emitLanguageCall(const ast::CallExpr &call, llvm::StringRef name,
                          llvm::StringRef displayName,
                          const PyValue *self = nullptr);
  Result emitUnary(const ast::UnaryOpExpr &unary);
  Result emitBoolOp(const ast::BoolOpExpr &boolOp);
  Result emitCompare(const ast::CompareExpr &compare);
  Result emitBinary(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs,
                    const ast::Location &loc);
  Result foldBinary(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs,
                    const ast::Location &loc);
  Result foldCompare(ast::CompareOp op, const PyValue &lhs, const PyValue &rhs,
                     const ast::Location &loc);
  Result emitPointerArithmetic(ast::BinaryOp op, const PyValue &lhs,
                               const PyValue &rhs, const ast::Location &loc);
  Result emitRuntimeCompare(ast::CompareOp op, const PyValue &lhs,
                            const PyValue &rhs, const ast::Location &loc);
  std::nullopt_t unsupportedOperands(llvm::StringRef op, const PyValue &lhs,
                                     const PyValue &rhs,
                                     const ast::Location &loc);

  //===--------------------------------------------------------------------===//
  // Builtins
  //===--------------------------------------------------------------------===//

  /// Python's matching of a call's arguments to `params`: `numPositional`
  /// positional ones fill the first slots, each keyword its slot, through
  /// `bindKeyword(slot, keyword)` (false: it reported an error). Reports
  /// too many positional arguments, unknown or repeated keywords and
  /// missing required arguments as Python words them.
  bool matchParams(
      const ast::CallExpr &call, llvm::StringRef displayName,
      llvm::ArrayRef<BuiltinParam> params, size_t numPositional,
      llvm::function_ref<bool(size_t, const ast::Keyword &)> bindKeyword);
  std::optional<llvm::SmallVector<const ast::Expr *>>
  bindArguments(const ast::CallExpr &call, llvm::StringRef displayName,
                llvm::ArrayRef<BuiltinParam> params);
  /// Binds and evaluates the arguments of a triton.language call; `self`
  /// (a method's block) comes first. Absent optional arguments are None and
  /// flagged in `present`. `variadicFrom` lets the positional arguments from
  /// that index on form one tuple (`reshape(x, 2, 4)`).
  struct CallArgs {
    llvm::SmallVector<PyValue> values;
    llvm::SmallVector<bool> present;
    llvm::SmallVector<ast::Location> locs;
  };
  std::optional<CallArgs> evaluateArguments(const ast::CallExpr &call,
                                            llvm::StringRef displayName,
                                            llvm::ArrayRef<BuiltinParam> params,
                                            const PyValue *self,
                                            int variadicFrom = -1);
  std::optional<int64_t> evaluateAxis(const ast::Expr &expr,
                                      llvm::StringRef displayName);
  Result emitProgramIdLike(const ast::CallExpr &call,
                           llvm::StringRef displayName, bool numPrograms);
  Result emitArange(const ast::CallExpr &call, llvm::StringRef displayName);
  /// The common shape of a memory op's block operands (scalars broadcast to
  /// it), and which operand set it.
  struct OperandShape {
    bool asBlock = false;
    llvm::SmallVector<int64_t> shape;
    const char *owner = nullptr;
  };
  /// Folds `operand` into `common`; reports a shape that disagrees.
  bool unifyOperandShape(OperandShape &common,
                         const std::optional<PyValue> &operand,
                         const char *name, const ast::Expr *argExpr,
                         llvm::StringRef displayName);
  /// `ptr` splatted to the common shape when the other operands are blocks.
  mlir::Value broadcastPointer(mlir::Value ptr, const OperandShape &common,
                               mlir::Location loc) {
    return common.asBlock ? broadcastTo(ptr, common.shape, loc) : ptr;
  }
  Result emitLoad(const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitStore(const ast::CallExpr &call, llvm::StringRef displayName);
  struct MemoryHints {
    mlir::tile::CacheModifier cache = mlir::tile::CacheModifier::none;
    mlir::tile::EvictionPolicy evict = mlir::tile::EvictionPolicy::normal;
    bool isVolatile = false;
    /// Block pointers only: the dimensions to check, the padding, and
    /// where the user gave them (null locations when not given).
    llvm::SmallVector<int32_t> boundaryCheck;
    mlir::tile::PaddingOption padding = mlir::tile::PaddingOption::none;
    ast::Location boundaryCheckLoc, paddingLoc;
    bool hasBoundaryCheck = false, hasPadding = false;
  };
  mlir::LogicalResult checkNoBlockPointerHints(const MemoryHints &hints,
                                               llvm::StringRef displayName);
  /// `desc.block_shape`, `desc.load` and the other attributes of a tensor
  /// descriptor (TensorDescriptors.cpp).
  Result emitDescriptorAttribute(const PyValue &descriptor,
                                 const ast::AttributeExpr &attribute);
  /// tl.load and tl.store through a block pointer (BlockPointers.cpp).
  Result emitBlockPointerLoad(const ast::CallExpr &call, const PyValue &pointer,
                              llvm::ArrayRef<const ast::Expr *> maskAndOther,
                              const MemoryHints &hints,
                              llvm::StringRef displayName);
  Result emitBlockPointerStore(const ast::CallExpr &call,
                               const PyValue &pointer, const PyValue &value,
                               const ast::Expr *valueExpr,
                               const ast::Expr *maskExpr,
                               const MemoryHints &hints,
                               llvm::StringRef displayName);
  mlir::LogicalResult checkMemoryHints(
      llvm::ArrayRef<const ast::Expr *> args,
      llvm::ArrayRef<BuiltinParam> params, llvm::StringRef displayName,
      llvm::ArrayRef<llvm::StringRef> cacheModifiers, MemoryHints &hints);
  bool requireIR(const ast::Location &loc, llvm::StringRef what);

  //===--------------------------------------------------------------------===//
  // IR helpers
  //===--------------------------------------------------------------------===//

  /// The operand type for a compile-time number used alone: Triton's i32 (or
  /// i64 when it does not fit), fp32, or i1.
  mlir::Type getDefaultType(const PyValue &value);
  std::optional<mlir::Type>
  getComputationType(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs);
  mlir::Type promoteTypes(mlir::Type a, mlir::Type b, bool divOrMod);
  /// Whether Triton's integer promotion of two operands is unsigned: an
  /// unsigned runtime operand makes it so, unless the other one is signed
  /// and wider (uint8 with int32 computes in int32).
  bool isPromotedUnsigned(const PyValue &lhs, const PyValue &rhs);
  /// An arith.constant holding `value` as `elementType`, splatted to `shape`
  /// when `asBlock`.
  mlir::Value materialize(const PyValue &value, mlir::Type elementType,
                          bool asBlock, llvm::ArrayRef<int64_t> shape,
                          mlir::Location loc);
  mlir::Value convertElementType(mlir::Value value, mlir::Type elementType,
                                 mlir::Location loc);
  mlir::Value splatTo(mlir::Value scalar, llvm::ArrayRef<int64_t> shape,
                      mlir::Location loc);
  /// `value` (runtime or compile-time) as an operand of `elementType`,
  /// broadcast to `shape` when `asBlock`.
  mlir::Value prepareOperand(const PyValue &value, mlir::Type elementType,
                             bool asBlock, llvm::ArrayRef<int64_t> shape,
                             mlir::Location loc);
  mlir::Value zeroLike(mlir::Type type, mlir::Location loc);

  //===--------------------------------------------------------------------===//
  // Blocks: shapes, broadcasting, types
  //===--------------------------------------------------------------------===//

  /// Triton's broadcasting of two shapes (ranks aligned on the right, 1
  /// stretches); std::nullopt when they are incompatible.
  static std::optional<llvm::SmallVector<int64_t>>
  broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);
  /// `value` (scalar or block) expanded and broadcast to `shape`, which must
  /// be compatible.
  mlir::Value broadcastTo(mlir::Value value, llvm::ArrayRef<int64_t> shape,
                          mlir::Location loc);
  /// The common shape of several operands (compile-time values have none);
  /// reports incompatible shapes naming `what`.
  std::optional<std::pair<bool, llvm::SmallVector<int64_t>>>
  commonShape(llvm::ArrayRef<const PyValue *> operands, llvm::StringRef what,
              const ast::Location &loc);
  /// `value` converted to `elementType` (Triton's tl.cast), keeping its
  /// shape; signedness picks ext/trunc and int/float conversions. A float
  /// narrowing rounds to nearest even, or toward zero with `towardZero`
  /// (fp_downcast_rounding="rtz": an arith.truncf with roundingmode).
  mlir::Value castValue(mlir::Value value, bool fromUnsigned,
                        mlir::Type elementType, bool toUnsigned,
                        mlir::Location loc, bool towardZero = false);
  /// A runtime value of `value`: numbers become constants of their default
  /// type.
  std::optional<PyValue> toRuntime(const PyValue &value,
                                   const ast::Location &loc);
  /// A compile-time integer or a tuple/list of them (a shape).
  std::optional<llvm::SmallVector<int64_t>>
  toShape(const PyValue &value, const ast::Location &loc,
          llvm::StringRef displayName);
  mlir::Value makeFull(llvm::ArrayRef<int64_t> shape, mlir::Type elementType,
                       const PyValue &value, mlir::Location loc);
  /// Reduces `operands` along `axis` with a combine region built by
  /// `combine` from the 2N scalar arguments.
  using CombineBuilder =
      llvm::function_ref<std::optional<llvm::SmallVector<mlir::Value>>(
          llvm::ArrayRef<mlir::Value>)>;
  std::optional<llvm::SmallVector<mlir::Value>>
  buildReduce(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
              CombineBuilder combine, mlir::Location loc);
  std::optional<llvm::SmallVector<mlir::Value>>
  buildScan(llvm::ArrayRef<mlir::Value> operands, int64_t axis, bool reverse,
            CombineBuilder combine, mlir::Location loc);
  /// A combine function given by the user (a @triton.jit helper), inlined.
  std::optional<llvm::SmallVector<mlir::Value>>
  inlineCombine(const PyValue &function, llvm::ArrayRef<mlir::Value> args,
                llvm::ArrayRef<bool> unsignedness, const ast::Location &loc);
  Result emitReduction(llvm::StringRef name, const CallArgs &args,
                       const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitScan(llvm::StringRef name, const CallArgs &args,
                  const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitMath(llvm::StringRef name, const CallArgs &args,
                  const ast::CallExpr &call, llvm::StringRef displayName);
  /// A call of Triton's libdevice function `name` (Builtins/Libdevice.cpp).
  Result emitLibdeviceCall(const ast::CallExpr &call, llvm::StringRef name,
                           llvm::StringRef displayName);
  Result emitShapeOp(llvm::StringRef name, const CallArgs &args,
                     const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitAtomic(llvm::StringRef name, const CallArgs &args,
                    const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitDot(const CallArgs &args, const ast::CallExpr &call,
                 llvm::StringRef displayName);
  Result emitMinMax(bool isMax, const PyValue &lhs, const PyValue &rhs,
                    bool propagateNan, const ast::Location &loc);
  Result emitWhere(const PyValue &condition, const PyValue &x, const PyValue &y,
                   const ast::Location &loc);
  Result emitCast(const PyValue &value, const PyValue &dtype, bool bitcast,
                  const ast::Location &loc, llvm::StringRef displayName,
                  std::optional<std::string> rounding = std::nullopt,
                  const ast::Location *roundingLoc = nullptr);

  mlir::MLIRContext &context;
  const ast::Module &module;
  DiagEmitter &diag;
  mlir::OpBuilder builder;
  mlir::StringAttr filename;
  ImportAliases aliases;

  /// Module-level `NAME = value` statements, evaluated on first use.
  llvm::StringMap<const ast::Expr *> globalDefinitions;
  llvm::StringSet<> globalsAssignedTwice;
  llvm::StringMap<PyValue> globalValues;
  llvm::StringSet<> globalsBeingEvaluated;

  /// Names bound in the kernel (Python scoping: one scope per function).
  llvm::StringMap<PyValue> locals;
  /// Every name the kernel assigns anywhere: these are local for the whole
  /// function, as in Python.
  llvm::StringSet<> assignedNames;
  /// Set once `return` has run; the rest of the body is dead.
  bool returned = false;
  ast::Location returnLoc;
  PyValue returnValue;
  /// Nonzero while inside an scf region (where `return` cannot be lowered).
  unsigned regionDepth = 0;
  /// How many statement blocks of the current function are being emitted
  /// (1: the function's own body).
  unsigned blockNesting = 0;
  /// The helpers being inlined, innermost last (recursion is an error).
  llvm::SmallVector<const ast::FunctionDef *> callStack;
};

} // namespace tile::frontend::mlirgen

#endif // TILE_LIB_FRONTEND_MLIRGEN_KERNELEMITTER_H
