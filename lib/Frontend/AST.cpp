//===- AST.cpp - out-of-line parts of the AST -----------------------------===//
//
// The spellings of the AST's operators, the ConstantExpr factories, the
// lookups (keywords of a call, a function's docstring, a module's
// functions) and the dump of the tree that tests and --emit=ast print.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace tile::frontend;
using namespace tile::frontend::ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// AST helpers
//===----------------------------------------------------------------------===//

llvm::StringRef ast::spell(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::LShift:
    return "<<";
  case BinaryOp::RShift:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  }
  return "?";
}

llvm::StringRef ast::spell(UnaryOp op) {
  switch (op) {
  case UnaryOp::Not:
    return "not";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::Minus:
    return "-";
  }
  return "?";
}

llvm::StringRef ast::spell(BoolOp op) {
  return op == BoolOp::And ? "and" : "or";
}

llvm::StringRef ast::spell(CompareOp op) {
  switch (op) {
  case CompareOp::Eq:
    return "==";
  case CompareOp::NotEq:
    return "!=";
  case CompareOp::Lt:
    return "<";
  case CompareOp::LtE:
    return "<=";
  case CompareOp::Gt:
    return ">";
  case CompareOp::GtE:
    return ">=";
  case CompareOp::Is:
    return "is";
  case CompareOp::IsNot:
    return "is not";
  case CompareOp::In:
    return "in";
  case CompareOp::NotIn:
    return "not in";
  }
  return "?";
}

std::unique_ptr<ConstantExpr> ConstantExpr::getInt(Location loc,
                                                   int64_t value) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(loc, ValueKind::Int));
  c->intValue = value;
  return c;
}

std::unique_ptr<ConstantExpr>
ConstantExpr::getOversizedInt(Location loc, std::string spelling) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(loc, ValueKind::Int));
  c->oversized = true;
  c->stringValue = std::move(spelling);
  return c;
}

std::string ConstantExpr::getOversizedIntMessage() const {
  return "integer literal is too large: '" + stringValue +
         "' does not fit in a signed 64-bit integer";
}

std::unique_ptr<ConstantExpr> ConstantExpr::getFloat(Location loc,
                                                     double value) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(loc, ValueKind::Float));
  c->floatValue = value;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getBool(Location loc, bool value) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(loc, ValueKind::Bool));
  c->boolValue = value;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getNone(Location loc) {
  return std::unique_ptr<ConstantExpr>(new ConstantExpr(loc, ValueKind::None));
}

std::unique_ptr<ConstantExpr>
ConstantExpr::getString(Location loc, std::string value, bool isBytes) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(loc, ValueKind::String));
  c->stringValue = std::move(value);
  c->bytes = isBytes;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getEllipsis(Location loc) {
  return std::unique_ptr<ConstantExpr>(
      new ConstantExpr(loc, ValueKind::Ellipsis));
}

const Keyword *CallExpr::findKeyword(llvm::StringRef name) const {
  for (const Keyword &keyword : keywords)
    if (keyword.name == name)
      return &keyword;
  return nullptr;
}

Location ast::getStartLoc(const Expr &expr) {
  const Expr *current = &expr;
  // Iterative, so that long operator chains cost no stack.
  for (;;) {
    if (auto *binary = dyn_cast<BinOpExpr>(current))
      current = &binary->getLHS();
    else if (auto *compare = dyn_cast<CompareExpr>(current))
      current = &compare->getLeft();
    else
      return current->getLoc();
  }
}

const ConstantExpr *FunctionDef::getDocstring() const {
  if (body.empty())
    return nullptr;
  auto *stmt = dyn_cast<ExprStmt>(body.front().get());
  if (!stmt)
    return nullptr;
  auto *constant = dyn_cast<ConstantExpr>(&stmt->getValue());
  return constant && constant->isString() ? constant : nullptr;
}

const FunctionDef *Module::findFunction(llvm::StringRef name) const {
  // As in Python, a later `def` of the same name rebinds it.
  for (const auto &function : llvm::reverse(functions))
    if (function->getName() == name)
      return function.get();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// AST dumping
//===----------------------------------------------------------------------===//

static void dumpOptional(const Expr *expr, llvm::raw_ostream &os) {
  if (expr)
    dump(*expr, os);
  else
    os << "_";
}

static void dumpList(llvm::StringRef head, const ExprList &list,
                     llvm::raw_ostream &os) {
  os << "(" << head;
  for (const ExprPtr &element : list) {
    os << " ";
    dump(*element, os);
  }
  os << ")";
}

void ast::dump(const Expr &expr, llvm::raw_ostream &os) {
  switch (expr.getKind()) {
  case Expr::Kind::Name:
    os << cast<NameExpr>(expr).getName();
    return;
  case Expr::Kind::Constant: {
    const auto &c = cast<ConstantExpr>(expr);
    switch (c.getValueKind()) {
    case ConstantExpr::ValueKind::Int:
      if (c.isOversizedInt())
        os << c.getString();
      else
        os << c.getInt();
      return;
    case ConstantExpr::ValueKind::Float:
      os << llvm::format("%g", c.getFloat());
      return;
    case ConstantExpr::ValueKind::Bool:
      os << (c.getBool() ? "True" : "False");
      return;
    case ConstantExpr::ValueKind::None:
      os << "None";
      return;
    case ConstantExpr::ValueKind::String:
      os << (c.isBytes() ? "b\"" : "\"");
      llvm::printEscapedString(c.getString(), os);
      os << "\"";
      return;
    case ConstantExpr::ValueKind::Ellipsis:
      os << "...";
      return;
    }
    return;
  }
  case Expr::Kind::Attribute: {
    const auto &a = cast<AttributeExpr>(expr);
    os << "(. ";
    dump(a.getValue(), os);
    os << " " << a.getAttr() << ")";
    return;
  }
  case Expr::Kind::Call: {
    const auto &call = cast<CallExpr>(expr);
    os << "(call ";
    dump(call.getCallee(), os);
    for (const ExprPtr &arg : call.getArgs()) {
      os << " ";
      dump(*arg, os);
    }
    for (const Keyword &keyword : call.getKeywords()) {
      os << " " << keyword.name << "=";
      dump(*keyword.value, os);
    }
    os << ")";
    return;
  }
  case Expr::Kind::Subscript: {
    const auto &s = cast<SubscriptExpr>(expr);
    os << "(subscript ";
    dump(s.getValue(), os);
    os << " ";
    dump(s.getIndex(), os);
    os << ")";
    return;
  }
  case Expr::Kind::Slice: {
    const auto &s = cast<SliceExpr>(expr);
    os << "(slice ";
    dumpOptional(s.getLower(), os);
    os << " ";
    dumpOptional(s.getUpper(), os);
    os << " ";
    dumpOptional(s.getStep(), os);
    os << ")";
    return;
  }
  case Expr::Kind::Tuple:
    dumpList("tuple", cast<TupleExpr>(expr).getElements(), os);
    return;
  case Expr::Kind::List:
    dumpList("list", cast<ListExpr>(expr).getElements(), os);
    return;
  case Expr::Kind::Dict: {
    const auto &d = cast<DictExpr>(expr);
    os << "(dict";
    for (auto [key, value] : llvm::zip(d.getKeys(), d.getValues())) {
      os << " (";
      dump(*key, os);
      os << " ";
      dump(*value, os);
      os << ")";
    }
    os << ")";
    return;
  }
  case Expr::Kind::ListComp: {
    const auto &l = cast<ListCompExpr>(expr);
    os << "(listcomp ";
    dump(l.getElement(), os);
    for (const Comprehension &generator : l.getGenerators()) {
      os << " (for ";
      dump(*generator.target, os);
      os << " ";
      dump(*generator.iter, os);
      for (const ExprPtr &condition : generator.conditions) {
        os << " (if ";
        dump(*condition, os);
        os << ")";
      }
      os << ")";
    }
    os << ")";
    return;
  }
  case Expr::Kind::BinOp: {
    const auto &b = cast<BinOpExpr>(expr);
    os << "(" << spell(b.getOp()) << " ";
    dump(b.getLHS(), os);
    os << " ";
    dump(b.getRHS(), os);
    os << ")";
    return;
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = cast<UnaryOpExpr>(expr);
    llvm::StringRef name = u.getOp() == UnaryOp::Minus  ? "neg"
                           : u.getOp() == UnaryOp::Plus ? "pos"
                                                        : spell(u.getOp());
    os << "(" << name << " ";
    dump(u.getOperand(), os);
    os << ")";
    return;
  }
  case Expr::Kind::BoolOp: {
    const auto &b = cast<BoolOpExpr>(expr);
    dumpList(spell(b.getOp()), b.getValues(), os);
    return;
  }
  case Expr::Kind::Compare: {
    const auto &c = cast<CompareExpr>(expr);
    os << "(compare ";
    dump(c.getLeft(), os);
    for (auto [op, comparator] : llvm::zip(c.getOps(), c.getComparators())) {
      os << " " << spell(op) << " ";
      dump(*comparator, os);
    }
    os << ")";
    return;
  }
  case Expr::Kind::IfExp: {
    const auto &i = cast<IfExpExpr>(expr);
    os << "(ifexp ";
    dump(i.getTest(), os);
    os << " ";
    dump(i.getBody(), os);
    os << " ";
    dump(i.getOrElse(), os);
    os << ")";
    return;
  }
  }
}

static void dumpBlock(llvm::StringRef head, const StmtList &body,
                      llvm::raw_ostream &os, unsigned indent) {
  os.indent(indent) << head << "\n";
  for (const StmtPtr &stmt : body)
    dump(*stmt, os, indent + 2);
}

void ast::dump(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent) {
  switch (stmt.getKind()) {
  case Stmt::Kind::Expr:
    os.indent(indent) << "(expr ";
    dump(cast<ExprStmt>(stmt).getValue(), os);
    os << ")\n";
    return;
  case Stmt::Kind::Assign: {
    const auto &a = cast<AssignStmt>(stmt);
    os.indent(indent) << "(assign";
    for (const ExprPtr &target : a.getTargets()) {
      os << " ";
      dump(*target, os);
    }
    os << " = ";
    dump(a.getValue(), os);
    os << ")\n";
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &a = cast<AugAssignStmt>(stmt);
    os.indent(indent) << "(augassign ";
    dump(a.getTarget(), os);
    os << " " << spell(a.getOp()) << "= ";
    dump(a.getValue(), os);
    os << ")\n";
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &a = cast<AnnAssignStmt>(stmt);
    os.indent(indent) << "(annassign ";
    dump(a.getTarget(), os);
    os << " : ";
    dump(a.getAnnotation(), os);
    os << " = ";
    dumpOptional(a.getValue(), os);
    os << ")\n";
    return;
  }
  case Stmt::Kind::If: {
    const auto &i = cast<IfStmt>(stmt);
    os.indent(indent) << "(if ";
    dump(i.getTest(), os);
    os << "\n";
    dumpBlock("then", i.getBody(), os, indent + 2);
    if (!i.getOrElse().empty())
      dumpBlock("else", i.getOrElse(), os, indent + 2);
    os.indent(indent) << ")\n";
    return;
  }
  case Stmt::Kind::For: {
    const auto &f = cast<ForStmt>(stmt);
    os.indent(indent) << "(for ";
    dump(f.getTarget(), os);
    os << " in ";
    dump(f.getIter(), os);
    os << "\n";
    dumpBlock("body", f.getBody(), os, indent + 2);
    if (!f.getOrElse().empty())
      dumpBlock("else", f.getOrElse(), os, indent + 2);
    os.indent(indent) << ")\n";
    return;
  }
  case Stmt::Kind::While: {
    const auto &w = cast<WhileStmt>(stmt);
    os.indent(indent) << "(while ";
    dump(w.getTest(), os);
    os << "\n";
    dumpBlock("body", w.getBody(), os, indent + 2);
    if (!w.getOrElse().empty())
      dumpBlock("else", w.getOrElse(), os, indent + 2);
    os.indent(indent) << ")\n";
    return;
  }
  case Stmt::Kind::Return:
    os.indent(indent) << "(return ";
    dumpOptional(cast<ReturnStmt>(stmt).getValue(), os);
    os << ")\n";
    return;
  case Stmt::Kind::Pass:
    os.indent(indent) << "(pass)\n";
    return;
  case Stmt::Kind::Break:
    os.indent(indent) << "(break)\n";
    return;
  case Stmt::Kind::Continue:
    os.indent(indent) << "(continue)\n";
    return;
  case Stmt::Kind::Assert: {
    const auto &a = cast<AssertStmt>(stmt);
    os.indent(indent) << "(assert ";
    dump(a.getTest(), os);
    os << " ";
    dumpOptional(a.getMessage(), os);
    os << ")\n";
    return;
  }
  }
}

void ast::dump(const Module &module, llvm::raw_ostream &os) {
  os << "(module " << module.getFilename() << "\n";
  for (const Import &import : module.getImports()) {
    os << "  (import";
    if (import.isFrom)
      os << " from " << std::string(import.level, '.') << import.module;
    for (const ImportAlias &alias : import.names) {
      os << " " << alias.name;
      if (!alias.asName.empty())
        os << " as " << alias.asName;
    }
    os << ")\n";
  }
  for (const auto &function : module.getFunctions()) {
    os << "  (def " << function->getName() << "\n";
    for (const ExprPtr &decorator : function->getDecorators()) {
      os << "    (decorator ";
      dump(*decorator, os);
      os << ")\n";
    }
    for (const Param &param : function->getParams()) {
      os << "    (param " << param.name << " ";
      dumpOptional(param.annotation.get(), os);
      os << " ";
      dumpOptional(param.defaultValue.get(), os);
      os << ")\n";
    }
    if (const Expr *returns = function->getReturns()) {
      os << "    (returns ";
      dump(*returns, os);
      os << ")\n";
    }
    dumpBlock("body", function->getBody(), os, 4);
    os << "  )\n";
  }
  for (const StmtPtr &stmt : module.getBody())
    dump(*stmt, os, 2);
  os << ")\n";
}
