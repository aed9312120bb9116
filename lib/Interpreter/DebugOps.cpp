//===- DebugOps.cpp - tile.print and tile.assert --------------------------===//
//
// tile.print writes one line per element to the launch's print stream, in
// the format and with the conversions of the GPU's vprintf;
// tile.assert reports the failing program and element as an error.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// Element `k` of `b` as the GPU's vprintf prints it with `format`
/// (PrintOp::getValueFormat): integers narrower than 32 bits widened by
/// their signedness, floats as doubles, hex floats as their bits.
static std::string formatElement(const std::string &format, const Array &b,
                                 Elem elem, int64_t k, bool hex,
                                 bool isSigned) {
  char buffer[64];
  const char *f = format.c_str();
  if (elem.kind == Kind::Ptr) {
    std::snprintf(buffer, sizeof(buffer), f,
                  reinterpret_cast<void *>(uintptr_t(b.i[k])));
  } else if (elem.isFloat() && !hex) {
    std::snprintf(buffer, sizeof(buffer), f, b.f[k]);
  } else {
    uint64_t bits = elem.isFloat() ? floatBits(b.f[k], elem.kind) : b.i[k];
    unsigned width = elem.isFloat() ? elem.bytes() * 8 : elem.width;
    if (width > 32) {
      std::snprintf(buffer, sizeof(buffer), f, (unsigned long long)bits);
    } else {
      uint32_t word = isSigned && !elem.isFloat()
                          ? uint32_t(signExtend(bits, width))
                          : uint32_t(bits);
      if (isSigned && !hex)
        std::snprintf(buffer, sizeof(buffer), f, int32_t(word));
      else
        std::snprintf(buffer, sizeof(buffer), f, word);
    }
  }
  return buffer;
}

// Triton's lines, one per element of each argument in turn (row-major):
// "pid (x, y, z) idx (i, j)PREFIX(operand n) VALUE" (the operand tag only
// with several arguments); without arguments "pid (x, y, z)PREFIX".
LogicalResult runPrint(Interpreter &I, Operation *op) {
  auto print = cast<PrintOp>(op);
  llvm::raw_ostream &os =
      I.options.printStream ? *I.options.printStream : llvm::outs();
  std::string pid = "pid " + I.programName();
  if (print.getArgs().empty()) {
    os << pid << print.getPrefix() << "\n";
    os.flush();
    return success();
  }
  for (auto [a, arg] : llvm::enumerate(print.getArgs())) {
    const Array &values = I.get(arg);
    Elem elem = classify(arg.getType());
    bool isSigned = print.isSignedArg(a);
    std::string format = PrintOp::getValueFormat(
        getElementTypeOrSelf(arg.getType()), print.getHex(), isSigned);
    std::string tail = print.getPrefix().str() + print.getOperandTag(a);
    ArrayRef<int64_t> shape = values.shape;
    SmallVector<int64_t, 4> strides = stridesOf(shape);
    for (int64_t k = 0, n = values.size(); k < n; ++k) {
      os << pid << " idx (";
      for (auto [d, stride] : llvm::enumerate(strides)) {
        char index[32];
        std::snprintf(index, sizeof(index), "%*u",
                      int(PrintOp::getIndexWidth(shape[d])),
                      unsigned((k / stride) % shape[d]));
        os << (d ? ", " : "") << index;
      }
      os << ")" << tail
         << formatElement(format, values, elem, k, print.getHex(), isSigned)
         << "\n";
    }
  }
  os.flush();
  return success();
}

LogicalResult runAssert(Interpreter &I, Operation *op) {
  auto assertOp = cast<AssertOp>(op);
  const Array &cond = I.get(assertOp.getCondition());
  for (int64_t k = 0, n = cond.size(); k < n; ++k)
    if (!(cond.i[k] & 1)) {
      InFlightDiagnostic diag = I.error(op);
      diag << "device_assert failed";
      if (!cond.shape.empty())
        diag << " at element " << k;
      return diag << ": " << assertOp.getMessage();
    }
  return success();
}

} // namespace mlir::tile::interp::detail
