//===- tile-compile.cpp - ahead-of-time compilation to C ------------------===//
//
//   tile-compile add.tile -o out/add
//       --signature '*fp32:16, *fp32:16, *fp32:16, i32:16, 1024'
//       --signature '*fp32:16, *fp32:16, *fp32:16, i32, 1024'
//
// Compiles a .tile kernel for one or more specializations (Triton's AOT
// signatures: a type per runtime parameter with :16, :8 or :1 hints, a value
// per constexpr) and writes out/add.h and out/add.c: the PTX of each and
// one launcher, `int add(CUstream, grid, args...)`, that picks the first
// specialization its arguments satisfy. Specializations that differ in
// constexprs, num_warps or num_stages are algorithms the launcher selects
// with a trailing `int algo`. With --cubin, each specialization's cubin
// for the target comes too (ptxas at build time). The generated code needs
// only the CUDA driver at run time. A user of the C++ API
// (include/tile/Tile.h).
//
//===----------------------------------------------------------------------===//

#include "EmitC.h"
#include "Ptxas.h"
#include "tile/Tile.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace tile;

namespace {
const char *kUsage =
    "usage: tile-compile KERNEL.tile -o PATH/NAME --signature SIG "
    "[--signature SIG ...]\n"
    "                    [--kernel NAME] [--num-warps N] [--num-stages N] "
    "[--target sm_90a]\n"
    "  Writes PATH/NAME.h and PATH/NAME.c: the kernel compiled for each\n"
    "  signature, behind one launcher NAME(stream, grid_x, grid_y, grid_z, "
    "args...).\n"
    "  SIG: one entry per kernel parameter, comma-separated: a type "
    "(*fp16, *fp32,\n"
    "  i32, i64, fp32, ...) with an optional :16 (divisible by 16), :8 "
    "(an integer\n"
    "  divisible by 8: an fp16 row stride TMA takes) or :1 (always 1)\n"
    "  hint for runtime parameters, a value for constexprs (_ keeps the "
    "default);\n"
    "  a tensor descriptor is tensordesc<fp16[128, 64]> (element type and "
    "block),\n"
    "  made at run time by NAME_make_tensor_descriptor_PARAM; the maps of "
    "descriptors\n"
    "  the kernel makes from its arguments are encoded by each launch.\n"
    "  A SIG may end with '| num_warps=8, num_stages=4' to override those "
    "options\n"
    "  (and '| warp_specialize_all=True' to split every loop that can be "
    "into a TMA\n"
    "  producer warpgroup and consumers; '| ping_pong=False' to let a "
    "split's two\n"
    "  consumer warpgroups issue their dots at once).\n"
    "  --cubin also embeds the cubin ptxas makes of each specialization for "
    "--target\n"
    "  (the launcher loads it on devices of that target, with no JIT); "
    "ptxas is\n"
    "  --ptxas PATH, else on the PATH, else /usr/local/cuda/bin/ptxas.\n";

struct Options {
  std::string input;
  std::string output;
  std::string kernel;
  std::vector<std::string> signatures;
  int numWarps = 4;
  int numStages = 3;
  std::string target = "sm_90a";
  bool cubin = false;
  std::string ptxas;
};

int fail(const std::string &message) {
  std::cerr << "tile-compile: " << message << "\n";
  return 1;
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// Splits on commas outside quotes and brackets (tensordesc<fp16[64, 64]>).
std::vector<std::string> splitEntries(const std::string &text) {
  std::vector<std::string> entries;
  std::string current;
  char quote = 0;
  int depth = 0;
  for (char c : text) {
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '<') {
      ++depth;
    } else if ((c == ']' || c == '>') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      entries.push_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!trim(current).empty() || !entries.empty())
    entries.push_back(trim(current));
  return entries;
}

bool parseInt(const std::string &text, int &out) {
  char *end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end)
    return false;
  out = int(value);
  return true;
}

/// Reads `--flag value` and `--flag=value`.
bool parseArgs(int argc, char **argv, Options &options, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    auto takeValue = [&](const std::string &flag) {
      if (arg == flag) {
        if (i + 1 >= argc) {
          error = flag + " needs a value";
          return false;
        }
        value = argv[++i];
        return true;
      }
      if (arg.rfind(flag + "=", 0) == 0) {
        value = arg.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    if (takeValue("-o") || takeValue("--output")) {
      options.output = value;
    } else if (takeValue("--signature")) {
      options.signatures.push_back(value);
    } else if (takeValue("--kernel")) {
      options.kernel = value;
    } else if (takeValue("--target")) {
      options.target = value;
    } else if (arg == "--cubin") {
      options.cubin = true;
    } else if (takeValue("--ptxas")) {
      options.ptxas = value;
    } else if (takeValue("--num-warps")) {
      if (!parseInt(value, options.numWarps))
        return error = "--num-warps takes an integer, got '" + value + "'",
               false;
    } else if (takeValue("--num-stages")) {
      if (!parseInt(value, options.numStages))
        return error = "--num-stages takes an integer, got '" + value + "'",
               false;
    } else if (!error.empty()) {
      return false;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return error = "unknown option '" + arg + "' (tile-compile --help)",
             false;
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      return error = "one kernel file at a time (got '" + options.input +
                     "' and '" + arg + "')",
             false;
    }
    if (!error.empty())
      return false;
  }
  if (options.input.empty())
    return error = "no input file (tile-compile --help)", false;
  if (options.output.empty())
    return error = "no output (-o PATH/NAME)", false;
  if (options.signatures.empty())
    return error = "no --signature", false;
  return true;
}

/// A C identifier: the output's file name.
bool isIdentifier(const std::string &name) {
  if (name.empty() || std::isdigit((unsigned char)name[0]))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  });
}

bool writeFile(const std::string &path, const std::string &text,
               std::string &error) {
  // A temporary file renamed into place: never a file written half.
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      error = "cannot write '" + path + "'";
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::cout << kUsage;
      return 0;
    }
  Options options;
  std::string error;
  if (!parseArgs(argc, argv, options, error))
    return fail(error);
  std::string stem = options.output;
  size_t slash = stem.find_last_of('/');
  std::string name = slash == std::string::npos ? stem : stem.substr(slash + 1);
  if (!isIdentifier(name))
    return fail("the output's name '" + name +
                "' must be a C identifier: it names the launcher");

  std::string ptxas;
  if (options.cubin) {
    if (!aot::getComputeCapability(options.target))
      return fail("--cubin: no cubin for target '" + options.target +
                  "' (sm_NN or sm_NNa)");
    ptxas = aot::findPtxas(options.ptxas);
    if (ptxas.empty())
      return fail(options.ptxas.empty()
                      ? "--cubin needs ptxas: none on the PATH or in "
                        "/usr/local/cuda/bin (--ptxas PATH)"
                      : "--ptxas '" + options.ptxas + "' is not executable");
  }

  aot::Launcher launcher;
  launcher.name = name;
  launcher.sourcePath = options.input;
  std::map<std::string, unsigned> algoIndex;
  for (const std::string &text : options.signatures) {
    Specialization spec;
    spec.kernel = options.kernel;
    spec.target = options.target;
    spec.numWarps = options.numWarps;
    spec.numStages = options.numStages;
    std::string entries = text;
    size_t bar = text.find('|');
    if (bar != std::string::npos) {
      entries = text.substr(0, bar);
      for (const std::string &setting : splitEntries(text.substr(bar + 1))) {
        size_t eq = setting.find('=');
        std::string key = trim(setting.substr(0, eq));
        std::string valueText =
            eq == std::string::npos ? "" : trim(setting.substr(eq + 1));
        int value = 0;
        bool *flag = key == "warp_specialize_all" ? &spec.warpSpecializeAll
                     : key == "ping_pong"         ? &spec.pingPong
                                                  : nullptr;
        if (flag && (valueText == "True" || valueText == "False")) {
          *flag = valueText == "True";
          continue;
        }
        if (eq == std::string::npos || !parseInt(valueText, value) ||
            (key != "num_warps" && key != "num_stages"))
          return fail("'" + setting + "' in --signature '" + text +
                      "': after '|' come num_warps=N, num_stages=N, "
                      "warp_specialize_all=True|False and "
                      "ping_pong=True|False");
        (key == "num_warps" ? spec.numWarps : spec.numStages) = value;
      }
    }
    spec.signature = splitEntries(entries);
    CompileResult result = compileFile(options.input, spec);
    for (const Diagnostic &d : result.diagnostics)
      if (d.severity != Diagnostic::Severity::Note || !result.ok())
        std::cerr << d.str() << "\n";
    if (!result.ok())
      return fail("no kernel for --signature '" + text + "'");

    aot::Variant variant;
    variant.kernel = std::move(*result.kernel);
    if (!variant.kernel.tensorMapRecipes.empty()) {
      auto recipes =
          mlir::tilegpu::parseTensorMapRecipes(variant.kernel.tensorMapRecipes);
      if (!recipes)
        return fail("--signature '" + text +
                    "': the kernel's tensor map recipes are malformed");
      variant.madeMaps = std::move(*recipes);
    }
    if (options.cubin) {
      if (!aot::assemble(ptxas, variant.kernel.ptx, spec.target, variant.cubin,
                         error))
        return fail("--signature '" + text + "': " + error);
      variant.cubinCapability = aot::getComputeCapability(spec.target);
      variant.cubinArchSpecific = spec.target.back() == 'a';
    }
    launcher.kernelName = variant.kernel.name;
    // The launcher's parameters are the kernel's runtime parameters: the
    // signature entries that are types, in order.
    std::vector<aot::LauncherParam> params;
    std::string constexprs;
    for (const std::string &entry : spec.signature) {
      std::string type = trim(entry.substr(0, entry.find(':')));
      std::string hint = entry.find(':') == std::string::npos
                             ? ""
                             : trim(entry.substr(entry.find(':') + 1));
      bool isType = !type.empty() &&
                    (type[0] == '*' || std::isalpha((unsigned char)type[0])) &&
                    type != "True" && type != "False" && type != "None" &&
                    type.rfind("tl.", 0) != 0; // a dtype constexpr
      if (!isType) {
        constexprs += (constexprs.empty() ? "" : ", ") + entry;
        continue;
      }
      params.push_back({"", type});
      variant.hints.push_back(hint == "16"  ? 16
                              : hint == "8" ? 8
                              : hint == "1" ? 1
                                            : 0);
    }
    // Names: the compiled kernel lists the unfolded ones in order; the
    // folded (":1") ones are named by position.
    size_t unfolded = 0;
    for (size_t i = 0; i < params.size(); ++i) {
      if (variant.hints[i] == 1) {
        params[i].name = "arg" + std::to_string(i);
        continue;
      }
      const Parameter &compiled = variant.kernel.parameters[unfolded++];
      params[i].name = compiled.name;
      if (compiled.isTensorDescriptor()) {
        params[i].type = compiled.type;
        params[i].elementType = compiled.elementType;
        params[i].blockShape = compiled.blockShape;
        params[i].tensorMap = compiled.tensorMap;
      }
    }
    if (launcher.variants.empty()) {
      launcher.params = params;
    } else {
      bool same = params.size() == launcher.params.size();
      for (size_t i = 0; same && i < params.size(); ++i)
        same = params[i].type == launcher.params[i].type;
      if (!same)
        return fail("--signature '" + text +
                    "' gives other runtime parameter types than the first; "
                    "one launcher takes one list of arguments");
      for (size_t i = 0; i < params.size(); ++i)
        if (variant.hints[i] != 1)
          launcher.params[i].name = params[i].name;
    }
    std::string algo =
        (constexprs.empty() ? "" : constexprs + "; ") +
        "num_warps=" + std::to_string(spec.numWarps) +
        ", num_stages=" + std::to_string(spec.numStages) +
        (spec.warpSpecializeAll ? ", warp_specialize_all=True" : "") +
        (spec.pingPong ? "" : ", ping_pong=False");
    auto [it, inserted] = algoIndex.try_emplace(algo, launcher.algos.size());
    if (inserted)
      launcher.algos.push_back(algo);
    variant.algo = it->second;
    variant.constexprs = algo;
    launcher.variants.push_back(std::move(variant));
  }
  // Within an algorithm the most specialized variant is tried first.
  std::stable_sort(launcher.variants.begin(), launcher.variants.end(),
                   [](const aot::Variant &a, const aot::Variant &b) {
                     auto hinted = [](const aot::Variant &v, bool weak) {
                       return std::count_if(
                           v.hints.begin(), v.hints.end(),
                           [&](int h) { return h != 0 && (weak || h != 8); });
                     };
                     if (a.algo != b.algo)
                       return a.algo < b.algo;
                     // More hints first; of as many, more that are not
                     // ":8" (":16" says more than ":8").
                     if (hinted(a, true) != hinted(b, true))
                       return hinted(a, true) > hinted(b, true);
                     return hinted(a, false) > hinted(b, false);
                   });

  for (const aot::Variant &v : launcher.variants)
    if (std::string problem = aot::checkMadeMaps(launcher, v); !problem.empty())
      return fail("the launcher of " + v.constexprs +
                  " cannot encode the kernel's " + problem);

  if (!writeFile(stem + ".h", aot::emitHeader(launcher), error) ||
      !writeFile(stem + ".c", aot::emitSource(launcher), error))
    return fail(error);
  return 0;
}
