//===- AutotuneRun.cpp - pick a @triton.autotune configuration ------------===//
//
// Before a run: decides whether the kernel's @triton.autotune
// configurations are tuned (the launch sets none of their constexprs, or
// --autotune) and, if so, compiles them all in parallel into the kernel
// cache, then runs each as a trial (Autotune.cpp keeps the fastest); or
// takes the choice the kernel cache kept for the same key.
//
//===----------------------------------------------------------------------===//

#include "RunInternal.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Driver/Autotune.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace mlir;

namespace tile {
namespace {
/// runKernel at `stage` with what it would print on stderr captured in
/// `captured` (its status returned).
int runCaptured(RunContext &context, ArrayRef<launch::Override> overrides,
                Stage stage, RunResult &result, std::string &captured) {
  llvm::raw_string_ostream capture(captured);
  llvm::raw_ostream *saved = context.errorStream;
  context.errorStream = &capture;
  int status;
  {
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context.mlirContext,
                                       capture);
    status = runKernel(context, overrides, result, stage);
  }
  context.errorStream = saved;
  return status;
}

/// A tuning trial of one configuration: runKernel at `stage`, its error
/// message kept for the progress line.
tune::Trial runTrial(RunContext &context, ArrayRef<launch::Override> overrides,
                     Stage stage) {
  std::string captured;
  RunResult result;
  int status = runCaptured(context, overrides, stage, result, captured);
  tune::Trial trial;
  if (status == 0) {
    trial.ms = result.ms;
    return trial;
  }
  llvm::StringRef message = llvm::StringRef(captured).trim();
  message = message.take_front(message.find('\n'));
  message.consume_front(context.options.toolName + ": ");
  trial.error = std::string("failed to ") + result.phase + ": " +
                (message.empty() ? std::string("no message") : message.str());
  return trial;
}

/// The hash of the PTX the launch with `overrides` compiles to (from the
/// kernel cache where the configurations were precompiled); none where it
/// does not compile.
std::optional<uint64_t> compiledPtxHash(RunContext &context,
                                        ArrayRef<launch::Override> overrides) {
  std::string ignored;
  RunResult result;
  if (runCaptured(context, overrides, Stage::CompileOnly, result, ignored))
    return std::nullopt;
  return result.ptxHash;
}

/// Compiles every configuration into the kernel cache before the trials,
/// on as many threads as the machine has cores (each with its own MLIR
/// context, front end and LLVM target machine): the PTX, and on a GPU the
/// cubin the driver's JIT makes of it (each thread with the driver's
/// context current), so that each trial only loads a cubin. A
/// configuration that fails to compile here is left to its trial, which
/// compiles it again and reports the error.
void precompileConfigs(RunContext &context,
                       ArrayRef<launch::Override> overrides,
                       ArrayRef<tune::Candidate> candidates) {
  unsigned threads = std::min<unsigned>(
      std::max(1u, std::thread::hardware_concurrency()), candidates.size());
  if (threads < 2 || !context.cache || !context.cache->isEnabled())
    return;
  std::atomic<size_t> next{0};
  auto work = [&] {
    std::string contextError;
    bool onGPU = context.driver && context.driver->makeCurrent(contextError);
    MLIRContext mlirContext(context.mlirContext.getDialectRegistry(),
                            MLIRContext::Threading::DISABLED);
    mlirContext.loadAllAvailableDialects();
    std::string ignored;
    llvm::raw_string_ostream errors(ignored);
    llvm::SourceMgr sourceMgr;
    SourceMgrDiagnosticHandler handler(sourceMgr, &mlirContext, errors);
    RunContext worker(mlirContext, context.options);
    worker.errorStream = &errors;
    worker.driver = onGPU ? context.driver : nullptr;
    worker.cache = std::make_unique<cache::KernelCache>(
        cache::CacheLocation{context.cache->getDir(), ""},
        context.options.toolName, errors, /*verbose=*/false);
    for (size_t i = next++; i < candidates.size(); i = next++) {
      std::vector<launch::Override> all(overrides.begin(), overrides.end());
      llvm::append_range(all, candidates[i].overrides);
      RunResult result;
      runKernel(worker, all, result, Stage::Precompile);
    }
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(work);
  for (std::thread &thread : pool)
    thread.join();
  llvm::outs() << llvm::formatv(
      "autotune: compiled {0} configurations in {1:f1} s on {2} threads "
      "({3})\n",
      candidates.size(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count(),
      threads,
      context.driver && context.driver->canLink() ? "PTX and cubins" : "PTX");
}

/// A kernel argument's type for the autotune key, as Triton keys on dtypes.
std::string describeArgType(const launch::Value &value,
                            const launch::LaunchSpec &spec) {
  switch (value.kind) {
  case launch::Value::Kind::Buffer:
    return "*" + launch::getName(spec.buffers[value.buffer].dtype).str();
  case launch::Value::Kind::Int:
    return value.intValue >= INT32_MIN && value.intValue <= INT32_MAX ? "i32"
                                                                      : "i64";
  case launch::Value::Kind::Bool:
    return "i1";
  case launch::Value::Kind::Float:
    return "fp32";
  default:
    return value.describe();
  }
}

/// @triton.autotune: picks the configuration to run with and appends its
/// overrides to `chosen`. The kernel is tuned when the launch sets none of
/// the constexprs the configurations set (or with --autotune); a launch
/// that sets all of them runs as it is; setting some is an error. Returns
/// nonzero after an error.
int chooseConfig(RunContext &context, ArrayRef<launch::Override> overrides,
                 std::vector<launch::Override> &chosen) {
  const RunOptions &options = context.options;
  const std::string &tool = options.toolName;
  if (isMLIRInput(options))
    return 0;
  std::unique_ptr<TileSource> source =
      parseTileSource(options.inputFile, llvm::errs());
  if (!source)
    return 1;
  if (source->launch.kernel.empty())
    return 0; // the run reports it
  // A decorator tile-run cannot read (configs= it cannot evaluate) only stops
  // a run that asks for tuning; otherwise the launch's values run.
  std::string autotuneErrors;
  llvm::raw_string_ostream autotuneErrorStream(autotuneErrors);
  frontend::DiagEmitter autotuneDiag(source->sourceMgr, autotuneErrorStream);
  auto autotune = frontend::getAutotuneInfo(
      *source->module, source->launch.kernel, autotuneDiag,
      mlir::tilegpu::getComputeCapability(options.target));
  if (failed(autotune)) {
    if (options.forceAutotune) {
      llvm::errs() << autotuneErrors;
      return 1;
    }
    llvm::StringRef first = llvm::StringRef(autotuneErrors).trim();
    llvm::errs() << tool
                 << ": note: not tuning: " << first.take_front(first.find('\n'))
                 << "\n";
    return 0;
  }
  if (!*autotune || (*autotune)->configs.empty())
    return 0;
  std::vector<tune::Candidate> candidates = tune::expandConfigs(**autotune);
  std::vector<std::string> tuned = tune::getTunedNames(**autotune);
  size_t count = candidates.size();

  // Evaluate the launch with the first configuration's values for what the
  // command line leaves open (its grid may use them), to see which of them
  // the description itself sets.
  llvm::StringSet<> fromCommandLine;
  for (const launch::Override &o : overrides)
    fromCommandLine.insert(o.name);
  std::vector<launch::Override> probe(overrides.begin(), overrides.end());
  for (const launch::Override &o : candidates.front().overrides)
    if (llvm::is_contained(tuned, o.name) && !fromCommandLine.count(o.name))
      probe.push_back(o);
  if (!evaluateLaunch(*source, probe))
    return 1;
  const launch::LaunchSpec &spec = source->launch;
  std::vector<std::string> pinned, open;
  for (const std::string &name : tuned)
    (spec.assigned.count(name) || fromCommandLine.count(name) ? pinned : open)
        .push_back(name);
  if (!options.forceAutotune) {
    if (open.empty()) {
      if (options.emit == Emit::None && options.info == InfoFormat::None)
        llvm::outs() << "autotune: the launch sets " << llvm::join(pinned, ", ")
                     << "; not tuning (--autotune tunes)\n";
      return 0;
    }
    if (!pinned.empty()) {
      source->diag->error(
          spec.loc, "the launch sets " + llvm::join(pinned, ", ") +
                        " but not " + llvm::join(open, ", ") +
                        ", which @triton.autotune tunes: set all of them (no "
                        "tuning) or none (tuning), or pass --autotune");
      return 1;
    }
  }
  // The decorator's early_config_prune sees the launch's numbers, as
  // Triton's autotuner passes it the call's arguments.
  std::string prunedTo;
  if (!(*autotune)->earlyConfigPrune.empty()) {
    std::vector<std::pair<std::string, frontend::ConstexprValue>> arguments;
    for (const auto &entry : spec.variables) {
      const launch::Value &v = entry.second;
      if (v.kind == launch::Value::Kind::Int)
        arguments.push_back({entry.first().str(), v.intValue});
      else if (v.kind == launch::Value::Kind::Bool)
        arguments.push_back({entry.first().str(), v.intValue != 0});
      else if (v.kind == launch::Value::Kind::Float)
        arguments.push_back({entry.first().str(), v.floatValue});
    }
    auto kept = frontend::pruneAutotuneConfigs(
        *source->module, **autotune, arguments, *source->diag,
        mlir::tilegpu::getComputeCapability(options.target));
    if (failed(kept))
      return 1;
    if (kept->empty()) {
      source->diag->error((*autotune)->loc,
                          "'" + (*autotune)->earlyConfigPrune +
                              "' keeps no configuration for this launch");
      return 1;
    }
    if (kept->size() != candidates.size()) {
      std::vector<tune::Candidate> pruned;
      for (size_t i : *kept) {
        pruned.push_back(candidates[i]);
        prunedTo += std::to_string(i) + " ";
      }
      if (options.emit == Emit::None && options.info == InfoFormat::None)
        llvm::outs() << llvm::formatv(
            "autotune: {0} keeps {1} of {2} configurations\n",
            (*autotune)->earlyConfigPrune, pruned.size(), candidates.size());
      candidates = std::move(pruned);
      count = candidates.size();
    }
    // As Triton's autotuner: one configuration left is not timed.
    if (candidates.size() == 1) {
      if (options.emit == Emit::None && options.info == InfoFormat::None)
        llvm::outs() << "autotune: running the one configuration left: "
                     << candidates.front().description << "\n";
      llvm::append_range(chosen, candidates.front().overrides);
      return 0;
    }
  }
  // The compiler's schedules are a dimension of their own: each
  // configuration also with every loop it can split warp-specialized.
  bool schedules = options.autotuneSchedules &&
                   mlir::tilegpu::getComputeCapability(options.target) >= 90;
  // Where the schedules start (each group as long as the configurations).
  size_t scheduleStart = candidates.size();
  if (schedules) {
    tune::addWarpSpecializedSchedules(candidates, (*autotune)->configs.size());
    count = candidates.size();
  } else if (options.autotuneSchedules) {
    llvm::errs() << tool
                 << ": note: --autotune-schedules: warp specialization needs "
                    "sm_90a or later; tuning the default schedule only\n";
  }
  const tune::Candidate &first = candidates.front();
  if (options.emit != Emit::None) {
    llvm::errs() << llvm::formatv(
        "{0}: note: autotune: --emit compiles config 1/{1}: {2} (--set "
        "its constexprs to pick another)\n",
        tool, count, first.description);
    llvm::append_range(chosen, first.overrides);
    return 0;
  }
  bool useFixture = !options.autotuneFixture.empty();
  if (!useFixture && !context.driver) {
    llvm::outs() << llvm::formatv(
        "autotune: the interpreter cannot time configurations; running "
        "config 1/{0}: {1}\n",
        count, first.description);
    llvm::append_range(chosen, first.overrides);
    return 0;
  }
  tune::Fixture fixture;
  std::string error;
  if (useFixture && !tune::readFixture(options.autotuneFixture, fixture, error))
    return context.fail("--autotune-fixture: " + error);
  std::string device =
      useFixture ? fixture.device : context.driver->deviceName();

  // The choice's key: Triton's (the key arguments' values, the argument
  // types) plus the source, the device, the target and the compiler.
  std::vector<std::pair<std::string, std::string>> keyValues;
  cache::KeyBuilder key;
  key.add("compiler", cache::getCompilerVersion())
      .add("source",
           source->sourceMgr.getMemoryBuffer(source->bufferId)->getBuffer())
      .add("kernel", spec.kernel)
      .add("device", device)
      .add("target", options.target);
  // A choice is an index into the configurations tried: launches the
  // pruner gives other ones (tutorial 06's causal and non-causal, one
  // Triton key) keep their own choices.
  if (!prunedTo.empty())
    key.add("pruned to", prunedTo);
  if (schedules)
    key.add("schedules", "default, warp-specialized, without turns");
  if (options.autotuneConfirm)
    key.add("confirm rounds", int64_t(options.autotuneConfirm));
  for (const std::string &name : (*autotune)->key) {
    auto it = spec.variables.find(name);
    std::string value = it == spec.variables.end()
                            ? std::string("default")
                            : tune::formatKeyValue(it->second, spec);
    key.add("key " + name, value);
    keyValues.push_back({name, value});
  }
  for (const frontend::KernelParam &param : source->params) {
    auto it = spec.variables.find(param.name);
    if (!param.isConstexpr && it != spec.variables.end())
      key.add("type " + param.name, describeArgType(it->second, spec));
  }
  std::string choiceKey = key.digest();
  cache::KernelCache *kernelCache = context.cache && context.cache->isEnabled()
                                        ? context.cache.get()
                                        : nullptr;
  if (kernelCache && !options.retune) {
    if (std::optional<std::string> payload =
            kernelCache->lookup(cache::EntryKind::Autotune, choiceKey)) {
      size_t index = 0;
      double ms = 0;
      if (tune::parseChoice(*payload, candidates, index, ms, error)) {
        llvm::outs() << llvm::formatv(
            "autotune: cached choice config {0}/{1}: {2}: {3:f4} ms when "
            "tuned ({4}; --retune tunes again)\n",
            index + 1, count, candidates[index].description, ms,
            kernelCache->getPath(cache::EntryKind::Autotune, choiceKey));
        llvm::append_range(chosen, candidates[index].overrides);
        return 0;
      }
      kernelCache->discard(cache::EntryKind::Autotune, choiceKey, error);
    }
  }

  std::string keyText;
  for (const auto &keyValue : keyValues)
    keyText +=
        (keyText.empty() ? "" : ", ") + keyValue.first + "=" + keyValue.second;
  llvm::outs() << llvm::formatv(
      "autotune: {0} configurations of {1} on {2}, "
      "key {3}{4}\n",
      count, spec.kernel, device, keyText.empty() ? "()" : keyText,
      useFixture ? " (fake timings from the fixture)" : "");
  precompileConfigs(context, overrides, candidates);
  auto withOverrides = [&](const tune::Candidate &candidate) {
    std::vector<launch::Override> all(overrides.begin(), overrides.end());
    llvm::append_range(all, candidate.overrides);
    return all;
  };
  // The warp-specialized schedules follow their configurations in the same
  // order, then the same without ping-pong. One the compiler cannot split
  // (one warpgroup, loads that are not all TMA, pipelines one after the
  // other) is the same kernel, and so is a split without two consumer
  // warpgroups to take turns: timing it again would only let noise pick it.
  // So is a configuration that differs from an earlier one in num_stages
  // alone where no more stages fit.
  std::vector<std::optional<std::optional<uint64_t>>> hashes(candidates.size());
  auto hashOf = [&](size_t position) {
    if (!hashes[position])
      hashes[position] =
          compiledPtxHash(context, withOverrides(candidates[position]));
    return *hashes[position];
  };
  auto sameKernel = [&](size_t position, size_t earlier) {
    std::optional<uint64_t> hash = hashOf(position);
    return hash && hash == hashOf(earlier);
  };
  // (Unless the kernel takes num_stages as a run-time argument: the same
  // PTX would then run with another value.)
  bool stagesArgument =
      llvm::any_of(source->params, [](const frontend::KernelParam &param) {
        return param.name == "num_stages" && !param.isConstexpr;
      });
  auto differsInStagesOnly = [&](const tune::Candidate &a,
                                 const tune::Candidate &b) {
    if (stagesArgument)
      return false;
    auto others = [](const tune::Candidate &candidate) {
      std::vector<std::pair<std::string, std::string>> settings;
      for (const launch::Override &setting : candidate.overrides)
        if (setting.name != "num_stages")
          settings.emplace_back(setting.name, setting.expression);
      return settings;
    };
    return others(a) == others(b);
  };
  auto sameKernelAs = [&](const tune::Candidate &candidate)
      -> std::optional<std::pair<size_t, const char *>> {
    size_t position = &candidate - candidates.data();
    if (position >= 2 * scheduleStart &&
        sameKernel(position, position - scheduleStart)) {
      size_t split = position - scheduleStart;
      if (sameKernel(split, split - scheduleStart))
        return std::make_pair(split - scheduleStart, "nothing to split");
      return std::make_pair(split, "no turns to take");
    }
    if (position >= scheduleStart && position < 2 * scheduleStart &&
        sameKernel(position, position - scheduleStart))
      return std::make_pair(position - scheduleStart, "nothing to split");
    for (size_t earlier = 0; earlier < position; ++earlier)
      if (differsInStagesOnly(candidate, candidates[earlier]) &&
          sameKernel(position, earlier))
        return std::make_pair(earlier, candidate.description ==
                                               candidates[earlier].description
                                           ? "the same configuration"
                                           : "no more stages fit");
    return std::nullopt;
  };
  auto trial = [&](const tune::Candidate &candidate) {
    if (auto same = sameKernelAs(candidate))
      return tune::Trial{std::nullopt,
                         llvm::formatv("not timed: the kernel of config {0} "
                                       "({1})",
                                       same->first + 1, same->second)
                             .str()};
    std::vector<launch::Override> trialOverrides = withOverrides(candidate);
    tune::Trial result =
        runTrial(context, trialOverrides,
                 useFixture ? Stage::CompileOnly : Stage::Trial);
    if (!useFixture || !result.error.empty())
      return result;
    if (std::optional<tune::Trial> faked = fixture.next(candidate.index + 1))
      return *faked;
    return tune::Trial{std::nullopt, "no time in the fixture"};
  };
  std::optional<tune::Outcome> outcome =
      tune::tune(candidates, trial, llvm::outs(), options.autotuneConfirm);
  context.tuneBuffers.clear();
  context.tuneInputs.clear();
  context.tuneDevice.reset();
  if (!outcome)
    return context.fail("autotune: no configuration of " + spec.kernel +
                        " compiled and ran");
  if (kernelCache)
    kernelCache->store(cache::EntryKind::Autotune, choiceKey,
                       tune::formatChoice(spec.kernel, device, keyValues,
                                          candidates, *outcome));
  llvm::append_range(chosen, candidates[outcome->best].overrides);
  return 0;
}
} // namespace

int runTuned(RunContext &context, ArrayRef<launch::Override> overrides,
             RunResult &result) {
  std::vector<launch::Override> all(overrides.begin(), overrides.end());
  if (int status = chooseConfig(context, overrides, all))
    return status;
  return runKernel(context, all, result);
}
} // namespace tile
