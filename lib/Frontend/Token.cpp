//===- Token.cpp - spellings of tokens ------------------------------------===//
//
// How token kinds are spelled and tokens described in diagnostics
// ("expected ')', got 'x'").
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Lexer.h"

using namespace tile::frontend;

llvm::StringRef tile::frontend::getTokenKindSpelling(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid token";
  case TokenKind::Newline:
    return "end of line";
  case TokenKind::Indent:
    return "indent";
  case TokenKind::Dedent:
    return "dedent";
  case TokenKind::Identifier:
    return "name";
  case TokenKind::Integer:
    return "integer literal";
  case TokenKind::Float:
    return "float literal";
  case TokenKind::String:
    return "string literal";
  case TokenKind::kw_False:
    return "False";
  case TokenKind::kw_None:
    return "None";
  case TokenKind::kw_True:
    return "True";
  case TokenKind::kw_and:
    return "and";
  case TokenKind::kw_as:
    return "as";
  case TokenKind::kw_assert:
    return "assert";
  case TokenKind::kw_async:
    return "async";
  case TokenKind::kw_await:
    return "await";
  case TokenKind::kw_break:
    return "break";
  case TokenKind::kw_class:
    return "class";
  case TokenKind::kw_continue:
    return "continue";
  case TokenKind::kw_def:
    return "def";
  case TokenKind::kw_del:
    return "del";
  case TokenKind::kw_elif:
    return "elif";
  case TokenKind::kw_else:
    return "else";
  case TokenKind::kw_except:
    return "except";
  case TokenKind::kw_finally:
    return "finally";
  case TokenKind::kw_for:
    return "for";
  case TokenKind::kw_from:
    return "from";
  case TokenKind::kw_global:
    return "global";
  case TokenKind::kw_if:
    return "if";
  case TokenKind::kw_import:
    return "import";
  case TokenKind::kw_in:
    return "in";
  case TokenKind::kw_is:
    return "is";
  case TokenKind::kw_lambda:
    return "lambda";
  case TokenKind::kw_nonlocal:
    return "nonlocal";
  case TokenKind::kw_not:
    return "not";
  case TokenKind::kw_or:
    return "or";
  case TokenKind::kw_pass:
    return "pass";
  case TokenKind::kw_raise:
    return "raise";
  case TokenKind::kw_return:
    return "return";
  case TokenKind::kw_try:
    return "try";
  case TokenKind::kw_while:
    return "while";
  case TokenKind::kw_with:
    return "with";
  case TokenKind::kw_yield:
    return "yield";
  case TokenKind::LParen:
    return "(";
  case TokenKind::RParen:
    return ")";
  case TokenKind::LSquare:
    return "[";
  case TokenKind::RSquare:
    return "]";
  case TokenKind::LBrace:
    return "{";
  case TokenKind::RBrace:
    return "}";
  case TokenKind::Comma:
    return ",";
  case TokenKind::Colon:
    return ":";
  case TokenKind::Semicolon:
    return ";";
  case TokenKind::Dot:
    return ".";
  case TokenKind::Ellipsis:
    return "...";
  case TokenKind::Arrow:
    return "->";
  case TokenKind::At:
    return "@";
  case TokenKind::Equal:
    return "=";
  case TokenKind::Plus:
    return "+";
  case TokenKind::Minus:
    return "-";
  case TokenKind::Star:
    return "*";
  case TokenKind::DoubleStar:
    return "**";
  case TokenKind::Slash:
    return "/";
  case TokenKind::DoubleSlash:
    return "//";
  case TokenKind::Percent:
    return "%";
  case TokenKind::LeftShift:
    return "<<";
  case TokenKind::RightShift:
    return ">>";
  case TokenKind::Amp:
    return "&";
  case TokenKind::Pipe:
    return "|";
  case TokenKind::Caret:
    return "^";
  case TokenKind::Tilde:
    return "~";
  case TokenKind::Less:
    return "<";
  case TokenKind::Greater:
    return ">";
  case TokenKind::LessEqual:
    return "<=";
  case TokenKind::GreaterEqual:
    return ">=";
  case TokenKind::EqualEqual:
    return "==";
  case TokenKind::NotEqual:
    return "!=";
  case TokenKind::PlusEqual:
    return "+=";
  case TokenKind::MinusEqual:
    return "-=";
  case TokenKind::StarEqual:
    return "*=";
  case TokenKind::DoubleStarEqual:
    return "**=";
  case TokenKind::SlashEqual:
    return "/=";
  case TokenKind::DoubleSlashEqual:
    return "//=";
  case TokenKind::PercentEqual:
    return "%=";
  case TokenKind::AtEqual:
    return "@=";
  case TokenKind::AmpEqual:
    return "&=";
  case TokenKind::PipeEqual:
    return "|=";
  case TokenKind::CaretEqual:
    return "^=";
  case TokenKind::LeftShiftEqual:
    return "<<=";
  case TokenKind::RightShiftEqual:
    return ">>=";
  }
  return "token";
}

std::string Token::describe() const {
  switch (kind) {
  case TokenKind::Eof:
  case TokenKind::Error:
  case TokenKind::Newline:
  case TokenKind::Indent:
  case TokenKind::Dedent:
    return getTokenKindSpelling(kind).str();
  case TokenKind::String:
    return "string literal";
  default:
    break;
  }
  // Long spellings (e.g. huge numbers) would drown the message.
  llvm::StringRef shown = text.size() > 32 ? text.take_front(29) : text;
  return "'" + shown.str() + (text.size() > 32 ? "...'" : "'");
}
