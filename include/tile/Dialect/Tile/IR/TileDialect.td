//===- TileDialect.td - the block-level tile dialect -------*- tablegen -*-===//
//
// The tile dialect is Tile's block-level IR: each value is a scalar or a
// whole block (a ranked tensor) owned by one program of the launch grid.
// Elementwise arithmetic and comparisons on blocks use the arith dialect on
// tensors, as Triton's TTIR does; the tile dialect adds pointers, the grid,
// ranges, broadcasting and memory access.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level tile programs, in the manner of Triton's TTIR";
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_Type<"Pointer", "ptr"> {
  let summary = "Pointer to an element in global memory";
  let description = [{
    `!tile.ptr<f32>` points at one f32 in global memory. Blocks of pointers
    are ranked tensors of this type.
  }];
  let parameters = (ins "Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
}

def Tile_BlockPointerType : Tile_Type<"BlockPointer", "block_ptr"> {
  let summary = "A block pointer: a tile of a strided tensor in global memory";
  let description = [{
    `!tile.block_ptr<tensor<64x32xf16>>` describes a 64x32 block of f16
    elements of a larger tensor in global memory: the tensor's base,
    shape and strides, the block's offsets in it (tl.make_block_ptr). Loads
    and stores through it give and take a tensor of the block's type.
  }];
  let parameters = (ins "RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

// Element types a pointer may point at, and a block may hold.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
// Triton's fp8 types: fp8e4nv, fp8e5 and fp8e4b15 (carried as
// f8E4M3B11FNUZ, as Triton does); blocks and pointers hold them.
def Tile_Fp8 : AnyTypeOf<[F8E4M3FN, F8E5M2, F8E4M3B11FNUZ]>;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Tile_Ptr : Type<CPred<"::mlir::isa<::mlir::tile::PointerType>($_self)">,
                    "tile pointer", "::mlir::tile::PointerType">;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_BlockPtr
    : Type<CPred<"::mlir::isa<::mlir::tile::BlockPointerType>($_self)">,
           "tile block pointer", "::mlir::tile::BlockPointerType">;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Tile_Value
    : AnyTypeOf<[Tile_Float, Tile_Fp8, Tile_Int, Tile_Ptr,
                 RankedTensorOf<[Tile_Float, Tile_Fp8, Tile_Int, Tile_Ptr]>]>;
def Tile_Tensor : RankedTensorOf<[Tile_Float, Tile_Fp8, Tile_Int, Tile_Ptr]>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
