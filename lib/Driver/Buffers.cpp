//===- Buffers.cpp - a run's input and output buffers ---------------------===//
//
// The host copies of the launch's buffers: made from the seed or read from
// .npy files before a run (--input), then the derived buffers computed from
// them in the description's order; printed or written to .npy files
// after it (--print-buffer, --save, --save-dir).
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "RunInternal.h"
#include "tile/Driver/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

namespace tile {
bool makeInputs(RunContext &context, frontend::DiagEmitter &diag,
                const launch::LaunchSpec &spec,
                std::vector<HostArray> &inputs) {
  // A run holds the inputs and the outputs (and with --compare the
  // interpreter's too). Ask for that much first, without operator new,
  // whose failure LLVM's out-of-memory handler turns into an abort.
  uint64_t total = 0;
  for (const launch::BufferSpec &buffer : spec.buffers)
    total +=
        uint64_t(buffer.getNumElements()) * launch::getByteWidth(buffer.dtype);
  uint64_t needed = total * (context.options.compare ? 3 : 2);
  if (void *probe = needed ? std::malloc(needed) : nullptr)
    std::free(probe);
  else if (needed)
    return context.fail("cannot allocate " + std::to_string(needed) +
                        " bytes for the launch's buffers (" +
                        std::to_string(total) + " bytes of inputs, held " +
                        (context.options.compare ? "three times" : "twice") +
                        ")"),
           false;
  std::vector<bool> fromFile(spec.buffers.size(), false);
  for (size_t i = 0; i < spec.buffers.size(); ++i)
    inputs.push_back(
        makeHostArray(spec.buffers[i], context.options.seed + 977 * i));
  for (const std::string &option : context.options.npyInputs) {
    std::string name, path, error;
    if (!splitAssignment(context, "--input", option, name, path))
      return false;
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return context.fail("--input " + name + ": no buffer of that name"),
             false;
    HostArray array;
    if (!readNpy(path, array, error))
      return context.fail(error), false;
    HostArray &target = inputs[it - spec.buffers.begin()];
    if (array.dtype != target.dtype || array.shape != target.shape) {
      auto describe = [](const HostArray &a) {
        std::string text = launch::getName(a.dtype).str() + "(";
        for (size_t d = 0; d < a.shape.size(); ++d)
          text += (d ? ", " : "") + std::to_string(a.shape[d]);
        return text + ")";
      };
      return context.fail("--input " + name + ": '" + path + "' holds " +
                          describe(array) + ", the buffer is " +
                          describe(target)),
             false;
    }
    target.bytes = std::move(array.bytes);
    fromFile[it - spec.buffers.begin()] = true;
  }
  // A derived buffer reads its operands' contents, files included; a file
  // given for the derived buffer itself replaces it.
  for (size_t i = 0; i < spec.buffers.size(); ++i) {
    if (spec.buffers[i].init != launch::BufferSpec::Init::Derived ||
        fromFile[i])
      continue;
    std::string error;
    if (!launch::computeDerived(i, inputs, spec, inputs[i], error)) {
      diag.error(spec.buffers[i].loc, error);
      return false;
    }
  }
  return true;
}

bool sameBuffers(ArrayRef<launch::BufferSpec> a,
                 ArrayRef<launch::BufferSpec> b) {
  return a.size() == b.size() &&
         std::equal(
             a.begin(), a.end(), b.begin(),
             [](const launch::BufferSpec &x, const launch::BufferSpec &y) {
               return x.name == y.name && x.dtype == y.dtype &&
                      x.shape == y.shape && x.init == y.init;
             });
}

int saveBuffers(RunContext &context, const launch::LaunchSpec &spec,
                const std::vector<HostArray> &buffers) {
  const RunOptions &options = context.options;
  for (const std::string &name : options.printBuffers) {
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return context.fail("--print-buffer " + name +
                          ": no buffer of that name");
    const HostArray &array = buffers[it - spec.buffers.begin()];
    llvm::outs() << name << " =";
    // Integers exactly (u64 unsigned), floats to float32's precision.
    bool isInteger = !launch::isFloat(array.dtype);
    for (int64_t i = 0; i < array.size(); ++i) {
      llvm::outs() << " ";
      if (array.dtype == launch::DType::U64)
        llvm::outs() << uint64_t(array.getInt(i));
      else if (isInteger)
        llvm::outs() << array.getInt(i);
      else
        llvm::outs() << llvm::format("%.9g", array.get(i));
    }
    llvm::outs() << "\n";
  }
  std::vector<std::pair<size_t, std::string>> targets;
  for (const std::string &option : options.npySaves) {
    std::string name, path;
    if (!splitAssignment(context, "--save", option, name, path))
      return 1;
    auto it = llvm::find_if(spec.buffers, [&](const launch::BufferSpec &b) {
      return b.name == name;
    });
    if (it == spec.buffers.end())
      return context.fail("--save " + name + ": no buffer of that name");
    targets.push_back({size_t(it - spec.buffers.begin()), path});
  }
  if (!options.saveDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(options.saveDir))
      return context.fail("cannot create '" + options.saveDir +
                          "': " + ec.message());
    for (size_t b = 0; b < spec.buffers.size(); ++b) {
      if (spec.buffers[b].name.empty())
        continue; // an operand written inline, e.g. rand(fp32, n) > p
      llvm::SmallString<128> path(options.saveDir);
      llvm::sys::path::append(path, spec.buffers[b].name + ".npy");
      targets.push_back({b, std::string(path)});
    }
  }
  for (const auto &[b, path] : targets) {
    std::string error;
    if (!writeNpy(path, buffers[b], error))
      return context.fail(error);
  }
  return 0;
}
} // namespace tile
