//===- EmitCDescriptors.cpp - tensor maps in the launcher's C source ------===//
//
// The launcher's tensor maps: the header's descriptor type and the
// functions that make a descriptor parameter (its map encoded once, by
// the caller), and the maps of descriptors the kernel makes from its
// arguments (tilegpu-hoist-tensor-maps), which every launch encodes from
// the arguments by the recipe the compiler recorded (TensorMapRecipe.h)
// and passes after them, as tile-run and the C++ API do.
//
//===----------------------------------------------------------------------===//

#include "EmitCParts.h"

#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"

#include <algorithm>
#include <sstream>

using namespace tile::aot;
using namespace tile::aot::detail;
using mlir::tilegpu::TensorMapRecipe;

namespace {
/// The one cuTensorMapEncodeTiled call of the source, which descriptor
/// parameters and the maps of descriptors the kernel makes share.
const char *kTiledMapEncoder =
    R"(/* Encodes the 2-D tensor map of `rows` x `cols` elements at `base`, rows
   `stride_bytes` apart, in boxes of `box_rows` x `box_inner` elements:
   no interleave, the swizzle given, 128-byte L2 promotion, zeros out of
   bounds. */
static int encode_tiled_map(void *map, int data_type, unsigned long long base,
                            unsigned long long rows, unsigned long long cols,
                            unsigned long long stride_bytes,
                            unsigned box_rows, unsigned box_inner,
                            unsigned swizzle) {
  unsigned long long dims[2], strides[1];
  unsigned box[2], element_strides[2] = {1, 1};
  if (!cu.cuTensorMapEncodeTiled)
    return CUDA_ERROR_NOT_FOUND;
  dims[0] = cols;
  dims[1] = rows;
  strides[0] = stride_bytes;
  box[0] = box_inner;
  box[1] = box_rows;
  return cu.cuTensorMapEncodeTiled(
      map, data_type, 2, (void *)(size_t)base, dims, strides, box,
      element_strides, 0, swizzle == 128 ? 3 : swizzle == 64 ? 2 : 1, 2, 0);
}

)";

std::string getBlockText(const LauncherParam &param) {
  std::string text;
  for (int64_t extent : param.blockShape)
    text += (text.empty() ? "" : ", ") + std::to_string(extent);
  return text;
}

/// The header's tensor descriptor type and the functions that make one for
/// each descriptor parameter (whose element type and block it fixes).
std::string getParameterDescriptorDeclarations(const Launcher &launcher) {
  if (!hasDescriptors(launcher))
    return "";
  const std::string &name = launcher.name;
  std::ostringstream os;
  os << "/* What " << name
     << "_make_tensor_descriptor_*() return when\n   the shape, strides or "
        "base break TMA's rules. */\n#define "
     << name << "_BAD_DESCRIPTOR (-2)\n\n"
     << "/* A tensor descriptor argument, as Triton's host-side\n   "
        "TensorDescriptor: `base`, `shape` and `strides` (in elements, the "
        "last\n   1), outermost dimension first, and the TMA tensor map of "
        "the kernel's\n   block, which launches pass by value (zeros where "
        "the block makes no\n   TMA box). Made by\n   "
     << name << "_make_tensor_descriptor_*(), freed by\n   " << name
     << "_free_tensor_descriptor(). */\nstruct " << name
     << "_tensor_descriptor {\n  unsigned long long base;\n  int32_t "
        "shape[5];\n  int64_t strides[5];\n  unsigned char "
        "tensor_map[128] __attribute__((aligned(64)));\n};\n\n";
  for (const LauncherParam &param : launcher.params) {
    if (!param.isTensorDescriptor())
      continue;
    os << "/* For " << param.name << ": " << param.elementType
       << " elements in blocks of [" << getBlockText(param) << "], "
       << param.blockShape.size() << " dimensions.\n   Loads the kernel "
       << "first (" << name << "_load). Returns 0, a CUresult or\n   " << name
       << "_BAD_DESCRIPTOR. */\nint " << name << "_make_tensor_descriptor_"
       << param.name << "(\n    struct " << name
       << "_tensor_descriptor *out, unsigned long long base,\n    const "
          "int64_t *shape, const int64_t *strides);\n";
  }
  os << "/* Clears a descriptor (it holds no device memory). */\nvoid " << name
     << "_free_tensor_descriptor(struct " << name
     << "_tensor_descriptor *descriptor);\n\n";
  return os.str();
}

/// The source's descriptor functions: the checks TMA's rules ask and the
/// tensor map's encoding, where the compiler copies the block with TMA
/// (TensorMapBox.h's rule, which the kernel follows too).
std::string getParameterDescriptorDefinitions(const Launcher &launcher) {
  if (!hasDescriptors(launcher))
    return "";
  const std::string &name = launcher.name;
  std::ostringstream os;
  os << R"(/* A descriptor parameter's element bytes, rank, CUtensorMapDataType (-1: no
   tensor map), box (rows, elements of a row) and swizzle. */
struct descriptor_kind {
  int bytes, rank, data_type;
  unsigned box_rows, box_inner, swizzle;
};

static int make_descriptor(struct )"
     << name << R"(_tensor_descriptor *out,
                           const struct descriptor_kind *kind,
                           unsigned long long base, const int64_t *shape,
                           const int64_t *strides) {
  int d, status = 0;
  unsigned char encoded[128] __attribute__((aligned(64))) = {0};
  for (d = 0; d < kind->rank; ++d)
    if (shape[d] < 1 || shape[d] > 2147483647 ||
        (d + 1 < kind->rank &&
         (strides[d] < 1 || strides[d] * kind->bytes % 16 != 0)))
      return )"
     << name << R"(_BAD_DESCRIPTOR;
  if (strides[kind->rank - 1] != 1 || base % 16 != 0)
    return )"
     << name << R"(_BAD_DESCRIPTOR;
  if (kind->data_type >= 0) {
    status = )"
     << name << R"(_load();
    if (!status)
      status = encode_tiled_map(
          encoded, kind->data_type, base, (unsigned long long)shape[0],
          (unsigned long long)shape[1],
          (unsigned long long)(strides[0] * kind->bytes), kind->box_rows,
          kind->box_inner, kind->swizzle);
    if (status)
      return status;
  }
  out->base = base;
  for (d = 0; d < kind->rank; ++d) {
    out->shape[d] = (int32_t)shape[d];
    out->strides[d] = strides[d];
  }
  memcpy(out->tensor_map, encoded, sizeof(encoded));
  return 0;
}

void )"
     << name << "_free_tensor_descriptor(struct " << name
     << R"(_tensor_descriptor *descriptor) {
  memset(descriptor->tensor_map, 0, sizeof(descriptor->tensor_map));
}

)";
  for (const LauncherParam &param : launcher.params) {
    if (!param.isTensorDescriptor())
      continue;
    const tile::TensorMapLayout &map = param.tensorMap;
    os << "int " << name << "_make_tensor_descriptor_" << param.name
       << "(\n    struct " << name
       << "_tensor_descriptor *out, unsigned long long base,\n    const "
          "int64_t *shape, const int64_t *strides) {\n"
       << "  static const struct descriptor_kind kind = {" << map.elementBytes
       << ", " << param.blockShape.size() << ", "
       << (map.swizzleBytes ? map.dataType : -1) << ", " << map.boxRows << ", "
       << map.boxInnerElements << ", " << map.swizzleBytes
       << "};\n  return make_descriptor(out, &kind, base, shape, "
          "strides);\n}\n\n";
  }
  return os.str();
}
/// A C expression of a recipe's stack, and whether it is a signed 32-bit
/// value (which kWrap32 leaves as it is).
struct CValue {
  std::string text;
  bool is32 = false;
};

std::string asU64(const CValue &value) { return "(uint64_t)" + value.text; }

/// The C expression `steps` compute (TensorMapRecipe.h's evaluation, its
/// i32 wraps included) from the arguments' integer expressions; empty
/// with `error` set where a step names an argument that has none.
std::string getStepsExpression(llvm::ArrayRef<int64_t> steps,
                               const std::vector<KernelArgument> &args,
                               std::string &error) {
  std::vector<CValue> stack;
  for (size_t i = 0; i < steps.size(); ++i) {
    int64_t step = steps[i];
    if (step == mlir::tilegpu::kConstant || step == mlir::tilegpu::kArgument) {
      if (i + 1 >= steps.size())
        break;
      int64_t operand = steps[++i];
      if (step == mlir::tilegpu::kConstant) {
        if (operand >= 0 && operand <= INT32_MAX)
          stack.push_back({std::to_string(operand), true});
        else
          stack.push_back(
              {"(int64_t)" + std::to_string(uint64_t(operand)) + "u", false});
        continue;
      }
      if (operand < 0 || size_t(operand) >= args.size() ||
          args[operand].integer.empty()) {
        error = "its recipe reads kernel argument " + std::to_string(operand) +
                ", which the launcher passes as no integer";
        return "";
      }
      stack.push_back({args[operand].integer, args[operand].is32});
      continue;
    }
    if (step == mlir::tilegpu::kAdd || step == mlir::tilegpu::kSub ||
        step == mlir::tilegpu::kMul) {
      if (stack.size() < 2)
        break;
      CValue rhs = stack.back();
      stack.pop_back();
      CValue lhs = stack.back();
      stack.pop_back();
      const char *op = step == mlir::tilegpu::kAdd   ? " + "
                       : step == mlir::tilegpu::kSub ? " - "
                                                     : " * ";
      // Unsigned: the kernel's arithmetic wraps, and so does this.
      stack.push_back({"(" + asU64(lhs) + op + asU64(rhs) + ")", false});
      continue;
    }
    if ((step == mlir::tilegpu::kWrap32 ||
         step == mlir::tilegpu::kZeroExtend32) &&
        !stack.empty()) {
      CValue &top = stack.back();
      if (step == mlir::tilegpu::kWrap32 && !top.is32)
        top = {"(int32_t)(uint32_t)" + top.text, true};
      else if (step == mlir::tilegpu::kZeroExtend32)
        top = {"(int64_t)(uint32_t)" + top.text, false};
      continue;
    }
    stack.clear();
    break;
  }
  if (stack.size() != 1) {
    error = "its recipe is malformed";
    return "";
  }
  return "(int64_t)" + stack.back().text;
}
} // namespace

bool detail::hasDescriptors(const Launcher &launcher) {
  return std::any_of(
      launcher.params.begin(), launcher.params.end(),
      [](const LauncherParam &param) { return param.isTensorDescriptor(); });
}

bool detail::hasMadeMaps(const Launcher &launcher) {
  return std::any_of(launcher.variants.begin(), launcher.variants.end(),
                     [](const Variant &v) { return !v.madeMaps.empty(); });
}

std::string detail::getDescriptorDeclarations(const Launcher &launcher) {
  std::string text = getParameterDescriptorDeclarations(launcher);
  if (hasMadeMaps(launcher))
    text += "/* What " + launcher.name +
            "() returns when a tensor descriptor the kernel makes\n   from "
            "its arguments breaks TMA's rules (an extent above 2^32, a row\n"
            "   stride below 1 or of 2^39 elements or more). */\n#define " +
            launcher.name + "_BAD_TENSOR_MAP (-3)\n\n";
  return text;
}

std::string detail::getDescriptorDefinitions(const Launcher &launcher) {
  if (!hasDescriptors(launcher) && !hasMadeMaps(launcher))
    return "";
  std::string text = std::string(kTiledMapEncoder) +
                     getParameterDescriptorDefinitions(launcher);
  if (!hasMadeMaps(launcher))
    return text;
  return text +
         R"(/* The tensor map of a descriptor the kernel makes from its arguments:
   its CUtensorMapDataType (-1 where no TMA copy or store reads it), box
   (rows, elements of a row) and swizzle. */
struct made_map_kind {
  int data_type;
  unsigned box_rows, box_inner, swizzle;
};

/* One made descriptor's map as a thread last encoded it, and from what:
   launches that repeat the inputs pass it again without encoding. */
struct made_map {
  unsigned char map[128] __attribute__((aligned(64)));
  unsigned long long base;
  int64_t rows, cols, stride;
  int valid;
};

/* Encodes `made`'s map of the 2-byte elements at `base`, `rows` x `cols`,
   rows `stride` elements apart, unless it holds that one already; zeros
   where no TMA copy reads it or an extent is 0 (no block is read through
   it then). */
static int encode_made_map(struct made_map *made,
                           const struct made_map_kind *kind,
                           unsigned long long base, int64_t rows,
                           int64_t cols, int64_t stride) {
  int status;
  if (made->valid && made->base == base && made->rows == rows &&
      made->cols == cols && made->stride == stride)
    return 0;
  made->valid = 0;
  memset(made->map, 0, sizeof(made->map));
  if (kind->data_type >= 0 && rows != 0 && cols != 0) {
    if (rows < 0 || cols < 0 || rows > 4294967296LL ||
        cols > 4294967296LL || stride < 1 || stride >= 549755813888LL)
      return )" +
         launcher.name +
         R"(_BAD_TENSOR_MAP;
    status = encode_tiled_map(made->map, kind->data_type, base,
                              (unsigned long long)rows,
                              (unsigned long long)cols,
                              (unsigned long long)stride * 2, kind->box_rows,
                              kind->box_inner, kind->swizzle);
    if (status)
      return status;
  }
  made->base = base;
  made->rows = rows;
  made->cols = cols;
  made->stride = stride;
  made->valid = 1;
  return 0;
}

)";
}

bool detail::getMadeMapEncoding(const Variant &v,
                                std::vector<KernelArgument> &args,
                                std::string &statements, std::string &error) {
  if (v.madeMaps.empty())
    return true;
  std::ostringstream kinds, encode;
  size_t own = args.size();
  for (size_t j = 0; j < v.madeMaps.size(); ++j) {
    const TensorMapRecipe &recipe = v.madeMaps[j];
    std::string which = "tensor map " + std::to_string(j) + ": ";
    if (recipe.argument != int64_t(own + j) || recipe.base < 0 ||
        size_t(recipe.base) >= own || args[recipe.base].pointer.empty()) {
      error = which + "its recipe does not match the kernel's arguments";
      return false;
    }
    int dataType = -1;
    unsigned swizzle = 0, boxRows = 0, boxInner = 0;
    if (recipe.element != mlir::tilegpu::kUnusedTensorMap) {
      std::optional<mlir::tilegpu::TensorMapBox> box =
          mlir::tilegpu::getTensorMapBox({recipe.blockRows, recipe.blockCols},
                                         2);
      if (!box || (recipe.element != 0 && recipe.element != 1)) {
        error = which + "its block or element type has no TMA box";
        return false;
      }
      dataType = mlir::tilegpu::getTensorMapDataType(
          recipe.element == 0 ? mlir::tilegpu::TensorMapElement::Float16
                              : mlir::tilegpu::TensorMapElement::BFloat16);
      swizzle = box->swizzleBytes;
      boxRows = unsigned(box->rows);
      boxInner = unsigned(box->innerElements);
    }
    std::string rows = getStepsExpression(recipe.rows, args, error);
    std::string cols =
        rows.empty() ? "" : getStepsExpression(recipe.cols, args, error);
    std::string stride =
        cols.empty() ? "" : getStepsExpression(recipe.rowStride, args, error);
    if (stride.empty()) {
      error = which + error;
      return false;
    }
    kinds << "        {" << dataType << ", " << boxRows << ", " << boxInner
          << ", " << swizzle << "}"
          << (j + 1 == v.madeMaps.size() ? "};\n" : ",\n");
    // The base, then the rows, columns and row stride a line each.
    std::string index = std::to_string(j);
    std::string indent(34, ' ');
    encode << "    if ((status = encode_made_map(&made_maps[" << index
           << "], &made_kinds[" << index << "],\n"
           << indent << args[recipe.base].pointer << ",\n"
           << indent << rows << ",\n"
           << indent << cols << ",\n"
           << indent << stride << ")))\n      return status;\n";
    args.push_back({"made_maps[" + index + "].map", "", "", false});
  }
  std::ostringstream os;
  os << "    /* The tensor maps of the descriptors the kernel makes. */\n"
     << "    static const struct made_map_kind made_kinds[] = {\n"
     << kinds.str();
  os << "    static __thread struct made_map made_maps[" << v.madeMaps.size()
     << "];\n"
     << "    int status;\n"
     << encode.str();
  statements = os.str();
  return true;
}

std::string tile::aot::checkMadeMaps(const Launcher &launcher,
                                     const Variant &v) {
  std::vector<KernelArgument> args = getKernelArguments(launcher, v);
  std::string statements, error;
  if (!getMadeMapEncoding(v, args, statements, error))
    return error;
  return "";
}
