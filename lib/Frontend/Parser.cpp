//===- Parser.cpp - parser for Triton kernels in Python syntax ------------===//
//
// A recursive-descent parser over the Lexer's tokens that follows Python's
// grammar (and its operator precedence) for the statements and expressions
// of ast::. Binary arithmetic operators are parsed by precedence climbing.
// Parsing stops at the first error, which is reported exactly once. Every
// recursive path passes through a nesting counter so that no input can
// exhaust the stack, and every loop consumes a token or fails, so that no
// input can hang the parser.
//
// The small out-of-line parts of the AST (factories, lookups, dumping) live
// here as well.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Parser.h"
#include "tile/Frontend/Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

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
  for (const auto &function : functions)
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

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

/// Tokens that can begin an expression.
bool startsExpression(TokenKind kind) {
  switch (kind) {
  case TokenKind::Identifier:
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::String:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::kw_None:
  case TokenKind::kw_not:
  case TokenKind::kw_lambda:
  case TokenKind::kw_await:
  case TokenKind::LParen:
  case TokenKind::LSquare:
  case TokenKind::LBrace:
  case TokenKind::Minus:
  case TokenKind::Plus:
  case TokenKind::Tilde:
  case TokenKind::Ellipsis:
    return true;
  default:
    return false;
  }
}

/// Binary arithmetic operators with their precedence, lowest first as in
/// Python: | then ^ then & then << >> then + - then * @ / // %.
struct BinaryOperatorInfo {
  BinaryOp op;
  unsigned precedence;
};

std::optional<BinaryOperatorInfo> getBinaryOperator(TokenKind kind) {
  switch (kind) {
  case TokenKind::Pipe:
    return BinaryOperatorInfo{BinaryOp::BitOr, 1};
  case TokenKind::Caret:
    return BinaryOperatorInfo{BinaryOp::BitXor, 2};
  case TokenKind::Amp:
    return BinaryOperatorInfo{BinaryOp::BitAnd, 3};
  case TokenKind::LeftShift:
    return BinaryOperatorInfo{BinaryOp::LShift, 4};
  case TokenKind::RightShift:
    return BinaryOperatorInfo{BinaryOp::RShift, 4};
  case TokenKind::Plus:
    return BinaryOperatorInfo{BinaryOp::Add, 5};
  case TokenKind::Minus:
    return BinaryOperatorInfo{BinaryOp::Sub, 5};
  case TokenKind::Star:
    return BinaryOperatorInfo{BinaryOp::Mul, 6};
  case TokenKind::At:
    return BinaryOperatorInfo{BinaryOp::MatMul, 6};
  case TokenKind::Slash:
    return BinaryOperatorInfo{BinaryOp::Div, 6};
  case TokenKind::DoubleSlash:
    return BinaryOperatorInfo{BinaryOp::FloorDiv, 6};
  case TokenKind::Percent:
    return BinaryOperatorInfo{BinaryOp::Mod, 6};
  default:
    return std::nullopt;
  }
}

constexpr unsigned kLowestBinaryPrecedence = 1;

std::optional<BinaryOp> getAugmentedOperator(TokenKind kind) {
  switch (kind) {
  case TokenKind::PlusEqual:
    return BinaryOp::Add;
  case TokenKind::MinusEqual:
    return BinaryOp::Sub;
  case TokenKind::StarEqual:
    return BinaryOp::Mul;
  case TokenKind::DoubleStarEqual:
    return BinaryOp::Pow;
  case TokenKind::SlashEqual:
    return BinaryOp::Div;
  case TokenKind::DoubleSlashEqual:
    return BinaryOp::FloorDiv;
  case TokenKind::PercentEqual:
    return BinaryOp::Mod;
  case TokenKind::AtEqual:
    return BinaryOp::MatMul;
  case TokenKind::AmpEqual:
    return BinaryOp::BitAnd;
  case TokenKind::PipeEqual:
    return BinaryOp::BitOr;
  case TokenKind::CaretEqual:
    return BinaryOp::BitXor;
  case TokenKind::LeftShiftEqual:
    return BinaryOp::LShift;
  case TokenKind::RightShiftEqual:
    return BinaryOp::RShift;
  default:
    return std::nullopt;
  }
}

std::string formatLocation(const Location &loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

class Parser {
public:
  Parser(Lexer &lexer, DiagEmitter &diag) : lexer(lexer), diag(diag) {}

  std::unique_ptr<Module> parseModule();
  ExprPtr parseStandaloneExpression();
  std::optional<StmtList> parseStandaloneStatements();

private:
  //===--------------------------------------------------------------------===//
  // Token helpers and errors
  //===--------------------------------------------------------------------===//

  const Token &tok() const { return lexer.getCurToken(); }
  bool is(TokenKind kind) const { return tok().is(kind); }
  void consume() { lexer.consume(); }
  bool consumeIf(TokenKind kind) {
    if (!is(kind))
      return false;
    consume();
    return true;
  }

  /// Reports the first error only (a lexical error counts as reported) and
  /// marks the parse failed. Returns null for `return error(...)`.
  std::nullptr_t error(const Location &loc, const llvm::Twine &message) {
    if (!failed && !lexer.hadError())
      diag.error(loc, message);
    failed = true;
    return nullptr;
  }
  std::nullptr_t errorHere(const llvm::Twine &message) {
    return error(tok().loc, message);
  }
  /// "expected X, got Y" at the current token.
  std::nullptr_t expected(const llvm::Twine &what) {
    return errorHere("expected " + what + ", got " + tok().describe());
  }
  /// Consumes `kind` or reports "expected 'k' <context>, got ...".
  bool expect(TokenKind kind, const llvm::Twine &context) {
    if (consumeIf(kind))
      return true;
    expected("'" + getTokenKindSpelling(kind) + "' " + context);
    return false;
  }
  /// Consumes the bracket closing `open`, or reports which one is missing.
  bool expectClosing(TokenKind close, const Token &open) {
    if (consumeIf(close))
      return true;
    errorHere("expected '" + getTokenKindSpelling(close) + "' to close '" +
              getTokenKindSpelling(open.kind) + "' at " +
              formatLocation(open.loc));
    return false;
  }
  std::optional<std::string> expectIdentifier(const llvm::Twine &what) {
    if (!is(TokenKind::Identifier)) {
      expected(what);
      return std::nullopt;
    }
    std::string name = tok().text.str();
    consume();
    return name;
  }

  //===--------------------------------------------------------------------===//
  // Nesting limits
  //===--------------------------------------------------------------------===//

  /// Counts one level of recursion for its lifetime.
  struct NestingGuard {
    explicit NestingGuard(Parser &parser) : parser(parser) { ++parser.depth; }
    ~NestingGuard() { --parser.depth; }
    bool tooDeep() const { return parser.depth > kMaxNestingDepth; }
    Parser &parser;
  };
  /// Counts the links of a left-associative chain (a + b + c, a.b.c): each
  /// link deepens the tree built without recursing in the parser.
  struct ChainGuard {
    explicit ChainGuard(Parser &parser) : parser(parser) {}
    ~ChainGuard() { parser.depth -= links; }
    bool addLink() {
      ++links;
      ++parser.depth;
      return parser.depth <= kMaxNestingDepth;
    }
    Parser &parser;
    unsigned links = 0;
  };
  std::nullptr_t tooDeep() { return errorHere("expression nested too deeply"); }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  std::unique_ptr<FunctionDef> parseFunctionDef();
  bool parseParameters(std::vector<Param> &params);
  std::optional<Import> parseImport();
  std::optional<std::string> parseDottedName();
  bool parseStatement(StmtList &out);
  bool parseSimpleStatements(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtPtr parseExpressionStatement();
  std::optional<StmtList> parseBlock(llvm::StringRef what,
                                     const Location &headerLoc);
  StmtPtr parseIf();
  StmtPtr parseFor();
  StmtPtr parseWhile();
  bool parseElseClause(StmtList &orElse);
  bool checkAssignable(const Expr &target);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  ExprPtr parseTestList();
  ExprPtr parseTest();
  ExprPtr parseOrTest();
  ExprPtr parseBoolChain(TokenKind keyword, BoolOp op,
                         ExprPtr (Parser::*parseOperand)());
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseComparison();
  ExprPtr parseBinary(unsigned minPrecedence);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parseAtomExpr();
  ExprPtr parseAtom();
  ExprPtr parseCall(ExprPtr callee);
  ExprPtr parseSubscript(ExprPtr value);
  ExprPtr parseSubscriptItem();
  ExprPtr parseParenthesized();
  ExprPtr parseListDisplay();
  ExprPtr parseDictDisplay();
  ExprPtr parseStrings();
  ExprPtr parseTargetList();
  bool parseComprehensionClauses(std::vector<Comprehension> &generators);

  Lexer &lexer;
  DiagEmitter &diag;
  bool failed = false;
  unsigned depth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Entry points of the parser
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>(lexer.getBufferIdentifier().str(),
                                         lexer.getBufferId());
  while (!failed && !is(TokenKind::Eof)) {
    switch (tok().kind) {
    case TokenKind::Newline:
      consume();
      break;
    case TokenKind::Indent:
      errorHere("unexpected indent");
      break;
    case TokenKind::At:
    case TokenKind::kw_def:
      if (auto function = parseFunctionDef())
        module->addFunction(std::move(function));
      break;
    case TokenKind::kw_import:
    case TokenKind::kw_from:
      if (std::optional<Import> import = parseImport())
        module->addImport(std::move(*import));
      break;
    default: {
      StmtList statements;
      if (parseStatement(statements))
        for (StmtPtr &stmt : statements)
          module->addStatement(std::move(stmt));
      break;
    }
    }
  }
  if (failed)
    return nullptr;
  return module;
}

ExprPtr Parser::parseStandaloneExpression() {
  while (consumeIf(TokenKind::Newline)) {
  }
  if (is(TokenKind::Eof))
    return expected("an expression");
  ExprPtr expr = parseTestList();
  if (!expr)
    return nullptr;
  while (consumeIf(TokenKind::Newline)) {
  }
  if (!is(TokenKind::Eof))
    return errorHere("unexpected " + tok().describe() +
                     " after the "
                     "expression");
  return failed ? nullptr : std::move(expr);
}

std::optional<StmtList> Parser::parseStandaloneStatements() {
  StmtList statements;
  while (!failed && !is(TokenKind::Eof)) {
    if (consumeIf(TokenKind::Newline))
      continue;
    switch (tok().kind) {
    case TokenKind::kw_if:
    case TokenKind::kw_for:
    case TokenKind::kw_while:
    case TokenKind::kw_def:
    case TokenKind::kw_class:
    case TokenKind::kw_with:
    case TokenKind::kw_try:
    case TokenKind::At:
      errorHere("only simple statements are allowed here, not '" + tok().text +
                "'");
      break;
    case TokenKind::kw_import:
    case TokenKind::kw_from:
      errorHere("import statements are not allowed here");
      break;
    default:
      parseSimpleStatements(statements);
      break;
    }
  }
  if (failed)
    return std::nullopt;
  return statements;
}

//===----------------------------------------------------------------------===//
// Definitions and imports
//===----------------------------------------------------------------------===//

std::unique_ptr<FunctionDef> Parser::parseFunctionDef() {
  ExprList decorators;
  while (is(TokenKind::At)) {
    consume();
    ExprPtr decorator = parseTest();
    if (!decorator)
      return nullptr;
    if (!is(TokenKind::Newline))
      return expected("end of line after the decorator");
    consume();
    decorators.push_back(std::move(decorator));
  }
  if (is(TokenKind::kw_class))
    return errorHere("class definitions are not supported");
  if (is(TokenKind::kw_async))
    return errorHere("async functions are not supported");
  if (!is(TokenKind::kw_def))
    return expected("'def' after the decorators");
  Location defLoc = tok().loc;
  consume();

  std::optional<std::string> name = expectIdentifier("a function name");
  if (!name)
    return nullptr;
  std::vector<Param> params;
  if (!parseParameters(params))
    return nullptr;
  ExprPtr returns;
  if (consumeIf(TokenKind::Arrow)) {
    returns = parseTest();
    if (!returns)
      return nullptr;
  }
  if (!expect(TokenKind::Colon, "after the function signature"))
    return nullptr;
  std::optional<StmtList> body = parseBlock("function definition", defLoc);
  if (!body)
    return nullptr;
  return std::make_unique<FunctionDef>(defLoc, std::move(*name),
                                       std::move(decorators), std::move(params),
                                       std::move(returns), std::move(*body));
}

bool Parser::parseParameters(std::vector<Param> &params) {
  if (!is(TokenKind::LParen)) {
    expected("'(' after the function name");
    return false;
  }
  Token open = tok();
  consume();
  llvm::StringSet<> seen;
  bool sawDefault = false;
  while (!is(TokenKind::RParen)) {
    if (is(TokenKind::Star) || is(TokenKind::DoubleStar)) {
      errorHere("'*args', '**kwargs' and keyword-only parameters are not "
                "supported");
      return false;
    }
    if (is(TokenKind::Slash)) {
      errorHere("the positional-only marker '/' is not supported");
      return false;
    }
    Param param;
    param.loc = tok().loc;
    std::optional<std::string> name = expectIdentifier("a parameter name");
    if (!name)
      return false;
    param.name = std::move(*name);
    if (!seen.insert(param.name).second) {
      error(param.loc,
            "duplicate parameter '" + param.name + "' in function definition");
      return false;
    }
    if (consumeIf(TokenKind::Colon)) {
      param.annotation = parseTest();
      if (!param.annotation)
        return false;
    }
    if (consumeIf(TokenKind::Equal)) {
      param.defaultValue = parseTest();
      if (!param.defaultValue)
        return false;
      sawDefault = true;
    } else if (sawDefault) {
      error(param.loc, "parameter '" + param.name +
                           "' without a default follows a parameter with "
                           "a default");
      return false;
    }
    params.push_back(std::move(param));
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  return expectClosing(TokenKind::RParen, open);
}

std::optional<std::string> Parser::parseDottedName() {
  std::optional<std::string> name = expectIdentifier("a module name");
  if (!name)
    return std::nullopt;
  while (consumeIf(TokenKind::Dot)) {
    std::optional<std::string> part = expectIdentifier("a name after '.'");
    if (!part)
      return std::nullopt;
    *name += "." + *part;
  }
  return name;
}

std::optional<Import> Parser::parseImport() {
  Import import;
  import.loc = tok().loc;
  auto parseAlias = [&](bool dotted) -> bool {
    ImportAlias alias;
    alias.loc = tok().loc;
    std::optional<std::string> name =
        dotted ? parseDottedName() : expectIdentifier("a name to import");
    if (!name)
      return false;
    alias.name = std::move(*name);
    if (consumeIf(TokenKind::kw_as)) {
      std::optional<std::string> asName = expectIdentifier("a name after 'as'");
      if (!asName)
        return false;
      alias.asName = std::move(*asName);
    }
    import.names.push_back(std::move(alias));
    return true;
  };

  if (consumeIf(TokenKind::kw_import)) {
    do {
      if (!parseAlias(/*dotted=*/true))
        return std::nullopt;
    } while (consumeIf(TokenKind::Comma));
  } else {
    consume(); // 'from'
    import.isFrom = true;
    for (;;) {
      if (consumeIf(TokenKind::Dot))
        import.level += 1;
      else if (consumeIf(TokenKind::Ellipsis))
        import.level += 3;
      else
        break;
    }
    if (import.level == 0 || is(TokenKind::Identifier)) {
      std::optional<std::string> module = parseDottedName();
      if (!module)
        return std::nullopt;
      import.module = std::move(*module);
    }
    if (!expect(TokenKind::kw_import, "after the module name"))
      return std::nullopt;
    if (is(TokenKind::Star)) {
      ImportAlias alias;
      alias.loc = tok().loc;
      alias.name = "*";
      import.names.push_back(std::move(alias));
      consume();
    } else if (is(TokenKind::LParen)) {
      Token open = tok();
      consume();
      do {
        if (is(TokenKind::RParen))
          break;
        if (!parseAlias(/*dotted=*/false))
          return std::nullopt;
      } while (consumeIf(TokenKind::Comma));
      if (!expectClosing(TokenKind::RParen, open))
        return std::nullopt;
    } else {
      do {
        if (!parseAlias(/*dotted=*/false))
          return std::nullopt;
      } while (consumeIf(TokenKind::Comma));
    }
  }
  if (!is(TokenKind::Newline) && !is(TokenKind::Eof)) {
    expected("end of line after the import");
    return std::nullopt;
  }
  consumeIf(TokenKind::Newline);
  return import;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool Parser::parseStatement(StmtList &out) {
  switch (tok().kind) {
  case TokenKind::kw_if:
    if (StmtPtr stmt = parseIf()) {
      out.push_back(std::move(stmt));
      return true;
    }
    return false;
  case TokenKind::kw_for:
    if (StmtPtr stmt = parseFor()) {
      out.push_back(std::move(stmt));
      return true;
    }
    return false;
  case TokenKind::kw_while:
    if (StmtPtr stmt = parseWhile()) {
      out.push_back(std::move(stmt));
      return true;
    }
    return false;
  case TokenKind::kw_def:
  case TokenKind::At:
    errorHere("nested function definitions are not supported");
    return false;
  case TokenKind::kw_class:
    errorHere("class definitions are not supported");
    return false;
  case TokenKind::kw_with:
  case TokenKind::kw_try:
  case TokenKind::kw_async:
    errorHere("'" + tok().text + "' statements are not supported");
    return false;
  case TokenKind::kw_import:
  case TokenKind::kw_from:
    errorHere("import statements are only supported at module level");
    return false;
  case TokenKind::kw_elif:
  case TokenKind::kw_else:
  case TokenKind::kw_except:
  case TokenKind::kw_finally:
    errorHere("unexpected '" + tok().text + "'");
    return false;
  case TokenKind::Indent:
    errorHere("unexpected indent");
    return false;
  default:
    return parseSimpleStatements(out);
  }
}

bool Parser::parseSimpleStatements(StmtList &out) {
  for (;;) {
    StmtPtr stmt = parseSmallStatement();
    if (!stmt)
      return false;
    out.push_back(std::move(stmt));
    if (!consumeIf(TokenKind::Semicolon))
      break;
    if (is(TokenKind::Newline) || is(TokenKind::Eof))
      break;
  }
  if (consumeIf(TokenKind::Newline) || is(TokenKind::Eof))
    return true;
  expected("end of line");
  return false;
}

StmtPtr Parser::parseSmallStatement() {
  Location loc = tok().loc;
  switch (tok().kind) {
  case TokenKind::kw_pass:
    consume();
    return std::make_unique<SimpleStmt>(Stmt::Kind::Pass, loc);
  case TokenKind::kw_break:
    consume();
    return std::make_unique<SimpleStmt>(Stmt::Kind::Break, loc);
  case TokenKind::kw_continue:
    consume();
    return std::make_unique<SimpleStmt>(Stmt::Kind::Continue, loc);
  case TokenKind::kw_return: {
    consume();
    ExprPtr value;
    if (startsExpression(tok().kind)) {
      value = parseTestList();
      if (!value)
        return nullptr;
    }
    return std::make_unique<ReturnStmt>(loc, std::move(value));
  }
  case TokenKind::kw_assert: {
    consume();
    ExprPtr test = parseTest();
    if (!test)
      return nullptr;
    ExprPtr message;
    if (consumeIf(TokenKind::Comma)) {
      message = parseTest();
      if (!message)
        return nullptr;
    }
    return std::make_unique<AssertStmt>(loc, std::move(test),
                                        std::move(message));
  }
  case TokenKind::kw_del:
  case TokenKind::kw_raise:
  case TokenKind::kw_global:
  case TokenKind::kw_nonlocal:
  case TokenKind::kw_yield:
    return errorHere("'" + tok().text + "' statements are not supported");
  case TokenKind::kw_import:
  case TokenKind::kw_from:
    return errorHere("import statements are only supported at module level");
  default:
    return parseExpressionStatement();
  }
}

StmtPtr Parser::parseExpressionStatement() {
  Location loc = tok().loc;
  ExprPtr first = parseTestList();
  if (!first)
    return nullptr;

  if (is(TokenKind::Colon)) {
    if (isa<TupleExpr>(first.get()))
      return errorHere("only a single target (not a tuple) can be "
                       "annotated");
    if (!isa<NameExpr, AttributeExpr, SubscriptExpr>(first.get()))
      return error(first->getLoc(), "illegal target for annotation");
    consume();
    ExprPtr annotation = parseTest();
    if (!annotation)
      return nullptr;
    ExprPtr value;
    if (consumeIf(TokenKind::Equal)) {
      value = parseTestList();
      if (!value)
        return nullptr;
    }
    return std::make_unique<AnnAssignStmt>(
        loc, std::move(first), std::move(annotation), std::move(value));
  }

  if (std::optional<BinaryOp> op = getAugmentedOperator(tok().kind)) {
    if (!isa<NameExpr, AttributeExpr, SubscriptExpr>(first.get()))
      return error(first->getLoc(),
                   "illegal target for augmented assignment '" + tok().text +
                       "'");
    consume();
    ExprPtr value = parseTestList();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmt>(loc, std::move(first), *op,
                                           std::move(value));
  }

  if (!is(TokenKind::Equal))
    return std::make_unique<ExprStmt>(loc, std::move(first));

  // `a = b = value`: every expression but the last is a target.
  ExprList targets;
  ExprPtr last = std::move(first);
  while (consumeIf(TokenKind::Equal)) {
    if (!checkAssignable(*last))
      return nullptr;
    targets.push_back(std::move(last));
    last = parseTestList();
    if (!last)
      return nullptr;
  }
  return std::make_unique<AssignStmt>(loc, std::move(targets), std::move(last));
}

bool Parser::checkAssignable(const Expr &target) {
  llvm::StringRef what;
  switch (target.getKind()) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return true;
  case Expr::Kind::Tuple:
    for (const ExprPtr &element : cast<TupleExpr>(target).getElements())
      if (!checkAssignable(*element))
        return false;
    return true;
  case Expr::Kind::List:
    for (const ExprPtr &element : cast<ListExpr>(target).getElements())
      if (!checkAssignable(*element))
        return false;
    return true;
  case Expr::Kind::Constant: {
    const auto &constant = cast<ConstantExpr>(target);
    what = constant.isBool()   ? (constant.getBool() ? "True" : "False")
           : constant.isNone() ? "None"
                               : "literal";
    break;
  }
  case Expr::Kind::Call:
    what = "function call";
    break;
  case Expr::Kind::Compare:
    what = "comparison";
    break;
  case Expr::Kind::IfExp:
    what = "conditional expression";
    break;
  case Expr::Kind::Dict:
    what = "dict literal";
    break;
  case Expr::Kind::ListComp:
    what = "list comprehension";
    break;
  default:
    what = "expression";
    break;
  }
  error(target.getLoc(), "cannot assign to " + what);
  return false;
}

std::optional<StmtList> Parser::parseBlock(llvm::StringRef what,
                                           const Location &headerLoc) {
  NestingGuard guard(*this);
  if (guard.tooDeep()) {
    errorHere("statements nested too deeply");
    return std::nullopt;
  }
  StmtList body;
  if (!consumeIf(TokenKind::Newline)) {
    // A body on the header's line: `if x: return`.
    if (!parseSimpleStatements(body))
      return std::nullopt;
    return body;
  }
  if (!is(TokenKind::Indent)) {
    errorHere("expected an indented block after " + what + " on line " +
              llvm::Twine(headerLoc.line));
    return std::nullopt;
  }
  consume();
  while (!is(TokenKind::Dedent) && !is(TokenKind::Eof)) {
    if (!parseStatement(body))
      return std::nullopt;
  }
  consumeIf(TokenKind::Dedent);
  return body;
}

bool Parser::parseElseClause(StmtList &orElse) {
  if (!is(TokenKind::kw_else))
    return true;
  Location elseLoc = tok().loc;
  consume();
  if (!expect(TokenKind::Colon, "after 'else'"))
    return false;
  std::optional<StmtList> body = parseBlock("'else'", elseLoc);
  if (!body)
    return false;
  orElse = std::move(*body);
  return true;
}

StmtPtr Parser::parseIf() {
  // `elif` chains recurse here, so they count as nesting.
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return errorHere("statements nested too deeply");
  Location loc = tok().loc;
  bool isElif = is(TokenKind::kw_elif);
  consume();
  ExprPtr test = parseTest();
  if (!test)
    return nullptr;
  if (!expect(TokenKind::Colon, isElif ? "after the 'elif' condition"
                                       : "after the 'if' condition"))
    return nullptr;
  std::optional<StmtList> body =
      parseBlock(isElif ? "'elif' statement" : "'if' statement", loc);
  if (!body)
    return nullptr;
  StmtList orElse;
  if (is(TokenKind::kw_elif)) {
    StmtPtr nested = parseIf();
    if (!nested)
      return nullptr;
    orElse.push_back(std::move(nested));
  } else if (!parseElseClause(orElse)) {
    return nullptr;
  }
  return std::make_unique<IfStmt>(loc, std::move(test), std::move(*body),
                                  std::move(orElse));
}

StmtPtr Parser::parseFor() {
  Location loc = tok().loc;
  consume();
  ExprPtr target = parseTargetList();
  if (!target)
    return nullptr;
  if (!expect(TokenKind::kw_in, "after the 'for' target"))
    return nullptr;
  ExprPtr iter = parseTestList();
  if (!iter)
    return nullptr;
  if (!expect(TokenKind::Colon, "after the 'for' header"))
    return nullptr;
  std::optional<StmtList> body = parseBlock("'for' statement", loc);
  if (!body)
    return nullptr;
  StmtList orElse;
  if (!parseElseClause(orElse))
    return nullptr;
  return std::make_unique<ForStmt>(loc, std::move(target), std::move(iter),
                                   std::move(*body), std::move(orElse));
}

StmtPtr Parser::parseWhile() {
  Location loc = tok().loc;
  consume();
  ExprPtr test = parseTest();
  if (!test)
    return nullptr;
  if (!expect(TokenKind::Colon, "after the 'while' condition"))
    return nullptr;
  std::optional<StmtList> body = parseBlock("'while' statement", loc);
  if (!body)
    return nullptr;
  StmtList orElse;
  if (!parseElseClause(orElse))
    return nullptr;
  return std::make_unique<WhileStmt>(loc, std::move(test), std::move(*body),
                                     std::move(orElse));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

ExprPtr Parser::parseTestList() {
  Location loc = tok().loc;
  ExprPtr first = parseTest();
  if (!first || !is(TokenKind::Comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma)) {
    if (!startsExpression(tok().kind))
      break;
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return std::make_unique<TupleExpr>(loc, std::move(elements));
}

ExprPtr Parser::parseTest() {
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  if (is(TokenKind::kw_lambda))
    return errorHere("lambda expressions are not supported");
  Location loc = tok().loc;
  ExprPtr body = parseOrTest();
  if (!body || !is(TokenKind::kw_if))
    return body;
  consume();
  ExprPtr test = parseOrTest();
  if (!test)
    return nullptr;
  if (!is(TokenKind::kw_else))
    return expected("'else' in the conditional expression");
  consume();
  ExprPtr orElse = parseTest();
  if (!orElse)
    return nullptr;
  return std::make_unique<IfExpExpr>(loc, std::move(test), std::move(body),
                                     std::move(orElse));
}

/// `operand (keyword operand)*` as one BoolOpExpr (or just the operand).
ExprPtr Parser::parseBoolChain(TokenKind keyword, BoolOp op,
                               ExprPtr (Parser::*parseOperand)()) {
  Location loc = tok().loc;
  ExprPtr first = (this->*parseOperand)();
  if (!first || !is(keyword))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (consumeIf(keyword)) {
    ExprPtr value = (this->*parseOperand)();
    if (!value)
      return nullptr;
    values.push_back(std::move(value));
  }
  return std::make_unique<BoolOpExpr>(loc, op, std::move(values));
}

ExprPtr Parser::parseOrTest() {
  return parseBoolChain(TokenKind::kw_or, BoolOp::Or, &Parser::parseAndTest);
}

ExprPtr Parser::parseAndTest() {
  return parseBoolChain(TokenKind::kw_and, BoolOp::And, &Parser::parseNotTest);
}

ExprPtr Parser::parseNotTest() {
  if (!is(TokenKind::kw_not))
    return parseComparison();
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  Location loc = tok().loc;
  consume();
  ExprPtr operand = parseNotTest();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryOpExpr>(loc, UnaryOp::Not, std::move(operand));
}

ExprPtr Parser::parseComparison() {
  ExprPtr left = parseBinary(kLowestBinaryPrecedence);
  if (!left)
    return nullptr;
  std::vector<CompareOp> ops;
  ExprList comparators;
  Location loc = tok().loc;
  for (;;) {
    CompareOp op;
    switch (tok().kind) {
    case TokenKind::Less:
      op = CompareOp::Lt;
      break;
    case TokenKind::LessEqual:
      op = CompareOp::LtE;
      break;
    case TokenKind::Greater:
      op = CompareOp::Gt;
      break;
    case TokenKind::GreaterEqual:
      op = CompareOp::GtE;
      break;
    case TokenKind::EqualEqual:
      op = CompareOp::Eq;
      break;
    case TokenKind::NotEqual:
      op = CompareOp::NotEq;
      break;
    case TokenKind::kw_in:
      op = CompareOp::In;
      break;
    case TokenKind::kw_is:
      op = CompareOp::Is;
      break;
    case TokenKind::kw_not:
      op = CompareOp::NotIn;
      break;
    default:
      if (ops.empty())
        return left;
      return std::make_unique<CompareExpr>(loc, std::move(left), std::move(ops),
                                           std::move(comparators));
    }
    consume();
    if (op == CompareOp::NotIn && !consumeIf(TokenKind::kw_in))
      return expected("'in' after 'not'");
    if (op == CompareOp::Is && consumeIf(TokenKind::kw_not))
      op = CompareOp::IsNot;
    ExprPtr comparator = parseBinary(kLowestBinaryPrecedence);
    if (!comparator)
      return nullptr;
    ops.push_back(op);
    comparators.push_back(std::move(comparator));
  }
}

/// Precedence climbing over the left-associative binary operators.
ExprPtr Parser::parseBinary(unsigned minPrecedence) {
  ExprPtr lhs = parseFactor();
  if (!lhs)
    return nullptr;
  ChainGuard chain(*this);
  for (;;) {
    std::optional<BinaryOperatorInfo> info = getBinaryOperator(tok().kind);
    if (!info || info->precedence < minPrecedence)
      return lhs;
    Location opLoc = tok().loc;
    consume();
    if (!chain.addLink())
      return tooDeep();
    ExprPtr rhs = parseBinary(info->precedence + 1);
    if (!rhs)
      return nullptr;
    lhs = std::make_unique<BinOpExpr>(opLoc, info->op, std::move(lhs),
                                      std::move(rhs));
  }
}

ExprPtr Parser::parseFactor() {
  UnaryOp op;
  switch (tok().kind) {
  case TokenKind::Minus:
    op = UnaryOp::Minus;
    break;
  case TokenKind::Plus:
    op = UnaryOp::Plus;
    break;
  case TokenKind::Tilde:
    op = UnaryOp::Invert;
    break;
  default:
    return parsePower();
  }
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  Location loc = tok().loc;
  consume();
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return std::make_unique<UnaryOpExpr>(loc, op, std::move(operand));
}

ExprPtr Parser::parsePower() {
  if (is(TokenKind::kw_await))
    return errorHere("'await' is not supported");
  ExprPtr base = parseAtomExpr();
  if (!base || !is(TokenKind::DoubleStar))
    return base;
  // `**` is right-associative and binds tighter than a unary operator on
  // its left but not on its right: -a ** -b is -(a ** (-b)).
  NestingGuard guard(*this);
  if (guard.tooDeep())
    return tooDeep();
  Location opLoc = tok().loc;
  consume();
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  return std::make_unique<BinOpExpr>(opLoc, BinaryOp::Pow, std::move(base),
                                     std::move(exponent));
}

ExprPtr Parser::parseAtomExpr() {
  ExprPtr expr = parseAtom();
  if (!expr)
    return nullptr;
  ChainGuard chain(*this);
  for (;;) {
    switch (tok().kind) {
    case TokenKind::LParen:
      if (!chain.addLink())
        return tooDeep();
      expr = parseCall(std::move(expr));
      break;
    case TokenKind::LSquare:
      if (!chain.addLink())
        return tooDeep();
      expr = parseSubscript(std::move(expr));
      break;
    case TokenKind::Dot: {
      if (!chain.addLink())
        return tooDeep();
      consume();
      Location attrLoc = tok().loc;
      std::optional<std::string> attr =
          expectIdentifier("an attribute name after '.'");
      if (!attr)
        return nullptr;
      Location loc = expr->getLoc();
      expr = std::make_unique<AttributeExpr>(loc, std::move(expr),
                                             std::move(*attr), attrLoc);
      break;
    }
    default:
      return expr;
    }
    if (!expr)
      return nullptr;
  }
}

ExprPtr Parser::parseCall(ExprPtr callee) {
  Token open = tok();
  consume();
  ExprList args;
  std::vector<Keyword> keywords;
  while (!is(TokenKind::RParen)) {
    if (is(TokenKind::Star) || is(TokenKind::DoubleStar))
      return errorHere("argument unpacking with '*' or '**' is not "
                       "supported");
    Location argLoc = tok().loc;
    ExprPtr arg = parseTest();
    if (!arg)
      return nullptr;
    if (is(TokenKind::Equal)) {
      auto *name = dyn_cast<NameExpr>(arg.get());
      if (!name)
        return errorHere("expression cannot contain assignment, perhaps you "
                         "meant \"==\"?");
      consume();
      ExprPtr value = parseTest();
      if (!value)
        return nullptr;
      Keyword keyword;
      keyword.loc = argLoc;
      keyword.name = name->getName().str();
      keyword.value = std::move(value);
      if (llvm::any_of(keywords, [&](const Keyword &other) {
            return other.name == keyword.name;
          }))
        return error(argLoc,
                     "keyword argument repeated: '" + keyword.name + "'");
      keywords.push_back(std::move(keyword));
    } else {
      if (is(TokenKind::kw_for))
        return errorHere("generator expressions are not supported");
      if (!keywords.empty())
        return error(argLoc, "positional argument follows keyword argument");
      args.push_back(std::move(arg));
    }
    if (!consumeIf(TokenKind::Comma))
      break;
  }
  if (!expectClosing(TokenKind::RParen, open))
    return nullptr;
  Location loc = callee->getLoc();
  return std::make_unique<CallExpr>(loc, std::move(callee), std::move(args),
                                    std::move(keywords));
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  Token open = tok();
  consume();
  if (is(TokenKind::RSquare))
    return errorHere("expected an index inside '[]'");
  Location indexLoc = tok().loc;
  ExprList items;
  bool sawComma = false;
  for (;;) {
    ExprPtr item = parseSubscriptItem();
    if (!item)
      return nullptr;
    items.push_back(std::move(item));
    if (!consumeIf(TokenKind::Comma))
      break;
    sawComma = true;
    if (is(TokenKind::RSquare))
      break;
  }
  if (!expectClosing(TokenKind::RSquare, open))
    return nullptr;
  ExprPtr index;
  if (items.size() == 1 && !sawComma)
    index = std::move(items.front());
  else
    index = std::make_unique<TupleExpr>(indexLoc, std::move(items));
  Location loc = value->getLoc();
  return std::make_unique<SubscriptExpr>(loc, std::move(value),
                                         std::move(index));
}

ExprPtr Parser::parseSubscriptItem() {
  Location loc = tok().loc;
  ExprPtr lower;
  if (!is(TokenKind::Colon)) {
    lower = parseTest();
    if (!lower || !is(TokenKind::Colon))
      return lower;
  }
  consume(); // ':'
  auto endsPart = [&] {
    return is(TokenKind::Colon) || is(TokenKind::Comma) ||
           is(TokenKind::RSquare);
  };
  ExprPtr upper, step;
  if (!endsPart()) {
    upper = parseTest();
    if (!upper)
      return nullptr;
  }
  if (consumeIf(TokenKind::Colon) && !endsPart()) {
    step = parseTest();
    if (!step)
      return nullptr;
  }
  return std::make_unique<SliceExpr>(loc, std::move(lower), std::move(upper),
                                     std::move(step));
}

ExprPtr Parser::parseAtom() {
  const Token &token = tok();
  Location loc = token.loc;
  switch (token.kind) {
  case TokenKind::Identifier: {
    auto name = std::make_unique<NameExpr>(loc, token.text.str());
    consume();
    return name;
  }
  case TokenKind::Integer: {
    auto constant = ConstantExpr::getInt(loc, token.intValue);
    consume();
    return constant;
  }
  case TokenKind::Float: {
    auto constant = ConstantExpr::getFloat(loc, token.floatValue);
    consume();
    return constant;
  }
  case TokenKind::String:
    return parseStrings();
  case TokenKind::kw_True:
  case TokenKind::kw_False: {
    auto constant = ConstantExpr::getBool(loc, token.is(TokenKind::kw_True));
    consume();
    return constant;
  }
  case TokenKind::kw_None:
    consume();
    return ConstantExpr::getNone(loc);
  case TokenKind::Ellipsis:
    consume();
    return ConstantExpr::getEllipsis(loc);
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LSquare:
    return parseListDisplay();
  case TokenKind::LBrace:
    return parseDictDisplay();
  case TokenKind::kw_lambda:
    return errorHere("lambda expressions are not supported");
  case TokenKind::kw_yield:
    return errorHere("'yield' is not supported");
  case TokenKind::Star:
    return errorHere("starred expressions are not supported");
  default:
    return expected("an expression");
  }
}

ExprPtr Parser::parseStrings() {
  // Adjacent literals concatenate: "a" 'b' is "ab".
  Location loc = tok().loc;
  bool isBytes = tok().isBytes;
  std::string value;
  while (is(TokenKind::String)) {
    if (tok().isBytes != isBytes)
      return errorHere("cannot mix bytes and non-bytes literals");
    value += tok().stringValue;
    consume();
  }
  return ConstantExpr::getString(loc, std::move(value), isBytes);
}

ExprPtr Parser::parseParenthesized() {
  Token open = tok();
  consume();
  if (consumeIf(TokenKind::RParen))
    return std::make_unique<TupleExpr>(open.loc, ExprList());
  ExprPtr first = parseTest();
  if (!first)
    return nullptr;
  if (is(TokenKind::kw_for))
    return errorHere("generator expressions are not supported");
  if (!is(TokenKind::Comma)) {
    if (!expectClosing(TokenKind::RParen, open))
      return nullptr;
    return first;
  }
  ExprList elements;
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma)) {
    if (is(TokenKind::RParen))
      break;
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  if (!expectClosing(TokenKind::RParen, open))
    return nullptr;
  return std::make_unique<TupleExpr>(open.loc, std::move(elements));
}

ExprPtr Parser::parseListDisplay() {
  Token open = tok();
  consume();
  ExprList elements;
  if (consumeIf(TokenKind::RSquare))
    return std::make_unique<ListExpr>(open.loc, std::move(elements));
  ExprPtr first = parseTest();
  if (!first)
    return nullptr;
  if (is(TokenKind::kw_for)) {
    std::vector<Comprehension> generators;
    if (!parseComprehensionClauses(generators) ||
        !expectClosing(TokenKind::RSquare, open))
      return nullptr;
    return std::make_unique<ListCompExpr>(open.loc, std::move(first),
                                          std::move(generators));
  }
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::Comma)) {
    if (is(TokenKind::RSquare))
      break;
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  if (!expectClosing(TokenKind::RSquare, open))
    return nullptr;
  return std::make_unique<ListExpr>(open.loc, std::move(elements));
}

bool Parser::parseComprehensionClauses(std::vector<Comprehension> &generators) {
  while (consumeIf(TokenKind::kw_for)) {
    Comprehension generator;
    generator.target = parseTargetList();
    if (!generator.target)
      return false;
    if (!expect(TokenKind::kw_in, "after the comprehension target"))
      return false;
    // The iterable and conditions stop before a conditional expression's
    // `if`, which belongs to the comprehension.
    generator.iter = parseOrTest();
    if (!generator.iter)
      return false;
    while (consumeIf(TokenKind::kw_if)) {
      ExprPtr condition = parseOrTest();
      if (!condition)
        return false;
      generator.conditions.push_back(std::move(condition));
    }
    generators.push_back(std::move(generator));
  }
  return true;
}

ExprPtr Parser::parseDictDisplay() {
  Token open = tok();
  consume();
  ExprList keys, values;
  if (consumeIf(TokenKind::RBrace))
    return std::make_unique<DictExpr>(open.loc, std::move(keys),
                                      std::move(values));
  for (;;) {
    if (is(TokenKind::DoubleStar))
      return errorHere("dictionary unpacking with '**' is not supported");
    ExprPtr key = parseTest();
    if (!key)
      return nullptr;
    if (!is(TokenKind::Colon)) {
      if (keys.empty() && (is(TokenKind::Comma) || is(TokenKind::RBrace) ||
                           is(TokenKind::kw_for)))
        return error(open.loc, "set displays are not supported");
      return expected("':' after the dictionary key");
    }
    consume();
    ExprPtr value = parseTest();
    if (!value)
      return nullptr;
    if (is(TokenKind::kw_for))
      return errorHere("dict comprehensions are not supported");
    keys.push_back(std::move(key));
    values.push_back(std::move(value));
    if (!consumeIf(TokenKind::Comma) || is(TokenKind::RBrace))
      break;
  }
  if (!expectClosing(TokenKind::RBrace, open))
    return nullptr;
  return std::make_unique<DictExpr>(open.loc, std::move(keys),
                                    std::move(values));
}

/// The target of `for` (a name or a tuple of targets). Parsed below the
/// comparisons so that the `in` that follows is not taken as an operator.
ExprPtr Parser::parseTargetList() {
  Location loc = tok().loc;
  ExprPtr first = parseBinary(kLowestBinaryPrecedence);
  if (!first)
    return nullptr;
  ExprPtr target;
  if (!is(TokenKind::Comma)) {
    target = std::move(first);
  } else {
    ExprList elements;
    elements.push_back(std::move(first));
    while (consumeIf(TokenKind::Comma)) {
      if (is(TokenKind::kw_in))
        break;
      ExprPtr element = parseBinary(kLowestBinaryPrecedence);
      if (!element)
        return nullptr;
      elements.push_back(std::move(element));
    }
    target = std::make_unique<TupleExpr>(loc, std::move(elements));
  }
  if (!checkAssignable(*target))
    return nullptr;
  return target;
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> tile::frontend::parseModule(llvm::SourceMgr &sourceMgr,
                                                    unsigned bufferId,
                                                    DiagEmitter &diag) {
  Lexer lexer(sourceMgr, bufferId, diag);
  Parser parser(lexer, diag);
  return parser.parseModule();
}

static Lexer::Options getFragmentLexerOptions(const FragmentOptions &options) {
  Lexer::Options lexerOptions;
  lexerOptions.range = options.range;
  lexerOptions.trackIndentation = false;
  lexerOptions.linePrefix = options.linePrefix;
  return lexerOptions;
}

ExprPtr tile::frontend::parseExpression(llvm::SourceMgr &sourceMgr,
                                        unsigned bufferId, DiagEmitter &diag,
                                        FragmentOptions options) {
  Lexer lexer(sourceMgr, bufferId, diag, getFragmentLexerOptions(options));
  Parser parser(lexer, diag);
  return parser.parseStandaloneExpression();
}

std::optional<StmtList>
tile::frontend::parseStatements(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                DiagEmitter &diag, FragmentOptions options) {
  Lexer lexer(sourceMgr, bufferId, diag, getFragmentLexerOptions(options));
  Parser parser(lexer, diag);
  return parser.parseStandaloneStatements();
}

std::optional<unsigned>
tile::frontend::addSourceFile(llvm::SourceMgr &sourceMgr, llvm::StringRef path,
                              DiagEmitter &diag) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (std::error_code ec = file.getError()) {
    diag.error("cannot read '" + path + "': " + ec.message());
    return std::nullopt;
  }
  return sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
}
