//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_CacheModifier : I32EnumAttr<"CacheModifier",
    "cache modifier of a global access (tl.load/tl.store cache_modifier)", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"ca", 1>,
      I32EnumAttrCase<"cg", 2>, I32EnumAttrCase<"cs", 3>,
      I32EnumAttrCase<"wb", 4>, I32EnumAttrCase<"wt", 5>,
      I32EnumAttrCase<"cv", 6>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_EvictionPolicy : I32EnumAttr<"EvictionPolicy",
    "L2 eviction policy of a global access (eviction_policy)", [
      I32EnumAttrCase<"normal", 0>, I32EnumAttrCase<"evict_first", 1>,
      I32EnumAttrCase<"evict_last", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_PaddingOption : I32EnumAttr<"PaddingOption",
    "value of the elements a block-pointer load leaves out of bounds", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"zero", 1>,
      I32EnumAttrCase<"nan", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_RMWKind : I32EnumAttr<"RMWKind", "read-modify-write of an atomic", [
      I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"fadd", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"umax", 3>,
      I32EnumAttrCase<"min", 4>, I32EnumAttrCase<"umin", 5>,
      I32EnumAttrCase<"fmax", 6>, I32EnumAttrCase<"fmin", 7>,
      I32EnumAttrCase<"and_", 8, "and">, I32EnumAttrCase<"or_", 9, "or">,
      I32EnumAttrCase<"xor_", 10, "xor">, I32EnumAttrCase<"xchg", 11>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemSemantic : I32EnumAttr<"MemSemantic",
    "memory ordering of an atomic (sem=)", [
      I32EnumAttrCase<"relaxed", 0>, I32EnumAttrCase<"acquire", 1>,
      I32EnumAttrCase<"release", 2>, I32EnumAttrCase<"acq_rel", 3>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_MemScope : I32EnumAttr<"MemScope", "scope of an atomic (scope=)", [
      I32EnumAttrCase<"gpu", 0>, I32EnumAttrCase<"cta", 1>,
      I32EnumAttrCase<"sys", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "how tl.dot multiplies fp32 inputs (input_precision=)", [
      I32EnumAttrCase<"tf32", 0>, I32EnumAttrCase<"tf32x3", 1>,
      I32EnumAttrCase<"ieee", 2>]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program along an axis of the launch grid";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along an axis of the launch grid";
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The block [start, end) of consecutive i32 values (tl.arange)";
  let description = [{
    The length end - start must be a power of two, and the result a 1-D
    tensor of i32 of that length.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type matches the scalar",
                   "result", "src",
                   "::mlir::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A block with every element equal to a scalar";
  let arguments = (ins AnyTypeOf<[Tile_Float, Tile_Int, Tile_Ptr]>:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Pointer plus an element offset";
  let description = [{
    Advances each pointer by `offset` elements of its pointee type (not
    bytes), as Triton's `ptr + offset`. Pointer and offset have the same
    shape (both scalars or both blocks of one shape).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<DefaultResource>]>,
    TypesMatchWith<"result is the pointee type shaped as the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"mask is i1 shaped as the pointers", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(!::llvm::cast<::mlir::tile::LoadOp>($_op).getMask()) || std::equal_to<>()">,
    TypesMatchWith<"other has the result type", "ptr", "other",
                   "::mlir::tile::getPointeeShapedType($_self)",
                   "(!::llvm::cast<::mlir::tile::LoadOp>($_op).getOther()) || std::equal_to<>()">]> {
  let summary = "Masked load of a block (or scalar) from global memory";
  let description = [{
    Loads the element behind each pointer. Where `mask` is false nothing is
    read and the result is `other` (undefined when `other` is absent). The
    result has the pointee type and the pointers' shape (and layout).

    `tensormap` (with one i32 coordinate per dimension, outermost first)
    says that the block is also the box at `coords` of a TMA tensor map
    made on the host for the same tensor (tile.block_load's), elements
    outside the tensor reading as `other`. The pointers stay the meaning;
    tilegpu-pipeline may copy the block with the Tensor Memory Accelerator
    instead.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other,
                       Optional<Tile_Ptr>:$tensormap, Variadic<I32>:$coords,
                       DefaultValuedAttr<Tile_CacheModifier,
                         "::mlir::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicy,
                         "::mlir::tile::EvictionPolicy::normal">:$evict,
                       UnitAttr:$isVolatile);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` `other` $other^)?
    (`tensormap` $tensormap^ `[` $coords `]` `:` type($tensormap))? attr-dict
    `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$ptr,
                   "::mlir::Value":$mask, "::mlir::Value":$other,
                   "::mlir::tile::CacheModifier":$cache,
                   "::mlir::tile::EvictionPolicy":$evict,
                   "bool":$isVolatile), [{
      build($_builder, $_state, result, ptr, mask, other, ::mlir::Value(),
            ::mlir::ValueRange(), cache, evict, isVolatile);
    }]>
  ];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [AttrSizedOperandSegments,
    MemoryEffects<[MemWrite<DefaultResource>]>,
    TypesMatchWith<"value is the pointee type shaped as the pointers",
                   "ptr", "value", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"mask is i1 shaped as the pointers", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "(!::llvm::cast<::mlir::tile::StoreOp>($_op).getMask()) || std::equal_to<>()">]> {
  let summary = "Masked store of a block (or scalar) to global memory";
  let description = [{
    Stores each element behind its pointer where `mask` holds.
    `tensormap` (with one i32 coordinate per dimension, outermost first)
    says that the block is also the box at `coords` of a TMA tensor map
    made on the host for the same tensor (tile.block_store's), elements
    outside the tensor not stored. The pointers stay the meaning;
    tilegpu-tma-stores may store the block with the Tensor Memory
    Accelerator instead.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Ptr>:$tensormap, Variadic<I32>:$coords,
                       DefaultValuedAttr<Tile_CacheModifier,
                         "::mlir::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicy,
                         "::mlir::tile::EvictionPolicy::normal">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    (`tensormap` $tensormap^ `[` $coords `]` `:` type($tensormap))? attr-dict
    `:` type($ptr)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   "::mlir::Value":$mask,
                   "::mlir::tile::CacheModifier":$cache,
                   "::mlir::tile::EvictionPolicy":$evict), [{
      build($_builder, $_state, ptr, value, mask, ::mlir::Value(),
            ::mlir::ValueRange(), cache, evict);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

def Tile_MakeBlockPtrOp : Tile_Op<"make_block_ptr", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "A block pointer into a strided tensor (tl.make_block_ptr)";
  let description = [{
    The block of the result's type at `offsets` (i32, elements) of the
    tensor at `base` with `shape` and `strides` (i64, elements), one of each
    per dimension of the block. `order` lists the dimensions from the
    fastest-varying in memory to the slowest, as Triton's `order`.
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]`
    attr-dict `:` type($base) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_AdvanceOp : Tile_Op<"advance", [Pure,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Moves a block pointer by element offsets (tl.advance)";
  let arguments = (ins Tile_BlockPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Tile_BlockLoadOp : Tile_Op<"block_load", [
    MemoryEffects<[MemRead<DefaultResource>]>,
    TypesMatchWith<"result has the block's type", "ptr", "result",
                   "::mlir::cast<::mlir::tile::BlockPointerType>($_self).getBlockType()">]> {
  let summary = "Loads the block a block pointer describes";
  let description = [{
    The result has the block's type. Along the dimensions listed in
    `boundaryCheck`, elements outside [0, shape) are not read and are
    `padding` (zero or NaN; undefined with none); along the others the
    block must lie inside the tensor. `tensormap`, where given, is the TMA
    tensor map the host made for the tensor, with the block's shape as its
    box (a kernel argument of a host tensor descriptor); it goes on to the
    tile.load that tile-rewrite-block-pointers makes.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, DenseI32ArrayAttr:$boundaryCheck,
                       DefaultValuedAttr<Tile_PaddingOption,
                         "::mlir::tile::PaddingOption::none">:$padding,
                       DefaultValuedAttr<Tile_CacheModifier,
                         "::mlir::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicy,
                         "::mlir::tile::EvictionPolicy::normal">:$evict,
                       UnitAttr:$isVolatile, Optional<Tile_Ptr>:$tensormap);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $ptr (`tensormap` $tensormap^ `:` type($tensormap))? attr-dict `:`
    type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_BlockStoreOp : Tile_Op<"block_store", [
    MemoryEffects<[MemWrite<DefaultResource>]>,
    TypesMatchWith<"value has the block's type", "ptr", "value",
                   "::mlir::cast<::mlir::tile::BlockPointerType>($_self).getBlockType()">]> {
  let summary = "Stores a block through a block pointer";
  let description = [{
    `value` has the block's type. Along the dimensions listed in
    `boundaryCheck`, elements outside [0, shape) are not written.
    `tensormap`, where given, is the TMA tensor map the host made for the
    tensor, with the block's shape as its box (a kernel argument of a host
    tensor descriptor); it goes on to the tile.store that
    tile-rewrite-block-pointers makes.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_Tensor:$value,
                       DenseI32ArrayAttr:$boundaryCheck,
                       DefaultValuedAttr<Tile_CacheModifier,
                         "::mlir::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicy,
                         "::mlir::tile::EvictionPolicy::normal">:$evict,
                       Optional<Tile_Ptr>:$tensormap);
  let assemblyFormat = [{
    $ptr `,` $value (`tensormap` $tensormap^ `:` type($tensormap))? attr-dict
    `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Stretch the size-1 dimensions of a block";
  let description = [{
    Operand and result have the same rank; each operand dimension is 1 or
    equal to the result's. Scalars become blocks through tile.splat.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Insert a dimension of size 1 at `axis` (x[:, None])";
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "The same elements in row-major order, in another shape";
  let description = [{
    With `allow_reorder` (tl.view, or reshape(can_reorder=True)) the
    compiler may permute the elements.
  }];
  let arguments = (ins Tile_Tensor:$src, UnitAttr:$allow_reorder);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a block (tl.trans, tl.permute, .T)";
  let description = [{
    Result dimension i is operand dimension order[i].
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_CatOp : Tile_Op<"cat", [Pure, SameTypeOperands, SameOperandsAndResultElementType]> {
  let summary = "Concatenate two blocks along dimension 0 (tl.cat)";
  let description = [{
    Triton's tl.cat may reorder elements (can_reorder=True is required);
    Tile keeps the order: lhs rows first, then rhs rows.
  }];
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_JoinOp : Tile_Op<"join", [Pure, SameTypeOperands, SameOperandsAndResultElementType]> {
  let summary = "Stack two blocks along a new minor dimension of size 2";
  let arguments = (ins Tile_Tensor:$lhs, Tile_Tensor:$rhs);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_SplitOp : Tile_Op<"split", [Pure, SameOperandsAndResultElementType,
    AllTypesMatch<["outLHS", "outRHS"]>]> {
  let summary = "Split a block whose minor dimension is 2 into two blocks";
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$outLHS, Tile_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

def Tile_GatherOp : Tile_Op<"gather", [Pure]> {
  let summary = "Gather elements of a block along one axis (tl.gather)";
  let description = [{
    result[..., i, ...] = src[..., index[..., i, ...], ...], the index
    replacing the coordinate along `axis`: the result has index's shape and
    src's element type; src and index have one rank and the same size on
    every other axis. An index outside [0, src.shape[axis]) is undefined, as
    in Triton (the interpreter reports it, the GPU wraps it).
  }];
  let arguments = (ins Tile_Tensor:$src, Tile_IntTensor:$index, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` type($src) `,` type($index) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_HistogramOp : Tile_Op<"histogram", [Pure]> {
  let summary = "Count the values of a 1-D integer block (tl.histogram)";
  let description = [{
    result[b] is the number of elements of src equal to b (where `mask` is
    true), for b in [0, num_bins), num_bins being the result's size; values
    outside the bins are not counted.
  }];
  let arguments = (ins Tile_IntTensor:$src, Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure,
    TypesMatchWith<"accumulator has the result type", "d", "c", "$_self">]> {
  let summary = "d = a @ b + c on 2-D blocks (tl.dot)";
  let description = [{
    a is M x K, b is K x N, c and d are M x N. fp16 and bf16 inputs
    accumulate in fp32 (or fp16 for out_dtype=fp16); i8 in i32; fp32 inputs
    are multiplied as `input_precision` says.
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c,
                       DefaultValuedAttr<Tile_InputPrecision,
                         "::mlir::tile::InputPrecision::tf32">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs Tile_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, SameOperandsShape,
    SingleBlockImplicitTerminator<"ReduceReturnOp">,
    RecursiveMemoryEffects]> {
  let summary = "Reduce blocks along an axis with a combine region";
  let description = [{
    Reduces N blocks of one shape along `axis` at once (argmax reduces a
    value and an index). The region takes 2N scalars (accumulated values,
    then new values) and yields N. Reducing a 1-D block gives scalars.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ReduceReturnOp : Tile_Op<"reduce_return", [Pure, ReturnLike,
    Terminator, HasParent<"ReduceOp">]> {
  let summary = "Yield the combined values of a tile.reduce region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
  let builders = [OpBuilder<(ins), [{ }]>];
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultShape,
    SingleBlockImplicitTerminator<"ScanReturnOp">,
    RecursiveMemoryEffects]> {
  let summary = "Inclusive scan along an axis with a combine region";
  let description = [{
    tl.cumsum, tl.cumprod and tl.associative_scan. The region takes 2N
    scalars (running values, then new values) and yields N; `reverse` scans
    from the end.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanReturnOp : Tile_Op<"scan_return", [Pure, ReturnLike,
    Terminator, HasParent<"ScanOp">]> {
  let summary = "Yield the combined values of a tile.scan region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
  let builders = [OpBuilder<(ins), [{ }]>];
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    TypesMatchWith<"value is the pointee type shaped as the pointers",
                   "ptr", "val", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"result is the pointee type shaped as the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"mask is i1 shaped as the pointers", "ptr", "mask",
                   "::mlir::tile::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write; yields the old values";
  let arguments = (ins Tile_RMWKind:$kind, Tile_PtrLike:$ptr, Tile_Value:$val,
                       Optional<Tile_BoolLike>:$mask,
                       DefaultValuedAttr<Tile_MemSemantic,
                         "::mlir::tile::MemSemantic::acq_rel">:$sem,
                       DefaultValuedAttr<Tile_MemScope,
                         "::mlir::tile::MemScope::gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind `,` $ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    TypesMatchWith<"cmp is the pointee type shaped as the pointers",
                   "ptr", "cmp", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"value is the pointee type shaped as the pointers",
                   "ptr", "val", "::mlir::tile::getPointeeShapedType($_self)">,
    TypesMatchWith<"result is the pointee type shaped as the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeShapedType($_self)">]> {
  let summary = "Atomic compare-and-swap; yields the old values";
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$val,
                       DefaultValuedAttr<Tile_MemSemantic,
                         "::mlir::tile::MemSemantic::acq_rel">:$sem,
                       DefaultValuedAttr<Tile_MemScope,
                         "::mlir::tile::MemScope::gpu">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr)";
}

//===----------------------------------------------------------------------===//
// Elementwise operations arith and math do not have
//===----------------------------------------------------------------------===//

def Tile_UMulHiOp : Tile_Op<"umulhi", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "High half of the unsigned 2N-bit product (tl.umulhi)";
  let arguments = (ins Tile_IntLike:$x, Tile_IntLike:$y);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def Tile_FloatLike : AnyTypeOf<[Tile_Float, RankedTensorOf<[Tile_Float]>]>;

def Tile_PreciseSqrtOp : Tile_Op<"precise_sqrt", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "Square root rounded to nearest (tl.sqrt_rn)";
  let arguments = (ins Tile_FloatLike:$x);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Tile_PreciseDivFOp : Tile_Op<"precise_divf", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "Division rounded to nearest (tl.fdiv with ieee_rounding)";
  let arguments = (ins Tile_FloatLike:$x, Tile_FloatLike:$y);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

def Tile_ClampFOp : Tile_Op<"clampf", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "min(max(x, lo), hi) on floats (tl.clamp)";
  let description = [{
    With `propagateNan`, a NaN in x gives NaN; without, the result for a
    NaN x is unspecified (as Triton's PropagateNan.NONE).
  }];
  let arguments = (ins Tile_FloatLike:$x, Tile_FloatLike:$min,
                       Tile_FloatLike:$max, UnitAttr:$propagateNan);
  let results = (outs Tile_FloatLike:$result);
  let assemblyFormat = "$x `,` $min `,` $max attr-dict `:` type($x)";
}

def Tile_ExternElementwiseOp : Tile_Op<"extern_elementwise", [
    Elementwise, SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Elementwise call of an external function (libdevice.X)";
  let description = [{
    Calls the scalar function `symbol` (a libdevice symbol such as
    `__nv_asinf`) on each element of its operands, which all have the
    result's shape; `pure` says the function reads and writes no memory, so
    calls may be removed, moved or merged. As Triton's
    tt.extern_elementwise. On the GPU the call is linked against CUDA's
    libdevice; the interpreter runs the C library's function.
  }];
  let arguments = (ins Variadic<Tile_Value>:$srcs, StrAttr:$symbol,
                       UnitAttr:$pure);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)
  }];
  let hasVerifier = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Pointer from a 64-bit integer address";
  let arguments = (ins AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "64-bit integer address of a pointer";
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs AnyTypeOf<[I64, RankedTensorOf<[I64]>]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def Tile_PtrCastOp : Tile_Op<"ptr_cast", [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Reinterpret pointers as pointers to another element type";
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Print values from every program (tl.device_print)";
  let description = [{
    Prints one line per element of each argument, in Triton's format:
    `pid (x, y, z) idx (i, j)PREFIX(operand n) VALUE`, where `prefix` is
    printed as it is (the front end shapes it as Triton does: " x: "),
    `(operand n) ` appears only with several arguments, and the value is
    printed with the printf conversion getValueFormat gives. Without
    arguments the line is `pid (x, y, z)PREFIX`. `isSigned` says for each
    integer argument whether it prints signed.
  }];
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex,
                       Variadic<Tile_Value>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = [{
    $prefix attr-dict (`:` $args^ `:` type($args))?
  }];
  let extraClassDeclaration = [{
    /// The printf conversion of one element of `elementType` (Triton's):
    /// "%f" for floats (printed as doubles), "%i"/"%lli" signed and
    /// "%u"/"%llu" unsigned integers (narrower ones widened to 32 bits),
    /// "%p" for pointers; with `hex`, "0x%0Nx" / "0x%016llx" where N is
    /// the type's bits / 4 (floats print their bits).
    static std::string getValueFormat(Type elementType, bool hex,
                                      bool isSigned);
    /// The width of an index along an axis of `dim` elements in the
    /// line's `idx (...)`: ceil(log10(dim)), as Triton pads it.
    static unsigned getIndexWidth(int64_t dim);
    /// `(operand n) ` when the op prints several arguments, else "".
    std::string getOperandTag(unsigned operand);
    /// Whether argument `operand` prints signed.
    bool isSignedArg(unsigned operand);
  }];
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Stop the kernel if any element of cond is false (tl.device_assert)";
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_InlineAsmElementwiseOp : Tile_Op<"inline_asm_elementwise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Inline assembly applied element by element (tl.inline_asm_elementwise)";
  let description = [{
    Runs `asmString` (PTX, with LLVM inline-asm `constraints`: outputs
    first) on `packedElement` elements of every argument at a time and
    gives one result per output dtype. Arguments and results are all
    scalars or all blocks of one shape (the front end broadcasts them).
    Elements narrower than 32 bits are packed into 32-bit registers. With
    `pure` unset the asm may read and write memory and is never removed or
    reordered with other memory effects. Triton's ElementwiseInlineAsmOp.
  }];
  let arguments = (ins StrAttr:$asmString, StrAttr:$constraints,
                       BoolAttr:$pure,
                       ConfinedAttr<I32Attr, [IntPositive]>:$packedElement,
                       Variadic<Tile_Value>:$args);
  let results = (outs Variadic<Tile_Value>:$results);
  let assemblyFormat = [{
    $asmString attr-dict ($args^ `:` type($args))? `->` type($results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// How many elements of `elementType` share one asm register: those
    /// narrower than 32 bits are packed into 32 bits, at most `pack`.
    static unsigned getElementsPerRegister(Type elementType, unsigned pack);
  }];
}

def Tile_DebugBarrierOp : Tile_Op<"debug_barrier", [MemoryEffects<[MemWrite<DefaultResource>, MemRead<DefaultResource>]>]> {
  let summary = "Synchronize the threads of a program (tl.debug_barrier)";
  let assemblyFormat = "attr-dict";
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
