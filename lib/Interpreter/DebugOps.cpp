//===- DebugOps.cpp - tile.print and tile.assert --------------------------===//
//
// tile.print writes one line per element to the launch's print stream;
// tile.assert reports the failing program and element as an error.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

static void printElement(llvm::raw_ostream &os, const Array &b, Elem elem,
                         int64_t k, bool hex, bool isSigned) {
  if (hex) {
    uint64_t bits = elem.isFloat() ? floatBits(b.f[k], elem.kind) : b.i[k];
    os << "0x" << llvm::utohexstr(bits, /*LowerCase=*/true);
  } else if (elem.isFloat()) {
    os << llvm::format(elem.kind == Kind::F64 ? "%.17g" : "%.9g", b.f[k]);
  } else if (elem.kind == Kind::Ptr) {
    os << "0x" << llvm::utohexstr(b.i[k], /*LowerCase=*/true);
  } else if (isSigned && elem.width > 1) {
    os << signExtend(b.i[k], elem.width);
  } else {
    os << b.i[k];
  }
}

// One line per element: "pid (x, y, z) idx (i, j) PREFIX v1 v2 ...".
LogicalResult runPrint(Interpreter &I, Operation *op) {
  auto print = cast<PrintOp>(op);
  llvm::raw_ostream &os =
      I.options.printStream ? *I.options.printStream : llvm::outs();
  SmallVector<const Array *> args;
  SmallVector<Elem> elems;
  for (Value arg : print.getArgs()) {
    args.push_back(&I.get(arg));
    elems.push_back(classify(arg.getType()));
  }
  ArrayRef<int64_t> shape = args.empty() ? ArrayRef<int64_t>() : args[0]->shape;
  int64_t n = args.empty() ? 1 : args[0]->size();
  SmallVector<int64_t, 4> strides = stridesOf(shape);
  ArrayRef<int32_t> isSigned = print.getIsSigned();
  for (int64_t k = 0; k < n; ++k) {
    os << "pid " << I.programName();
    if (!shape.empty()) {
      os << " idx (";
      for (auto [d, stride] : llvm::enumerate(strides))
        os << (d ? ", " : "") << (k / stride) % shape[d];
      os << ")";
    }
    llvm::StringRef prefix = print.getPrefix();
    if (!prefix.empty())
      os << " " << prefix;
    for (auto [a, arg] : llvm::enumerate(args)) {
      os << (a || !prefix.ends_with(" ") ? " " : "");
      printElement(os, *arg, elems[a], arg->size() > 1 ? k : 0, print.getHex(),
                   a < isSigned.size() && isSigned[a]);
    }
    os << "\n";
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
