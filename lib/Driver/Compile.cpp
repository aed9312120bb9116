//===- Compile.cpp - from a .tile file to a tile-dialect module -----------===//

#include "tile/Driver/Compile.h"
#include "tile/Frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

using namespace tile;
using namespace tile::frontend;

std::unique_ptr<TileSource>
tile::loadTileSource(llvm::StringRef path,
                     llvm::ArrayRef<launch::Override> overrides,
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
  std::optional<launch::LaunchSpec> spec =
      launch::parseLaunchSpec(source->sourceMgr, *id, diag, overrides);
  if (!spec)
    return nullptr;
  source->launch = std::move(*spec);
  if (source->launch.kernel.empty()) {
    std::vector<std::string> names = getKernelNames(*source->module);
    if (names.size() != 1) {
      diag.error(source->launch.loc,
                 "name the kernel to run after '# tile-run:' (the file has " +
                     std::to_string(names.size()) + " kernels)");
      return nullptr;
    }
    source->launch.kernel = names.front();
  }
  std::optional<std::vector<KernelParam>> params =
      getKernelParams(*source->module, source->launch.kernel, diag);
  if (!params)
    return nullptr;
  source->params = std::move(*params);
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
        default:
          diag.error(launch.loc, "constexpr '" + param.name +
                                     "' must be a number, bool or string, "
                                     "got " +
                                     v.describe());
          return std::nullopt;
        }
      } else if (!param.defaultValue) {
        diag.error(launch.loc, "the launch description gives no value for "
                               "constexpr '" +
                                   param.name + "'");
        return std::nullopt;
      }
      specialization.params.push_back(spec);
      continue;
    }
    if (it == launch.variables.end()) {
      diag.error(launch.loc, "the launch description gives no value for "
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
      spec.equalsOne = v.kind == launch::Value::Kind::Int && v.intValue == 1;
      break;
    }
    case launch::Value::Kind::Float:
      spec.type = "fp32";
      break;
    default:
      diag.error(launch.loc, "parameter '" + param.name +
                                 "' needs a buffer or a number, got " +
                                 v.describe());
      return std::nullopt;
    }
    specialization.params.push_back(spec);
  }
  return specialization;
}

mlir::OwningOpRef<mlir::ModuleOp>
tile::buildTileModule(mlir::MLIRContext &context, TileSource &source,
                      const KernelSpecialization &specialization) {
  return emitKernel(context, *source.module, source.launch.kernel,
                    specialization, *source.diag);
}
