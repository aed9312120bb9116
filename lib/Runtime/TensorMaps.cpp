//===- TensorMaps.cpp - tensor maps of descriptors a kernel makes ---------===//

#include "tile/Runtime/TensorMaps.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"

using namespace tile;

bool rt::readTensorMapRecipes(
    Driver &driver, const Module &module, llvm::StringRef image,
    std::vector<mlir::tilegpu::TensorMapRecipe> &recipes, std::string &error) {
  recipes.clear();
  std::optional<std::vector<int64_t>> flat;
  if (!image.contains(mlir::tilegpu::kTensorMapsSymbol))
    return true;
  if (!driver.readGlobalI64s(module, mlir::tilegpu::kTensorMapsSymbol.str(),
                             flat, error))
    return false;
  if (!flat)
    return true;
  auto parsed = mlir::tilegpu::parseTensorMapRecipes(*flat);
  if (!parsed) {
    error = "the module's tensor map recipes are malformed";
    return false;
  }
  recipes = std::move(*parsed);
  return true;
}

bool rt::encodeRecipeTensorMap(
    Driver &driver, const mlir::tilegpu::TensorMapRecipe &recipe,
    llvm::function_ref<std::optional<int64_t>(int64_t)> argument,
    DevicePtr base, TensorMapBytes &map, std::string &error) {
  map = TensorMapBytes();
  if (recipe.element == mlir::tilegpu::kUnusedTensorMap)
    return true; // no TMA copy or store reads it
  std::optional<int64_t> rows =
      mlir::tilegpu::evaluateTensorMapSteps(recipe.rows, argument);
  std::optional<int64_t> cols =
      mlir::tilegpu::evaluateTensorMapSteps(recipe.cols, argument);
  std::optional<int64_t> stride =
      mlir::tilegpu::evaluateTensorMapSteps(recipe.rowStride, argument);
  std::optional<mlir::tilegpu::TensorMapBox> box =
      mlir::tilegpu::getTensorMapBox({recipe.blockRows, recipe.blockCols}, 2);
  if (!rows || !cols || !stride || !box) {
    error = "its recipe does not match the kernel's arguments";
    return false;
  }
  if (*rows == 0 || *cols == 0)
    return true;
  constexpr int64_t kMaxExtent = int64_t(1) << 32;
  if (*rows < 0 || *cols < 0 || *rows > kMaxExtent || *cols > kMaxExtent ||
      *stride < 1 || *stride >= (int64_t(1) << 39)) {
    error = "shape (" + std::to_string(*rows) + ", " + std::to_string(*cols) +
            ") with row stride " + std::to_string(*stride) +
            ": TMA needs extents up to 2^32 and a positive row stride below "
            "2^40 bytes";
    return false;
  }
  using mlir::tilegpu::TensorMapElement;
  int dataType =
      getTensorMapDataType(recipe.element == 0 ? TensorMapElement::Float16
                                               : TensorMapElement::BFloat16);
  return driver.encodeTensorMap2D(
      map.bytes, dataType, base, uint64_t(*rows), uint64_t(*cols),
      uint64_t(*stride) * 2, unsigned(box->rows), unsigned(box->innerElements),
      box->swizzleBytes, /*nanFill=*/false, error);
}
