//===- CharClasses.h - characters the lexer tells apart ---------*- C++ -*-===//
//
// Private to lib/Frontend: the character classes of Python's tokenizer that
// Lexer.cpp and LexLiterals.cpp share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_CHARCLASSES_H
#define TILE_LIB_FRONTEND_CHARCLASSES_H

#include "llvm/ADT/StringExtras.h"

namespace tile::frontend::detail {

inline bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
inline bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }
inline bool isLineBreak(char c) { return c == '\n' || c == '\r'; }
inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

} // namespace tile::frontend::detail

#endif // TILE_LIB_FRONTEND_CHARCLASSES_H
