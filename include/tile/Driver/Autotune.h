//===- Autotune.h - @triton.autotune's configurations -----------*- C++ -*-===//
//
// What tile-run needs to tune a kernel the way Triton's Autotuner does:
// each triton.Config becomes launch overrides (its constexprs, num_warps,
// num_stages); every one is compiled and timed by the caller's trial
// function; the fastest is kept. The choice is stored in the kernel cache
// (an autotune entry whose payload is JSON), keyed by the kernel's source,
// the values of the decorator's `key` arguments, the argument types, the
// device and the compiler version.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DRIVER_AUTOTUNE_H
#define TILE_DRIVER_AUTOTUNE_H

#include "tile/Driver/LaunchSpec.h"
#include "tile/Frontend/MLIRGen.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tile::tune {

/// One configuration as launch overrides.
struct Candidate {
  /// The configuration's place in the decorator's list, 0-based (an
  /// --autotune-fixture's numbers are these, 1-based). Progress lines and
  /// choices number the candidates tried instead, which a pruner may thin.
  size_t index = 0;
  /// Its constexprs, then num_warps and num_stages.
  std::vector<launch::Override> overrides;
  /// "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 num_warps=8 num_stages=3".
  std::string description;
};

std::vector<Candidate> expandConfigs(const frontend::AutotuneInfo &info);

/// --autotune-schedules: each candidate again with warp_specialize_all=True
/// (the compiler splits every loop it can into a TMA producer and
/// consumers), after all of them, then each of those with ping_pong=False
/// (the split's consumer warpgroups issue their dots at once). Their
/// indices are the decorator's numbers plus `configCount`, then plus twice
/// it, so a fixture numbers these configCount+1 onwards.
void addWarpSpecializedSchedules(std::vector<Candidate> &candidates,
                                 size_t configCount);

/// The constexpr names any configuration sets, in first-seen order.
std::vector<std::string> getTunedNames(const frontend::AutotuneInfo &info);

/// A constexpr value as a launch-description expression ('abc', True, 1.5).
std::string formatConstexpr(const frontend::ConstexprValue &value);

/// A launch value as key text: numbers, strings, buffers as dtype and shape.
std::string formatKeyValue(const launch::Value &value,
                           const launch::LaunchSpec &spec);

/// What one configuration's trial gave: a time, or why there is none
/// ("failed to compile: ...").
struct Trial {
  std::optional<double> ms;
  std::string error;
};

struct Outcome {
  size_t best = 0;
  /// The best's time: its one trial's, or with confirmation rounds the
  /// median of its times.
  double bestMs = 0;
  double seconds = 0;
  std::vector<Trial> trials;
  /// With confirmation rounds: each finalist's position and every time it
  /// ran in (its first trial's first).
  std::vector<std::pair<size_t, std::vector<double>>> confirmed;
};

/// Runs `trial` on every candidate, printing one progress line each and the
/// best; nullopt (after a line saying so) when every one failed. With
/// `confirmRounds`, the candidates whose time is within 5% of the best's
/// (at most four, fastest first) run that many more times, taking turns,
/// and the lowest median of a candidate's times wins: one trial each can
/// let noise pick between configurations that close.
std::optional<Outcome> tune(llvm::ArrayRef<Candidate> candidates,
                            llvm::function_ref<Trial(const Candidate &)> trial,
                            llvm::raw_ostream &os, unsigned confirmRounds = 0);

/// The choice file's payload.
std::string
formatChoice(llvm::StringRef kernel, llvm::StringRef device,
             llvm::ArrayRef<std::pair<std::string, std::string>> key,
             llvm::ArrayRef<Candidate> candidates, const Outcome &outcome);

/// Reads a choice back; false with `error` when it is not a valid choice
/// among `candidates` (not JSON, fields missing, another configuration list).
bool parseChoice(llvm::StringRef payload, llvm::ArrayRef<Candidate> candidates,
                 size_t &index, double &ms, std::string &error);

/// --autotune-fixture: fake timings for tests, one line per configuration
/// (1-based, as the progress lines count): `3 = 0.412` (ms), `3 = 0.412,
/// 0.5` (the times of its first, second, ... trial; the last one repeats)
/// or `3 = fail TEXT` (a launch that fails), and `device = NAME`.
struct Fixture {
  std::string device = "fixture";
  std::map<size_t, std::vector<Trial>> trials;
  std::map<size_t, size_t> used;
  /// Configuration `config`'s next trial (1-based), nullopt if it has none.
  std::optional<Trial> next(size_t config);
};
bool readFixture(llvm::StringRef path, Fixture &fixture, std::string &error);

} // namespace tile::tune

#endif // TILE_DRIVER_AUTOTUNE_H
