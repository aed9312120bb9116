//===- Diagnostics.h - source-located front-end errors ----------*- C++ -*-===//
//
// Every error the front end reports goes through one DiagEmitter, which prints
// it with llvm::SourceMgr so that it reads `add.tile:12:17: error: ...`
// followed by the quoted source line and a caret. The emitter only counts
// errors; it never aborts, so callers decide how to recover.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_DIAGNOSTICS_H
#define TILE_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace tile::frontend {

/// A position in a source buffer: the pointer lets SourceMgr quote the line,
/// line and column (both 1-based, columns count bytes) are kept so that later
/// stages can build mlir::FileLineColLoc without the SourceMgr.
struct SourceLocation {
  llvm::SMLoc ptr;
  unsigned line = 0;
  unsigned col = 0;

  bool isValid() const { return line != 0; }
};

/// Prints diagnostics through a SourceMgr and counts the errors.
class DiagEmitter {
public:
  explicit DiagEmitter(llvm::SourceMgr &sourceMgr,
                       llvm::raw_ostream &os = llvm::errs());

  void error(const SourceLocation &loc, const llvm::Twine &message);
  void error(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error that belongs to no source position (e.g. a missing kernel).
  void error(const llvm::Twine &message);
  void warning(const SourceLocation &loc, const llvm::Twine &message);
  void note(const SourceLocation &loc, const llvm::Twine &message);
  /// The general form; an invalid `loc` prints the message without a
  /// position.
  void emit(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
            const llvm::Twine &message);

  /// The location of `line`:`col` in buffer `bufferId`, for diagnostics that
  /// arrive as line/column pairs (e.g. from MLIR's verifier). The result has
  /// no pointer when the position lies outside the buffer.
  SourceLocation getLocation(unsigned bufferId, unsigned line,
                             unsigned col) const;

  /// Hands every later diagnostic to `handler` instead of printing it
  /// (the C++ API returns diagnostics as values). The SMDiagnostic has no
  /// position where the message belongs to none.
  using Handler = std::function<void(const llvm::SMDiagnostic &)>;
  void setHandler(Handler handler) { this->handler = std::move(handler); }

  unsigned getNumErrors() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }

private:
  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  Handler handler;
  unsigned numErrors = 0;
};

} // namespace tile::frontend

#endif // TILE_FRONTEND_DIAGNOSTICS_H
