//===- SubwordAtomics.h - 8- and 16-bit atomics as CAS loops ----*- C++ -*-===//
//
// PTX has no atom for most operations on 8- and 16-bit elements. These
// helpers build them from a 32-bit compare-and-swap loop on the aligned word
// that holds the element, leaving its neighbours as they are.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILEGPUTOLLVM_SUBWORDATOMICS_H
#define TILE_CONVERSION_TILEGPUTOLLVM_SUBWORDATOMICS_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>

namespace mlir::tilegpu {

/// How a read-modify-write changes one element inside its word: PTX that
/// computes the new element `%sw_r` from the old one `%sw_e` and the operand
/// `%sw_v` (both 32-bit, sign-extended when `isSigned`, else zero-extended).
struct SubwordUpdate {
  std::string ptx;
  bool isSigned = false;
  bool needsHalfRegisters = false; // declares %sw_h, %sw_hv, %sw_one (b16)
};

/// The update of `kind` on elements of `type` where PTX has no atom for it
/// on `target`: add, max, min, and, or, xor and xchg of 8- and 16-bit
/// integers, xchg of 16-bit floats, bf16 add before sm_90. nullopt for
/// everything else.
std::optional<SubwordUpdate> getSubwordUpdate(tile::RMWKind kind, Type type,
                                              StringRef target);

/// The loop for `update` on the element at `ptr` (a global pointer) with
/// operand `val` (an integer of the element's width), the atom's ordering
/// and scope suffixes (".acq_rel", ".gpu"), under `pred` (null: always).
/// Returns the element's old value as an integer of its width (0 where
/// `pred` is false).
Value emitSubwordRMW(OpBuilder &b, Location loc, StringRef sem, StringRef scope,
                     const SubwordUpdate &update, unsigned bits, Value ptr,
                     Value val, Value pred);

/// Compare-and-swap of the 8-bit element at `ptr`: where it equals `cmp`,
/// `val` replaces it. Returns its old value (0 where `pred` is false).
Value emitSubwordCAS(OpBuilder &b, Location loc, StringRef sem, StringRef scope,
                     unsigned bits, Value ptr, Value cmp, Value val,
                     Value pred);

} // namespace mlir::tilegpu

#endif // TILE_CONVERSION_TILEGPUTOLLVM_SUBWORDATOMICS_H
