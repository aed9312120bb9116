//===- Lexer.cpp - tokens of Triton's Python syntax -----------------------===//
//
// Implements the Python tokenizer used by the Tile front end: indentation
// becomes INDENT/DEDENT tokens, brackets join lines, and literals are decoded
// as the tokens are formed. Errors are reported once through DiagEmitter;
// afterwards the lexer produces only Error tokens so the parser stops.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <limits>

using namespace tile::frontend;

//===----------------------------------------------------------------------===//
// Token
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Character classes
//===----------------------------------------------------------------------===//

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }
static bool isLineBreak(char c) { return c == '\n' || c == '\r'; }
static bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

/// How a byte is named in an "invalid character" error.
static std::string describeByte(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f)
    return std::string("'") + c + "'";
  std::string hex = "'\\x";
  hex += llvm::hexdigit(byte >> 4);
  hex += llvm::hexdigit(byte & 0xf);
  return hex + "'";
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

Lexer::Lexer(llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagEmitter &diag,
             Options options)
    : sourceMgr(sourceMgr), bufferId(bufferId), diag(diag), options(options) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  bufferStart = buffer->getBufferStart();
  cur = bufferStart;
  end = buffer->getBufferEnd();
  if (const char *rangeStart = options.range.data()) {
    // A range outside the buffer would break every location; lex nothing.
    if (rangeStart >= bufferStart && rangeStart <= end &&
        options.range.size() <= static_cast<size_t>(end - rangeStart)) {
      cur = rangeStart;
      end = rangeStart + options.range.size();
    } else {
      cur = end;
    }
  }
  // Recover the line of the starting point so that locations are those of
  // the file even when lexing a range of it.
  line = 1;
  lineStart = bufferStart;
  for (const char *p = bufferStart; p < cur; ++p) {
    if (*p == '\n' || (*p == '\r' && (p + 1 == cur || p[1] != '\n'))) {
      ++line;
      lineStart = p + 1;
    }
  }
  indentOrigin = lineStart;
  if (cur == bufferStart &&
      llvm::StringRef(cur, end - cur)
          .starts_with("\xEF\xBB\xBF")) { // UTF-8 byte order mark
    cur += 3;
    indentOrigin = cur;
  }
  indentStack.push_back(0);
  atLineStart = options.trackIndentation;
  consume();
}

llvm::StringRef Lexer::getBufferIdentifier() const {
  return sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
}

void Lexer::consume() { curToken = lexToken(); }

SourceLocation Lexer::locationOf(const char *p) const {
  SourceLocation loc;
  loc.ptr = llvm::SMLoc::getFromPointer(p);
  loc.line = line;
  loc.col = static_cast<unsigned>(p - lineStart) + 1;
  return loc;
}

Token Lexer::makeToken(TokenKind kind, const char *start, const char *stop) {
  Token token;
  token.kind = kind;
  token.text = llvm::StringRef(start, stop - start);
  token.loc = locationOf(start);
  return token;
}

Token Lexer::makeError(const char *at, const llvm::Twine &message) {
  diag.error(locationOf(at), message);
  failed = true;
  pending.clear();
  return makeToken(TokenKind::Error, at, at);
}

void Lexer::startLine(const char *p) {
  ++line;
  lineStart = p;
  indentOrigin = p;
  cur = p;
  if (options.trackIndentation || options.linePrefix.empty())
    return;
  // Text embedded in comment lines: drop the comment marker of each line.
  const char *q = p;
  while (q < end && isBlank(*q))
    ++q;
  if (llvm::StringRef(q, end - q).starts_with(options.linePrefix))
    cur = q + options.linePrefix.size();
}

void Lexer::consumeLineBreak() {
  if (*cur == '\r' && cur + 1 < end && cur[1] == '\n')
    ++cur;
  startLine(cur + 1);
}

Token Lexer::lexToken() {
  if (!pending.empty()) {
    Token token = std::move(pending.front());
    pending.pop_front();
    return token;
  }
  if (failed)
    return makeToken(TokenKind::Error, cur, cur);
  return lexAfterIndentation();
}

/// At the start of a logical line: skips blank and comment-only lines and
/// turns a change of indentation into INDENT or DEDENT tokens. Returns true
/// when `result` holds the token to produce.
bool Lexer::handleLineStart(Token &result) {
  for (;;) {
    const char *firstTab = nullptr;
    const char *p = cur;
    while (p < end && isBlank(*p)) {
      if (*p == '\t' && !firstTab)
        firstTab = p;
      ++p;
    }
    cur = p;
    if (cur == end)
      return false;
    if (*cur == '#') {
      while (cur < end && !isLineBreak(*cur))
        ++cur;
      if (cur == end)
        return false;
    }
    if (isLineBreak(*cur)) {
      // Blank lines do not take part in indentation.
      consumeLineBreak();
      continue;
    }
    if (firstTab) {
      result = makeError(firstTab, "tab character in indentation; indent "
                                   "with spaces only");
      return true;
    }
    unsigned width = static_cast<unsigned>(cur - indentOrigin);
    if (width > indentStack.back()) {
      indentStack.push_back(width);
      result = makeToken(TokenKind::Indent, cur, cur);
      return true;
    }
    if (width == indentStack.back())
      return false;
    while (width < indentStack.back()) {
      indentStack.pop_back();
      pending.push_back(makeToken(TokenKind::Dedent, cur, cur));
    }
    if (width != indentStack.back()) {
      result =
          makeError(cur, "unindent does not match any outer indentation level");
      return true;
    }
    result = std::move(pending.front());
    pending.pop_front();
    return true;
  }
}

Token Lexer::lexAfterIndentation() {
  for (;;) {
    if (atLineStart) {
      atLineStart = false;
      Token token;
      if (handleLineStart(token))
        return token;
    }
    while (cur < end && isBlank(*cur))
      ++cur;

    if (cur == end) {
      if (!openBrackets.empty()) {
        // Report the bracket itself rather than the end of the file.
        SourceLocation open = openBrackets.back();
        diag.error(open, "'" + llvm::StringRef(open.ptr.getPointer(), 1) +
                             "' was never closed");
        failed = true;
        pending.clear();
        return makeToken(TokenKind::Error, cur, cur);
      }
      if (!reachedEnd) {
        // Close the last logical line and every open block, as Python does.
        reachedEnd = true;
        if (tokensOnLine)
          pending.push_back(makeToken(TokenKind::Newline, cur, cur));
        tokensOnLine = false;
        while (indentStack.size() > 1) {
          indentStack.pop_back();
          pending.push_back(makeToken(TokenKind::Dedent, cur, cur));
        }
        if (!pending.empty()) {
          pending.push_back(makeToken(TokenKind::Eof, cur, cur));
          return lexToken();
        }
      }
      return makeToken(TokenKind::Eof, cur, cur);
    }

    const char *start = cur;
    char c = *cur;
    if (c == '#') {
      while (cur < end && !isLineBreak(*cur))
        ++cur;
      continue;
    }
    if (isLineBreak(c)) {
      bool endsLogicalLine = openBrackets.empty() && tokensOnLine;
      const char *stop = start + 1;
      if (c == '\r' && stop < end && *stop == '\n')
        ++stop;
      Token newline = makeToken(TokenKind::Newline, start, stop);
      consumeLineBreak();
      if (openBrackets.empty())
        atLineStart = options.trackIndentation;
      if (endsLogicalLine) {
        tokensOnLine = false;
        return newline;
      }
      continue;
    }
    if (c == '\\') {
      if (cur + 1 == end)
        return makeError(cur, "unexpected end of file after line "
                              "continuation character");
      if (!isLineBreak(cur[1]))
        return makeError(cur, "unexpected character after line continuation "
                              "character");
      ++cur;
      consumeLineBreak();
      continue;
    }

    tokensOnLine = true;
    if (isIdentifierStart(c))
      return lexIdentifierOrString(start);
    if (llvm::isDigit(c) ||
        (c == '.' && cur + 1 < end && llvm::isDigit(cur[1])))
      return lexNumber(start);
    if (c == '\'' || c == '"')
      return lexString(start, start, /*isRaw=*/false, /*isBytes=*/false);
    return lexOperator(start);
  }
}

Token Lexer::lexIdentifierOrString(const char *start) {
  const char *p = start;
  while (p < end && isIdentifierChar(*p))
    ++p;
  llvm::StringRef word(start, p - start);

  // A short prefix right before a quote makes a string: r'..', b"..", ...
  if (p < end && (*p == '\'' || *p == '"') && word.size() <= 2) {
    std::string prefix = word.lower();
    bool isPrefix = prefix == "r" || prefix == "b" || prefix == "u" ||
                    prefix == "f" || prefix == "rb" || prefix == "br" ||
                    prefix == "fr" || prefix == "rf";
    if (isPrefix) {
      if (llvm::StringRef(prefix).contains('f'))
        return makeError(start, "f-strings are not supported");
      return lexString(start, p, llvm::StringRef(prefix).contains('r'),
                       llvm::StringRef(prefix).contains('b'));
    }
  }

  cur = p;
  TokenKind kind = llvm::StringSwitch<TokenKind>(word)
                       .Case("False", TokenKind::kw_False)
                       .Case("None", TokenKind::kw_None)
                       .Case("True", TokenKind::kw_True)
                       .Case("and", TokenKind::kw_and)
                       .Case("as", TokenKind::kw_as)
                       .Case("assert", TokenKind::kw_assert)
                       .Case("async", TokenKind::kw_async)
                       .Case("await", TokenKind::kw_await)
                       .Case("break", TokenKind::kw_break)
                       .Case("class", TokenKind::kw_class)
                       .Case("continue", TokenKind::kw_continue)
                       .Case("def", TokenKind::kw_def)
                       .Case("del", TokenKind::kw_del)
                       .Case("elif", TokenKind::kw_elif)
                       .Case("else", TokenKind::kw_else)
                       .Case("except", TokenKind::kw_except)
                       .Case("finally", TokenKind::kw_finally)
                       .Case("for", TokenKind::kw_for)
                       .Case("from", TokenKind::kw_from)
                       .Case("global", TokenKind::kw_global)
                       .Case("if", TokenKind::kw_if)
                       .Case("import", TokenKind::kw_import)
                       .Case("in", TokenKind::kw_in)
                       .Case("is", TokenKind::kw_is)
                       .Case("lambda", TokenKind::kw_lambda)
                       .Case("nonlocal", TokenKind::kw_nonlocal)
                       .Case("not", TokenKind::kw_not)
                       .Case("or", TokenKind::kw_or)
                       .Case("pass", TokenKind::kw_pass)
                       .Case("raise", TokenKind::kw_raise)
                       .Case("return", TokenKind::kw_return)
                       .Case("try", TokenKind::kw_try)
                       .Case("while", TokenKind::kw_while)
                       .Case("with", TokenKind::kw_with)
                       .Case("yield", TokenKind::kw_yield)
                       .Default(TokenKind::Identifier);
  return makeToken(kind, start, p);
}

static bool isDigitOfRadix(char c, unsigned radix) {
  switch (radix) {
  case 2:
    return c == '0' || c == '1';
  case 8:
    return c >= '0' && c <= '7';
  case 16:
    return llvm::isHexDigit(c);
  default:
    return llvm::isDigit(c);
  }
}

Token Lexer::lexNumber(const char *start) {
  const char *p = start;
  auto charAt = [&](const char *q) -> char { return q < end ? *q : '\0'; };
  // Digits of `radix` with single underscores between them, as Python
  // allows (1_000_000, 0x_ff). Returns whether any digit was seen.
  auto scanDigits = [&](unsigned radix, bool leadingUnderscore) {
    bool sawDigit = false;
    for (;;) {
      char c = charAt(p);
      if (isDigitOfRadix(c, radix)) {
        sawDigit = true;
        ++p;
      } else if (c == '_' && (sawDigit || leadingUnderscore) &&
                 isDigitOfRadix(charAt(p + 1), radix)) {
        ++p;
      } else {
        return sawDigit;
      }
    }
  };

  unsigned radix = 10;
  bool isFloat = false;
  char marker = static_cast<char>(llvm::toLower(charAt(p + 1)));
  const char *digitsStart = p;
  if (*p == '0' && (marker == 'x' || marker == 'o' || marker == 'b')) {
    radix = marker == 'x' ? 16 : marker == 'o' ? 8 : 2;
    p += 2;
    digitsStart = p;
    if (!scanDigits(radix, /*leadingUnderscore=*/true))
      return makeError(start, radix == 16  ? "invalid hexadecimal literal"
                              : radix == 8 ? "invalid octal literal"
                                           : "invalid binary literal");
  } else {
    if (*p != '.')
      scanDigits(10, /*leadingUnderscore=*/false);
    if (charAt(p) == '.') {
      isFloat = true;
      ++p;
      scanDigits(10, /*leadingUnderscore=*/false);
    }
    if (charAt(p) == 'e' || charAt(p) == 'E') {
      const char *q = p + 1;
      if (charAt(q) == '+' || charAt(q) == '-')
        ++q;
      if (!llvm::isDigit(charAt(q)))
        return makeError(start, "invalid float literal: the exponent has no "
                                "digits");
      p = q;
      scanDigits(10, /*leadingUnderscore=*/false);
      isFloat = true;
    }
  }

  char after = charAt(p);
  if (after == 'j' || after == 'J')
    return makeError(start, "complex literals are not supported");
  if (isIdentifierChar(after) || static_cast<unsigned char>(after) >= 0x80)
    return makeError(start, radix == 16  ? "invalid hexadecimal literal"
                            : radix == 8 ? "invalid octal literal"
                            : radix == 2 ? "invalid binary literal"
                                         : "invalid decimal literal");
  cur = p;
  Token token =
      makeToken(isFloat ? TokenKind::Float : TokenKind::Integer, start, p);

  std::string digits;
  for (const char *q = digitsStart; q < p; ++q)
    if (*q != '_')
      digits += *q;

  if (isFloat) {
    if (llvm::StringRef(digits).getAsDouble(token.floatValue,
                                            /*AllowInexact=*/true))
      return makeError(start, "float literal '" + token.text +
                                  "' is out of the range of a 64-bit float");
    return token;
  }

  if (radix == 10 && digits.size() > 1 && digits[0] == '0' &&
      digits.find_first_not_of('0') != std::string::npos)
    return makeError(start, "leading zeros in decimal integer literals are "
                            "not permitted; use an 0o prefix for octal "
                            "integers");
  // Python integers are unbounded; Tile's compile-time integers are int64.
  const uint64_t limit = std::numeric_limits<int64_t>::max();
  uint64_t value = 0;
  for (char c : digits) {
    unsigned digit = llvm::hexDigitValue(c);
    if (value > (limit - digit) / radix)
      return makeError(start,
                       "integer literal is too large: " + token.describe() +
                           " does not fit in a signed 64-bit integer");
    value = value * radix + digit;
  }
  token.intValue = static_cast<int64_t>(value);
  return token;
}

Token Lexer::lexString(const char *start, const char *quote, bool isRaw,
                       bool isBytes) {
  SourceLocation startLoc = locationOf(start);
  auto failAt = [&](const SourceLocation &loc, const llvm::Twine &message) {
    cur = end;
    diag.error(loc, message);
    failed = true;
    pending.clear();
    Token token;
    token.kind = TokenKind::Error;
    token.loc = loc;
    return token;
  };
  auto fail = [&](const llvm::Twine &message) {
    return failAt(startLoc, message);
  };
  // Line breaks inside a (triple-quoted) literal still advance the line.
  auto noteLineBreak = [&](const char *next) {
    ++line;
    lineStart = next;
  };

  char q = *quote;
  const char *p = quote + 1;
  bool triple = p + 1 < end && p[0] == q && p[1] == q;
  if (triple)
    p += 2;

  std::string value;
  for (;;) {
    if (p >= end)
      return fail(triple ? "unterminated triple-quoted string literal"
                         : "unterminated string literal");
    char c = *p;
    if (c == q) {
      if (!triple) {
        ++p;
        break;
      }
      if (p + 2 < end && p[1] == q && p[2] == q) {
        p += 3;
        break;
      }
      value += c;
      ++p;
      continue;
    }
    if (isLineBreak(c)) {
      if (!triple)
        return fail("unterminated string literal");
      if (c == '\r' && p + 1 < end && p[1] == '\n')
        ++p;
      ++p;
      noteLineBreak(p);
      value += '\n';
      continue;
    }
    if (c == '\\' && p + 1 < end) {
      char escaped = p[1];
      p += 2;
      if (isLineBreak(escaped)) {
        // A backslash-newline inside a literal continues it on the next line.
        if (escaped == '\r' && p < end && *p == '\n')
          ++p;
        noteLineBreak(p);
        if (isRaw)
          value += "\\\n";
        continue;
      }
      if (isRaw) {
        value += '\\';
        value += escaped;
        continue;
      }
      switch (escaped) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case 'a':
        value += '\a';
        break;
      case 'b':
        value += '\b';
        break;
      case 'f':
        value += '\f';
        break;
      case 'v':
        value += '\v';
        break;
      case '\\':
      case '\'':
      case '"':
        value += escaped;
        break;
      case 'x': {
        if (p + 1 >= end || !llvm::isHexDigit(p[0]) || !llvm::isHexDigit(p[1]))
          return failAt(locationOf(p - 2), "invalid \\x escape in string "
                                           "literal; expected two hex digits");
        value += static_cast<char>(llvm::hexDigitValue(p[0]) * 16 +
                                   llvm::hexDigitValue(p[1]));
        p += 2;
        break;
      }
      default:
        if (escaped >= '0' && escaped <= '7') {
          unsigned code = escaped - '0';
          for (int i = 0; i < 2 && p < end && *p >= '0' && *p <= '7'; ++i)
            code = code * 8 + (*p++ - '0');
          value += static_cast<char>(code & 0xff);
          break;
        }
        // Unknown escapes keep the backslash, as Python does.
        value += '\\';
        value += escaped;
        break;
      }
      continue;
    }
    value += c;
    ++p;
  }

  cur = p;
  Token token;
  token.kind = TokenKind::String;
  token.text = llvm::StringRef(start, p - start);
  token.loc = startLoc;
  token.stringValue = std::move(value);
  token.isBytes = isBytes;
  return token;
}

Token Lexer::lexOperator(const char *start) {
  auto charAt = [&](size_t i) -> char {
    return start + i < end ? start[i] : '\0';
  };
  TokenKind kind;
  size_t length = 1;
  // Picks the longest of `op`, `op=` (when `withEqual` is valid).
  auto withOptionalEqual = [&](TokenKind plain, TokenKind withEqual) {
    if (charAt(length) == '=') {
      ++length;
      return withEqual;
    }
    return plain;
  };

  switch (*start) {
  case '(':
  case '[':
  case '{':
    kind = *start == '('   ? TokenKind::LParen
           : *start == '[' ? TokenKind::LSquare
                           : TokenKind::LBrace;
    openBrackets.push_back(locationOf(start));
    break;
  case ')':
  case ']':
  case '}':
    kind = *start == ')'   ? TokenKind::RParen
           : *start == ']' ? TokenKind::RSquare
                           : TokenKind::RBrace;
    // Unbalanced or mismatched closers are the parser's to report.
    if (!openBrackets.empty())
      openBrackets.pop_back();
    break;
  case ',':
    kind = TokenKind::Comma;
    break;
  case ':':
    kind = TokenKind::Colon;
    break;
  case ';':
    kind = TokenKind::Semicolon;
    break;
  case '~':
    kind = TokenKind::Tilde;
    break;
  case '.':
    if (charAt(1) == '.' && charAt(2) == '.') {
      kind = TokenKind::Ellipsis;
      length = 3;
    } else {
      kind = TokenKind::Dot;
    }
    break;
  case '+':
    kind = withOptionalEqual(TokenKind::Plus, TokenKind::PlusEqual);
    break;
  case '-':
    if (charAt(1) == '>') {
      kind = TokenKind::Arrow;
      length = 2;
    } else {
      kind = withOptionalEqual(TokenKind::Minus, TokenKind::MinusEqual);
    }
    break;
  case '*':
    if (charAt(1) == '*') {
      length = 2;
      kind =
          withOptionalEqual(TokenKind::DoubleStar, TokenKind::DoubleStarEqual);
    } else {
      kind = withOptionalEqual(TokenKind::Star, TokenKind::StarEqual);
    }
    break;
  case '/':
    if (charAt(1) == '/') {
      length = 2;
      kind = withOptionalEqual(TokenKind::DoubleSlash,
                               TokenKind::DoubleSlashEqual);
    } else {
      kind = withOptionalEqual(TokenKind::Slash, TokenKind::SlashEqual);
    }
    break;
  case '%':
    kind = withOptionalEqual(TokenKind::Percent, TokenKind::PercentEqual);
    break;
  case '@':
    kind = withOptionalEqual(TokenKind::At, TokenKind::AtEqual);
    break;
  case '&':
    kind = withOptionalEqual(TokenKind::Amp, TokenKind::AmpEqual);
    break;
  case '|':
    kind = withOptionalEqual(TokenKind::Pipe, TokenKind::PipeEqual);
    break;
  case '^':
    kind = withOptionalEqual(TokenKind::Caret, TokenKind::CaretEqual);
    break;
  case '<':
    if (charAt(1) == '<') {
      length = 2;
      kind = withOptionalEqual(TokenKind::LeftShift, TokenKind::LeftShiftEqual);
    } else {
      kind = withOptionalEqual(TokenKind::Less, TokenKind::LessEqual);
    }
    break;
  case '>':
    if (charAt(1) == '>') {
      length = 2;
      kind =
          withOptionalEqual(TokenKind::RightShift, TokenKind::RightShiftEqual);
    } else {
      kind = withOptionalEqual(TokenKind::Greater, TokenKind::GreaterEqual);
    }
    break;
  case '=':
    kind = withOptionalEqual(TokenKind::Equal, TokenKind::EqualEqual);
    break;
  case '!':
    if (charAt(1) == '=') {
      kind = TokenKind::NotEqual;
      length = 2;
      break;
    }
    return makeError(start, "invalid character '!' (did you mean 'not' or "
                            "'!='?)");
  default:
    if (static_cast<unsigned char>(*start) >= 0x80)
      return makeError(start, "invalid character " + describeByte(*start) +
                                  "; non-ASCII characters are only allowed "
                                  "in strings and comments");
    return makeError(start, "invalid character " + describeByte(*start));
  }
  cur = start + length;
  return makeToken(kind, start, cur);
}
