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
    the contiguous one, cut into 128-, 64- or 32-byte swizzled blocks.
    `!tilegpu.memdesc<4x16xf32>` (stages of a 1-D block, 2- or 4-byte
    elements) is plain: element i of stage s at byte (s * 16 + i) * 4; it
    holds a loop's small side loads (the attention backward's rows of M and
    Delta), read back with local_load. The buffer is a value so that the shared-memory allocator can give it an
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

def TileGPU_BarriersType : TypeDef<TileGPU_Dialect, "Barriers"> {
  let mnemonic = "mbarriers";
  let summary = "Shared-memory mbarriers, one per stage of a TMA-filled buffer";
  let description = [{
    `!tilegpu.mbarriers<3>` is 3 mbarrier objects (8 bytes each) in shared
    memory: stage s of the buffers a loop fills with TMA copies completes
    on barrier s. A value, like a memdesc, so that the shared-memory
    allocator places it by its liveness.
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUTYPES_TD
