//===- EmitC.cpp - C source of an ahead-of-time compiled kernel -----------===//

#include "EmitC.h"
#include "EmitCParts.h"

#include <algorithm>
#include <optional>
#include <sstream>

using namespace tile::aot;
using namespace tile::aot::detail;

namespace {
/// The C type a launcher parameter is passed as.
std::string getCType(const std::string &type) {
  if (!type.empty() && type[0] == '*')
    return "unsigned long long";
  if (type == "i64")
    return "int64_t";
  if (type == "u64")
    return "uint64_t";
  if (type == "u32" || type == "u16" || type == "u8")
    return "uint32_t";
  // fp16 and bf16 scalars: the launcher rounds a float to their bits.
  if (type == "fp32" || type == "f32" || type == "fp16" || type == "f16" ||
      type == "bf16")
    return "float";
  if (type == "fp64" || type == "f64")
    return "double";
  // i1, i8, i16, i32: the driver reads the parameter's low bytes.
  return "int32_t";
}

/// The exponent and mantissa widths of an fp16 or bf16 scalar's format,
/// as narrow_float_bits takes them; empty for other types.
std::string getNarrowFormat(const std::string &type) {
  if (type == "fp16" || type == "f16")
    return "5, 10";
  if (type == "bf16")
    return "8, 7";
  return "";
}

/// `text` as adjacent C string literals, one per line of it.
std::string quote(const std::string &text) {
  std::string out = "  \"";
  for (char c : text) {
    switch (c) {
    case '\n':
      out += "\\n\"\n  \"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '"':
      out += "\\\"";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      out += c;
    }
  }
  return out + "\"";
}

/// `data` as the body of a C array of unsigned char, 16 bytes a line.
std::string bytes(const std::string &data) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(data.size() * 5 + data.size() / 16 * 4);
  for (size_t i = 0; i < data.size(); ++i) {
    unsigned char byte = data[i];
    out += i % 16 == 0 ? "  " : " ";
    out += "0x";
    out += digits[byte >> 4];
    out += digits[byte & 15];
    out += i + 1 == data.size() ? "\n" : i % 16 == 15 ? ",\n" : ",";
  }
  return out;
}

/// `prefix`, then `items` separated by `separator`, then `suffix`, in lines
/// of at most 80 columns where the items allow: a line that would pass
/// them breaks after a separator (its trailing space dropped) and the
/// next starts `indent` columns in.
std::string joinWrapped(const std::string &prefix,
                        const std::vector<std::string> &items,
                        const std::string &separator, const std::string &suffix,
                        size_t indent) {
  constexpr size_t kColumns = 80;
  std::string text = prefix;
  size_t lineStart = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    bool last = i + 1 == items.size();
    std::string piece = items[i] + (last ? suffix : separator);
    // The separator's trailing space would not end a line.
    size_t width = piece.size() - (last || separator.back() != ' ' ? 0 : 1);
    if (i > 0 && text.size() - lineStart + width > kColumns) {
      while (!text.empty() && text.back() == ' ')
        text.pop_back();
      text += "\n";
      lineStart = text.size();
      text += std::string(indent, ' ');
    }
    text += piece;
  }
  if (items.empty())
    text += suffix;
  return text;
}

std::string getSignature(const Launcher &launcher) {
  std::vector<std::string> params = {"struct CUstream_st *stream",
                                     "unsigned grid_x", "unsigned grid_y",
                                     "unsigned grid_z"};
  for (const LauncherParam &param : launcher.params)
    params.push_back(
        (param.isTensorDescriptor()
             ? "const struct " + launcher.name + "_tensor_descriptor *"
             : getCType(param.type) + " ") +
        param.name);
  if (launcher.algos.size() > 1)
    params.push_back("int algo");
  std::string prefix = "int " + launcher.name + "(";
  return joinWrapped(prefix, params, ", ", ")",
                     prefix.size() <= 40 ? prefix.size() : 4);
}

/// The C conditions, all of which variant `v` needs of the arguments (none
/// for a variant that takes any).
std::vector<std::string> getConditions(const Launcher &launcher,
                                       const Variant &v) {
  std::vector<std::string> conditions;
  for (size_t i = 0; i < launcher.params.size(); ++i) {
    if (!v.hints[i])
      continue;
    const LauncherParam &param = launcher.params[i];
    const std::string &name = param.name;
    if (param.isTensorDescriptor()) {
      for (size_t d = 0; d < param.blockShape.size(); ++d)
        conditions.push_back("(" + name + "->shape[" + std::to_string(d) +
                             "] % 16 == 0)");
      continue;
    }
    conditions.push_back(v.hints[i] == 1
                             ? "(" + name + " == 1)"
                             : "(" + name + " % " + std::to_string(v.hints[i]) +
                                   " == 0)");
  }
  return conditions;
}

std::string describeHints(const Launcher &launcher, const Variant &v) {
  std::string text;
  for (size_t i = 0; i < launcher.params.size(); ++i)
    if (v.hints[i])
      text +=
          (text.empty() ? "" : ", ") + launcher.params[i].name +
          (launcher.params[i].isTensorDescriptor() ? "'s extents % 16 == 0"
           : v.hints[i] == 1                       ? " == 1"
                             : " % " + std::to_string(v.hints[i]) + " == 0");
  return text.empty() ? "any arguments" : text;
}

} // namespace

std::vector<KernelArgument> detail::getKernelArguments(const Launcher &launcher,
                                                       const Variant &v) {
  std::vector<KernelArgument> args;
  for (size_t p = 0; p < launcher.params.size(); ++p) {
    const LauncherParam &param = launcher.params[p];
    const std::string &name = param.name;
    if (param.isTensorDescriptor()) {
      // Its base, extents, strides but the last and tensor map: the
      // kernel's arguments for one descriptor.
      size_t rank = param.blockShape.size();
      args.push_back({"&" + name + "->base", "", name + "->base"});
      for (size_t d = 0; d < rank; ++d) {
        std::string extent = name + "->shape[" + std::to_string(d) + "]";
        args.push_back({"&" + extent, extent, "", true});
      }
      for (size_t d = 0; d + 1 < rank; ++d) {
        std::string stride = name + "->strides[" + std::to_string(d) + "]";
        args.push_back({"&" + stride, stride, ""});
      }
      args.push_back({"&" + name + "->tensor_map", "", ""});
    } else if (!getNarrowFormat(param.type).empty()) {
      args.push_back({"&" + name + "_bits", "", ""});
    } else if (v.hints[p] != 1) {
      std::string cType = getCType(param.type);
      bool isPointer = param.type[0] == '*';
      bool isInteger = !isPointer && cType != "float" && cType != "double";
      args.push_back({"&" + name, isInteger ? name : "", isPointer ? name : "",
                      cType == "int32_t"});
    }
  }
  return args;
}

std::string tile::aot::emitHeader(const Launcher &launcher) {
  const std::string &name = launcher.name;
  std::ostringstream os;
  os << "/* " << name << ".h: the kernel " << launcher.kernelName << " of\n   "
     << launcher.sourcePath
     << ",\n   compiled ahead of time by tile-compile. Do not edit. */\n"
     << "#ifndef TILE_AOT_" << name << "_H\n#define TILE_AOT_" << name
     << "_H\n\n#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" "
        "{\n#endif\n\nstruct CUstream_st;\n\n"
     << "/* What " << name
     << "() returns when no specialization accepts its arguments. */\n"
     << "#define " << name << "_NO_MATCH (-1)\n\n"
     << getDescriptorDeclarations(launcher)
     << "/* Loads the kernel into the calling thread's current CUDA context "
        "(device 0's\n   primary context, made current, where there is "
        "none), through libcuda.so.1.\n   Returns 0 (CUDA_SUCCESS) or the "
        "CUresult of the driver call that failed.\n   "
     << name << "() calls it on first use. */\nint " << name
     << "_load(void);\n/* Unloads the kernel's modules. */\nvoid " << name
     << "_unload(void);\n/* How many specializations the last load took "
        "from their cubin (the rest\n   from PTX, through the driver's JIT). "
        "*/\nint "
     << name << "_cubins_loaded(void);\n\n/* Launches " << launcher.kernelName
     << " on `stream` (0: the default stream) with\n   grid_x * grid_y * "
        "grid_z programs. Returns 0, a CUresult, or "
     << name << "_NO_MATCH.\n";
  if (launcher.algos.size() > 1) {
    os << "   `algo` picks the compile-time configuration:\n";
    for (size_t i = 0; i < launcher.algos.size(); ++i)
      os << "     " << i << ": " << launcher.algos[i] << "\n";
  } else if (!launcher.algos.empty()) {
    os << "   Configuration: " << launcher.algos.front() << "\n";
  }
  os << "   Specializations, the first whose conditions hold runs:\n";
  for (const Variant &v : launcher.variants)
    os << "     "
       << (launcher.algos.size() > 1 ? "algo " + std::to_string(v.algo) + ", "
                                     : std::string())
       << describeHints(launcher, v) << "\n";
  os << "*/\n" << getSignature(launcher) << ";\n\n";
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return os.str();
}

std::string tile::aot::emitSource(const Launcher &launcher) {
  const std::string &name = launcher.name;
  size_t count = launcher.variants.size();
  std::ostringstream os;
  os << "/* " << name << ".c: the kernel " << launcher.kernelName << " of\n   "
     << launcher.sourcePath
     << ",\n   compiled ahead of time by tile-compile. Do not edit.\n"
        "   Needs the CUDA driver (libcuda.so.1, opened at run time) and "
        "nothing else. */\n"
     << "#include \"" << name
     << ".h\"\n\n#include <dlfcn.h>\n#include "
        "<pthread.h>\n#include <stddef.h>\n#include <string.h>\n\n";
  for (size_t i = 0; i < count; ++i) {
    const Variant &v = launcher.variants[i];
    os << "/* " << describeHints(launcher, v) << "; " << v.constexprs
       << " */\nstatic const char ptx_" << i << "[] =\n"
       << quote(v.kernel.ptx) << ";\n\n";
    if (!v.cubin.empty())
      os << "/* The same, assembled by ptxas for compute capability "
         << v.cubinCapability / 10 << "." << v.cubinCapability % 10
         << (v.cubinArchSpecific ? " only" : " and later minors") << ". */\n"
         << "static const unsigned char cubin_" << i
         << "[] __attribute__((aligned(16))) = {\n"
         << bytes(v.cubin) << "};\n\n";
  }
  os << "#define VARIANTS " << count << "\n"
     << "static const char *const ptx[VARIANTS] = {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << "ptx_" << i;
  os << "};\nstatic const unsigned char *const cubin[VARIANTS] = {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "")
       << (launcher.variants[i].cubin.empty() ? "NULL"
                                              : "cubin_" + std::to_string(i));
  os << "};\n/* The compute capability of each cubin (10 * major + minor), "
        "negative when\n   it runs on that one only. */\nstatic const int "
        "cubin_capability[VARIANTS] = {";
  for (size_t i = 0; i < count; ++i) {
    const Variant &v = launcher.variants[i];
    os << (i ? ", " : "")
       << (v.cubinArchSpecific ? -v.cubinCapability : v.cubinCapability);
  }
  os << "};\n/* Threads per program. */\nstatic const unsigned "
        "threads[VARIANTS] = {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "")
       << (launcher.variants[i].kernel.numWarps +
           launcher.variants[i].kernel.producerWarps) *
              32;
  os << "};\n/* Dynamic shared memory (kernels over 48 KiB). */\n"
        "static const unsigned dynamic_shared[VARIANTS] = {";
  for (size_t i = 0; i < count; ++i) {
    unsigned bytes = launcher.variants[i].kernel.sharedBytes;
    os << (i ? ", " : "") << (bytes > 48 * 1024 ? bytes : 0);
  }
  os << "};\n/* Whether each runs the grid's programs in a loop\n"
        "   (tilegpu-persistent-programs): the launch then starts at most\n"
        "   persistent_programs[i] (SMs x programs per SM, found on load) and\n"
        "   passes the grid's sizes after the arguments. */\n"
        "static const int persistent[VARIANTS] = {";
  size_t maxArgs = 1;
  for (size_t i = 0; i < count; ++i) {
    const Variant &v = launcher.variants[i];
    os << (i ? ", " : "") << (v.kernel.persistentPrograms ? 1 : 0);
    maxArgs = std::max(maxArgs, getKernelArguments(launcher, v).size() +
                                    v.madeMaps.size());
  }
  os << "};\nstatic unsigned long long persistent_programs[VARIANTS];\n"
     << "#define MAX_ARGS " << maxArgs << "\n\n";
  os << R"(/* The driver entry points, with cuda.h's layout (no header needed). */
static struct {
  int (*cuInit)(unsigned);
  int (*cuCtxGetCurrent)(void **);
  int (*cuDeviceGet)(int *, int);
  int (*cuDevicePrimaryCtxRetain)(void **, int);
  int (*cuCtxSetCurrent)(void *);
  int (*cuCtxGetDevice)(int *);
  int (*cuDeviceGetAttribute)(int *, int, int);
  int (*cuModuleLoadData)(void **, const void *);
  int (*cuModuleUnload)(void *);
  int (*cuModuleGetFunction)(void **, void *, const char *);
  int (*cuFuncSetAttribute)(void *, int, int);
  int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, struct CUstream_st *,
                        void **, void **);
  int (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, void *, int,
                                                     size_t);
  /* CUDA 12 and later; null before. */
  int (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                const unsigned long long *,
                                const unsigned long long *, const unsigned *,
                                const unsigned *, int, int, int, int);
} cu;

static void *modules[VARIANTS];
static void *functions[VARIANTS];
static int loaded;
static int cubins_loaded;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

enum {
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NOT_FOUND = 500,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};

#define RESOLVE_AS(fn, symbol)                                               \
  if (!(*(void **)&cu.fn = dlsym(lib, symbol)))                              \
    return CUDA_ERROR_NOT_FOUND;
#define RESOLVE(fn) RESOLVE_AS(fn, #fn)

static int open_driver(void) {
  void *lib;
  if (cu.cuLaunchKernel)
    return 0;
  lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return CUDA_ERROR_NOT_INITIALIZED;
  RESOLVE(cuInit)
  RESOLVE(cuCtxGetCurrent)
  RESOLVE(cuDeviceGet)
  RESOLVE(cuDevicePrimaryCtxRetain)
  RESOLVE(cuCtxSetCurrent)
  RESOLVE(cuCtxGetDevice)
  RESOLVE(cuDeviceGetAttribute)
  RESOLVE(cuModuleLoadData)
  RESOLVE(cuModuleUnload)
  RESOLVE(cuModuleGetFunction)
  RESOLVE(cuFuncSetAttribute)
  RESOLVE(cuOccupancyMaxActiveBlocksPerMultiprocessor)
  *(void **)&cu.cuTensorMapEncodeTiled = dlsym(lib, "cuTensorMapEncodeTiled");
  /* Last: open_driver() is done once this is set. */
  RESOLVE(cuLaunchKernel)
  return cu.cuInit(0);
}

/* Whether cubin `i` runs on a device of compute capability `capability`:
   the same one, or (for targets that are not arch-specific) a later minor
   version of the same major. */
static int cubin_runs_on(int i, int capability) {
  int target = cubin_capability[i];
  if (!cubin[i])
    return 0;
  if (target < 0)
    return capability == -target;
  return capability / 10 == target / 10 && capability >= target;
}

static void unload_modules(void) {
  int i;
  for (i = 0; i < VARIANTS; ++i) {
    if (modules[i])
      cu.cuModuleUnload(modules[i]);
    modules[i] = functions[i] = NULL;
  }
}

)";
  os << "int " << name << R"(_load(void) {
  int status = 0, i, device, major = 0, minor = 0, multiprocessors = 0;
  void *context = NULL;
  pthread_mutex_lock(&load_lock);
  if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {
    status = open_driver();
    if (!status)
      status = cu.cuCtxGetCurrent(&context);
    if (!status && !context) {
      status = cu.cuDeviceGet(&device, 0);
      if (!status)
        status = cu.cuDevicePrimaryCtxRetain(&context, device);
      if (!status)
        status = cu.cuCtxSetCurrent(context);
    }
    if (!status)
      status = cu.cuCtxGetDevice(&device);
    if (!status)
      status = cu.cuDeviceGetAttribute(
          &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    if (!status)
      status = cu.cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    if (!status)
      status = cu.cuDeviceGetAttribute(
          &multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    cubins_loaded = 0;
    for (i = 0; i < VARIANTS && !status; ++i) {
      /* The cubin where it runs on this device (a driver that rejects it
         falls back to the PTX). */
      if (cubin_runs_on(i, 10 * major + minor) &&
          !cu.cuModuleLoadData(&modules[i], cubin[i]))
        ++cubins_loaded;
      else
        status = cu.cuModuleLoadData(&modules[i], ptx[i]);
      if (!status)
        status = cu.cuModuleGetFunction(&functions[i], modules[i], ")"
     << launcher.kernelName << R"(");
      if (!status && dynamic_shared[i])
        status = cu.cuFuncSetAttribute(
            functions[i], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            (int)dynamic_shared[i]);
      if (!status && persistent[i]) {
        int programs = 0;
        status = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &programs, functions[i], (int)threads[i], dynamic_shared[i]);
        persistent_programs[i] =
            (unsigned long long)multiprocessors * (programs > 1 ? programs : 1);
      }
    }
    if (status)
      unload_modules();
    else
      __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&load_lock);
  return status;
}

void )"
     << name << R"(_unload(void) {
  pthread_mutex_lock(&load_lock);
  if (loaded)
    unload_modules();
  __atomic_store_n(&loaded, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&load_lock);
}

int )"
     << name << R"(_cubins_loaded(void) { return cubins_loaded; }

static int launch(int variant, struct CUstream_st *stream, unsigned grid_x,
                  unsigned grid_y, unsigned grid_z, void **args, int count) {
  void *all[MAX_ARGS + 3];
  int32_t sizes[3];
  unsigned long long programs;
  int i;
  if (!persistent[variant])
    return cu.cuLaunchKernel(functions[variant], grid_x, grid_y, grid_z,
                             threads[variant], 1, 1, dynamic_shared[variant],
                             stream, args, NULL);
  if (grid_x > 2147483647u || grid_y > 2147483647u || grid_z > 2147483647u)
    return CUDA_ERROR_INVALID_VALUE;
  for (i = 0; i < count; ++i)
    all[i] = args[i];
  sizes[0] = (int32_t)grid_x;
  sizes[1] = (int32_t)grid_y;
  sizes[2] = (int32_t)grid_z;
  for (i = 0; i < 3; ++i)
    all[count + i] = &sizes[i];
  programs = (unsigned long long)grid_x * grid_y * grid_z;
  if (programs > persistent_programs[variant])
    programs = persistent_programs[variant];
  return cu.cuLaunchKernel(functions[variant], (unsigned)programs, 1, 1,
                           threads[variant], 1, 1, dynamic_shared[variant],
                           stream, all, NULL);
}

)";
  os << getDescriptorDefinitions(launcher);
  if (std::any_of(launcher.params.begin(), launcher.params.end(),
                  [](const LauncherParam &param) {
                    return !getNarrowFormat(param.type).empty();
                  }))
    // The launcher links no Tile library: this is Tile's rounding
    // (FloatFormats.h, which the C++ API calls) written out in C, checked
    // against it by test/tools/tile-compile/aot-narrow-scalars.test.
    os << R"(/* `value` rounded to nearest even into the binary format of
   `exponent_bits` and `mantissa_bits` (fp16: 5 and 10, bf16: 8 and 7), as
   its bits: what an fp16 or bf16 scalar parameter passes, as Tile's C++ API
   and Triton's launcher round it. */
static uint16_t narrow_float_bits(double value, unsigned exponent_bits,
                                  unsigned mantissa_bits) {
  uint64_t x, magnitude, mantissa, bits, rest;
  uint32_t sign, max_exponent = (1u << exponent_bits) - 1;
  unsigned shift = 52 - mantissa_bits;
  int exponent;
  memcpy(&x, &value, sizeof(x));
  sign = (uint32_t)(x >> 63) << (exponent_bits + mantissa_bits);
  magnitude = x & 0x7fffffffffffffffull;
  if (magnitude > 0x7ff0000000000000ull)
    return (uint16_t)(sign | (max_exponent << mantissa_bits) |
                      (1u << (mantissa_bits - 1)));
  exponent = (int)(magnitude >> 52) - 1023 + (int)(max_exponent >> 1);
  mantissa = magnitude & ((1ull << 52) - 1);
  if (exponent >= (int)max_exponent)
    return (uint16_t)(sign | (max_exponent << mantissa_bits));
  if (exponent <= 0) {
    if (exponent < -(int)mantissa_bits)
      return (uint16_t)sign;
    mantissa |= 1ull << 52;
    shift += (unsigned)(1 - exponent);
    bits = mantissa >> shift;
  } else {
    bits = ((uint64_t)exponent << mantissa_bits) | (mantissa >> shift);
  }
  rest = mantissa & ((1ull << shift) - 1);
  if (rest > (1ull << (shift - 1)) ||
      (rest == (1ull << (shift - 1)) && (bits & 1)))
    ++bits;
  return (uint16_t)(sign | bits);
}

)";
  os << getSignature(launcher) << " {\n"
     << "  if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {\n"
     << "    int status = " << name << "_load();\n"
     << "    if (status)\n      return status;\n  }\n";
  for (const LauncherParam &param : launcher.params)
    if (std::string format = getNarrowFormat(param.type); !format.empty())
      os << "  uint16_t " << param.name << "_bits = narrow_float_bits("
         << param.name << ", " << format << ");\n";
  for (size_t i = 0; i < count; ++i) {
    const Variant &v = launcher.variants[i];
    std::vector<std::string> conditions = getConditions(launcher, v);
    if (launcher.algos.size() > 1)
      conditions.insert(conditions.begin(),
                        "algo == " + std::to_string(v.algo));
    if (conditions.empty())
      conditions.push_back("1");
    std::vector<KernelArgument> kernelArgs = getKernelArguments(launcher, v);
    std::string encodeMaps, error;
    if (!getMadeMapEncoding(v, kernelArgs, encodeMaps, error))
      encodeMaps = "#error " + error + "\n"; // checkMadeMaps would say so
    std::vector<std::string> args;
    for (const KernelArgument &arg : kernelArgs)
      args.push_back("(void *)" + arg.address);
    // One line per condition that does not fit beside the others.
    os << joinWrapped("  if (", conditions, " && ", ") {", 6) << "\n"
       << encodeMaps;
    if (args.empty()) {
      os << "    return launch(" << i
         << ", stream, grid_x, grid_y, grid_z, NULL, 0);\n";
    } else {
      os << joinWrapped("    void *args[] = {", args, ", ", "};", 8) << "\n"
         << "    return launch(" << i << ", stream, grid_x, grid_y, grid_z, "
         << "args, " << args.size() << ");\n";
    }
    os << "  }\n";
  }
  os << "  return " << name << "_NO_MATCH;\n}\n";
  return os.str();
}
