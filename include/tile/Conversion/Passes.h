//===- Passes.h - conversions between Tile's IRs ----------------*- C++ -*-===//

#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
}
namespace math {
class MathDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace scf {
class SCFDialect;
}
namespace tilegpu {
class TileGPUDialect;
}
namespace tile {
#define GEN_PASS_DECL
#include "tile/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PASSES_H
