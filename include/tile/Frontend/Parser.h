//===- Parser.h - parser for Triton kernels in Python syntax ----*- C++ -*-===//
//
// A recursive-descent parser, in the manner of MLIR's Toy tutorial, that
// builds the ast:: tree from a .tile file, from one standalone expression or
// from a block of simple statements (the latter two for launch descriptions
// written in comments). Python's grammar and operator precedence are
// followed exactly for the subset listed in AST.h. Syntax errors are
// reported through the DiagEmitter and the parse returns null; no input
// crashes or hangs it (nesting is limited to kMaxNestingDepth).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_PARSER_H
#define TILE_FRONTEND_PARSER_H

#include "tile/Frontend/AST.h"
#include "tile/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>

namespace tile::frontend {

/// Deepest nesting of expressions (and of blocks) the parser accepts before
/// reporting "expression nested too deeply"; keeps recursion bounded.
inline constexpr unsigned kMaxNestingDepth = 200;

/// Where in a buffer a standalone expression or statement block is.
struct FragmentOptions {
  /// The text to parse; it must lie inside the buffer, so that diagnostics
  /// point at the file. Left empty (null), the whole buffer is parsed.
  llvm::StringRef range;
  /// Skipped, after blanks, at the start of every line but the first, so
  /// that a fragment may continue over comment lines (e.g. "#").
  llvm::StringRef linePrefix;
};

/// Parses a whole .tile file. Returns null after reporting a syntax error.
std::unique_ptr<ast::Module> parseModule(llvm::SourceMgr &sourceMgr,
                                         unsigned bufferId, DiagEmitter &diag);

/// Parses one expression (a tuple when written with top-level commas, as in
/// `grid = ` right-hand sides). Blank lines and comments around it are
/// allowed; anything else after it is an error. Returns null on error.
std::unique_ptr<ast::Expr> parseExpression(llvm::SourceMgr &sourceMgr,
                                           unsigned bufferId, DiagEmitter &diag,
                                           FragmentOptions options = {});

/// Parses simple statements (assignments, expression statements, pass,
/// assert, ...), one or more per line separated by newlines or ';'. The
/// indentation of the lines does not matter. Returns std::nullopt on error.
std::optional<ast::StmtList> parseStatements(llvm::SourceMgr &sourceMgr,
                                             unsigned bufferId,
                                             DiagEmitter &diag,
                                             FragmentOptions options = {});

/// Reads `path` into `sourceMgr`; reports an unreadable file and returns
/// std::nullopt.
std::optional<unsigned> addSourceFile(llvm::SourceMgr &sourceMgr,
                                      llvm::StringRef path, DiagEmitter &diag);

} // namespace tile::frontend

#endif // TILE_FRONTEND_PARSER_H
