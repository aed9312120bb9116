//===- Interpreter.cpp - run a tile-dialect kernel on the CPU -------------===//
//
// Every SSA value of the running program is an Array: its shape and its
// elements, floats as doubles (exactly representable in the element type)
// and integers and pointers as 64-bit patterns zero-extended from their
// width. Ops are looked up once per op name in one table, which is also the
// list of ops the interpreter claims to handle; each handler computes a
// whole block. Elementwise handlers take their shapes from the runtime
// values, so combine regions of tile.reduce and tile.scan run on vectors of
// many lanes at once (log2(n) region runs per reduction, not n).
//
// This file holds the walk over a program (binding values, finding each op's
// handler, resolving device-like addresses to the launch's buffers) and the
// API. The handlers are in one file per op family, listed in
// InterpreterImpl.h; the table that maps op names to them is OpTable.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Interpreter/Interpreter.h"
#include "InterpreterImpl.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

void Interpreter::reportBadAccess(Operation *op, uint64_t address,
                                  unsigned size, int64_t element) {
  uint64_t index = address >> kAddressShift;
  uint64_t offset = address & ((uint64_t(1) << kAddressShift) - 1);
  if (index >= 1 && index <= buffers.size() &&
      offset + size <= buffers[index - 1].bytes.size()) {
    error(op) << "misaligned " << size << "-byte " << op->getName()
              << " at byte offset " << offset << " of buffer '"
              << buffers[index - 1].name << "' (element " << element
              << " of the block)";
    return;
  }
  InFlightDiagnostic diag = error(op);
  diag << "out-of-bounds " << op->getName() << " by element " << element
       << " of the block: ";
  // Describe the address relative to the nearest buffer.
  uint64_t half = uint64_t(1) << (kAddressShift - 1);
  if (index >= 1 && index <= buffers.size() && offset < half)
    diag << "byte offset " << offset << " of buffer '"
         << buffers[index - 1].name << "', which has "
         << buffers[index - 1].bytes.size() << " bytes";
  else if (index < buffers.size() && offset >= half)
    diag << (bufferAddress(index) - address) << " bytes before buffer '"
         << buffers[index].name << "'";
  else
    diag << "address 0x" << llvm::utohexstr(address)
         << " is in no buffer of the launch";
}

LogicalResult Interpreter::runBlock(mlir::Block &block, ArrayRef<Array> args,
                                    SmallVectorImpl<Array> &results) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      results.clear();
      for (Value operand : op.getOperands())
        results.push_back(get(operand));
      return success();
    }
    const void *key = op.getName().getAsOpaquePointer();
    auto it = handlerCache.find(key);
    if (it == handlerCache.end()) {
      auto found = getHandlers().find(op.getName().getStringRef());
      if (found == getHandlers().end()) {
        auto refused = getRefusedOps().find(op.getName().getStringRef());
        if (refused != getRefusedOps().end())
          return op.emitError() << refused->second;
        return op.emitError()
               << "the interpreter does not support '" << op.getName() << "'";
      }
      it = handlerCache.try_emplace(key, found->second).first;
    }
    if (failed(it->second(*this, &op)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runProgram(func::FuncOp kernel, ArrayRef<Array> args,
                                      std::array<int64_t, 3> programId) {
  pid = programId;
  env.clear();
  SmallVector<Array> results;
  return runBlock(kernel.getBody().front(), args, results);
}

//===----------------------------------------------------------------------===//
// API
//===----------------------------------------------------------------------===//

void mlir::tile::interp::registerInterpretedDialects(
    DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect>();
}

uint64_t mlir::tile::interp::getBufferAddress(unsigned index) {
  return detail::Interpreter::bufferAddress(index);
}

/// Ops runKernel rewrites into others before it runs a kernel (block
/// pointers, tile-rewrite-block-pointers): handled, through those.
static const char *const kRewrittenOps[] = {"tile.advance", "tile.block_load",
                                            "tile.block_store",
                                            "tile.make_block_ptr"};

std::vector<std::string> mlir::tile::interp::getHandledOpNames() {
  std::vector<std::string> names;
  for (const auto &entry : getHandlers())
    names.push_back(entry.getKey().str());
  names.insert(names.end(), std::begin(kRewrittenOps), std::end(kRewrittenOps));
  llvm::sort(names);
  return names;
}

std::vector<std::string> mlir::tile::interp::getRefusedOpNames() {
  std::vector<std::string> names;
  for (const auto &entry : getRefusedOps())
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

LogicalResult mlir::tile::interp::verifyInterpretable(func::FuncOp kernel) {
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    if (getHandlers().count(op->getName().getStringRef()))
      return WalkResult::advance();
    auto refused = getRefusedOps().find(op->getName().getStringRef());
    if (refused != getRefusedOps().end()) {
      op->emitError() << refused->second;
      return WalkResult::interrupt();
    }
    op->emitError() << "the interpreter does not support '" << op->getName()
                    << "'";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::tile::interp::runKernel(func::FuncOp kernel,
                                            ArrayRef<Argument> args,
                                            ArrayRef<Buffer> buffers,
                                            const LaunchOptions &options) {
  if (kernel.isExternal())
    return kernel.emitError() << "the kernel has no body";
  bool hasBlockPointers =
      kernel
          .walk([](Operation *op) {
            return llvm::is_contained(kRewrittenOps,
                                      op->getName().getStringRef())
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  if (hasBlockPointers &&
      failed(rewriteBlockPointers(kernel->getParentOfType<ModuleOp>())))
    return failure();
  if (failed(verifyInterpretable(kernel)))
    return failure();
  ArrayRef<Type> types = kernel.getArgumentTypes();
  if (types.size() != args.size())
    return kernel.emitError() << "the kernel takes " << types.size()
                              << " arguments, the launch gives " << args.size();
  SmallVector<Array> blocks;
  for (auto [index, type, arg] : llvm::enumerate(types, args)) {
    Elem elem = classify(type);
    if (isa<RankedTensorType>(type))
      return kernel.emitError() << "argument " << index << " is a tensor";
    bool wantBuffer = elem.kind == Kind::Ptr;
    if (wantBuffer != (arg.kind == Argument::Kind::Buffer) ||
        (arg.kind == Argument::Kind::Float && !elem.isFloat()))
      return kernel.emitError()
             << "argument " << index << " of type " << type
             << " does not match the launch's "
             << (arg.kind == Argument::Kind::Buffer  ? "buffer"
                 : arg.kind == Argument::Kind::Float ? "float"
                                                     : "integer");
    Array block = Array::make(elem.isFloat(), {});
    if (arg.kind == Argument::Kind::Buffer) {
      if (arg.buffer >= buffers.size())
        return kernel.emitError()
               << "argument " << index << ": no buffer " << arg.buffer;
      block.i[0] = Interpreter::bufferAddress(arg.buffer);
    } else if (elem.isFloat()) {
      block.f[0] = roundTo(elem.kind, arg.kind == Argument::Kind::Float
                                          ? arg.floatValue
                                          : double(arg.intValue));
    } else {
      block.i[0] = truncBits(uint64_t(arg.intValue), elem.width);
    }
    blocks.push_back(std::move(block));
  }
  Interpreter interpreter(buffers, options);
  for (int64_t z = 0; z < options.grid[2]; ++z)
    for (int64_t y = 0; y < options.grid[1]; ++y)
      for (int64_t x = 0; x < options.grid[0]; ++x)
        if (failed(interpreter.runProgram(kernel, blocks, {x, y, z})))
          return failure();
  return success();
}
