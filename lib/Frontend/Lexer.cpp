//===- Lexer.cpp - tokens of Triton's Python syntax -----------------------===//
//
// Implements the Python tokenizer used by the Tile front end: indentation
// becomes INDENT/DEDENT tokens, brackets join lines, and literals are decoded
// as the tokens are formed. Errors are reported once through DiagEmitter;
// afterwards the lexer produces only Error tokens so the parser stops.
//
// This file holds the lexer's walk: line starts and indentation, line
// joining, names and keywords, and operators. Numbers and strings are lexed
// in LexLiterals.cpp; the spellings of token kinds are in Token.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Lexer.h"
#include "CharClasses.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tile::frontend;
using namespace tile::frontend::detail;

//===----------------------------------------------------------------------===//
// Character classes
//===----------------------------------------------------------------------===//

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
