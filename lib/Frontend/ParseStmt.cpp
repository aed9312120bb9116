//===- ParseStmt.cpp - statements of the parser ---------------------------===//
//
// Statements: compound ones (if, for, while and their blocks) and simple
// ones (assignments, augmented assignments, expression statements, pass,
// return, assert, ...), with the check that assignment targets are
// assignable.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

using namespace tile::frontend;
using namespace tile::frontend::ast;
using namespace tile::frontend::detail;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

static std::optional<BinaryOp> getAugmentedOperator(TokenKind kind) {
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
