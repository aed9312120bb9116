//===- Compile.cpp - tile::compileFile and compileString ------------------===//
//
// The C++ API's compile: the front end, the specialization a Triton-style
// signature gives, the pipeline to PTX (as tile-run runs it) and the kernel
// cache. Every message of the front end, of the passes and of the cache
// becomes a tile::Diagnostic; nothing is printed.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"

#include "DescriptorType.h"

#include "tile/Analysis/Allocation.h"
#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"
#include "tile/Driver/Compile.h"
#include "tile/Driver/KernelCache.h"
#include "tile/Frontend/Parser.h"
#include "tile/InitTile.h"
#include "tile/Target/EmitPTX.h"
#include "tile/Target/Libdevice.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tile;
using frontend::DiagEmitter;
using frontend::KernelParam;
using frontend::KernelSpecialization;
using frontend::ParamSpec;

const char *tile::version() { return TILE_VERSION; }

std::string Diagnostic::str() const {
  std::string text;
  if (!file.empty()) {
    text = file;
    if (line)
      text += ":" + std::to_string(line) + ":" + std::to_string(column);
    text += ": ";
  }
  text += severity == Severity::Error     ? "error: "
          : severity == Severity::Warning ? "warning: "
                                          : "note: ";
  return text + message;
}

std::string CompileResult::describe() const {
  std::string text;
  for (const Diagnostic &d : diagnostics)
    text += d.str() + "\n";
  return text;
}

namespace {
Diagnostic::Severity toSeverity(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    return Diagnostic::Severity::Error;
  case llvm::SourceMgr::DK_Warning:
    return Diagnostic::Severity::Warning;
  default:
    return Diagnostic::Severity::Note;
  }
}

Diagnostic::Severity toSeverity(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return Diagnostic::Severity::Error;
  case mlir::DiagnosticSeverity::Warning:
    return Diagnostic::Severity::Warning;
  default:
    return Diagnostic::Severity::Note;
  }
}

/// One compile: its source, its diagnostics and the MLIR context it uses.
class Compilation {
public:
  explicit Compilation(CompileResult &result)
      : result(result),
        context(makeRegistry(), mlir::MLIRContext::Threading::DISABLED),
        handler(&context, [this](mlir::Diagnostic &d) { add(d); }) {
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
    source.diag = std::make_unique<DiagEmitter>(source.sourceMgr);
    source.diag->setHandler([this](const llvm::SMDiagnostic &d) {
      this->result.diagnostics.push_back(
          {toSeverity(d.getKind()), d.getFilename().str(),
           unsigned(std::max(d.getLineNo(), 0)),
           unsigned(std::max(d.getColumnNo(), 0) + (d.getLineNo() > 0)),
           d.getMessage().str()});
    });
  }

  /// A message that belongs to no position.
  void error(const std::string &message) {
    result.diagnostics.push_back(
        {Diagnostic::Severity::Error, "", 0, 0, message});
  }
  /// A message at a parameter of the kernel.
  void error(const KernelParam &param, const llvm::Twine &message) {
    source.diag->error(param.loc, message);
  }

  void run(std::unique_ptr<llvm::MemoryBuffer> buffer,
           const Specialization &spec);

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    mlir::tile::registerTileDialects(registry);
    return registry;
  }

  /// An MLIR diagnostic (a pass's) at the kernel's line, with its notes.
  void add(mlir::Diagnostic &d) {
    Diagnostic out;
    out.severity = toSeverity(d.getSeverity());
    if (auto loc = d.getLocation()->findInstanceOf<mlir::FileLineColLoc>()) {
      out.file = loc.getFilename().str();
      out.line = loc.getLine();
      out.column = loc.getColumn();
    }
    out.message = d.str();
    result.diagnostics.push_back(std::move(out));
    for (mlir::Diagnostic &note : d.getNotes())
      add(note);
  }

  bool specializeFromSignature(const Specialization &spec,
                               KernelSpecialization &out,
                               std::vector<Parameter> &parameters);
  std::string getCacheKey(const Specialization &spec,
                          const KernelSpecialization &specialization);
  std::optional<std::string> lower(const Specialization &spec,
                                   const KernelSpecialization &specialization);

  CompileResult &result;
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
  TileSource source;
};

/// A constexpr's value as the signature writes it: an integer, a float,
/// True/False, a quoted string or a dtype (tl.float16; the front end
/// checks the name).
std::optional<ParamSpec> parseConstexpr(llvm::StringRef text) {
  ParamSpec spec;
  spec.type = "constexpr";
  int64_t i;
  double d;
  if (text == "True" || text == "False")
    spec.value = text == "True";
  else if (!text.getAsInteger(0, i))
    spec.value = i;
  else if (!text.getAsDouble(d))
    spec.value = d;
  else if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
           text.back() == text.front())
    spec.value = text.drop_front().drop_back().str();
  else if (text == "None")
    spec.value = ParamSpec::NoneValue{};
  else if (text.starts_with("tl.") && text.size() > 3)
    spec.value = ParamSpec::DTypeName{text.drop_front(3).str()};
  else
    return std::nullopt;
  return spec;
}
} // namespace

bool Compilation::specializeFromSignature(const Specialization &spec,
                                          KernelSpecialization &out,
                                          std::vector<Parameter> &parameters) {
  const std::vector<KernelParam> &params = source.params;
  if (spec.signature.size() != params.size()) {
    std::string names;
    for (const KernelParam &param : params)
      names += (names.empty() ? "" : ", ") + param.name;
    error("the signature has " + std::to_string(spec.signature.size()) +
          " entries; " + source.launch.kernel + " has " +
          std::to_string(params.size()) + " parameters (" + names + ")");
    return false;
  }
  bool ok = true;
  for (auto [param, entry] : llvm::zip(params, spec.signature)) {
    llvm::StringRef text = llvm::StringRef(entry).trim();
    if (param.isConstexpr) {
      std::optional<ParamSpec> value;
      if (text == "_" && param.defaultValue) {
        value = ParamSpec{};
        value->type = "constexpr";
      } else {
        value = parseConstexpr(text);
      }
      if (!value) {
        error(param, "constexpr '" + param.name +
                         "' needs a value in the "
                         "signature (an integer, a float, True, False, None, "
                         "a quoted string or a dtype such as tl.float16" +
                         (param.defaultValue ? ", or _ for its default" : "") +
                         "), got '" + text + "'");
        ok = false;
        continue;
      }
      value->name = param.name;
      out.params.push_back(*value);
      continue;
    }
    if (text.starts_with("tensordesc")) {
      // tensordesc<fp16[128, 64]>, with ":16" when every extent of the
      // descriptor's shape is divisible by 16 (Kernel::launch checks).
      auto [type, hint] = text.rsplit(':');
      type = type.trim();
      hint = hint.trim();
      std::optional<DescriptorType> parsed = parseDescriptorType(type);
      if (!parsed || (!hint.empty() && hint != "16")) {
        error(param,
              "'" + text +
                  "': a tensor descriptor parameter is "
                  "'tensordesc<fp16[128, 64]>' (element type and block "
                  "shape), with ':16' where every extent of its shape is "
                  "divisible by 16");
        ok = false;
        continue;
      }
      ParamSpec p;
      p.name = param.name;
      p.type = formatDescriptorType(parsed->element, parsed->block);
      p.shapeDivisibleBy16.assign(parsed->block.size(), hint == "16");
      parameters.push_back(
          {p.name, p.type, parsed->element, parsed->block, hint == "16",
           getTensorMapLayout(parsed->element, parsed->block)});
      out.params.push_back(std::move(p));
      continue;
    }
    auto [type, hint] = text.split(':');
    ParamSpec p;
    p.name = param.name;
    p.type = type.trim().str();
    hint = hint.trim();
    bool isInteger = !p.type.empty() && p.type[0] != '*' && p.type[0] != 'f' &&
                     p.type != "bf16";
    if (hint == "16" && (p.type[0] == '*' || isInteger)) {
      p.divisibleBy16 = true;
    } else if (hint == "8" && isInteger) {
      // An fp16 row stride of 8k elements is a 16-byte TMA stride.
      p.divisibleBy8 = true;
    } else if (hint == "1" && isInteger) {
      p.equalsOne = true;
    } else if (!hint.empty()) {
      error(param, "'" + text + "': the hint of parameter '" + param.name +
                       "' is :16 (pointers and integers), :8 or :1 "
                       "(integers)");
      ok = false;
      continue;
    }
    if (!p.equalsOne)
      parameters.push_back({p.name, p.type, "", {}, false, {}});
    out.params.push_back(std::move(p));
  }
  return ok;
}

std::string
Compilation::getCacheKey(const Specialization &spec,
                         const KernelSpecialization &specialization) {
  std::string specializationKey = getSpecializationKey(specialization);
  std::string libdevice = mlir::tile::getLibdeviceIdentity();
  cache::PTXKeyFields fields;
  fields.input = "tile";
  fields.source =
      source.sourceMgr.getMemoryBuffer(source.bufferId)->getBuffer();
  fields.kernel = source.launch.kernel;
  fields.specialization = specializationKey;
  fields.numWarps = unsigned(spec.numWarps);
  fields.numStages = unsigned(spec.numStages);
  fields.target = spec.target;
  fields.wideOffsets = spec.wideOffsets;
  fields.warpSpecializeAll = spec.warpSpecializeAll;
  fields.pingPong = spec.pingPong;
  fields.persistentPrograms = spec.persistentPrograms;
  fields.hoistTensorMaps = spec.hoistTensorMaps;
  fields.libdevice = libdevice;
  return cache::getPTXKey(fields);
}

std::optional<std::string>
Compilation::lower(const Specialization &spec,
                   const KernelSpecialization &specialization) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      buildTileModule(context, source, specialization);
  if (!module)
    return std::nullopt;
  mlir::tile::CompileOptions options;
  options.numWarps = spec.numWarps;
  options.numStages = spec.numStages;
  options.target = spec.target;
  options.wideOffsets = spec.wideOffsets;
  options.warpSpecializeAll = spec.warpSpecializeAll;
  options.pingPong = spec.pingPong;
  options.persistentPrograms = spec.persistentPrograms;
  options.hoistTensorMaps = spec.hoistTensorMaps;
  if (mlir::failed(mlir::tile::lowerToTileGPU(*module, options)) ||
      mlir::failed(mlir::tile::lowerToLLVMDialect(*module)))
    return std::nullopt;
  mlir::FailureOr<std::string> ptx = mlir::tile::emitPTX(*module, spec.target);
  if (mlir::failed(ptx))
    return std::nullopt;
  return std::move(*ptx);
}

/// The number after `marker` in the PTX (past " =[", up to `stop` or ';'),
/// or 0 where the PTX has no such marker.
static unsigned readNumberAfter(llvm::StringRef ptx, llvm::StringRef marker,
                                char stop) {
  size_t at = ptx.find(marker);
  if (at == llvm::StringRef::npos)
    return 0;
  llvm::StringRef rest = ptx.drop_front(at + marker.size()).ltrim(" =[");
  unsigned value = 0;
  rest.take_until([&](char c) { return c == stop || c == ';'; })
      .trim()
      .getAsInteger(10, value);
  return value;
}

/// The warps a warp-specialized kernel adds (kProducerWarpsSymbol).
static unsigned readProducerWarps(llvm::StringRef ptx) {
  return readNumberAfter(
      ptx, (".u32 " + mlir::tilegpu::kProducerWarpsSymbol).str(), ';');
}

/// The shared memory the PTX declares: the dynamic size the module records
/// for the launch, or the static array's.
static unsigned readSharedBytes(llvm::StringRef ptx) {
  std::string dynamic =
      (".u32 " + mlir::tilegpu::kDynamicSharedBytesSymbol).str();
  if (unsigned bytes = readNumberAfter(ptx, dynamic, ';'))
    return bytes;
  return readNumberAfter(
      ptx, (".b8 " + mlir::tilegpu::kSharedScratchSymbol).str(), ']');
}

/// The int64 array the PTX's global `symbol` holds (its bytes, little
/// endian, as the NVPTX backend prints an initialized .b8 array: trailing
/// zero bytes left out), or nothing where it has no such global or its
/// initializer is malformed.
static std::optional<std::vector<int64_t>>
readI64Global(llvm::StringRef ptx, llvm::StringRef symbol) {
  std::string marker = (".b8 " + symbol + "[").str();
  size_t at = ptx.find(marker);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = ptx.drop_front(at + marker.size());
  size_t bytes = 0;
  size_t open = rest.find('{'), close = rest.find('}');
  if (rest.take_until([](char c) { return c == ']'; })
          .getAsInteger(10, bytes) ||
      bytes % 8 != 0 || open == llvm::StringRef::npos ||
      close == llvm::StringRef::npos || close < open ||
      rest.take_front(open).contains(';'))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> items;
  rest.slice(open + 1, close).split(items, ',');
  if (items.size() > bytes)
    return std::nullopt;
  std::vector<int64_t> values(bytes / 8, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    unsigned byte = 0;
    if (items[i].trim().getAsInteger(10, byte) || byte > 255)
      return std::nullopt;
    values[i / 8] =
        int64_t(uint64_t(values[i / 8]) | (uint64_t(byte) << (8 * (i % 8))));
  }
  return values;
}

void Compilation::run(std::unique_ptr<llvm::MemoryBuffer> buffer,
                      const Specialization &spec) {
  if (spec.numWarps < 1 || spec.numWarps > 32 ||
      (spec.numWarps & (spec.numWarps - 1)))
    return error("num_warps must be a power of 2 from 1 to 32, got " +
                 std::to_string(spec.numWarps));
  if (spec.numStages < 1)
    return error("num_stages must be at least 1, got " +
                 std::to_string(spec.numStages));
  std::string badTarget = mlir::tile::checkTarget(spec.target);
  if (!badTarget.empty())
    return error(badTarget);
  source.bufferId =
      source.sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  DiagEmitter &diag = *source.diag;
  source.module =
      frontend::parseModule(source.sourceMgr, source.bufferId, diag);
  if (!source.module || diag.hasErrors())
    return;
  source.launch.kernel = spec.kernel;
  // Unnamed: the kernel the file's launch description runs, or its only one.
  if (source.launch.kernel.empty())
    source.launch.kernel = launch::findKernelName(
        source.sourceMgr.getMemoryBuffer(source.bufferId)->getBuffer());
  if (source.launch.kernel.empty()) {
    std::vector<std::string> names = frontend::getKernelNames(*source.module);
    if (names.size() != 1)
      return error("name the kernel to compile (Specialization::kernel): the "
                   "source has no launch description and " +
                   std::to_string(names.size()) + " kernels");
    source.launch.kernel = names.front();
  }
  std::optional<std::vector<KernelParam>> params =
      frontend::getKernelParams(*source.module, source.launch.kernel, diag);
  if (!params)
    return;
  source.params = std::move(*params);

  KernelSpecialization specialization;
  CompiledKernel kernel;
  if (!specializeFromSignature(spec, specialization, kernel.parameters))
    return;

  std::string cacheMessages;
  llvm::raw_string_ostream cacheOS(cacheMessages);
  std::optional<cache::KernelCache> kernelCache;
  std::string key;
  if (spec.useCache) {
    kernelCache.emplace(cache::getCacheLocation(false), "tile", cacheOS,
                        /*verbose=*/false);
    if (kernelCache->isEnabled()) {
      key = getCacheKey(spec, specialization);
      if (std::optional<std::string> hit =
              kernelCache->lookup(cache::EntryKind::PTX, key);
          hit && !hit->empty()) {
        kernel.ptx = std::move(*hit);
        kernel.fromCache = true;
      }
    }
  }
  if (kernel.ptx.empty()) {
    std::optional<std::string> ptx = lower(spec, specialization);
    if (!ptx)
      return;
    kernel.ptx = std::move(*ptx);
    if (!key.empty())
      kernelCache->store(cache::EntryKind::PTX, key, kernel.ptx);
  }
  // The cache's warnings (a directory it cannot write, a corrupt entry).
  for (llvm::StringRef line : llvm::split(cacheMessages, '\n'))
    if (!line.empty())
      result.diagnostics.push_back(
          {Diagnostic::Severity::Note, "", 0, 0, line.str()});
  kernel.name = source.launch.kernel;
  kernel.target = spec.target;
  kernel.numWarps = spec.numWarps;
  kernel.sharedBytes = readSharedBytes(kernel.ptx);
  kernel.producerWarps = int(readProducerWarps(kernel.ptx));
  kernel.persistentPrograms =
      readNumberAfter(
          kernel.ptx,
          (".u32 " + mlir::tilegpu::kPersistentProgramsSymbol).str(), ';') != 0;
  if (std::optional<std::vector<int64_t>> recipes =
          readI64Global(kernel.ptx, mlir::tilegpu::kTensorMapsSymbol))
    kernel.tensorMapRecipes = std::move(*recipes);
  else if (kernel.ptx.find(mlir::tilegpu::kTensorMapsSymbol.str()) !=
           std::string::npos)
    return error("the PTX's tensor map recipes (" +
                 mlir::tilegpu::kTensorMapsSymbol.str() + ") are malformed");
  result.kernel = std::move(kernel);
}

CompileResult tile::compileFile(const std::string &path,
                                const Specialization &spec) {
  CompileResult result;
  Compilation compilation(result);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (std::error_code ec = file.getError()) {
    compilation.error("cannot read '" + path + "': " + ec.message());
    return result;
  }
  compilation.run(std::move(*file), spec);
  return result;
}

CompileResult tile::compileString(std::string_view source,
                                  const std::string &name,
                                  const Specialization &spec) {
  CompileResult result;
  Compilation compilation(result);
  compilation.run(llvm::MemoryBuffer::getMemBufferCopy(
                      llvm::StringRef(source.data(), source.size()), name),
                  spec);
  return result;
}
