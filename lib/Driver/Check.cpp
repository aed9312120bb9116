//===- Check.cpp - check a run's results ----------------------------------===//
//
// Compares the buffers a run wrote with the launch's checks, whose CPU
// references References.cpp (ref_* calls) and Elementwise.cpp (expressions)
// compute from the buffers' contents before the launch, and with the
// interpreter's buffers where --compare ran the kernel both ways.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "RunInternal.h"
#include "tile/Driver/References.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace tile {
int runChecks(TileSource &source, const std::vector<HostArray> &inputs,
              const std::vector<HostArray> &outputs) {
  const launch::LaunchSpec &spec = source.launch;
  bool allPassed = true;
  for (const launch::Check &check : spec.checks) {
    const HostArray &output = outputs[check.output];
    std::vector<double> reference;
    std::string error;
    if (!(check.expr
              ? launch::computeExpressionReference(check, inputs, spec,
                                                   reference, error)
              : computeReference(check, inputs, spec, reference, error))) {
      source.diag->error(check.loc, error);
      return 1;
    }
    Comparison result = compare(output, reference, check.tolerance);
    llvm::outs() << llvm::formatv(
        "check {0} against {1}: max |err| {2:e2}, rel err {3:e2}, "
        "{4} mismatches, {5} NaN (tol {6}): {7}\n",
        spec.buffers[check.output].name, check.reference, result.maxAbsError,
        result.relativeError, result.mismatches, result.nans,
        check.tolerance == 0 ? std::string("0, exact")
                             : llvm::formatv("{0:e1}", check.tolerance).str(),
        result.passed ? "PASS" : "FAIL");
    if (!result.passed && result.firstMismatch >= 0)
      llvm::outs() << llvm::formatv(
          "  first bad element {0}: got {1}, want {2}\n", result.firstMismatch,
          output.get(result.firstMismatch), reference[result.firstMismatch]);
    allPassed &= result.passed;
  }
  return allPassed ? 0 : 2;
}

/// For each buffer either run wrote.
int reportDifferences(const launch::LaunchSpec &spec,
                      const std::vector<HostArray> &inputs,
                      const std::vector<HostArray> &gpu,
                      const std::vector<HostArray> &interpreted) {
  bool identical = true;
  for (size_t b = 0; b < inputs.size(); ++b) {
    // Pointer tables hold each side's own addresses.
    if (spec.buffers[b].init == launch::BufferSpec::Init::Pointers)
      continue;
    if (gpu[b].bytes == inputs[b].bytes &&
        interpreted[b].bytes == inputs[b].bytes)
      continue; // an input neither run wrote
    double maxAbs = 0, maxRel = 0;
    int64_t nanMismatches = 0, worst = -1;
    for (int64_t i = 0; i < gpu[b].size(); ++i) {
      double x = gpu[b].get(i), y = interpreted[b].get(i);
      if (std::isnan(x) || std::isnan(y)) {
        nanMismatches += std::isnan(x) != std::isnan(y);
        continue;
      }
      double diff = std::fabs(x - y);
      if (diff > maxAbs) {
        maxAbs = diff;
        worst = i;
      }
      if (diff > 0)
        maxRel = std::max(maxRel, diff / std::max(std::fabs(x), std::fabs(y)));
    }
    identical &= maxAbs == 0 && nanMismatches == 0;
    llvm::outs() << llvm::formatv(
        "compare {0}: max |gpu - interpreter| {1:e2}, max rel {2:e2}, {3} NaN "
        "mismatches",
        spec.buffers[b].name, maxAbs, maxRel, nanMismatches);
    if (worst >= 0)
      llvm::outs() << llvm::formatv(" (element {0}: gpu {1}, interpreter {2})",
                                    worst, gpu[b].get(worst),
                                    interpreted[b].get(worst));
    llvm::outs() << "\n";
  }
  if (identical)
    llvm::outs() << "compare: GPU and interpreter agree exactly\n";
  return 0;
}
} // namespace tile
