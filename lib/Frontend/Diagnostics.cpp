//===- Diagnostics.cpp - source-located front-end errors ------------------===//
//
// Implements DiagEmitter on top of llvm::SourceMgr::PrintMessage.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/Diagnostics.h"

using namespace tile::frontend;

DiagEmitter::DiagEmitter(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagEmitter::emit(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                       const llvm::Twine &message) {
  if (kind == llvm::SourceMgr::DK_Error)
    ++numErrors;
  // Without a position (or with one outside every buffer, which would make
  // SourceMgr assert) print just `error: message`, not `<unknown>:0: ...`.
  bool positioned =
      loc.isValid() && sourceMgr.FindBufferContainingLoc(loc) != 0;
  if (handler) {
    handler(positioned
                ? sourceMgr.GetMessage(loc, kind, message)
                : llvm::SMDiagnostic(/*filename=*/"", kind, message.str()));
    return;
  }
  if (!positioned) {
    llvm::SMDiagnostic(/*filename=*/"", kind, message.str())
        .print(/*ProgName=*/nullptr, os);
    return;
  }
  sourceMgr.PrintMessage(os, loc, kind, message);
}

void DiagEmitter::error(const SourceLocation &loc, const llvm::Twine &message) {
  emit(loc.ptr, llvm::SourceMgr::DK_Error, message);
}

void DiagEmitter::error(llvm::SMLoc loc, const llvm::Twine &message) {
  emit(loc, llvm::SourceMgr::DK_Error, message);
}

void DiagEmitter::error(const llvm::Twine &message) {
  emit(llvm::SMLoc(), llvm::SourceMgr::DK_Error, message);
}

void DiagEmitter::warning(const SourceLocation &loc,
                          const llvm::Twine &message) {
  emit(loc.ptr, llvm::SourceMgr::DK_Warning, message);
}

void DiagEmitter::note(const SourceLocation &loc, const llvm::Twine &message) {
  emit(loc.ptr, llvm::SourceMgr::DK_Note, message);
}

SourceLocation DiagEmitter::getLocation(unsigned bufferId, unsigned line,
                                        unsigned col) const {
  SourceLocation loc;
  loc.line = line;
  loc.col = col;
  if (bufferId == 0 || bufferId > sourceMgr.getNumBuffers() || line == 0)
    return loc;
  // FindLocForLineAndColumn yields an invalid SMLoc when the line does not
  // exist; past-the-end columns are clamped to the end of the line here.
  llvm::SMLoc lineStart =
      sourceMgr.FindLocForLineAndColumn(bufferId, line, /*ColNo=*/1);
  if (!lineStart.isValid())
    return loc;
  const char *bufferEnd = sourceMgr.getMemoryBuffer(bufferId)->getBufferEnd();
  const char *p = lineStart.getPointer();
  for (unsigned i = 1; i < col && p < bufferEnd && *p != '\n' && *p != '\r';
       ++i)
    ++p;
  loc.ptr = llvm::SMLoc::getFromPointer(p);
  return loc;
}
