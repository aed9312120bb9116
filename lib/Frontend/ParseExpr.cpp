//===- ParseExpr.cpp - expressions of the parser --------------------------===//
//
// Expressions, following Python's precedence from conditional expressions
// and boolean operators through comparisons and binary arithmetic (by
// precedence climbing) down to calls, subscripts, atoms and displays (lists,
// dicts, comprehensions), and the target lists of `for`.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/STLExtras.h"

using namespace tile::frontend;
using namespace tile::frontend::ast;
using namespace tile::frontend::detail;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {
/// Binary arithmetic operators with their precedence, lowest first as in
/// Python: | then ^ then & then << >> then + - then * @ / // %.
struct BinaryOperatorInfo {
  BinaryOp op;
  unsigned precedence;
};
} // namespace

static std::optional<BinaryOperatorInfo> getBinaryOperator(TokenKind kind) {
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

static constexpr unsigned kLowestBinaryPrecedence = 1;

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
    auto constant = token.intTooLarge
                        ? ConstantExpr::getOversizedInt(loc, token.text.str())
                        : ConstantExpr::getInt(loc, token.intValue);
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
