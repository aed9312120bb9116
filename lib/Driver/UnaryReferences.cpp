//===- UnaryReferences.cpp - float64 references of math functions ---------===//
//
// ref_NAME(x) = NAME(x) elementwise in float64, with the C library's NAME.
//
//===----------------------------------------------------------------------===//

#include "UnaryReferences.h"

#include <cmath>
#include <map>

using namespace tile;

namespace {
const std::map<std::string, double (*)(double)> &getFunctions() {
  static const std::map<std::string, double (*)(double)> functions = {
      {"ref_abs", [](double x) { return std::fabs(x); }},
      {"ref_acos", [](double x) { return std::acos(x); }},
      {"ref_acosh", [](double x) { return std::acosh(x); }},
      {"ref_asin", [](double x) { return std::asin(x); }},
      {"ref_asinh", [](double x) { return std::asinh(x); }},
      {"ref_atan", [](double x) { return std::atan(x); }},
      {"ref_atanh", [](double x) { return std::atanh(x); }},
      {"ref_cbrt", [](double x) { return std::cbrt(x); }},
      {"ref_ceil", [](double x) { return std::ceil(x); }},
      {"ref_cos", [](double x) { return std::cos(x); }},
      {"ref_cosh", [](double x) { return std::cosh(x); }},
      {"ref_erf", [](double x) { return std::erf(x); }},
      {"ref_erfc", [](double x) { return std::erfc(x); }},
      {"ref_exp", [](double x) { return std::exp(x); }},
      {"ref_exp10", [](double x) { return std::pow(10.0, x); }},
      {"ref_exp2", [](double x) { return std::exp2(x); }},
      {"ref_expm1", [](double x) { return std::expm1(x); }},
      {"ref_floor", [](double x) { return std::floor(x); }},
      {"ref_lgamma", [](double x) { return std::lgamma(x); }},
      {"ref_log", [](double x) { return std::log(x); }},
      {"ref_log10", [](double x) { return std::log10(x); }},
      {"ref_log1p", [](double x) { return std::log1p(x); }},
      {"ref_log2", [](double x) { return std::log2(x); }},
      {"ref_rsqrt", [](double x) { return 1 / std::sqrt(x); }},
      {"ref_sin", [](double x) { return std::sin(x); }},
      {"ref_sinh", [](double x) { return std::sinh(x); }},
      {"ref_sqrt", [](double x) { return std::sqrt(x); }},
      {"ref_tan", [](double x) { return std::tan(x); }},
      {"ref_tanh", [](double x) { return std::tanh(x); }},
      {"ref_tgamma", [](double x) { return std::tgamma(x); }},
      {"ref_trunc", [](double x) { return std::trunc(x); }},
  };
  return functions;
}
} // namespace

bool tile::isUnaryReference(const std::string &reference) {
  return getFunctions().count(reference) != 0;
}

bool tile::computeUnaryReference(const std::string &reference,
                                 const HostArray *x, std::vector<double> &out,
                                 std::string &error) {
  if (!x) {
    error = reference + "(x) needs one buffer";
    return false;
  }
  double (*fn)(double) = getFunctions().at(reference);
  out.resize(x->size());
  for (int64_t i = 0; i < x->size(); ++i)
    out[i] = fn(x->get(i));
  return true;
}

std::string tile::listUnaryReferences() {
  std::string names;
  for (const auto &[name, fn] : getFunctions())
    names += (names.empty() ? "" : ", ") + name;
  return names;
}
