//===- InlineAsm.h - tile.inline_asm_elementwise's registers ---*- C++ -*-===//
//
// The check of tile.inline_asm_elementwise's constraints against its
// arguments and results, shared by the op's verifier and the front end
// (which reports it at the tl.inline_asm_elementwise call).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_INLINEASM_H
#define TILE_DIALECT_TILE_IR_INLINEASM_H

#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile {

/// Why `constraints` do not fit arguments and results of these types with
/// `pack` elements per call (the registers they must name: outputs first,
/// per result and argument pack elements, those narrower than 32 bits
/// packed in 32-bit registers), or "" when they do.
std::string checkInlineAsmConstraints(TypeRange argTypes, TypeRange resultTypes,
                                      llvm::StringRef constraints,
                                      unsigned pack);

} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_INLINEASM_H
