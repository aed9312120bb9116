//===- Libdevice.cpp - Triton's libdevice functions, by name --------------===//
//
// The table of Triton's libdevice functions (python/triton/language/extra/
// cuda/libdevice.py): one row per function, its signatures written as
// `OPERANDS:SYMBOL:RESULT` with one letter per type (i int32, I int64,
// u uint32, U uint64, f fp32, d fp64). `F1` .. `F4` stand for the common
// pair of an fp32 and an fp64 signature of 1 to 4 operands calling
// __nv_NAMEf and __nv_NAME.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Libdevice.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir::tile::libdevice;

namespace {
struct Row {
  const char *name;
  const char *signatures;
};

// clang-format off
const Row kRows[] = {
    {"clz", "i:__nv_clz:i I:__nv_clzll:i"},
    {"popc", "i:__nv_popc:i I:__nv_popcll:i"},
    {"byte_perm", "iii:__nv_byte_perm:i"},
    {"mulhi", "ii:__nv_mulhi:i uu:__nv_umulhi:u II:__nv_mul64hi:I "
              "UU:__nv_umul64hi:U"},
    {"mul24", "ii:__nv_mul24:i uu:__nv_umul24:u"},
    {"brev", "i:__nv_brev:i I:__nv_brevll:I"},
    {"sad", "iiu:__nv_sad:i uuu:__nv_usad:u"},
    {"abs", "i:__nv_abs:i I:__nv_llabs:I f:__nv_fabsf:f d:__nv_fabs:d"},
    {"floor", "F1"},
    {"rcp64h", "d:__nv_rcp64h:d"},
    {"rsqrt", "F1"},
    {"ceil", "F1"},
    {"trunc", "F1"},
    {"exp2", "F1"},
    {"saturatef", "f:__nv_saturatef:f"},
    {"fma_rn", "fff:__nv_fmaf_rn:f ddd:__nv_fma_rn:d"},
    {"fma_rz", "fff:__nv_fmaf_rz:f ddd:__nv_fma_rz:d"},
    {"fma_rd", "fff:__nv_fmaf_rd:f ddd:__nv_fma_rd:d"},
    {"fma_ru", "fff:__nv_fmaf_ru:f ddd:__nv_fma_ru:d"},
    {"fast_dividef", "ff:__nv_fast_fdividef:f"},
    {"div_rn", "ff:__nv_fdiv_rn:f dd:__nv_ddiv_rn:d"},
    {"div_rz", "ff:__nv_fdiv_rz:f dd:__nv_ddiv_rz:d"},
    {"div_rd", "ff:__nv_fdiv_rd:f dd:__nv_ddiv_rd:d"},
    {"div_ru", "ff:__nv_fdiv_ru:f dd:__nv_ddiv_ru:d"},
    {"rcp_rn", "f:__nv_frcp_rn:f d:__nv_drcp_rn:d"},
    {"rcp_rz", "f:__nv_frcp_rz:f d:__nv_drcp_rz:d"},
    {"rcp_rd", "f:__nv_frcp_rd:f d:__nv_drcp_rd:d"},
    {"rcp_ru", "f:__nv_frcp_ru:f d:__nv_drcp_ru:d"},
    {"sqrt_rn", "f:__nv_fsqrt_rn:f d:__nv_dsqrt_rn:d"},
    {"sqrt_rz", "f:__nv_fsqrt_rz:f d:__nv_dsqrt_rz:d"},
    {"sqrt_rd", "f:__nv_fsqrt_rd:f d:__nv_dsqrt_rd:d"},
    {"sqrt_ru", "f:__nv_fsqrt_ru:f d:__nv_dsqrt_ru:d"},
    {"sqrt", "F1"},
    {"add_rn", "dd:__nv_dadd_rn:d ff:__nv_fadd_rn:f"},
    {"add_rz", "dd:__nv_dadd_rz:d ff:__nv_fadd_rz:f"},
    {"add_rd", "dd:__nv_dadd_rd:d ff:__nv_fadd_rd:f"},
    {"add_ru", "dd:__nv_dadd_ru:d ff:__nv_fadd_ru:f"},
    {"mul_rn", "dd:__nv_dmul_rn:d ff:__nv_fmul_rn:f"},
    {"mul_rz", "dd:__nv_dmul_rz:d ff:__nv_fmul_rz:f"},
    {"mul_rd", "dd:__nv_dmul_rd:d ff:__nv_fmul_rd:f"},
    {"mul_ru", "dd:__nv_dmul_ru:d ff:__nv_fmul_ru:f"},
    {"double2float_rn", "d:__nv_double2float_rn:f"},
    {"double2float_rz", "d:__nv_double2float_rz:f"},
    {"double2float_rd", "d:__nv_double2float_rd:f"},
    {"double2float_ru", "d:__nv_double2float_ru:f"},
    {"double2int_rn", "d:__nv_double2int_rn:i"},
    {"double2int_rz", "d:__nv_double2int_rz:i"},
    {"double2int_rd", "d:__nv_double2int_rd:i"},
    {"double2int_ru", "d:__nv_double2int_ru:i"},
    {"double2uint_rn", "d:__nv_double2uint_rn:i"},
    {"double2uint_rz", "d:__nv_double2uint_rz:i"},
    {"double2uint_rd", "d:__nv_double2uint_rd:i"},
    {"double2uint_ru", "d:__nv_double2uint_ru:i"},
    {"int2double_rn", "i:__nv_int2double_rn:d"},
    {"uint2double_rn", "u:__nv_uint2double_rn:d"},
    {"float2int_rn", "f:__nv_float2int_rn:i"},
    {"float2int_rz", "f:__nv_float2int_rz:i"},
    {"float2int_rd", "f:__nv_float2int_rd:i"},
    {"float2int_ru", "f:__nv_float2int_ru:i"},
    {"float2uint_rn", "f:__nv_float2uint_rn:i"},
    {"float2uint_rz", "f:__nv_float2uint_rz:i"},
    {"float2uint_rd", "f:__nv_float2uint_rd:i"},
    {"float2uint_ru", "f:__nv_float2uint_ru:i"},
    {"int2float_rn", "i:__nv_int2float_rn:f"},
    {"int2float_rz", "i:__nv_int2float_rz:f"},
    {"int2float_rd", "i:__nv_int2float_rd:f"},
    {"int2float_ru", "i:__nv_int2float_ru:f"},
    {"uint2float_rn", "u:__nv_uint2float_rn:f"},
    {"uint2float_rz", "u:__nv_uint2float_rz:f"},
    {"uint2float_rd", "u:__nv_uint2float_rd:f"},
    {"uint2float_ru", "u:__nv_uint2float_ru:f"},
    {"hiloint2double", "ii:__nv_hiloint2double:d"},
    {"double2loint", "d:__nv_double2loint:i"},
    {"double2hiint", "d:__nv_double2hiint:i"},
    {"float2ll_rn", "f:__nv_float2ll_rn:I"},
    {"float2ll_rz", "f:__nv_float2ll_rz:I"},
    {"float2ll_rd", "f:__nv_float2ll_rd:I"},
    {"float2ll_ru", "f:__nv_float2ll_ru:I"},
    {"float2ull_rn", "f:__nv_float2ull_rn:I"},
    {"float2ull_rz", "f:__nv_float2ull_rz:I"},
    {"float2ull_rd", "f:__nv_float2ull_rd:I"},
    {"float2ull_ru", "f:__nv_float2ull_ru:I"},
    {"double2ll_rn", "d:__nv_double2ll_rn:I"},
    {"double2ll_rz", "d:__nv_double2ll_rz:I"},
    {"double2ll_rd", "d:__nv_double2ll_rd:I"},
    {"double2ll_ru", "d:__nv_double2ll_ru:I"},
    {"double2ull_rn", "d:__nv_double2ull_rn:I"},
    {"double2ull_rz", "d:__nv_double2ull_rz:I"},
    {"double2ull_rd", "d:__nv_double2ull_rd:I"},
    {"double2ull_ru", "d:__nv_double2ull_ru:I"},
    {"ll2float_rn", "I:__nv_ll2float_rn:f"},
    {"ll2float_rz", "I:__nv_ll2float_rz:f"},
    {"ll2float_rd", "I:__nv_ll2float_rd:f"},
    {"ll2float_ru", "I:__nv_ll2float_ru:f"},
    {"ull2float_rn", "U:__nv_ull2float_rn:f"},
    {"ull2float_rz", "U:__nv_ull2float_rz:f"},
    {"ull2float_rd", "U:__nv_ull2float_rd:f"},
    {"ull2float_ru", "U:__nv_ull2float_ru:f"},
    {"ll2double_rn", "I:__nv_ll2double_rn:d"},
    {"ll2double_rz", "I:__nv_ll2double_rz:d"},
    {"ll2double_rd", "I:__nv_ll2double_rd:d"},
    {"ll2double_ru", "I:__nv_ll2double_ru:d"},
    {"ull2double_rn", "U:__nv_ull2double_rn:d"},
    {"ull2double_rz", "U:__nv_ull2double_rz:d"},
    {"ull2double_rd", "U:__nv_ull2double_rd:d"},
    {"ull2double_ru", "U:__nv_ull2double_ru:d"},
    {"int_as_float", "i:__nv_int_as_float:f"},
    {"float_as_int", "f:__nv_float_as_int:i"},
    {"uint_as_float", "u:__nv_uint_as_float:f"},
    {"float_as_uint", "f:__nv_float_as_uint:i"},
    {"longlong_as_double", "I:__nv_longlong_as_double:d"},
    {"double_as_longlong", "d:__nv_double_as_longlong:I"},
    {"fast_sinf", "f:__nv_fast_sinf:f"},
    {"fast_cosf", "f:__nv_fast_cosf:f"},
    {"fast_log2f", "f:__nv_fast_log2f:f"},
    {"fast_logf", "f:__nv_fast_logf:f"},
    {"fast_expf", "f:__nv_fast_expf:f"},
    {"fast_tanf", "f:__nv_fast_tanf:f"},
    {"fast_exp10f", "f:__nv_fast_exp10f:f"},
    {"fast_log10f", "f:__nv_fast_log10f:f"},
    {"fast_powf", "ff:__nv_fast_powf:f"},
    {"hadd", "ii:__nv_hadd:i uu:__nv_uhadd:u"},
    {"rhadd", "ii:__nv_rhadd:i uu:__nv_urhadd:u"},
    {"sub_rn", "ff:__nv_fsub_rn:f dd:__nv_dsub_rn:d"},
    {"sub_rz", "ff:__nv_fsub_rz:f dd:__nv_dsub_rz:d"},
    {"sub_rd", "ff:__nv_fsub_rd:f dd:__nv_dsub_rd:d"},
    {"sub_ru", "ff:__nv_fsub_ru:f dd:__nv_dsub_ru:d"},
    {"rsqrt_rn", "f:__nv_frsqrt_rn:f"},
    {"ffs", "i:__nv_ffs:i I:__nv_ffsll:i"},
    {"rint", "F1"},
    {"llrint", "f:__nv_llrintf:I d:__nv_llrint:I"},
    {"nearbyint", "F1"},
    {"isnan", "f:__nv_isnanf:i d:__nv_isnand:i"},
    {"signbit", "f:__nv_signbitf:i d:__nv_signbitd:i"},
    {"copysign", "F2"},
    {"finitef", "f:__nv_finitef:i"},
    {"isinf", "f:__nv_isinff:i d:__nv_isinfd:i"},
    {"nextafter", "F2"},
    {"sin", "F1"},
    {"cos", "F1"},
    {"sinpi", "F1"},
    {"cospi", "F1"},
    {"tan", "F1"},
    {"log2", "F1"},
    {"exp", "F1"},
    {"exp10", "F1"},
    {"cosh", "F1"},
    {"sinh", "F1"},
    {"tanh", "F1"},
    {"atan2", "F2"},
    {"atan", "F1"},
    {"asin", "F1"},
    {"acos", "F1"},
    {"log", "F1"},
    {"log10", "F1"},
    {"log1p", "F1"},
    {"acosh", "F1"},
    {"asinh", "F1"},
    {"atanh", "F1"},
    {"expm1", "F1"},
    {"hypot", "F2"},
    {"rhypot", "F2"},
    {"norm3d", "F3"},
    {"rnorm3d", "F3"},
    {"norm4d", "F4"},
    {"rnorm4d", "F4"},
    {"cbrt", "F1"},
    {"rcbrt", "F1"},
    {"j0", "F1"},
    {"j1", "F1"},
    {"y0", "F1"},
    {"y1", "F1"},
    {"yn", "if:__nv_ynf:f id:__nv_yn:d"},
    {"jn", "if:__nv_jnf:f id:__nv_jn:d"},
    {"cyl_bessel_i0", "F1"},
    {"cyl_bessel_i1", "F1"},
    {"erf", "F1"},
    {"erfinv", "F1"},
    {"erfc", "F1"},
    {"erfcx", "F1"},
    {"erfcinv", "F1"},
    {"normcdfinv", "F1"},
    {"normcdf", "F1"},
    {"lgamma", "F1"},
    {"ldexp", "fi:__nv_ldexpf:f di:__nv_ldexp:d"},
    {"scalbn", "fi:__nv_scalbnf:f di:__nv_scalbn:d"},
    {"fmod", "F2"},
    {"remainder", "F2"},
    {"fma", "F3"},
    {"pow", "fi:__nv_powif:f di:__nv_powi:d ff:__nv_powf:f dd:__nv_pow:d"},
    {"tgamma", "F1"},
    {"round", "F1"},
    {"llround", "f:__nv_llroundf:I d:__nv_llround:I"},
    {"fdim", "F2"},
    {"ilogb", "f:__nv_ilogbf:i d:__nv_ilogb:i"},
    {"logb", "F1"},
    {"isfinited", "d:__nv_isfinited:i"},
};
// clang-format on

Type parseType(char c) {
  switch (c) {
  case 'i':
    return Type::I32;
  case 'I':
    return Type::I64;
  case 'u':
    return Type::U32;
  case 'U':
    return Type::U64;
  case 'f':
    return Type::F32;
  case 'd':
    return Type::F64;
  }
  llvm_unreachable("bad type letter in the libdevice table");
}

Function parseRow(const Row &row) {
  Function function;
  function.name = row.name;
  function.resultToBool = function.name == "isnan" || function.name == "isinf";
  llvm::SmallVector<llvm::StringRef> tokens;
  llvm::StringRef(row.signatures).split(tokens, ' ', -1, false);
  for (llvm::StringRef token : tokens) {
    if (token.size() == 2 && token[0] == 'F') {
      unsigned arity = token[1] - '0';
      Variant f32{{}, "__nv_" + function.name + "f", Type::F32};
      Variant f64{{}, "__nv_" + function.name, Type::F64};
      f32.operands.assign(arity, Type::F32);
      f64.operands.assign(arity, Type::F64);
      function.variants.push_back(std::move(f32));
      function.variants.push_back(std::move(f64));
      continue;
    }
    auto [operands, rest] = token.split(':');
    auto [symbol, result] = rest.split(':');
    Variant variant{{}, symbol.str(), parseType(result[0])};
    for (char c : operands)
      variant.operands.push_back(parseType(c));
    function.variants.push_back(std::move(variant));
  }
  return function;
}

struct Tables {
  std::vector<Function> functions;
  llvm::StringMap<size_t> byName;
  llvm::StringMap<std::pair<size_t, size_t>> bySymbol;
};

const Tables &getTables() {
  static const Tables tables = [] {
    Tables t;
    for (const Row &row : kRows)
      t.functions.push_back(parseRow(row));
    for (size_t f = 0; f < t.functions.size(); ++f) {
      t.byName[t.functions[f].name] = f;
      for (size_t v = 0; v < t.functions[f].variants.size(); ++v)
        t.bySymbol[t.functions[f].variants[v].symbol] = {f, v};
    }
    return t;
  }();
  return tables;
}
} // namespace

const Function *mlir::tile::libdevice::lookupFunction(llvm::StringRef name) {
  const Tables &t = getTables();
  auto it = t.byName.find(name);
  return it == t.byName.end() ? nullptr : &t.functions[it->second];
}

std::pair<const Function *, const Variant *>
mlir::tile::libdevice::lookupSymbol(llvm::StringRef symbol) {
  const Tables &t = getTables();
  auto it = t.bySymbol.find(symbol);
  if (it == t.bySymbol.end())
    return {nullptr, nullptr};
  const Function &function = t.functions[it->second.first];
  return {&function, &function.variants[it->second.second]};
}

llvm::ArrayRef<Function> mlir::tile::libdevice::getFunctions() {
  return getTables().functions;
}

llvm::StringRef mlir::tile::libdevice::getTypeName(Type type) {
  switch (type) {
  case Type::I32:
    return "int32";
  case Type::I64:
    return "int64";
  case Type::U32:
    return "uint32";
  case Type::U64:
    return "uint64";
  case Type::F32:
    return "fp32";
  case Type::F64:
    return "fp64";
  }
  llvm_unreachable("bad libdevice type");
}
