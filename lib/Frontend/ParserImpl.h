//===- ParserImpl.h - the Parser class --------------------------*- C++ -*-===//
//
// Private to lib/Frontend. The recursive-descent Parser that Parser.cpp
// (entry points, definitions and imports), ParseStmt.cpp (statements) and
// ParseExpr.cpp (expressions) implement between them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_PARSERIMPL_H
#define TILE_LIB_FRONTEND_PARSERIMPL_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"
#include "tile/Frontend/Lexer.h"
#include "tile/Frontend/Parser.h"

#include <memory>
#include <optional>
#include <string>

namespace tile::frontend::detail {

using ast::BoolOp;
using ast::Comprehension;
using ast::Expr;
using ast::ExprPtr;
using ast::FunctionDef;
using ast::Import;
using ast::Location;
using ast::Module;
using ast::Param;
using ast::StmtList;
using ast::StmtPtr;

/// Tokens that can begin an expression.
bool startsExpression(TokenKind kind);

inline std::string formatLocation(const Location &loc) {
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

} // namespace tile::frontend::detail

#endif // TILE_LIB_FRONTEND_PARSERIMPL_H
