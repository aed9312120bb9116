//===- tile-frontend-fuzzer.cpp - libFuzzer target for the front end ------===//
//
// Treats each input as a .tile file and runs everything that reads user
// text on it: the lexer and parser (whole module, standalone expression,
// block of statements), MLIRGen for every @triton.jit kernel with a
// specialization derived from its parameters (followed by the MLIR
// verifier and the printer), and the driver's launch-description parser with
// the specialization and module it implies. Diagnostics go to a null stream.
// Any crash, sanitizer report or timeout is a bug: the front end must answer
// every input with a diagnostic.
//
// Built only with -DTILE_FUZZ=ON and clang (-fsanitize=fuzzer); see
// fuzz/README.md.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compile.h"
#include "tile/Frontend/MLIRGen.h"
#include "tile/Frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstddef>
#include <cstdint>

using namespace tile;
using namespace tile::frontend;

namespace {

/// Runs the MLIR verifier on `module` with diagnostics swallowed (emitKernel
/// verifies too; this keeps the check if that ever changes), then prints a
/// valid module as `tile-run --emit=tile` would, to a null stream, so that
/// the dialects' custom printers see every module too.
void verifyAndPrint(mlir::MLIRContext &context, mlir::ModuleOp module) {
  mlir::ScopedDiagnosticHandler handler(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  if (mlir::succeeded(mlir::verify(module)))
    module.print(llvm::nulls());
}

/// Non-constexpr parameters alternate between `*fp32` (divisible by 16) and
/// `i32`; constexpr parameters take their default, or 16 without one.
KernelSpecialization deriveSpecialization(llvm::ArrayRef<KernelParam> params) {
  KernelSpecialization spec;
  unsigned runtimeIndex = 0;
  for (const KernelParam &param : params) {
    ParamSpec p;
    p.name = param.name;
    if (param.isConstexpr) {
      p.type = "constexpr";
      if (!param.defaultValue)
        p.value = int64_t(16);
    } else if (runtimeIndex++ % 2 == 0) {
      p.type = "*fp32";
      p.divisibleBy16 = true;
    } else {
      p.type = "i32";
    }
    spec.params.push_back(std::move(p));
  }
  return spec;
}

/// A second specialization, varied by `seed` (a hash of the input, so that
/// a crash reproduces from the input alone): every parameter type of
/// ParamSpec, divisibility, equal-to-one integers, and constexpr values of
/// each kind.
KernelSpecialization
deriveVariedSpecialization(llvm::ArrayRef<KernelParam> params, uint64_t seed) {
  static const char *const types[] = {
      "*fp32", "*fp16", "*bf16", "*fp64", "*i8",  "*i16", "*i32", "*i64",
      "*u8",   "*i1",   "i1",    "i32",   "i64",  "fp32", "fp64", "i8",
      "i16",   "u8",    "u32",   "u64",   "fp16", "bf16"};
  KernelSpecialization spec;
  for (const KernelParam &param : params) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    unsigned bits = unsigned(seed >> 33);
    ParamSpec p;
    p.name = param.name;
    if (param.isConstexpr) {
      p.type = "constexpr";
      switch (bits % 6) {
      case 0:
        if (param.defaultValue)
          break;
        [[fallthrough]];
      case 1:
        p.value = int64_t(1) << (bits / 8 % 12);
        break;
      case 2:
        p.value = int64_t(bits / 8 % 3) - 1;
        break;
      case 3:
        p.value = 0.5;
        break;
      case 4:
        p.value = bool(bits & 8);
        break;
      default:
        p.value = std::string("evict_last");
        break;
      }
    } else {
      p.type = types[bits % std::size(types)];
      p.divisibleBy16 = bits & 0x100;
      p.equalsOne = p.type[0] != '*' && (bits & 0x600) == 0x600;
    }
    spec.params.push_back(std::move(p));
  }
  return spec;
}

std::unique_ptr<llvm::MemoryBuffer> copyInput(llvm::StringRef text) {
  // A copy: MemoryBuffer adds the terminating NUL that files loaded from
  // disk have, and ASan sees reads past the input's end.
  return llvm::MemoryBuffer::getMemBufferCopy(text, "input.tile");
}

/// The module path: parse (and dump the AST), then every kernel through
/// MLIRGen, twice.
void fuzzModule(mlir::MLIRContext &context, llvm::StringRef text) {
  llvm::SourceMgr sourceMgr;
  DiagEmitter diag(sourceMgr, llvm::nulls());
  unsigned id = sourceMgr.AddNewSourceBuffer(copyInput(text), llvm::SMLoc());
  std::unique_ptr<ast::Module> module = parseModule(sourceMgr, id, diag);
  if (!module)
    return;
  ast::dump(*module, llvm::nulls());
  for (const std::string &name : getKernelNames(*module)) {
    // The host Python of @triton.autotune (configurations, pruner) is user
    // text too; the pruner sees every parameter as 64.
    if (auto info = getAutotuneInfo(*module, name, diag);
        llvm::succeeded(info) && *info) {
      std::vector<std::pair<std::string, ConstexprValue>> arguments;
      if (std::optional<std::vector<KernelParam>> params =
              getKernelParams(*module, name, diag))
        for (const KernelParam &param : *params)
          arguments.push_back({param.name, int64_t(64)});
      (void)pruneAutotuneConfigs(*module, **info, arguments, diag);
    }
    std::optional<std::vector<KernelParam>> params =
        getKernelParams(*module, name, diag);
    if (!params)
      continue;
    for (const KernelSpecialization &spec :
         {deriveSpecialization(*params),
          deriveVariedSpecialization(*params, llvm::xxh3_64bits(text))}) {
      mlir::OwningOpRef<mlir::ModuleOp> op =
          emitKernel(context, *module, name, spec, diag);
      if (op)
        verifyAndPrint(context, *op);
    }
  }
}

/// The driver path of tile-run: launch description, specialization, module.
void fuzzDriver(mlir::MLIRContext &context, llvm::StringRef text) {
  TileSource source;
  source.diag = std::make_unique<DiagEmitter>(source.sourceMgr, llvm::nulls());
  DiagEmitter &diag = *source.diag;
  source.bufferId =
      source.sourceMgr.AddNewSourceBuffer(copyInput(text), llvm::SMLoc());
  source.module = parseModule(source.sourceMgr, source.bufferId, diag);
  std::optional<launch::LaunchSpec> spec = launch::parseLaunchSpec(
      source.sourceMgr, source.bufferId, diag, /*overrides=*/{});
  if (!source.module || diag.hasErrors() || !spec)
    return;
  source.launch = std::move(*spec);
  if (source.launch.kernel.empty()) {
    std::vector<std::string> names = getKernelNames(*source.module);
    if (names.size() != 1)
      return;
    source.launch.kernel = names.front();
  }
  std::optional<std::vector<KernelParam>> params =
      getKernelParams(*source.module, source.launch.kernel, diag);
  if (!params)
    return;
  source.params = std::move(*params);
  std::optional<KernelSpecialization> specialization = specialize(source);
  if (!specialization)
    return;
  mlir::OwningOpRef<mlir::ModuleOp> op =
      buildTileModule(context, source, *specialization);
  if (op)
    verifyAndPrint(context, *op);
}

/// The fragment parsers that launch descriptions and --set values use.
void fuzzFragments(llvm::StringRef text) {
  llvm::SourceMgr sourceMgr;
  DiagEmitter diag(sourceMgr, llvm::nulls());
  unsigned id = sourceMgr.AddNewSourceBuffer(copyInput(text), llvm::SMLoc());
  (void)parseExpression(sourceMgr, id, diag);
  FragmentOptions options;
  options.linePrefix = "#";
  (void)parseStatements(sourceMgr, id, diag, options);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // One context per input: nothing carries over between inputs, so a crash
  // reproduces from its input alone.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  fuzzModule(context, text);
  fuzzDriver(context, text);
  fuzzFragments(text);
  return 0;
}
