//===- Expressions.cpp - The expression walker ----------------------------===//
//
// The expression walker: constants, attributes, subscripts, sequences.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

#include <functional>

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitExpr(const ast::Expr &expr) {
  switch (expr.getKind()) {
  case ast::Expr::Kind::Name:
    return lookupName(cast<ast::NameExpr>(expr));
  case ast::Expr::Kind::Constant:
    return emitConstant(cast<ast::ConstantExpr>(expr));
  case ast::Expr::Kind::Attribute:
    return emitAttribute(cast<ast::AttributeExpr>(expr));
  case ast::Expr::Kind::Call:
    return emitCall(cast<ast::CallExpr>(expr));
  case ast::Expr::Kind::BinOp: {
    const auto &binary = cast<ast::BinOpExpr>(expr);
    Result lhs = emitExpr(binary.getLHS());
    if (!lhs)
      return std::nullopt;
    Result rhs = emitExpr(binary.getRHS());
    if (!rhs)
      return std::nullopt;
    return emitBinary(binary.getOp(), *lhs, *rhs, binary.getLoc());
  }
  case ast::Expr::Kind::UnaryOp:
    return emitUnary(cast<ast::UnaryOpExpr>(expr));
  case ast::Expr::Kind::BoolOp:
    return emitBoolOp(cast<ast::BoolOpExpr>(expr));
  case ast::Expr::Kind::Compare:
    return emitCompare(cast<ast::CompareExpr>(expr));
  case ast::Expr::Kind::IfExp: {
    const auto &ifExp = cast<ast::IfExpExpr>(expr);
    Result test = emitExpr(ifExp.getTest());
    if (!test)
      return std::nullopt;
    if (!test->isRuntime())
      return emitExpr(isTruthy(*test) ? ifExp.getBody() : ifExp.getOrElse());
    std::optional<mlir::Value> condition =
        toCondition(*test, ifExp.getTest(), "a conditional expression");
    if (!condition)
      return std::nullopt;
    return emitRuntimeIfExp(ifExp, *condition);
  }
  case ast::Expr::Kind::Subscript:
    return emitSubscript(cast<ast::SubscriptExpr>(expr));
  case ast::Expr::Kind::Slice:
    return error(expr.getLoc(), "a slice can only appear inside '[...]'");
  case ast::Expr::Kind::Tuple:
    return emitSequence(cast<ast::TupleExpr>(expr).getElements());
  case ast::Expr::Kind::List:
    return emitSequence(cast<ast::ListExpr>(expr).getElements());
  case ast::Expr::Kind::Dict:
    return error(expr.getLoc(), "dicts are not supported yet");
  case ast::Expr::Kind::ListComp:
    return emitListComp(cast<ast::ListCompExpr>(expr));
  }
  return error(expr.getLoc(), "this expression is not supported yet");
}

KernelEmitter::Result
KernelEmitter::emitConstant(const ast::ConstantExpr &constant) {
  switch (constant.getValueKind()) {
  case ast::ConstantExpr::ValueKind::Int:
    if (constant.isOversizedInt())
      return error(constant.getLoc(), constant.getOversizedIntMessage());
    return PyValue::integer(constant.getInt());
  case ast::ConstantExpr::ValueKind::Float:
    return PyValue::floating(constant.getFloat());
  case ast::ConstantExpr::ValueKind::Bool:
    return PyValue::boolean(constant.getBool());
  case ast::ConstantExpr::ValueKind::None:
    return PyValue::none();
  case ast::ConstantExpr::ValueKind::String:
    if (constant.isBytes())
      return error(constant.getLoc(), "bytes literals are not supported yet");
    return PyValue::string(constant.getString().str());
  case ast::ConstantExpr::ValueKind::Ellipsis:
    return error(constant.getLoc(), "'...' is not supported yet");
  }
  return std::nullopt;
}

/// triton.language's dtypes by name, with their MLIR type and signedness.
std::optional<std::pair<mlir::Type, bool>>
lookupDType(mlir::MLIRContext &context, llvm::StringRef name) {
  mlir::Builder b(&context);
  using Entry = std::pair<mlir::Type, bool>;
  return llvm::StringSwitch<std::optional<Entry>>(name)
      .Case("int1", Entry{b.getI1Type(), false})
      .Case("int8", Entry{b.getIntegerType(8), false})
      .Case("int16", Entry{b.getIntegerType(16), false})
      .Case("int32", Entry{b.getI32Type(), false})
      .Case("int64", Entry{b.getI64Type(), false})
      .Case("uint8", Entry{b.getIntegerType(8), true})
      .Case("uint16", Entry{b.getIntegerType(16), true})
      .Case("uint32", Entry{b.getI32Type(), true})
      .Case("uint64", Entry{b.getI64Type(), true})
      .Case("float16", Entry{b.getF16Type(), false})
      .Case("bfloat16", Entry{b.getBF16Type(), false})
      .Case("float32", Entry{b.getF32Type(), false})
      .Case("float64", Entry{b.getF64Type(), false})
      .Case("float8e4nv", Entry{b.getType<mlir::Float8E4M3FNType>(), false})
      .Case("float8e5", Entry{b.getType<mlir::Float8E5M2Type>(), false})
      // Triton's bias-15 e4m3 has no MLIR type; Triton carries it as
      // f8E4M3B11FNUZ, and so does Tile (its conversions are Triton's).
      .Case("float8e4b15",
            Entry{b.getType<mlir::Float8E4M3B11FNUZType>(), false})
      .Default(std::nullopt);
}

const char *const kDTypeNames =
    "tl.int1, tl.int8, tl.int16, tl.int32, tl.int64, tl.uint8, tl.uint16, "
    "tl.uint32, tl.uint64, tl.float16, tl.bfloat16, tl.float32, tl.float64, "
    "tl.float8e4nv, tl.float8e5, tl.float8e4b15";

KernelEmitter::Result
KernelEmitter::emitNamespaceAttribute(const PyValue &base, llvm::StringRef attr,
                                      const ast::Location &loc) {
  std::string qualified = base.text + "." + attr.str();
  llvm::StringRef module = base.text;
  if (module == "triton.language" || module == "triton.language.core") {
    if (auto dtype = lookupDType(context, attr))
      return PyValue::dtype(dtype->first, dtype->second);
    // Triton's spellings of the same dtypes.
    if (attr == "bool")
      return PyValue::dtype(builder.getI1Type());
    // AMD's fp8 formats: Triton's NVIDIA backend rejects them.
    if (attr == "float8e4b8" || attr == "float8e5b16")
      return error(loc, "tl." + attr.str() +
                            " is not supported on NVIDIA GPUs (Triton's "
                            "NVIDIA backend supports the fp8 types "
                            "tl.float8e4nv, tl.float8e5 and tl.float8e4b15)");
  }
  return PyValue::named(PyValue::Kind::Namespace, qualified);
}

KernelEmitter::Result
KernelEmitter::emitAttribute(const ast::AttributeExpr &attribute) {
  Result base = emitExpr(attribute.getValue());
  if (!base)
    return std::nullopt;
  llvm::StringRef attr = attribute.getAttr();
  if (base->kind == PyValue::Kind::Namespace)
    return emitNamespaceAttribute(*base, attr, attribute.getLoc());
  if (base->isRuntime()) {
    mlir::Value value = base->value;
    if (attr == "shape") {
      std::vector<PyValue> dims;
      for (int64_t dim : getShape(value))
        dims.push_back(PyValue::integer(dim));
      return PyValue::tuple(std::move(dims));
    }
    if (attr == "dtype")
      return PyValue::dtype(getElementType(value), base->isUnsigned);
    // A scalar's type is its dtype (a pointer's: the pointer type, whose
    // .element_ty is the pointee), as Triton's tensor.type.
    if (attr == "type") {
      if (isBlock(value))
        return error(attribute.getAttrLoc(),
                     "'.type' of a block is not supported yet; use .dtype");
      return PyValue::dtype(value.getType(), base->isUnsigned);
    }
    if (attr == "numel") {
      int64_t count = 1;
      for (int64_t dim : getShape(value))
        count *= dim;
      return PyValue::integer(count);
    }
    if (attr == "T") {
      if (getShape(value).size() != 2)
        return error(attribute.getAttrLoc(),
                     "'.T' needs a 2-D block, got " + describe(*base));
      mlir::Location loc = getLoc(attribute.getAttrLoc());
      llvm::SmallVector<int64_t> shape = {getShape(value)[1],
                                          getShape(value)[0]};
      auto type = mlir::RankedTensorType::get(shape, getElementType(value));
      return PyValue::runtime(
          mlir::tile::TransOp::create(builder, loc, type, value,
                                      builder.getDenseI32ArrayAttr({1, 0})),
          base->isUnsigned);
    }
    if (isBlockMethod(attr))
      return PyValue::boundMethod(*base, ("triton.language." + attr).str());
    return error(attribute.getAttrLoc(),
                 "a block has no attribute '" + attr +
                     "'; blocks have .shape, .dtype, .T, .to(), .reshape(), "
                     ".trans(), .sum() and the other tl functions as "
                     "methods");
  }
  if (base->kind == PyValue::Kind::TensorDescriptor)
    return emitDescriptorAttribute(*base, attribute);
  if (base->kind == PyValue::Kind::DType) {
    mlir::Type type = base->type;
    if (attr == "primitive_bitwidth" && type.isIntOrFloat())
      return PyValue::integer(type.getIntOrFloatBitWidth());
    if (attr == "element_ty")
      if (auto pointer = dyn_cast<mlir::tile::PointerType>(type))
        return PyValue::dtype(pointer.getPointeeType(), base->isUnsigned);
    // Triton's is the block type, which casts as its element type.
    if (attr == "element_ty")
      if (auto block = dyn_cast<mlir::tile::BlockPointerType>(type))
        return PyValue::dtype(block.getBlockType().getElementType(),
                              base->isUnsigned);
    if (attr.starts_with("is_"))
      return PyValue::boundMethod(*base, ("dtype." + attr).str());
  }
  if (base->kind == PyValue::Kind::Int && attr == "value")
    return base; // tl.constexpr's .value
  // A compile-time number's dtype is the one it takes as a scalar
  // (Triton's to_tensor: i32 or i64, fp32 or fp64, i1).
  if (base->isNumber() && attr == "dtype")
    return PyValue::dtype(getDefaultType(*base));
  return error(attribute.getAttrLoc(), "attribute '" + attr + "' of " +
                                           describe(*base) +
                                           " is not supported");
}

KernelEmitter::Result
KernelEmitter::emitSequence(const ast::ExprList &elements) {
  std::vector<PyValue> values;
  for (const ast::ExprPtr &element : elements) {
    Result value = emitExpr(*element);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return PyValue::tuple(std::move(values));
}

KernelEmitter::Result
KernelEmitter::emitSubscript(const ast::SubscriptExpr &subscript) {
  Result base = emitExpr(subscript.getValue());
  if (!base)
    return std::nullopt;
  const ast::Expr &indexExpr = subscript.getIndex();
  if (base->kind == PyValue::Kind::Tuple) {
    Result index = emitExpr(indexExpr);
    if (!index)
      return std::nullopt;
    if (index->kind != PyValue::Kind::Int)
      return error(indexExpr.getLoc(),
                   "a tuple index must be a compile-time integer, got " +
                       describe(*index));
    int64_t size = base->elements.size();
    int64_t position =
        index->intValue < 0 ? index->intValue + size : index->intValue;
    if (position < 0 || position >= size)
      return error(indexExpr.getLoc(),
                   "tuple index " + llvm::Twine(index->intValue) +
                       " out of range for a tuple of " + llvm::Twine(size));
    return base->elements[position];
  }
  if (!base->isRuntime() || !isBlock(base->value))
    return error(subscript.getLoc(), describe(*base) +
                                         " cannot be indexed; blocks take "
                                         "'x[:, None]' and 'x[None, :]'");
  // Triton's block indexing: None inserts a dimension of size 1, ':' keeps
  // one.
  llvm::SmallVector<const ast::Expr *> indices;
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&indexExpr))
    for (const ast::ExprPtr &element : tuple->getElements())
      indices.push_back(element.get());
  else
    indices.push_back(&indexExpr);
  mlir::Value value = base->value;
  mlir::Location loc = getLoc(subscript.getLoc());
  size_t rank = getShape(value).size(), kept = 0;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (auto *slice = dyn_cast<ast::SliceExpr>(index)) {
      if (slice->getLower() || slice->getUpper() || slice->getStep())
        return error(index->getLoc(), "blocks cannot be sliced with bounds; "
                                      "only ':' and None are allowed");
      if (++kept > rank)
        return error(index->getLoc(), "too many ':' for a block of shape " +
                                          formatShape(getShape(base->value)));
      continue;
    }
    auto *constant = dyn_cast<ast::ConstantExpr>(index);
    if (!constant || !constant->isNone())
      return error(index->getLoc(),
                   "blocks are indexed only with None and ':' (as in "
                   "'x[:, None]'); integer indices and gathers are not "
                   "supported");
    llvm::SmallVector<int64_t> shape(getShape(value));
    shape.insert(shape.begin() + dim, 1);
    auto type = mlir::RankedTensorType::get(shape, getElementType(value));
    value = mlir::tile::ExpandDimsOp::create(builder, loc, type, value,
                                             builder.getI32IntegerAttr(dim));
  }
  return PyValue::runtime(value, base->isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitRuntimeIfExp(const ast::IfExpExpr &ifExp,
                                mlir::Value condition) {
  // Both arms are emitted in the branches of an scf.if yielding the value,
  // as Triton does.
  mlir::Location loc = getLoc(ifExp.getLoc());
  auto ifOp = mlir::scf::IfOp::create(builder, loc, mlir::TypeRange(),
                                      condition, /*withElseRegion=*/true);
  mlir::Value values[2];
  bool isUnsigned = false;
  ++regionDepth;
  llvm::scope_exit done([&] { --regionDepth; });
  Result armValues[2];
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    builder.setInsertionPoint(block->getTerminator());
    const ast::Expr &arm = branch == 0 ? ifExp.getBody() : ifExp.getOrElse();
    armValues[branch] = emitExpr(arm);
    if (!armValues[branch])
      return std::nullopt;
  }
  // `tl.store(...) if c else tl.store(...)`: both arms give None (run for
  // their effects, as Triton's test_if "if_exp_dynamic_void").
  if (armValues[0]->kind == PyValue::Kind::None &&
      armValues[1]->kind == PyValue::Kind::None) {
    builder.setInsertionPointAfter(ifOp);
    return PyValue::none();
  }
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    builder.setInsertionPoint(block->getTerminator());
    const ast::Expr &arm = branch == 0 ? ifExp.getBody() : ifExp.getOrElse();
    std::optional<PyValue> runtimeValue =
        toRuntime(*armValues[branch], arm.getLoc());
    if (!runtimeValue)
      return std::nullopt;
    values[branch] = runtimeValue->value;
    isUnsigned |= runtimeValue->isUnsigned;
  }
  if (values[0].getType() != values[1].getType())
    return error(ifExp.getLoc(),
                 "the two arms of a conditional expression have types " +
                     describeType(values[0].getType()) + " and " +
                     describeType(values[1].getType()) +
                     "; they must have the same type");
  builder.setInsertionPoint(ifOp);
  auto newIf = mlir::scf::IfOp::create(builder, loc, values[0].getType(),
                                       condition, false, false);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? newIf.thenBlock() : newIf.elseBlock();
    mlir::Operation *terminator = block->getTerminator();
    builder.setInsertionPoint(terminator);
    mlir::scf::YieldOp::create(builder, loc, values[branch]);
    terminator->erase();
  }
  ifOp.erase();
  builder.setInsertionPointAfter(newIf);
  return PyValue::runtime(newIf.getResult(0), isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitListComp(const ast::ListCompExpr &comp) {
  // Unrolled at compile time over tuples (as Triton's tl.tuple([v + 1 for
  // v in values])); the result is a tuple, and the comprehension's
  // variables stay inside it, as in Python 3.
  llvm::StringMap<PyValue> saved = locals;
  std::vector<PyValue> elements;
  std::function<bool(size_t)> generate = [&](size_t index) -> bool {
    if (index == comp.getGenerators().size()) {
      Result element = emitExpr(comp.getElement());
      if (!element)
        return false;
      elements.push_back(*element);
      return true;
    }
    const ast::Comprehension &clause = comp.getGenerators()[index];
    Result iterable = emitExpr(*clause.iter);
    if (!iterable)
      return false;
    if (iterable->kind != PyValue::Kind::Tuple) {
      error(clause.iter->getLoc(),
            "a comprehension in a kernel iterates a tuple or a list, got " +
                describe(*iterable));
      return false;
    }
    for (const PyValue &item : iterable->elements) {
      if (mlir::failed(bindTarget(*clause.target, item)))
        return false;
      bool keep = true;
      for (const ast::ExprPtr &condition : clause.conditions) {
        Result test = emitExpr(*condition);
        if (!test)
          return false;
        if (test->isRuntime()) {
          error(condition->getLoc(), "a comprehension's condition must be "
                                     "known at compile time, got " +
                                         describe(*test));
          return false;
        }
        keep = keep && isTruthy(*test);
      }
      if (keep && !generate(index + 1))
        return false;
    }
    return true;
  };
  bool ok = generate(0);
  locals = std::move(saved);
  if (!ok)
    return std::nullopt;
  return PyValue::tuple(std::move(elements));
}

} // namespace tile::frontend::mlirgen
