//===- TimingStats.cpp - summaries of per-run kernel times ----------------===//
//
// Quantiles, the alternating-levels test and the times file; see
// TimingStats.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/TimingStats.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

using namespace tile;

float rt::quantile(std::vector<float> v, double q) {
  if (v.empty())
    return std::numeric_limits<float>::quiet_NaN();
  std::sort(v.begin(), v.end());
  double position = std::clamp(q, 0.0, 1.0) * double(v.size() - 1);
  size_t lower = size_t(std::floor(position));
  size_t upper = std::min(lower + 1, v.size() - 1);
  double fraction = position - double(lower);
  return float(v[lower] + (double(v[upper]) - v[lower]) * fraction);
}

double rt::mean(const std::vector<float> &v) {
  if (v.empty())
    return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (float x : v)
    sum += x;
  return sum / double(v.size());
}

std::optional<rt::AlternatingLevels>
rt::findAlternatingLevels(const std::vector<float> &timesMs) {
  constexpr size_t minRuns = 20;
  constexpr double minSideFraction = 0.3, minSwitchFraction = 0.75;
  size_t n = timesMs.size();
  if (n < minRuns)
    return std::nullopt;
  double cut =
      0.5 * (double(quantile(timesMs, 0.25)) + double(quantile(timesMs, 0.75)));
  std::vector<float> low, high;
  size_t switches = 0;
  for (size_t i = 0; i < n; ++i) {
    bool isHigh = timesMs[i] > cut;
    (isHigh ? high : low).push_back(timesMs[i]);
    if (i > 0 && isHigh != (timesMs[i - 1] > cut))
      ++switches;
  }
  double lowFraction = double(low.size()) / double(n);
  double switchFraction = double(switches) / double(n - 1);
  if (lowFraction < minSideFraction || 1 - lowFraction < minSideFraction ||
      switchFraction < minSwitchFraction)
    return std::nullopt;
  return AlternatingLevels{quantile(low, 0.5), quantile(high, 0.5), lowFraction,
                           switchFraction};
}

bool rt::readTimes(const std::string &path, std::vector<float> &timesMs,
                   std::string &error) {
  timesMs.clear();
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read the file";
    return false;
  }
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#')
      continue;
    size_t last = line.find_last_not_of(" \t\r");
    std::string text = line.substr(first, last - first + 1);
    errno = 0;
    char *end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() ||
        !std::isfinite(value) || value <= 0 ||
        value > std::numeric_limits<float>::max()) {
      error = path + ":" + std::to_string(lineNo) +
              ": expected a time in ms (a positive number), found '" + text +
              "'";
      timesMs.clear();
      return false;
    }
    timesMs.push_back(float(value));
  }
  if (timesMs.empty()) {
    error = path + ": no times in the file";
    return false;
  }
  return true;
}
