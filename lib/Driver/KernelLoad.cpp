//===- KernelLoad.cpp - read a kernel and its launch ----------------------===//
//
// Reads the kernel a run compiles: a .tile file through the front end,
// specialized for its launch, or a tile-dialect .mlir file whose
// `// tile-run:` launch lists the function's arguments. Gives the grid its
// value once num_sms() and occupancy() are known.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Frontend/Parser.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace tile {
namespace {
/// The function named by the launch, or the only one.
func::FuncOp findKernel(ModuleOp module, TileSource &source) {
  func::FuncOp found;
  unsigned count = 0;
  module.walk([&](func::FuncOp f) {
    ++count;
    if (source.launch.kernel.empty() || f.getSymName() == source.launch.kernel)
      found = f;
  });
  if (!found || (source.launch.kernel.empty() && count != 1)) {
    source.diag->error(source.launch.loc,
                       source.launch.kernel.empty()
                           ? "name the kernel to run after 'tile-run:'"
                           : "no func.func @" + source.launch.kernel);
    return nullptr;
  }
  return found;
}

/// A .mlir file: the tile-dialect module and a `// tile-run:` launch whose
/// `args = (...)` gives the function's arguments in order.
bool loadMLIRKernel(RunContext &context, ArrayRef<launch::Override> overrides,
                    Kernel &kernel) {
  kernel.source = std::make_unique<TileSource>();
  TileSource &source = *kernel.source;
  source.diag = std::make_unique<frontend::DiagEmitter>(source.sourceMgr,
                                                        *context.errorStream);
  std::optional<unsigned> id = frontend::addSourceFile(
      source.sourceMgr, context.options.inputFile, *source.diag);
  if (!id)
    return false;
  source.bufferId = *id;
  std::optional<launch::LaunchSpec> spec = launch::parseLaunchSpec(
      source.sourceMgr, *id, *source.diag, overrides, "//");
  if (!spec)
    return false;
  source.launch = std::move(*spec);
  kernel.module =
      parseSourceFile<ModuleOp>(source.sourceMgr, &context.mlirContext);
  if (!kernel.module)
    return false;
  kernel.func = findKernel(*kernel.module, source);
  if (!kernel.func)
    return false;
  const launch::LaunchSpec &launch = source.launch;
  auto it = launch.variables.find("args");
  if (it != launch.variables.end())
    kernel.args = it->second.kind == launch::Value::Kind::Tuple
                      ? it->second.elements
                      : std::vector<launch::Value>{it->second};
  for (const launch::Value &arg : kernel.args)
    if (arg.isDeferred()) {
      source.diag->error(launch.getLocation("args"),
                         "args: " + arg.describe() +
                             "; only the grid may use them");
      return false;
    }
  if (kernel.args.size() != kernel.func.getNumArguments()) {
    source.diag->error(launch.getLocation("args"),
                       "@" + kernel.func.getSymName() + " takes " +
                           std::to_string(kernel.func.getNumArguments()) +
                           " arguments; the launch description gives " +
                           std::to_string(kernel.args.size()) +
                           " (args = (...))");
    return false;
  }
  return true;
}

/// A .tile file: front end, specialized by the launch.
bool loadTileKernel(RunContext &context, ArrayRef<launch::Override> overrides,
                    Kernel &kernel) {
  kernel.source = loadTileSource(context.options.inputFile, overrides,
                                 *context.errorStream);
  if (!kernel.source)
    return false;
  std::optional<frontend::KernelSpecialization> specialization =
      specialize(*kernel.source);
  if (!specialization)
    return false;
  kernel.specializationKey = getSpecializationKey(*specialization);
  kernel.module =
      buildTileModule(context.mlirContext, *kernel.source, *specialization);
  if (!kernel.module)
    return false;
  kernel.func = findKernel(*kernel.module, *kernel.source);
  if (!kernel.func)
    return false;
  // Constexprs and integers equal to 1 are folded into the kernel.
  const launch::LaunchSpec &launch = kernel.source->launch;
  for (const frontend::ParamSpec &param : specialization->params) {
    if (param.type == "constexpr" || param.equalsOne)
      continue;
    launch::Value value = launch.variables.lookup(param.name);
    if (value.kind != launch::Value::Kind::TensorDescriptor) {
      kernel.args.push_back(value);
      continue;
    }
    // A descriptor is its base pointer, its shape, its strides but the
    // last (1) and its TMA tensor map, as the kernel's arguments (the front
    // end's tensordesc<...> parameters); the descriptor itself stands for
    // the tensor map, which the launch encodes.
    launch::Value base;
    base.kind = launch::Value::Kind::Buffer;
    base.buffer = value.buffer;
    kernel.args.push_back(base);
    for (int64_t extent : value.shape)
      kernel.args.push_back(launch::Value::getInt(extent));
    for (size_t d = 0; d + 1 < value.shape.size(); ++d)
      kernel.args.push_back(
          launch::Value::getInt(value.getDescriptorStride(d)));
    kernel.args.push_back(value);
  }
  if (kernel.args.size() != kernel.func.getNumArguments())
    return context.fail("internal error: the kernel's arguments do not match "
                        "its specialization"),
           false;
  return true;
}
} // namespace

bool isMLIRInput(const RunOptions &options) {
  return llvm::StringRef(options.inputFile).ends_with(".mlir");
}

bool loadKernel(RunContext &context, ArrayRef<launch::Override> overrides,
                Kernel &kernel) {
  return isMLIRInput(context.options)
             ? loadMLIRKernel(context, overrides, kernel)
             : loadTileKernel(context, overrides, kernel);
}

/// Evaluates the launch description again, knowing num_sms() and
/// occupancy(). Everything else the first evaluation gave stays (it cannot
/// depend on them).
bool resolveGrid(RunContext &context, Kernel &kernel,
                 ArrayRef<launch::Override> overrides,
                 const launch::DeviceValues &values) {
  TileSource &source = *kernel.source;
  if (!source.launch.gridDeferred)
    return true;
  std::optional<launch::LaunchSpec> full = launch::parseLaunchSpec(
      source.sourceMgr, source.bufferId, *source.diag, overrides,
      isMLIRInput(context.options) ? "//" : "#", &values);
  if (!full)
    return false;
  source.launch.grid = full->grid;
  source.launch.gridDeferred = false;
  kernel.gridFrom = values;
  return true;
}

std::string describeGridSource(const Kernel &kernel, bool interpreter) {
  if (!kernel.gridFrom)
    return "";
  return llvm::formatv(" from num_sms() = {0}, occupancy() = {1}{2}",
                       kernel.gridFrom->numSMs, kernel.gridFrom->occupancy,
                       interpreter ? " (the interpreter's)" : "")
      .str();
}
} // namespace tile
