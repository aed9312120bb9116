//===- Autotune.cpp - @triton.autotune's configurations -------------------===//

#include "tile/Driver/Autotune.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>

using namespace tile;
using namespace tile::tune;

/// A double that reads back as the same double.
static std::string formatDouble(double v) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", v);
  return text;
}

std::string tile::tune::formatConstexpr(const frontend::ConstexprValue &value) {
  return std::visit(
      [](const auto &v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          std::string text = "'";
          for (char c : v) {
            if (c == '\'' || c == '\\')
              text += '\\';
            text += c;
          }
          return text + "'";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "True" : "False";
        } else if constexpr (std::is_same_v<T, double>) {
          std::string text = formatDouble(v);
          // Keep it a float in the launch description.
          if (text.find_first_of(".eEn") == std::string::npos)
            text += ".0";
          return text;
        } else {
          return std::to_string(v);
        }
      },
      value);
}

std::vector<std::string>
tile::tune::getTunedNames(const frontend::AutotuneInfo &info) {
  std::vector<std::string> names;
  for (const frontend::AutotuneConfig &config : info.configs)
    for (const auto &kwarg : config.kwargs)
      if (!llvm::is_contained(names, kwarg.first))
        names.push_back(kwarg.first);
  return names;
}

std::vector<Candidate>
tile::tune::expandConfigs(const frontend::AutotuneInfo &info) {
  std::vector<Candidate> candidates;
  for (size_t i = 0; i < info.configs.size(); ++i) {
    const frontend::AutotuneConfig &config = info.configs[i];
    Candidate candidate;
    candidate.index = i;
    for (const auto &kwarg : config.kwargs) {
      std::string value = formatConstexpr(kwarg.second);
      candidate.overrides.push_back({kwarg.first, value});
      candidate.description += kwarg.first + "=" + value + " ";
    }
    candidate.overrides.push_back(
        {"num_warps", std::to_string(config.numWarps)});
    candidate.overrides.push_back(
        {"num_stages", std::to_string(config.numStages)});
    candidate.description += llvm::formatv("num_warps={0} num_stages={1}",
                                           config.numWarps, config.numStages);
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

void tile::tune::addWarpSpecializedSchedules(std::vector<Candidate> &candidates,
                                             size_t configCount) {
  size_t count = candidates.size();
  for (size_t i = 0; i < count; ++i) {
    Candidate split = candidates[i];
    split.index += configCount;
    split.overrides.push_back({"warp_specialize_all", "True"});
    split.description += " warp_specialize_all=True";
    candidates.push_back(std::move(split));
  }
  // Where a split has no two consumer warpgroups to take turns, this is its
  // kernel again, which the tuner does not time twice.
  for (size_t i = 0; i < count; ++i) {
    Candidate together = candidates[count + i];
    together.index += configCount;
    together.overrides.push_back({"ping_pong", "False"});
    together.description += " ping_pong=False";
    candidates.push_back(std::move(together));
  }
}

std::string tile::tune::formatKeyValue(const launch::Value &value,
                                       const launch::LaunchSpec &spec) {
  switch (value.kind) {
  case launch::Value::Kind::Int:
    return std::to_string(value.intValue);
  case launch::Value::Kind::Bool:
    return value.intValue ? "True" : "False";
  case launch::Value::Kind::Float:
    return formatDouble(value.floatValue);
  case launch::Value::Kind::String:
    return "'" + value.stringValue + "'";
  case launch::Value::Kind::Buffer: {
    const launch::BufferSpec &buffer = spec.buffers[value.buffer];
    std::string text = launch::getName(buffer.dtype).str() + "[";
    for (size_t d = 0; d < buffer.shape.size(); ++d)
      text += (d ? "," : "") + std::to_string(buffer.shape[d]);
    return text + "]";
  }
  default:
    return value.describe();
  }
}

namespace {
double getMedian(std::vector<double> times) {
  llvm::sort(times);
  size_t half = times.size() / 2;
  return times.size() % 2 ? times[half] : (times[half - 1] + times[half]) / 2;
}

/// Times the candidates close to the first pass's best `rounds` more times,
/// taking turns, and makes the lowest median the outcome's best.
void confirm(llvm::ArrayRef<Candidate> candidates,
             llvm::function_ref<Trial(const Candidate &)> trial,
             llvm::raw_ostream &os, unsigned rounds, Outcome &outcome) {
  constexpr double kMargin = 0.05;
  constexpr size_t kFinalists = 4;
  std::vector<size_t> finalists;
  for (auto [position, result] : llvm::enumerate(outcome.trials))
    if (result.ms && *result.ms <= outcome.bestMs * (1 + kMargin))
      finalists.push_back(position);
  llvm::stable_sort(finalists, [&](size_t a, size_t b) {
    return *outcome.trials[a].ms < *outcome.trials[b].ms;
  });
  if (finalists.size() > kFinalists)
    finalists.resize(kFinalists);
  if (finalists.size() < 2) {
    os << "autotune: confirm: no other configuration within 5% of the "
          "best\n";
    return;
  }
  for (size_t position : finalists)
    outcome.confirmed.push_back({position, {*outcome.trials[position].ms}});
  for (unsigned round = 1; round <= rounds; ++round) {
    // Each round starts one finalist later, so none always runs first.
    for (size_t k = 0; k < finalists.size(); ++k) {
      auto &[position, times] =
          outcome.confirmed[(k + round) % finalists.size()];
      os << llvm::formatv("autotune confirm {0}/{1}: config {2}/{3}: ", round,
                          rounds, position + 1, candidates.size());
      Trial result = trial(candidates[position]);
      if (result.ms) {
        os << llvm::formatv("{0:f4} ms\n", *result.ms);
        times.push_back(*result.ms);
      } else {
        os << result.error << "\n";
      }
      os.flush();
    }
  }
  // Ties keep the faster first trial's.
  double bestMedian = 0;
  for (auto [i, entry] : llvm::enumerate(outcome.confirmed)) {
    double median = getMedian(entry.second);
    if (i == 0 || median < bestMedian) {
      bestMedian = median;
      outcome.best = entry.first;
    }
  }
  outcome.bestMs = bestMedian;
}
} // namespace

std::optional<Outcome>
tile::tune::tune(llvm::ArrayRef<Candidate> candidates,
                 llvm::function_ref<Trial(const Candidate &)> trial,
                 llvm::raw_ostream &os, unsigned confirmRounds) {
  auto start = std::chrono::steady_clock::now();
  Outcome outcome;
  bool any = false;
  // Positions in `candidates`, which a pruner may have thinned: the
  // decorator's numbering (Candidate::index) is the fixture's.
  for (auto [position, candidate] : llvm::enumerate(candidates)) {
    os << llvm::formatv("autotune {0}/{1}: {2}: ", position + 1,
                        candidates.size(), candidate.description);
    os.flush();
    Trial result = trial(candidate);
    if (result.ms) {
      os << llvm::formatv("{0:f4} ms\n", *result.ms);
      if (!any || *result.ms < outcome.bestMs) {
        outcome.best = position;
        outcome.bestMs = *result.ms;
      }
      any = true;
    } else {
      os << result.error << "\n";
    }
    os.flush();
    outcome.trials.push_back(std::move(result));
  }
  if (!any) {
    os << llvm::formatv("autotune: every one of the {0} configurations "
                        "failed\n",
                        candidates.size());
    return std::nullopt;
  }
  if (confirmRounds) {
    os << llvm::formatv("autotune: fastest once: config {0}/{1}: {2:f4} ms\n",
                        outcome.best + 1, candidates.size(), outcome.bestMs);
    confirm(candidates, trial, os, confirmRounds, outcome);
  }
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::string how;
  for (const auto &[position, times] : outcome.confirmed)
    if (position == outcome.best)
      how = llvm::formatv("median of {0} runs; ", times.size()).str();
  os << llvm::formatv("autotune: best config {0}/{1}: {2}: {3:f4} ms ({4}tuned "
                      "in {5:f1} s)\n",
                      outcome.best + 1, candidates.size(),
                      candidates[outcome.best].description, outcome.bestMs, how,
                      outcome.seconds);
  return outcome;
}

std::string tile::tune::formatChoice(
    llvm::StringRef kernel, llvm::StringRef device,
    llvm::ArrayRef<std::pair<std::string, std::string>> key,
    llvm::ArrayRef<Candidate> candidates, const Outcome &outcome) {
  llvm::json::Object keyObject;
  for (const auto &[name, value] : key)
    keyObject[name] = value;
  llvm::json::Array trials;
  for (size_t i = 0; i < outcome.trials.size(); ++i) {
    llvm::json::Object trial{{"config", int64_t(i + 1)},
                             {"description", candidates[i].description}};
    if (outcome.trials[i].ms)
      trial["ms"] = *outcome.trials[i].ms;
    else
      trial["error"] = outcome.trials[i].error;
    for (const auto &[position, times] : outcome.confirmed)
      if (position == i)
        trial["confirm_ms"] = llvm::json::Array(times);
    trials.push_back(std::move(trial));
  }
  llvm::json::Object choice{
      {"kernel", kernel},
      {"device", device},
      {"key", std::move(keyObject)},
      {"configs", int64_t(candidates.size())},
      {"best", int64_t(outcome.best + 1)},
      {"description", candidates[outcome.best].description},
      {"ms", outcome.bestMs},
      {"tuning_seconds", outcome.seconds},
      {"trials", std::move(trials)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(choice))) << "\n";
  return text;
}

bool tile::tune::parseChoice(llvm::StringRef payload,
                             llvm::ArrayRef<Candidate> candidates,
                             size_t &index, double &ms, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(payload);
  if (!parsed) {
    error = "not JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *object = parsed->getAsObject();
  std::optional<int64_t> best =
      object ? object->getInteger("best") : std::nullopt;
  std::optional<int64_t> count =
      object ? object->getInteger("configs") : std::nullopt;
  std::optional<llvm::StringRef> description =
      object ? object->getString("description") : std::nullopt;
  std::optional<double> time = object ? object->getNumber("ms") : std::nullopt;
  if (!best || !count || !description || !time) {
    error = "missing best, configs, description or ms";
    return false;
  }
  if (*count != int64_t(candidates.size()) || *best < 1 || *best > *count ||
      candidates[*best - 1].description != *description) {
    error = "the choice does not match the kernel's configurations";
    return false;
  }
  index = *best - 1;
  ms = *time;
  return true;
}

bool tile::tune::readFixture(llvm::StringRef path, Fixture &fixture,
                             std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    error = "cannot read '" + path.str() + "': " + file.getError().message();
    return false;
  }
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n');
  for (auto [number, rawLine] : llvm::enumerate(lines)) {
    llvm::StringRef line = rawLine.trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    auto [name, value] = line.split('=');
    name = name.trim();
    value = value.trim();
    std::string where = (path + ":" + llvm::Twine(number + 1) + ": ").str();
    if (name == "device") {
      fixture.device = value.str();
      continue;
    }
    size_t index = 0;
    if (name.getAsInteger(10, index) || index == 0) {
      error = where + "expected 'device = NAME' or 'N = MS' (N from 1)";
      return false;
    }
    std::vector<Trial> &trials = fixture.trials[index];
    trials.clear();
    if (value.consume_front("fail")) {
      trials.push_back(
          {std::nullopt, "failed to launch: " + value.trim().str()});
      continue;
    }
    llvm::SmallVector<llvm::StringRef> times;
    value.split(times, ',');
    for (llvm::StringRef time : times) {
      double ms = 0;
      if (time.trim().getAsDouble(ms) || ms <= 0) {
        error = where + "expected times in ms (a, b, ...) or 'fail TEXT', " +
                "got '" + value.str() + "'";
        return false;
      }
      trials.push_back({ms, ""});
    }
  }
  return true;
}

std::optional<Trial> tile::tune::Fixture::next(size_t config) {
  auto it = trials.find(config);
  if (it == trials.end() || it->second.empty())
    return std::nullopt;
  size_t use = used[config]++;
  return it->second[std::min(use, it->second.size() - 1)];
}
