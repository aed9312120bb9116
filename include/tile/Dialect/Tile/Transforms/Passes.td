//===- Passes.td - tile-dialect transformations ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileRewriteBlockPointers
    : Pass<"tile-rewrite-block-pointers", "mlir::ModuleOp"> {
  let summary = "Block pointers as blocks of pointers and masks";
  let description = [{
    Replaces each block pointer (tile.make_block_ptr, tile.advance) by its
    parts, the base pointer and the shape, strides and offsets of every
    dimension, carried as separate values through scf.for, scf.while and
    scf.if; tile.block_load and tile.block_store become tile.load and
    tile.store of `base + sum((offset_d + arange(B_d)) * stride_d)` (i64),
    masked by `0 <= offset_d + i < shape_d` on the boundary-checked
    dimensions, with the padding as `other`. Runs on the tile dialect, for
    the interpreter and before convert-tile-to-tilegpu: AxisInfo then sees
    the contiguity of the stride-1 dimension as it sees any pointer
    arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileWidenOffsets : Pass<"tile-widen-offsets", "mlir::ModuleOp"> {
  let summary = "Pointer offsets computed in 64 bits";
  let description = [{
    For launches whose buffers are too large for 32-bit element offsets
    (tile-run asks for it when a buffer holds 2^31 elements or more; Triton
    computes such offsets in int32, where `pid * BLOCK_SIZE` wraps and the
    kernel reads and writes out of bounds): the integer arithmetic that
    computes each tile.addptr offset narrower than 64 bits is computed again
    in i64 (addi, subi, muli, divsi, remsi, maxsi, minsi, andi, ori, xori,
    shli, shrsi, select, constants, and splat, broadcast, expand_dims,
    reshape and trans of such values), from its sources sign-extended:
    arguments, program ids, ranges, loaded values, loop variables and the
    results of other operations, whose values are exact as they are. Uses
    of the recomputed values through arith.extsi to i64 (a mask comparing
    an offset with a 64-bit size) take the 64-bit value too; the 32-bit
    computation stays for its other uses. Unsigned arithmetic (divui,
    remui, shrui) and integers carried by loops are not recomputed.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileLoopPointerBases : Pass<"tile-loop-pointer-bases", "mlir::ModuleOp"> {
  let summary = "Pointer blocks a loop advances uniformly carried as one base";
  let description = [{
    An scf.for iter_arg that is a block of pointers, starting as
    `tile.splat(base)` followed by tile.addptr, tile.broadcast and
    tile.expand_dims ops (`Q + offs_m[None, :] * s + offs_k[:, None]`) and
    yielded as `tile.addptr(arg, step)` where every element of `step` is one
    scalar (a splat or a splat constant), is carried as the scalar pointer:
    the loop yields `tile.addptr(base, scalar step)`, and the body and the
    code after the loop rebuild the block by the same ops from
    `tile.splat(carried base)`.
    The pointers keep their values; the loop carries one register pair
    instead of one per element.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileCombineDotAdd : Pass<"tile-combine-dot-add", "mlir::ModuleOp"> {
  let summary = "x + dot(a, b) as dot(a, b, x)";
  let description = [{
    An arith.addf or arith.addi of a tile.dot whose accumulator is a zero
    constant and whose only user is the addition becomes one tile.dot with
    the other addend as its accumulator, as Triton's combine pass folds
    `acc += tl.dot(a, b)`. The tensor cores accumulate into the addend's
    registers instead of a zeroed second accumulator (the float additions
    happen in another order, as in Triton).
  }];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
