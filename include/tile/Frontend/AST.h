//===- AST.h - syntax tree of Triton kernels in Python syntax ---*- C++ -*-===//
//
// The abstract syntax tree the parser builds from a .tile file, shaped like
// Python's own `ast` module: a Module holds imports, function definitions and
// other top-level statements; statements and expressions are class
// hierarchies with a kind tag, so they can be inspected with llvm::isa,
// llvm::cast and llvm::dyn_cast without RTTI. Every node records the source
// location of its first token.
//
// The tree covers the Python statements and expressions Triton kernels use;
// which of them MLIRGen can lower is MLIRGen's business.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_AST_H
#define TILE_FRONTEND_AST_H

#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tile::frontend::ast {

using Location = SourceLocation;

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

enum class BinaryOp {
  Add,      // +
  Sub,      // -
  Mul,      // *
  MatMul,   // @
  Div,      // /
  FloorDiv, // //
  Mod,      // %
  Pow,      // **
  LShift,   // <<
  RShift,   // >>
  BitAnd,   // &
  BitOr,    // |
  BitXor,   // ^
};

enum class UnaryOp {
  Not,    // not
  Invert, // ~
  Plus,   // +
  Minus,  // -
};

enum class BoolOp { And, Or };

enum class CompareOp { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spellings, for messages and dumps.
llvm::StringRef spell(BinaryOp op);
llvm::StringRef spell(UnaryOp op);
llvm::StringRef spell(BoolOp op);
llvm::StringRef spell(CompareOp op);

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind {
    Name,
    Constant,
    Attribute,
    Call,
    Subscript,
    Slice,
    Tuple,
    List,
    Dict,
    ListComp,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
  };

  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  const Location &getLoc() const { return loc; }

protected:
  Expr(Kind kind, Location loc) : kind(kind), loc(loc) {}

private:
  const Kind kind;
  Location loc;
};

using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

/// A name: `x`, `tl`.
class NameExpr : public Expr {
public:
  NameExpr(Location loc, std::string name)
      : Expr(Kind::Name, loc), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string name;
};

/// A literal: integer, float, True/False, None, string (adjacent literals
/// already concatenated) or `...`.
class ConstantExpr : public Expr {
public:
  enum class ValueKind { Int, Float, Bool, None, String, Ellipsis };

  static std::unique_ptr<ConstantExpr> getInt(Location loc, int64_t value);
  /// An integer literal beyond the signed 64-bit range, kept with its
  /// spelling: evaluating it is an error (getOversizedIntMessage).
  static std::unique_ptr<ConstantExpr> getOversizedInt(Location loc,
                                                       std::string spelling);
  static std::unique_ptr<ConstantExpr> getFloat(Location loc, double value);
  static std::unique_ptr<ConstantExpr> getBool(Location loc, bool value);
  static std::unique_ptr<ConstantExpr> getNone(Location loc);
  static std::unique_ptr<ConstantExpr>
  getString(Location loc, std::string value, bool isBytes = false);
  static std::unique_ptr<ConstantExpr> getEllipsis(Location loc);

  ValueKind getValueKind() const { return valueKind; }
  bool isInt() const { return valueKind == ValueKind::Int; }
  bool isFloat() const { return valueKind == ValueKind::Float; }
  bool isBool() const { return valueKind == ValueKind::Bool; }
  bool isNone() const { return valueKind == ValueKind::None; }
  bool isString() const { return valueKind == ValueKind::String; }
  bool isEllipsis() const { return valueKind == ValueKind::Ellipsis; }
  bool isOversizedInt() const { return isInt() && oversized; }
  /// The error of evaluating an oversized integer literal.
  std::string getOversizedIntMessage() const;

  int64_t getInt() const { return intValue; }
  double getFloat() const { return floatValue; }
  bool getBool() const { return boolValue; }
  llvm::StringRef getString() const { return stringValue; }
  /// A `b'...'` literal (the value holds the raw bytes).
  bool isBytes() const { return bytes; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }

private:
  ConstantExpr(Location loc, ValueKind valueKind)
      : Expr(Kind::Constant, loc), valueKind(valueKind) {}

  ValueKind valueKind;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  bool bytes = false;
  bool oversized = false;
  std::string stringValue;
};

/// `value.attr`, e.g. `tl.load` is Attribute(Name(tl), "load").
class AttributeExpr : public Expr {
public:
  AttributeExpr(Location loc, ExprPtr value, std::string attr, Location attrLoc)
      : Expr(Kind::Attribute, loc), value(std::move(value)),
        attr(std::move(attr)), attrLoc(attrLoc) {}
  const Expr &getValue() const { return *value; }
  llvm::StringRef getAttr() const { return attr; }
  /// Where the attribute name itself is written.
  const Location &getAttrLoc() const { return attrLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  ExprPtr value;
  std::string attr;
  Location attrLoc;
};

/// `name=value` in a call.
struct Keyword {
  Location loc;
  std::string name;
  ExprPtr value;
};

/// `callee(args..., name=value...)`, located where the callee starts.
class CallExpr : public Expr {
public:
  CallExpr(Location loc, ExprPtr callee, ExprList args,
           std::vector<Keyword> keywords)
      : Expr(Kind::Call, loc), callee(std::move(callee)), args(std::move(args)),
        keywords(std::move(keywords)) {}
  const Expr &getCallee() const { return *callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<Keyword> &getKeywords() const { return keywords; }
  /// The keyword argument called `name`, or null.
  const Keyword *findKeyword(llvm::StringRef name) const;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr callee;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `value[index]`. Several indices (`x[:, None]`) form a TupleExpr index;
/// slices appear as SliceExpr elements.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(Location loc, ExprPtr value, ExprPtr index)
      : Expr(Kind::Subscript, loc), value(std::move(value)),
        index(std::move(index)) {}
  const Expr &getValue() const { return *value; }
  const Expr &getIndex() const { return *index; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  ExprPtr value;
  ExprPtr index;
};

/// `lower:upper:step` inside a subscript; each part may be absent (null).
class SliceExpr : public Expr {
public:
  SliceExpr(Location loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(Kind::Slice, loc), lower(std::move(lower)),
        upper(std::move(upper)), step(std::move(step)) {}
  const Expr *getLower() const { return lower.get(); }
  const Expr *getUpper() const { return upper.get(); }
  const Expr *getStep() const { return step.get(); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  ExprPtr lower, upper, step;
};

/// `(a, b)`, `a, b` or `()`.
class TupleExpr : public Expr {
public:
  TupleExpr(Location loc, ExprList elements)
      : Expr(Kind::Tuple, loc), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

private:
  ExprList elements;
};

/// `[a, b]`.
class ListExpr : public Expr {
public:
  ListExpr(Location loc, ExprList elements)
      : Expr(Kind::List, loc), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

private:
  ExprList elements;
};

/// `{k: v, ...}`; keys and values pair up by index.
class DictExpr : public Expr {
public:
  DictExpr(Location loc, ExprList keys, ExprList values)
      : Expr(Kind::Dict, loc), keys(std::move(keys)),
        values(std::move(values)) {}
  const ExprList &getKeys() const { return keys; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

private:
  ExprList keys, values;
};

/// One `for target in iter if cond...` clause of a comprehension.
struct Comprehension {
  ExprPtr target;
  ExprPtr iter;
  ExprList conditions;
};

/// `[element for target in iter if cond ...]` (autotune config lists).
class ListCompExpr : public Expr {
public:
  ListCompExpr(Location loc, ExprPtr element,
               std::vector<Comprehension> generators)
      : Expr(Kind::ListComp, loc), element(std::move(element)),
        generators(std::move(generators)) {}
  const Expr &getElement() const { return *element; }
  const std::vector<Comprehension> &getGenerators() const { return generators; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::ListComp; }

private:
  ExprPtr element;
  std::vector<Comprehension> generators;
};

/// `lhs op rhs`. The location is that of the operator.
class BinOpExpr : public Expr {
public:
  BinOpExpr(Location loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::BinOp, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp getOp() const { return op; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BinOp; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `op operand`.
class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(Location loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::UnaryOp, loc), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::UnaryOp; }

private:
  UnaryOp op;
  ExprPtr operand;
};

/// `a and b and c` (two or more values, one operator).
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(Location loc, BoolOp op, ExprList values)
      : Expr(Kind::BoolOp, loc), op(op), values(std::move(values)) {}
  BoolOp getOp() const { return op; }
  const ExprList &getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

private:
  BoolOp op;
  ExprList values;
};

/// `left op0 c0 op1 c1 ...`: a chained comparison means
/// `left op0 c0 and c0 op1 c1 ...` with each operand evaluated once. The
/// location is that of the first operator.
class CompareExpr : public Expr {
public:
  CompareExpr(Location loc, ExprPtr left, std::vector<CompareOp> ops,
              ExprList comparators)
      : Expr(Kind::Compare, loc), left(std::move(left)), ops(std::move(ops)),
        comparators(std::move(comparators)) {}
  const Expr &getLeft() const { return *left; }
  llvm::ArrayRef<CompareOp> getOps() const { return ops; }
  const ExprList &getComparators() const { return comparators; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

private:
  ExprPtr left;
  std::vector<CompareOp> ops;
  ExprList comparators;
};

/// `body if test else orElse`.
class IfExpExpr : public Expr {
public:
  IfExpExpr(Location loc, ExprPtr test, ExprPtr body, ExprPtr orElse)
      : Expr(Kind::IfExp, loc), test(std::move(test)), body(std::move(body)),
        orElse(std::move(orElse)) {}
  const Expr &getTest() const { return *test; }
  const Expr &getBody() const { return *body; }
  const Expr &getOrElse() const { return *orElse; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  ExprPtr test, body, orElse;
};

/// Where the source text of `expr` begins. Binary operators and comparisons
/// are located at their operator (which is where type errors point); this
/// walks down to their leftmost operand instead.
Location getStartLoc(const Expr &expr);

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum class Kind {
    Expr,
    Assign,
    AugAssign,
    AnnAssign,
    If,
    For,
    While,
    Return,
    Pass,
    Break,
    Continue,
    Assert,
  };

  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  const Location &getLoc() const { return loc; }

protected:
  Stmt(Kind kind, Location loc) : kind(kind), loc(loc) {}

private:
  const Kind kind;
  Location loc;
};

using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

/// An expression evaluated for its effect (a call, or a docstring).
class ExprStmt : public Stmt {
public:
  ExprStmt(Location loc, ExprPtr value)
      : Stmt(Kind::Expr, loc), value(std::move(value)) {}
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr value;
};

/// `t1 = t2 = value`; each target is a Name, Attribute, Subscript or a
/// Tuple/List of targets.
class AssignStmt : public Stmt {
public:
  AssignStmt(Location loc, ExprList targets, ExprPtr value)
      : Stmt(Kind::Assign, loc), targets(std::move(targets)),
        value(std::move(value)) {}
  const ExprList &getTargets() const { return targets; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(Location loc, ExprPtr target, BinaryOp op, ExprPtr value)
      : Stmt(Kind::AugAssign, loc), target(std::move(target)), op(op),
        value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  BinaryOp getOp() const { return op; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  ExprPtr target;
  BinaryOp op;
  ExprPtr value;
};

/// `target: annotation [= value]`.
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(Location loc, ExprPtr target, ExprPtr annotation, ExprPtr value)
      : Stmt(Kind::AnnAssign, loc), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getAnnotation() const { return *annotation; }
  /// Null for a bare declaration.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AnnAssign; }

private:
  ExprPtr target, annotation, value;
};

/// `if test: body else: orElse`; `elif` is an IfStmt alone in orElse, as in
/// Python's ast.
class IfStmt : public Stmt {
public:
  IfStmt(Location loc, ExprPtr test, StmtList body, StmtList orElse)
      : Stmt(Kind::If, loc), test(std::move(test)), body(std::move(body)),
        orElse(std::move(orElse)) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orElse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  ExprPtr test;
  StmtList body, orElse;
};

/// `for target in iter: body else: orElse`.
class ForStmt : public Stmt {
public:
  ForStmt(Location loc, ExprPtr target, ExprPtr iter, StmtList body,
          StmtList orElse)
      : Stmt(Kind::For, loc), target(std::move(target)), iter(std::move(iter)),
        body(std::move(body)), orElse(std::move(orElse)) {}
  const Expr &getTarget() const { return *target; }
  const Expr &getIter() const { return *iter; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orElse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  ExprPtr target, iter;
  StmtList body, orElse;
};

/// `while test: body else: orElse`.
class WhileStmt : public Stmt {
public:
  WhileStmt(Location loc, ExprPtr test, StmtList body, StmtList orElse)
      : Stmt(Kind::While, loc), test(std::move(test)), body(std::move(body)),
        orElse(std::move(orElse)) {}
  const Expr &getTest() const { return *test; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orElse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr test;
  StmtList body, orElse;
};

/// `return [value]`.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(Location loc, ExprPtr value)
      : Stmt(Kind::Return, loc), value(std::move(value)) {}
  /// Null for a bare `return`.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `pass`, `break` or `continue`: the kind says which.
class SimpleStmt : public Stmt {
public:
  SimpleStmt(Kind kind, Location loc) : Stmt(kind, loc) {}
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Pass || s->getKind() == Kind::Break ||
           s->getKind() == Kind::Continue;
  }
};

/// `assert test [, message]`.
class AssertStmt : public Stmt {
public:
  AssertStmt(Location loc, ExprPtr test, ExprPtr message)
      : Stmt(Kind::Assert, loc), test(std::move(test)),
        message(std::move(message)) {}
  const Expr &getTest() const { return *test; }
  const Expr *getMessage() const { return message.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  ExprPtr test, message;
};

//===----------------------------------------------------------------------===//
// Definitions and the module
//===----------------------------------------------------------------------===//

/// One parameter of a function definition.
struct Param {
  Location loc;
  std::string name;
  /// `*args` or `**kwargs`: host functions may have them (a tutorial's
  /// config pruners), @triton.jit functions may not.
  enum class Kind { Plain, VarArgs, KwArgs } kind = Kind::Plain;
  /// `x: tl.constexpr`; null when absent.
  ExprPtr annotation;
  /// `x=4`; null when absent.
  ExprPtr defaultValue;
};

/// A decorated `def` at module level.
class FunctionDef {
public:
  FunctionDef(Location loc, std::string name, ExprList decorators,
              std::vector<Param> params, ExprPtr returns, StmtList body)
      : loc(loc), name(std::move(name)), decorators(std::move(decorators)),
        params(std::move(params)), returns(std::move(returns)),
        body(std::move(body)) {}

  /// The location of the `def` keyword.
  const Location &getLoc() const { return loc; }
  llvm::StringRef getName() const { return name; }
  /// Decorator expressions, outermost first: `triton.jit` is an
  /// AttributeExpr, `triton.autotune(configs=..., key=...)` a CallExpr.
  const ExprList &getDecorators() const { return decorators; }
  const std::vector<Param> &getParams() const { return params; }
  /// The `-> annotation`, or null.
  const Expr *getReturns() const { return returns.get(); }
  /// The body, including the docstring as its first ExprStmt if present.
  const StmtList &getBody() const { return body; }
  /// The docstring constant, or null.
  const ConstantExpr *getDocstring() const;

private:
  Location loc;
  std::string name;
  ExprList decorators;
  std::vector<Param> params;
  ExprPtr returns;
  StmtList body;
};

/// One `name [as asName]` of an import.
struct ImportAlias {
  Location loc;
  /// Dotted name (`triton.language`) or `*`.
  std::string name;
  /// Empty when there is no `as`.
  std::string asName;
};

/// `import a.b as c, d` or `from [.]a.b import c as d, e`.
struct Import {
  Location loc;
  bool isFrom = false;
  /// The module of a `from` import (dotted, without the leading dots).
  std::string module;
  /// Leading dots of a relative `from` import.
  unsigned level = 0;
  std::vector<ImportAlias> names;
};

class Module {
public:
  Module(std::string filename, unsigned bufferId)
      : filename(std::move(filename)), bufferId(bufferId) {}

  /// The buffer identifier the module was parsed from (usually the path).
  llvm::StringRef getFilename() const { return filename; }
  unsigned getBufferId() const { return bufferId; }
  const std::vector<Import> &getImports() const { return imports; }
  const std::vector<std::unique_ptr<FunctionDef>> &getFunctions() const {
    return functions;
  }
  /// Top-level statements other than imports and definitions (e.g. global
  /// constants), in source order.
  const StmtList &getBody() const { return body; }
  /// The function called `name` (the last definition, as Python binds it),
  /// or null.
  const FunctionDef *findFunction(llvm::StringRef name) const;

  void addImport(Import import) { imports.push_back(std::move(import)); }
  void addFunction(std::unique_ptr<FunctionDef> function) {
    functions.push_back(std::move(function));
  }
  void addStatement(StmtPtr stmt) { body.push_back(std::move(stmt)); }

private:
  std::string filename;
  unsigned bufferId;
  std::vector<Import> imports;
  std::vector<std::unique_ptr<FunctionDef>> functions;
  StmtList body;
};

//===----------------------------------------------------------------------===//
// Debug printing
//===----------------------------------------------------------------------===//

/// Prints a fully parenthesized S-expression, e.g.
/// `(BinOp + (Name a) (Constant 1))`, for tests and debugging.
void dump(const Expr &expr, llvm::raw_ostream &os);
void dump(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent = 0);
void dump(const Module &module, llvm::raw_ostream &os);

} // namespace tile::frontend::ast

#endif // TILE_FRONTEND_AST_H
