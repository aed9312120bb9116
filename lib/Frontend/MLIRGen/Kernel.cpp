//===- Kernel.cpp - The kernel's signature --------------------------------===//
//
// The kernel's signature: decorators, specialization, arguments.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// The kernel's signature
//===----------------------------------------------------------------------===//

mlir::LogicalResult
KernelEmitter::checkDecorators(const ast::FunctionDef &kernel) {
  if (mlir::failed(checkPlainParams(kernel)))
    return mlir::failure();
  for (const ast::ExprPtr &decorator : kernel.getDecorators()) {
    // @triton.autotune and @triton.heuristics choose constexpr values; the
    // specialization already carries them.
    if (classifyDecorator(*decorator, aliases) == DecoratorKind::Other)
      return fail(decorator->getLoc(),
                  "unsupported decorator on kernel '" + kernel.getName() +
                      "'; kernels accept @triton.jit, @triton.autotune and "
                      "@triton.heuristics");
  }
  return mlir::success();
}

mlir::LogicalResult
KernelEmitter::checkPlainParams(const ast::FunctionDef &function) {
  for (const ast::Param &param : function.getParams())
    if (param.kind != ast::Param::Kind::Plain)
      return fail(param.loc,
                  "'" +
                      llvm::Twine(param.kind == ast::Param::Kind::VarArgs
                                      ? "*"
                                      : "**") +
                      param.name +
                      "' parameters are not supported in "
                      "@triton.jit functions");
  return mlir::success();
}

std::optional<mlir::Type>
KernelEmitter::parseSpecType(llvm::StringRef type, const ast::Param &param) {
  bool isPointerType = type.consume_front("*");
  mlir::Type scalar =
      llvm::StringSwitch<mlir::Type>(type)
          .Cases({"i1", "u1", "B"}, builder.getI1Type())
          .Cases({"i8", "u8"}, builder.getIntegerType(8))
          .Cases({"i16", "u16"}, builder.getIntegerType(16))
          .Cases({"i32", "u32"}, builder.getI32Type())
          .Cases({"i64", "u64"}, builder.getI64Type())
          .Cases({"fp16", "f16"}, builder.getF16Type())
          .Case("bf16", builder.getBF16Type())
          .Cases({"fp32", "f32"}, builder.getF32Type())
          .Cases({"fp64", "f64"}, builder.getF64Type())
          .Case("fp8e4nv", builder.getType<mlir::Float8E4M3FNType>())
          .Case("fp8e5", builder.getType<mlir::Float8E5M2Type>())
          .Case("fp8e4b15", builder.getType<mlir::Float8E4M3B11FNUZType>())
          .Default(mlir::Type());
  if (!scalar) {
    diag.error(param.loc, llvm::Twine("unknown type '") +
                              (isPointerType ? "*" : "") + type +
                              "' for parameter '" + param.name +
                              "' in the specialization; expected e.g. "
                              "'*fp32', 'i32', 'fp32' or 'constexpr'");
    return std::nullopt;
  }
  if (isPointerType)
    return mlir::tile::PointerType::get(&context, scalar);
  return scalar;
}

std::optional<mlir::RankedTensorType>
KernelEmitter::parseDescriptorType(llvm::StringRef type,
                                   const ast::Param &param) {
  // tensordesc<fp16[64, 64]>
  llvm::StringRef body = type;
  body.consume_front("tensordesc<");
  body.consume_back(">");
  auto [element, dims] = body.split('[');
  std::optional<mlir::Type> scalar = parseSpecType(element.trim(), param);
  if (!scalar)
    return std::nullopt;
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<llvm::StringRef> pieces;
  dims.consume_back("]");
  dims.split(pieces, ',');
  for (llvm::StringRef piece : pieces) {
    int64_t size = 0;
    if (piece.trim().getAsInteger(10, size) || size <= 0) {
      diag.error(param.loc, "bad tensor descriptor type '" + type +
                                "' for parameter '" + param.name +
                                "'; expected e.g. 'tensordesc<fp16[64, 64]>'");
      return std::nullopt;
    }
    shape.push_back(size);
  }
  if (isPointer(*scalar) || shape.empty()) {
    diag.error(param.loc, "bad tensor descriptor type '" + type +
                              "' for parameter '" + param.name + "'");
    return std::nullopt;
  }
  return mlir::RankedTensorType::get(shape, *scalar);
}

mlir::OwningOpRef<mlir::ModuleOp>
KernelEmitter::emit(const ast::FunctionDef &kernel,
                    const KernelSpecialization &spec) {
  if (mlir::failed(checkDecorators(kernel)))
    return nullptr;

  // Match the specialization to the parameters by name.
  llvm::StringMap<const ParamSpec *> specByName;
  for (const ParamSpec &paramSpec : spec.params) {
    if (!specByName.insert({paramSpec.name, &paramSpec}).second) {
      diag.error("the specialization of '" + kernel.getName() +
                 "' gives parameter '" + paramSpec.name + "' twice");
      return nullptr;
    }
    if (!llvm::any_of(kernel.getParams(), [&](const ast::Param &param) {
          return param.name == paramSpec.name;
        })) {
      diag.error(kernel.getLoc(), "the specialization names '" +
                                      paramSpec.name +
                                      "', which is not a parameter of '" +
                                      kernel.getName() + "'");
      return nullptr;
    }
  }

  struct Argument {
    const ast::Param *param;
    mlir::Type type;
    /// The argument's known divisor (16 for the specialization's :16
    /// hint), or 0.
    int64_t divisor;
    bool isUnsigned;
    /// The first argument of a tensor descriptor parameter: its block;
    /// the base pointer, then the shape (i32), the strides but the last
    /// (i64) and the TMA tensor map (!tile.ptr<i8>) follow as arguments
    /// of their own.
    mlir::RankedTensorType descriptorBlock = {};
    /// An argument after the first of a descriptor's.
    bool descriptorPart = false;
    /// An integer the specialization found divisible by 8
    /// (ParamSpec::divisibleBy8).
    bool multipleOf8 = false;
  };
  llvm::SmallVector<Argument> arguments;
  for (const ast::Param &param : kernel.getParams()) {
    bool annotatedConstexpr =
        isConstexprAnnotation(param.annotation.get(), aliases);
    const ParamSpec *paramSpec = specByName.lookup(param.name);
    if (!paramSpec) {
      if (!annotatedConstexpr) {
        diag.error(param.loc, "the specialization gives no type for "
                              "parameter '" +
                                  param.name + "'");
        return nullptr;
      }
      if (!param.defaultValue) {
        diag.error(param.loc, "no value for constexpr parameter '" +
                                  param.name +
                                  "', which has no default either");
        return nullptr;
      }
      Result value = evaluateInModuleScope(*param.defaultValue);
      if (!value)
        return nullptr;
      locals[param.name] = *value;
      continue;
    }

    if (paramSpec->type == "constexpr") {
      PyValue value;
      if (auto *i = std::get_if<int64_t>(&paramSpec->value)) {
        value = PyValue::integer(*i);
      } else if (auto *d = std::get_if<double>(&paramSpec->value)) {
        value = PyValue::floating(*d);
      } else if (auto *b = std::get_if<bool>(&paramSpec->value)) {
        value = PyValue::boolean(*b);
      } else if (auto *s = std::get_if<std::string>(&paramSpec->value)) {
        value = PyValue::string(*s);
      } else if (std::holds_alternative<ParamSpec::NoneValue>(
                     paramSpec->value)) {
        value = PyValue::none();
      } else if (auto *tuple =
                     std::get_if<ParamSpec::IntTuple>(&paramSpec->value)) {
        std::vector<PyValue> elements;
        for (int64_t element : *tuple)
          elements.push_back(PyValue::integer(element));
        value = PyValue::tuple(std::move(elements));
      } else if (auto *dtype =
                     std::get_if<ParamSpec::DTypeName>(&paramSpec->value)) {
        auto known = lookupDType(context, dtype->name);
        if (!known) {
          diag.error(param.loc, "constexpr '" + param.name +
                                    "' is given the dtype 'tl." + dtype->name +
                                    "', which triton.language does not have");
          return nullptr;
        }
        value = PyValue::dtype(known->first, known->second);
      } else if (param.defaultValue) {
        Result defaultValue = evaluateInModuleScope(*param.defaultValue);
        if (!defaultValue)
          return nullptr;
        value = *defaultValue;
      } else {
        diag.error(param.loc, "the specialization gives no value for "
                              "constexpr parameter '" +
                                  param.name + "'");
        return nullptr;
      }
      locals[param.name] = value;
      continue;
    }

    if (llvm::StringRef(paramSpec->type).starts_with("tensordesc<")) {
      if (annotatedConstexpr) {
        diag.error(param.loc, "parameter '" + param.name +
                                  "' is tl.constexpr, but the launch gives "
                                  "it a tensor descriptor");
        return nullptr;
      }
      std::optional<mlir::RankedTensorType> block =
          parseDescriptorType(paramSpec->type, param);
      if (!block)
        return nullptr;
      mlir::Type element = block->getElementType();
      bool isUnsignedType =
          llvm::StringRef(paramSpec->type).drop_front(11).starts_with("u");
      // TMA's rules, which the launch checked: a 16-byte aligned base and
      // strides that are multiples of 16 bytes.
      int64_t strideDivisor =
          std::max<int64_t>(1, 128 / element.getIntOrFloatBitWidth());
      arguments.push_back({&param,
                           mlir::tile::PointerType::get(&context, element), 16,
                           isUnsignedType, *block});
      for (int64_t d = 0; d < block->getRank(); ++d) {
        bool divisible = size_t(d) < paramSpec->shapeDivisibleBy16.size() &&
                         paramSpec->shapeDivisibleBy16[d];
        arguments.push_back({&param,
                             builder.getI32Type(),
                             divisible ? 16 : 0,
                             false,
                             {},
                             true});
      }
      for (int64_t d = 0; d + 1 < block->getRank(); ++d)
        arguments.push_back({&param,
                             builder.getI64Type(),
                             strideDivisor > 1 ? strideDivisor : 0,
                             false,
                             {},
                             true});
      // The TMA tensor map the host encodes for the descriptor (null where
      // its block cannot be a TMA box).
      arguments.push_back(
          {&param,
           mlir::tile::PointerType::get(&context, builder.getI8Type()),
           0,
           false,
           {},
           true});
      continue;
    }
    if (annotatedConstexpr) {
      diag.error(param.loc, "parameter '" + param.name +
                                "' is tl.constexpr, but the specialization "
                                "gives it type '" +
                                paramSpec->type + "'");
      return nullptr;
    }
    std::optional<mlir::Type> type = parseSpecType(paramSpec->type, param);
    if (!type)
      return nullptr;
    bool isUnsignedType =
        llvm::StringRef(paramSpec->type).ltrim('*').starts_with("u");
    if (paramSpec->equalsOne) {
      // Triton turns integer arguments equal to 1 into the constant 1.
      if (!isInteger(*type)) {
        diag.error(param.loc, "parameter '" + param.name + "' of type '" +
                                  paramSpec->type +
                                  "' cannot be specialized as equal to 1; "
                                  "only integers can");
        return nullptr;
      }
      locals[param.name] = PyValue::integer(1);
      continue;
    }
    bool divisible = paramSpec->divisibleBy16 &&
                     (isPointer(*type) || (isInteger(*type) && !isBool(*type)));
    bool multipleOf8 =
        paramSpec->divisibleBy8 && isInteger(*type) && !isBool(*type);
    Argument argument{&param, *type, divisible ? 16 : 0, isUnsignedType};
    argument.multipleOf8 = multipleOf8;
    arguments.push_back(argument);
  }

  // The function and its entry block.
  mlir::Location kernelLoc = getLoc(kernel.getLoc());
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(filename, /*line=*/1, /*column=*/1));
  builder.setInsertionPointToEnd(moduleOp->getBody());
  llvm::SmallVector<mlir::Type> argumentTypes;
  for (const Argument &argument : arguments)
    argumentTypes.push_back(argument.type);
  auto function = mlir::func::FuncOp::create(
      builder, kernelLoc, kernel.getName(),
      builder.getFunctionType(argumentTypes, /*results=*/{}));
  mlir::Block *entry = function.addEntryBlock();
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    mlir::BlockArgument blockArgument = entry->getArgument(index);
    blockArgument.setLoc(getLoc(argument.param->loc));
    if (argument.divisor)
      function.setArgAttr(index, mlir::tile::kDivisibilityAttr,
                          builder.getI32IntegerAttr(argument.divisor));
    else if (argument.multipleOf8)
      function.setArgAttr(index, mlir::tile::kMultipleOf8Attr,
                          builder.getUnitAttr());
    if (!argument.descriptorPart && !argument.descriptorBlock)
      locals[argument.param->name] =
          PyValue::runtime(blockArgument, argument.isUnsigned);
  }
  builder.setInsertionPointToStart(entry);
  // Tensor descriptors from the host: the parts as arguments, the last
  // stride the constant 1, then the tensor map.
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    if (!argument.descriptorBlock)
      continue;
    int64_t rank = argument.descriptorBlock.getRank();
    std::vector<PyValue> parts;
    for (int64_t i = 0; i < 2 * rank; ++i)
      parts.push_back(PyValue::runtime(entry->getArgument(index + i)));
    parts.push_back(PyValue::runtime(mlir::arith::ConstantOp::create(
        builder, getLoc(argument.param->loc), builder.getI64IntegerAttr(1))));
    parts.push_back(PyValue::runtime(entry->getArgument(index + 2 * rank)));
    function.setArgAttr(index + 2 * rank, mlir::tile::kTensorMapArgAttr,
                        builder.getUnitAttr());
    parts[0].isUnsigned = argument.isUnsigned;
    locals[argument.param->name] =
        PyValue::tensorDescriptor(std::move(parts), argument.descriptorBlock,
                                  argument.isUnsigned, "zero");
  }

  for (const ast::Param &param : kernel.getParams())
    assignedNames.insert(param.name);
  collectAssignedNames(kernel.getBody());

  if (mlir::failed(emitBlock(kernel.getBody())))
    return nullptr;
  mlir::func::ReturnOp::create(builder,
                               returned ? getLoc(returnLoc) : kernelLoc);

  // Verification failures are bugs of this front end, but report them at
  // the user's line like any other error.
  unsigned bufferId = module.getBufferId();
  bool verified;
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      SourceLocation at;
      if (auto fileLoc =
              d.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
        at = diag.getLocation(bufferId, fileLoc.getLine(), fileLoc.getColumn());
      llvm::SourceMgr::DiagKind kind =
          d.getSeverity() == mlir::DiagnosticSeverity::Error
              ? llvm::SourceMgr::DK_Error
          : d.getSeverity() == mlir::DiagnosticSeverity::Warning
              ? llvm::SourceMgr::DK_Warning
              : llvm::SourceMgr::DK_Note;
      diag.emit(at.ptr, kind,
                "internal error: the generated IR is invalid: " + d.str());
      return mlir::success();
    });
    verified = mlir::succeeded(mlir::verify(*moduleOp));
  }
  if (!verified)
    return nullptr;
  return moduleOp;
}

} // namespace tile::frontend::mlirgen
