//===- Compile.cpp - from a .tile file to a tile-dialect module -----------===//

#include "tile/Driver/Compile.h"
#include "tile/Frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace tile;
using namespace tile::frontend;

std::unique_ptr<TileSource> tile::parseTileSource(llvm::StringRef path,
                                                  llvm::raw_ostream &os) {
  auto source = std::make_unique<TileSource>();
  source->diag = std::make_unique<DiagEmitter>(source->sourceMgr, os);
  DiagEmitter &diag = *source->diag;
  std::optional<unsigned> id = addSourceFile(source->sourceMgr, path, diag);
  if (!id)
    return nullptr;
  source->bufferId = *id;
  source->module = parseModule(source->sourceMgr, *id, diag);
  if (!source->module || diag.hasErrors())
    return nullptr;
  source->launch.kernel = launch::findKernelName(
      source->sourceMgr.getMemoryBuffer(*id)->getBuffer());
  if (source->launch.kernel.empty()) {
    std::vector<std::string> names = getKernelNames(*source->module);
    if (names.size() == 1)
      source->launch.kernel = names.front();
  }
  return source;
}

bool tile::evaluateLaunch(TileSource &source,
                          llvm::ArrayRef<launch::Override> overrides) {
  DiagEmitter &diag = *source.diag;
  std::optional<launch::LaunchSpec> spec = launch::parseLaunchSpec(
      source.sourceMgr, source.bufferId, diag, overrides);
  if (!spec)
    return false;
  source.launch = std::move(*spec);
  if (source.launch.kernel.empty()) {
    std::vector<std::string> names = getKernelNames(*source.module);
    if (names.size() != 1) {
      diag.error(source.launch.loc,
                 "name the kernel to run after '# tile-run:' (the file has " +
                     std::to_string(names.size()) + " kernels)");
      return false;
    }
    source.launch.kernel = names.front();
  }
  std::optional<std::vector<KernelParam>> params =
      getKernelParams(*source.module, source.launch.kernel, diag);
  if (!params)
    return false;
  source.params = std::move(*params);
  // A runtime parameter the description leaves out takes its default, as
  // a Triton launch that does not pass it (`def k(out, value=3)`).
  for (const KernelParam &param : source.params) {
    auto *constant =
        llvm::dyn_cast_or_null<frontend::ast::ConstantExpr>(param.defaultValue);
    if (param.isConstexpr || !constant ||
        source.launch.variables.count(param.name))
      continue;
    if (constant->isInt() && !constant->isOversizedInt())
      source.launch.variables[param.name] =
          launch::Value::getInt(constant->getInt());
    else if (constant->isFloat())
      source.launch.variables[param.name] =
          launch::Value::getFloat(constant->getFloat());
    else if (constant->isBool())
      source.launch.variables[param.name] =
          launch::Value::getBool(constant->getBool());
  }
  return true;
}

std::unique_ptr<TileSource>
tile::loadTileSource(llvm::StringRef path,
                     llvm::ArrayRef<launch::Override> overrides,
                     llvm::raw_ostream &os) {
  std::unique_ptr<TileSource> source = parseTileSource(path, os);
  if (!source || !evaluateLaunch(*source, overrides))
    return nullptr;
  return source;
}

std::optional<KernelSpecialization> tile::specialize(TileSource &source) {
  DiagEmitter &diag = *source.diag;
  const launch::LaunchSpec &launch = source.launch;
  KernelSpecialization specialization;
  for (const KernelParam &param : source.params) {
    ParamSpec spec;
    spec.name = param.name;
    auto it = launch.variables.find(param.name);
    if (param.isConstexpr) {
      spec.type = "constexpr";
      if (it != launch.variables.end()) {
        const launch::Value &v = it->second;
        switch (v.kind) {
        case launch::Value::Kind::Int:
          spec.value = v.intValue;
          break;
        case launch::Value::Kind::Float:
          spec.value = v.floatValue;
          break;
        case launch::Value::Kind::Bool:
          spec.value = bool(v.intValue);
          break;
        case launch::Value::Kind::String:
          spec.value = v.stringValue;
          break;
        case launch::Value::Kind::DType:
          spec.value = ParamSpec::DTypeName{launch::getTritonName(v.dtype)};
          break;
        case launch::Value::Kind::None:
          spec.value = ParamSpec::NoneValue{};
          break;
        case launch::Value::Kind::Tuple: {
          ParamSpec::IntTuple tuple;
          for (const launch::Value &element : v.elements)
            if (element.kind == launch::Value::Kind::Int)
              tuple.push_back(element.intValue);
          if (tuple.size() == v.elements.size()) {
            spec.value = std::move(tuple);
            break;
          }
          [[fallthrough]];
        }
        default:
          diag.error(launch.getLocation(param.name),
                     "constexpr '" + param.name +
                         "' must be a number, bool, string, dtype, None "
                         "or tuple of integers, got " +
                         v.describe());
          return std::nullopt;
        }
      } else if (!param.defaultValue) {
        // Nothing in the description to point at: the parameter itself.
        diag.error(param.loc, "the launch description gives no value for "
                              "constexpr '" +
                                  param.name + "'");
        return std::nullopt;
      }
      specialization.params.push_back(spec);
      continue;
    }
    if (it == launch.variables.end()) {
      diag.error(param.loc, "the launch description gives no value for "
                            "parameter '" +
                                param.name + "' of " + launch.kernel);
      return std::nullopt;
    }
    const launch::Value &v = it->second;
    switch (v.kind) {
    case launch::Value::Kind::Buffer:
      spec.type = "*" + launch::getName(launch.buffers[v.buffer].dtype).str();
      spec.divisibleBy16 = true; // device allocations are 256-byte aligned
      break;
    case launch::Value::Kind::Int:
    case launch::Value::Kind::Bool: {
      bool fits32 = v.intValue >= INT32_MIN && v.intValue <= INT32_MAX;
      spec.type = v.kind == launch::Value::Kind::Bool ? "i1"
                  : fits32                            ? "i32"
                                                      : "i64";
      spec.divisibleBy16 =
          v.kind == launch::Value::Kind::Int && v.intValue % 16 == 0;
      spec.divisibleBy8 =
          v.kind == launch::Value::Kind::Int && v.intValue % 8 == 0;
      spec.equalsOne = v.kind == launch::Value::Kind::Int && v.intValue == 1;
      break;
    }
    case launch::Value::Kind::Float:
      spec.type = "fp32";
      break;
    case launch::Value::Kind::TensorDescriptor: {
      // Triton's AOT spelling: tensordesc<fp16[64, 64]>.
      spec.type = "tensordesc<" +
                  launch::getName(launch.buffers[v.buffer].dtype).str() + "[";
      for (size_t d = 0; d < v.elements.size(); ++d)
        spec.type += (d ? ", " : "") + std::to_string(v.elements[d].intValue);
      spec.type += "]>";
      for (int64_t extent : v.shape)
        spec.shapeDivisibleBy16.push_back(extent % 16 == 0);
      break;
    }
    default:
      diag.error(launch.getLocation(param.name),
                 "parameter '" + param.name +
                     "' needs a buffer, a number or a tensor descriptor, got " +
                     v.describe());
      return std::nullopt;
    }
    specialization.params.push_back(spec);
  }
  return specialization;
}

std::string
tile::getSpecializationKey(const KernelSpecialization &specialization) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const ParamSpec &param : specialization.params) {
    os << param.name << ":" << param.type << ":" << param.divisibleBy16 << ":"
       << param.divisibleBy8 << ":" << param.equalsOne << ":"
       << param.value.index() << ":";
    for (bool divisible : param.shapeDivisibleBy16)
      os << (divisible ? "d" : "n");
    std::visit(
        [&](const auto &v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, double>)
            os << llvm::format("%.17g", v);
          else if constexpr (std::is_same_v<T, std::string>)
            os << v.size() << ":" << v;
          else if constexpr (std::is_same_v<T, ParamSpec::DTypeName>)
            os << "tl." << v.name;
          else if constexpr (std::is_same_v<T, ParamSpec::NoneValue>)
            os << "None";
          else if constexpr (std::is_same_v<T, ParamSpec::IntTuple>) {
            os << "(";
            for (int64_t element : v)
              os << element << ",";
            os << ")";
          } else if constexpr (!std::is_same_v<T, std::monostate>)
            os << int64_t(v);
        },
        param.value);
    os << "\n";
  }
  return text;
}

bool tile::needsWideOffsets(const launch::LaunchSpec &launch) {
  return llvm::any_of(launch.buffers, [](const launch::BufferSpec &buffer) {
    return buffer.getNumElements() > INT32_MAX;
  });
}

mlir::OwningOpRef<mlir::ModuleOp>
tile::buildTileModule(mlir::MLIRContext &context, TileSource &source,
                      const KernelSpecialization &specialization) {
  return emitKernel(context, *source.module, source.launch.kernel,
                    specialization, *source.diag);
}
