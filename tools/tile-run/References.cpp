//===- References.cpp - independent references for kernel checks ----------===//

#include "References.h"

#include <cmath>
#include <functional>
#include <map>

using namespace tile;

namespace {
using ReferenceFn = std::function<bool(const std::vector<const HostArray *> &,
                                       std::vector<double> &, std::string &)>;

/// out[i] = a[i] + b[i].
bool referenceAdd(const std::vector<const HostArray *> &args,
                  std::vector<double> &out, std::string &error) {
  if (args.size() != 2 || args[0]->size() != args[1]->size()) {
    error = "ref_add(a, b) needs two buffers of the same size";
    return false;
  }
  out.resize(args[0]->size());
  for (int64_t i = 0; i < args[0]->size(); ++i)
    out[i] = args[0]->get(i) + args[1]->get(i);
  return true;
}

const std::map<std::string, ReferenceFn> &getReferences() {
  static const std::map<std::string, ReferenceFn> references = {
      {"ref_add", referenceAdd},
  };
  return references;
}
} // namespace

std::string tile::listReferences() {
  std::string names;
  for (const auto &[name, fn] : getReferences())
    names += (names.empty() ? "" : ", ") + name;
  return names;
}

bool tile::computeReference(const launch::Check &check,
                            const std::vector<HostArray> &inputs,
                            const launch::LaunchSpec &spec,
                            std::vector<double> &result, std::string &error) {
  auto it = getReferences().find(check.reference);
  if (it == getReferences().end()) {
    error = "unknown reference '" + check.reference +
            "'; known: " + listReferences();
    return false;
  }
  std::vector<const HostArray *> args;
  for (const launch::Value &arg : check.args) {
    if (arg.kind != launch::Value::Kind::Buffer) {
      error = check.reference + "() takes buffers";
      return false;
    }
    args.push_back(&inputs[arg.buffer]);
  }
  if (!it->second(args, result, error))
    return false;
  if (int64_t(result.size()) != spec.buffers[check.output].getNumElements()) {
    error = check.reference + "() gives " + std::to_string(result.size()) +
            " elements for an output of " +
            std::to_string(spec.buffers[check.output].getNumElements());
    return false;
  }
  return true;
}

Comparison tile::compare(const HostArray &output,
                         const std::vector<double> &reference,
                         double tolerance) {
  Comparison result;
  double errorSquares = 0, referenceSquares = 0;
  for (int64_t i = 0; i < output.size(); ++i) {
    double got = output.get(i);
    double want = reference[i];
    if (std::isnan(got)) {
      ++result.nans;
      if (result.firstMismatch < 0)
        result.firstMismatch = i;
      continue;
    }
    double diff = std::fabs(got - want);
    result.maxAbsError = std::max(result.maxAbsError, diff);
    errorSquares += diff * diff;
    referenceSquares += want * want;
    if (tolerance == 0 && got != output.roundToElement(want)) {
      ++result.mismatches;
      if (result.firstMismatch < 0)
        result.firstMismatch = i;
    }
  }
  result.relativeError = referenceSquares > 0
                             ? std::sqrt(errorSquares / referenceSquares)
                             : std::sqrt(errorSquares);
  result.passed =
      result.nans == 0 && (tolerance == 0 ? result.mismatches == 0
                                          : result.relativeError <= tolerance);
  return result;
}
