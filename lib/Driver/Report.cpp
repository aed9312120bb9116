//===- Report.cpp - reports that run no kernel ----------------------------===//
//
// What tile-run prints without running anything: the ops the interpreter
// executes, the --info report of a fixture file, the kernel cache's
// location and the compiler version, and a kernel's @triton.autotune
// configurations.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Driver/KernelInfo.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Target/Libdevice.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

#include <variant>

using namespace mlir;
namespace interp = mlir::tile::interp;

namespace tile {
int printInterpreterOps(RunContext &context) {
  std::vector<std::string> handled = interp::getHandledOpNames();
  std::vector<std::string> refused = interp::getRefusedOpNames();
  for (const std::string &name : handled)
    llvm::outs() << name << "\n";
  for (const std::string &name : refused)
    llvm::outs() << name << " (refused: GPU only)\n";
  unsigned missing = 0, tileOps = 0, tileRefused = 0;
  for (RegisteredOperationName name :
       context.mlirContext.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tile")
      continue;
    ++tileOps;
    if (llvm::is_contained(refused, name.getStringRef().str())) {
      ++tileRefused;
      continue;
    }
    if (!llvm::is_contained(handled, name.getStringRef().str())) {
      llvm::errs() << context.options.toolName
                   << ": the interpreter does not handle "
                   << name.getStringRef() << "\n";
      ++missing;
    }
  }
  llvm::outs() << llvm::formatv(
      "{0} of {1} tile-dialect ops handled, {2} refused (GPU only)\n",
      tileOps - missing - tileRefused, tileOps - tileRefused, tileRefused);
  return missing ? 1 : 0;
}

int printInfoFixture(RunContext &context, llvm::StringRef path) {
  KernelReport report;
  std::string error;
  if (!readKernelReportFixture(path.str(), report, error))
    return context.fail(error);
  if (context.options.info == InfoFormat::JSON)
    printKernelReportJSON(report, llvm::outs());
  else
    printKernelReport(report, llvm::outs());
  return 0;
}

int printCacheInfo(RunContext &context) {
  cache::CacheLocation location =
      cache::getCacheLocation(context.options.noCache);
  llvm::outs() << "cache directory: "
               << (location.dir.empty() ? "(none)" : location.dir) << "\n"
               << "cache: "
               << (location.disabledBecause.empty()
                       ? "on"
                       : "off (" + location.disabledBecause + ")")
               << "\ncompiler: " << cache::getCompilerVersion() << "\n";
  const mlir::tile::LibdeviceLocation &libdevice = mlir::tile::findLibdevice();
  llvm::outs() << "libdevice: ";
  if (!libdevice.path.empty())
    llvm::outs() << libdevice.path << "\n";
  else if (libdevice.invalid)
    llvm::outs() << "error: " << libdevice.problem << "\n";
  else
    llvm::outs() << "none, Tile's own functions (" << libdevice.problem
                 << ")\n";
  return 0;
}

int printAutotuneConfigs(RunContext &context,
                         ArrayRef<launch::Override> overrides) {
  std::unique_ptr<TileSource> source =
      loadTileSource(context.options.inputFile, overrides, llvm::errs());
  if (!source)
    return 1;
  auto info = frontend::getAutotuneInfo(
      *source->module, source->launch.kernel, *source->diag,
      mlir::tilegpu::getComputeCapability(context.options.target));
  if (llvm::failed(info))
    return 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!*info) {
    os << source->launch.kernel << " has no @triton.autotune\n";
    return writeOutput(context, text);
  }
  os << "key:";
  for (const std::string &key : (*info)->key)
    os << " " << key;
  os << "\n";
  if (!(*info)->earlyConfigPrune.empty())
    os << "early_config_prune: " << (*info)->earlyConfigPrune
       << " (runs on each launch's arguments before tuning)\n";
  for (auto [index, config] : llvm::enumerate((*info)->configs)) {
    os << "config " << index << ":";
    for (const auto &[name, value] : config.kwargs) {
      os << " " << name << "=";
      std::visit(
          [&](const auto &v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>)
              os << "'" << v << "'";
            else if constexpr (std::is_same_v<T, bool>)
              os << (v ? "True" : "False");
            else
              os << v;
          },
          value);
    }
    os << " num_warps=" << config.numWarps << " num_stages=" << config.numStages
       << " num_ctas=" << config.numCtas << "\n";
  }
  return writeOutput(context, text);
}
} // namespace tile
