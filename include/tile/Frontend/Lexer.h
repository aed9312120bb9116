//===- Lexer.h - tokens of Triton's Python syntax ---------------*- C++ -*-===//
//
// Splits a .tile source buffer (Triton kernels written in Python syntax) into
// Python tokens: NEWLINE, INDENT and DEDENT from the indentation, names,
// keywords, numbers, strings and operators. Lines are joined implicitly inside
// brackets and explicitly with a trailing backslash; comments are skipped.
// Every token carries its 1-based line and column and a pointer into the
// buffer, which stays in the llvm::SourceMgr so that errors can quote it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_LEXER_H
#define TILE_FRONTEND_LEXER_H

#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace tile::frontend {

enum class TokenKind {
  // Structure.
  Eof,
  /// A malformed token; the lexer has already reported it.
  Error,
  Newline,
  Indent,
  Dedent,

  // Atoms.
  Identifier,
  Integer,
  Float,
  String,

  // Keywords.
  kw_False,
  kw_None,
  kw_True,
  kw_and,
  kw_as,
  kw_assert,
  kw_async,
  kw_await,
  kw_break,
  kw_class,
  kw_continue,
  kw_def,
  kw_del,
  kw_elif,
  kw_else,
  kw_except,
  kw_finally,
  kw_for,
  kw_from,
  kw_global,
  kw_if,
  kw_import,
  kw_in,
  kw_is,
  kw_lambda,
  kw_nonlocal,
  kw_not,
  kw_or,
  kw_pass,
  kw_raise,
  kw_return,
  kw_try,
  kw_while,
  kw_with,
  kw_yield,

  // Brackets and punctuation.
  LParen,
  RParen,
  LSquare,
  RSquare,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semicolon,
  Dot,
  Ellipsis,
  Arrow,
  At,
  Equal,

  // Operators.
  Plus,
  Minus,
  Star,
  DoubleStar,
  Slash,
  DoubleSlash,
  Percent,
  LeftShift,
  RightShift,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  EqualEqual,
  NotEqual,

  // Augmented assignment.
  PlusEqual,
  MinusEqual,
  StarEqual,
  DoubleStarEqual,
  SlashEqual,
  DoubleSlashEqual,
  PercentEqual,
  AtEqual,
  AmpEqual,
  PipeEqual,
  CaretEqual,
  LeftShiftEqual,
  RightShiftEqual,
};

/// The spelling of a keyword or operator kind (`def`, `+=`), or a
/// description of the other kinds (`end of line`, `identifier`).
llvm::StringRef getTokenKindSpelling(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Eof;
  /// The exact source text (empty for NEWLINE at end of file, INDENT,
  /// DEDENT and EOF).
  llvm::StringRef text;
  SourceLocation loc;
  /// Value of an Integer token.
  int64_t intValue = 0;
  /// An Integer beyond the signed 64-bit range (intValue is 0). Python's
  /// integers are unbounded, so such a literal is an error only where it
  /// is evaluated, not in a branch that is never compiled.
  bool intTooLarge = false;
  /// Value of a Float token.
  double floatValue = 0.0;
  /// Value of a String token with escapes decoded (raw strings keep them).
  std::string stringValue;
  /// The String token had a `b` prefix.
  bool isBytes = false;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  bool isKeyword() const {
    return kind >= TokenKind::kw_False && kind <= TokenKind::kw_yield;
  }
  /// A human-readable description for "expected X, got Y" messages.
  std::string describe() const;
};

/// Produces tokens on demand, one token of lookahead (the current token).
class Lexer {
public:
  struct Options {
    /// The part of the buffer to lex; empty means the whole buffer. Must lie
    /// inside the buffer so that locations stay true to the file.
    llvm::StringRef range;
    /// Emit INDENT/DEDENT from the indentation (Python files). When off, as
    /// for a launch description or a block of simple statements, the
    /// indentation of each line is ignored.
    bool trackIndentation = true;
    /// Without indentation tracking: skipped (after blanks) at the start of
    /// every line after the first, so that text written in comment lines,
    /// e.g. with prefix "#", can be lexed in place.
    llvm::StringRef linePrefix;
  };

  Lexer(llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagEmitter &diag,
        Options options);
  Lexer(llvm::SourceMgr &sourceMgr, unsigned bufferId, DiagEmitter &diag)
      : Lexer(sourceMgr, bufferId, diag, Options()) {}

  const Token &getCurToken() const { return curToken; }
  /// Moves to the next token.
  void consume();
  /// True once a lexical error has been reported; from then on only Error
  /// tokens are produced.
  bool hadError() const { return failed; }

  unsigned getBufferId() const { return bufferId; }
  /// The name the buffer was loaded under (usually the file path).
  llvm::StringRef getBufferIdentifier() const;
  DiagEmitter &getDiagEmitter() const { return diag; }

private:
  Token lexToken();
  Token lexAfterIndentation();
  bool handleLineStart(Token &result);
  Token lexIdentifierOrString(const char *start);
  Token lexNumber(const char *start);
  Token lexString(const char *start, const char *quote, bool isRaw,
                  bool isBytes);
  Token lexOperator(const char *start);

  Token makeToken(TokenKind kind, const char *start, const char *end);
  Token makeError(const char *at, const llvm::Twine &message);
  SourceLocation locationOf(const char *p) const;
  /// Called with `p` just past a line break: starts a new physical line.
  void startLine(const char *p);
  /// Consumes one line break ("\n", "\r\n" or "\r") at `cur`.
  void consumeLineBreak();

  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  DiagEmitter &diag;
  Options options;

  const char *bufferStart;
  const char *cur;
  const char *end;
  const char *lineStart;
  /// Where indentation is measured from: the line start, or just past a
  /// byte order mark.
  const char *indentOrigin;
  unsigned line;

  Token curToken;
  std::deque<Token> pending;
  std::vector<unsigned> indentStack;
  /// Where each enclosing bracket opened; lines join while any is open.
  std::vector<SourceLocation> openBrackets;
  bool atLineStart = true;
  bool tokensOnLine = false;
  bool reachedEnd = false;
  bool failed = false;
};

} // namespace tile::frontend

#endif // TILE_FRONTEND_LEXER_H
