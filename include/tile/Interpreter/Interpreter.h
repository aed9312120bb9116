//===- Interpreter.h - run a tile-dialect kernel on the CPU -----*- C++ -*-===//
//
// Executes a kernel in the tile dialect (with arith, math, scf and func) on
// the CPU, program by program over the launch grid, with the GPU path's
// semantics: masked-off loads read `other` or 0, integers wrap, fp16/bf16
// round to nearest even, fptosi saturates, tl.dot accumulates fp16/bf16 in
// fp32. Each op evaluates a whole block at once. Every pointer is checked
// against the buffers of the launch; an access outside them is an error that
// names the op, its location and the program.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_INTERPRETER_H
#define TILE_INTERPRETER_INTERPRETER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::tile::interp {

/// Registers the dialects the interpreter executes (tile, arith, math, scf,
/// func).
void registerInterpretedDialects(DialectRegistry &registry);

/// Names of every op the interpreter executes ("tile.load", "arith.addf",
/// ...), sorted.
std::vector<std::string> getHandledOpNames();

/// Names of the ops the interpreter refuses with a diagnostic at the op
/// because they cannot run on the CPU (tile.inline_asm_elementwise: PTX),
/// sorted. They run on the GPU only.
std::vector<std::string> getRefusedOpNames();

/// The device-like address at which the kernel sees buffer `index` of the
/// launch (what a table of pointers to it must hold).
uint64_t getBufferAddress(unsigned index);

/// A buffer of the launch; the kernel sees it at a device-like address.
struct Buffer {
  std::string name;
  MutableArrayRef<uint8_t> bytes;
};

/// One kernel argument, in the order of the func's arguments.
struct Argument {
  enum class Kind { Int, Float, Buffer } kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0;
  unsigned buffer = 0;
};

struct LaunchOptions {
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// Where tile.print writes.
  llvm::raw_ostream *printStream = nullptr;
};

/// Checks that every op in `kernel` is one the interpreter executes;
/// reports the first that is not through the op's diagnostics.
LogicalResult verifyInterpretable(func::FuncOp kernel);

/// Runs `kernel` over the grid. Errors (out-of-bounds accesses, failed
/// asserts, unsupported ops, bad arguments) are reported as diagnostics on
/// the op, naming the program.
LogicalResult runKernel(func::FuncOp kernel, ArrayRef<Argument> args,
                        ArrayRef<Buffer> buffers, const LaunchOptions &options);

} // namespace mlir::tile::interp

#endif // TILE_INTERPRETER_INTERPRETER_H
