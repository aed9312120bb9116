//===- LexLiterals.cpp - numbers and strings ------------------------------===//
//
// The literals of the lexer, decoded as their tokens are formed: integers
// (decimal, hex, octal, binary, with underscores) and floats, and strings
// and bytes with their prefixes, escapes and triple quotes.
//
//===----------------------------------------------------------------------===//

#include "CharClasses.h"
#include "tile/Frontend/Lexer.h"

#include <cstdint>
#include <limits>

using namespace tile::frontend;
using namespace tile::frontend::detail;

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
    if (value > (limit - digit) / radix) {
      token.intTooLarge = true;
      return token;
    }
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
