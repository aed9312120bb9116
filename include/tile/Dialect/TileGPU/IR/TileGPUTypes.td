//===- TileGPUTypes.td - tilegpu types ---------------------*- tablegen -*-===//
//
// Values that are not held in registers: a buffer of shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD

include "tile/Dialect/TileGPU/IR/TileGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "A buffer of shared memory holding stages of a wgmma operand";
  let description = [{
    `!tilegpu.memdesc<3x128x64xf16>` is a shared-memory buffer of three
    stages, each a 128 x 64 f16 tile stored as wgmma reads an operand
    (lib/Conversion/TileGPUToLLVM/WgmmaOperands.h): the last dimension is
    the contiguous one, cut into 128-, 64- or 32-byte swizzled blocks. The
    buffer is a value so that the shared-memory allocator can give it an
    offset by its liveness (an explicit buffer, tile/Analysis/Allocation.h).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one stage, and of the whole buffer.
    int64_t getStageBytes() const;
    int64_t getTotalBytes() const;
  }];
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
