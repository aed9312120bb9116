//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//
//
// A sparse forward dataflow analysis (MLIR's framework) whose lattice value is
// an AxisInfo. Scalars are treated as blocks of shape [1]. Each transfer rule
// is conservative: when in doubt, runs of length one divisible by one.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::dataflow;

namespace {
using DimVector = AxisInfo::DimVector;

int64_t highestPowerOf2Divisor(int64_t value) {
  if (value == 0)
    return AxisInfo::kMaxDivisor;
  return std::min<int64_t>(value & -value, AxisInfo::kMaxDivisor);
}

/// The shape of a block, or [1] for a scalar.
SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

/// Bytes per element behind a pointer (or block of pointers).
int64_t pointeeBytes(Type type) {
  auto ptr = cast<PointerType>(getElementTypeOrSelf(type));
  return std::max<int64_t>(1, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}

bool isCovered(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isIntOrIndex() || isa<PointerType>(element);
}

AxisInfo constantInfo(ArrayRef<int64_t> shape, int64_t value) {
  unsigned rank = shape.size();
  return AxisInfo(DimVector(rank, 1),
                  DimVector(rank, highestPowerOf2Divisor(value)),
                  DimVector(shape.begin(), shape.end()), value);
}

using AxisInfoLattice = Lattice<AxisInfo>;

/// `info` raised to what the kernel's tl.multiple_of, tl.max_contiguous and
/// tl.max_constancy on `op` say (tile.divisibility, tile.contiguity and
/// tile.constancy, a value per dimension), which the analysis trusts as
/// Triton's does.
AxisInfo applyHints(Operation *op, const AxisInfo &info) {
  auto raise = [&](StringRef name, const AxisInfo::DimVector &found) {
    AxisInfo::DimVector values(found);
    auto hint = op->getAttrOfType<DenseI32ArrayAttr>(name);
    if (hint && size_t(hint.size()) == values.size())
      for (auto [value, given] : llvm::zip(values, hint.asArrayRef()))
        value = std::max<int64_t>(value, given);
    return values;
  };
  if (!op->hasAttr(kHintDivisibilityAttr) &&
      !op->hasAttr(kHintContiguityAttr) && !op->hasAttr(kHintConstancyAttr))
    return info;
  return AxisInfo(raise(kHintContiguityAttr, info.getContiguity()),
                  raise(kHintDivisibilityAttr, info.getDivisibility()),
                  raise(kHintConstancyAttr, info.getConstancy()),
                  info.getConstantValue());
}

class AxisInfoAnalysis : public SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void setToEntryState(AxisInfoLattice *lattice) override {
    Value value = lattice->getAnchor();
    AxisInfo info = AxisInfo::getPessimisticValueState(value);
    // Launch specialization records divisibility on kernel arguments.
    if (auto arg = dyn_cast<BlockArgument>(value))
      if (auto func =
              dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
        if (arg.getOwner()->isEntryBlock())
          if (auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                            kDivisibilityAttr))
            info = AxisInfo({1}, {div.getInt()}, {1});
    propagateIfChanged(lattice, lattice->join(info));
  }

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const AxisInfoLattice *> operands,
                               ArrayRef<AxisInfoLattice *> results) override {
    if (results.empty())
      return success();
    SmallVector<AxisInfo> in;
    for (const AxisInfoLattice *operand : operands) {
      // Wait until every operand is known.
      if (!operand->getValue().isInitialized())
        return success();
      in.push_back(operand->getValue());
    }
    for (auto [result, lattice] : llvm::zip(op->getResults(), results)) {
      AxisInfo info = isCovered(result.getType())
                          ? applyHints(op, transfer(op, in, result))
                          : AxisInfo::getPessimisticValueState(result);
      propagateIfChanged(lattice, lattice->join(info));
    }
    return success();
  }

private:
  AxisInfo transfer(Operation *op, ArrayRef<AxisInfo> in, Value result);
};
} // namespace

AxisInfo AxisInfo::getPessimisticValueState(Value value) {
  unsigned rank = shapeOf(value.getType()).size();
  return AxisInfo(DimVector(rank, 1), DimVector(rank, 1), DimVector(rank, 1));
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  DimVector cont, div, cst;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    cont.push_back(std::gcd(lhs.contiguity[d], rhs.contiguity[d]));
    div.push_back(std::gcd(lhs.divisibility[d], rhs.divisibility[d]));
    cst.push_back(std::gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(cont, div, cst, constant);
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, const DimVector &values) {
    os << name << " = [";
    llvm::interleaveComma(values, os);
    os << "]";
  };
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  list("contiguity", contiguity);
  os << ", ";
  list("divisibility", divisibility);
  os << ", ";
  list("constancy", constancy);
  if (constantValue)
    os << ", constant = " << *constantValue;
}

AxisInfo AxisInfoAnalysis::transfer(Operation *op, ArrayRef<AxisInfo> in,
                                    Value result) {
  SmallVector<int64_t> shape = shapeOf(result.getType());
  unsigned rank = shape.size();
  AxisInfo pessimistic = AxisInfo::getPessimisticValueState(result);

  // Values equal to a known integer constant (scalars and splats).
  APInt intValue;
  if (matchPattern(result, m_ConstantInt(&intValue)))
    return constantInfo(shape, intValue.getSExtValue());

  // Elementwise rule shared by the binary integer ops below.
  auto binary = [&](auto contiguityRule, auto divisibilityRule) {
    const AxisInfo &lhs = in[0], &rhs = in[1];
    DimVector cont, div, cst;
    for (unsigned d = 0; d < rank; ++d) {
      cont.push_back(contiguityRule(lhs, rhs, d));
      // Where the result splits an operand's run (first value divisible by
      // D) into aligned runs of length c, those start at multiples of
      // gcd(D, c).
      AxisInfo::DimVector lhsDiv(lhs.getDivisibility()),
          rhsDiv(rhs.getDivisibility());
      if (lhs.getContiguity(d) > cont.back())
        lhsDiv[d] = std::gcd(lhsDiv[d], cont.back());
      if (rhs.getContiguity(d) > cont.back())
        rhsDiv[d] = std::gcd(rhsDiv[d], cont.back());
      div.push_back(
          divisibilityRule(AxisInfo(lhs.getContiguity(), lhsDiv,
                                    lhs.getConstancy(), lhs.getConstantValue()),
                           AxisInfo(rhs.getContiguity(), rhsDiv,
                                    rhs.getConstancy(), rhs.getConstantValue()),
                           d));
      cst.push_back(std::gcd(lhs.getConstancy(d), rhs.getConstancy(d)));
    }
    return AxisInfo(cont, div, cst);
  };
  auto addContiguity = [](const AxisInfo &l, const AxisInfo &r, unsigned d) {
    return std::max(std::gcd(l.getContiguity(d), r.getConstancy(d)),
                    std::gcd(l.getConstancy(d), r.getContiguity(d)));
  };
  auto gcdDivisibility = [](const AxisInfo &l, const AxisInfo &r, unsigned d) {
    return std::gcd(l.getDivisibility(d), r.getDivisibility(d));
  };
  auto noContiguity = [](const AxisInfo &, const AxisInfo &, unsigned) {
    return int64_t(1);
  };
  auto noDivisibility = noContiguity;
  // Is `info` one value along the whole of axis d?
  auto isUniform = [&](const AxisInfo &info, unsigned d) {
    return info.getConstancy(d) >= shape[d];
  };

  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case<MakeRangeOp>([&](MakeRangeOp range) {
        int64_t start = range.getStart();
        return AxisInfo({range.getEnd() - start},
                        {highestPowerOf2Divisor(start)}, {1});
      })
      .Case<SplatOp>([&](SplatOp) {
        return AxisInfo(
            DimVector(rank, 1), DimVector(rank, in[0].getDivisibility(0)),
            DimVector(shape.begin(), shape.end()), in[0].getConstantValue());
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp expand) {
        // Along the new size-1 axis each element stands alone: its own
        // divisibility, which inside a run is only known to be 1.
        const AxisInfo &info = in[0];
        int64_t own = AxisInfo::kMaxDivisor;
        for (unsigned d = 0; d < info.getRank(); ++d)
          own = info.getContiguity(d) > 1
                    ? 1
                    : std::min(own, info.getDivisibility(d));
        DimVector cont(info.getContiguity()), div(info.getDivisibility()),
            cst(info.getConstancy());
        unsigned axis = expand.getAxis();
        cont.insert(cont.begin() + axis, 1);
        div.insert(div.begin() + axis, own);
        cst.insert(cst.begin() + axis, 1);
        return AxisInfo(cont, div, cst, info.getConstantValue());
      })
      .Case<BroadcastOp>([&](BroadcastOp broadcast) {
        // Axes grown from size 1 repeat one value.
        const AxisInfo &info = in[0];
        auto source = cast<RankedTensorType>(broadcast.getSrc().getType());
        DimVector cont(info.getContiguity()), div(info.getDivisibility()),
            cst(info.getConstancy());
        for (unsigned d = 0; d < rank; ++d)
          if (source.getDimSize(d) == 1 && shape[d] != 1) {
            cont[d] = 1;
            cst[d] = shape[d];
          }
        return AxisInfo(cont, div, cst, info.getConstantValue());
      })
      .Case<tilegpu::ConvertLayoutOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::IndexCastOp>(
          [&](Operation *) { return in[0]; })
      .Case<PtrCastOp>([&](PtrCastOp cast) -> AxisInfo {
        // The addresses are unchanged: divisibility (bytes) and constancy
        // carry over, and contiguity (elements) too where both pointees
        // have one size (bool blocks read as bytes, tile-widen-bool-memory).
        const AxisInfo &info = in[0];
        if (pointeeBytes(cast.getSrc().getType()) ==
            pointeeBytes(cast.getType()))
          return info;
        return AxisInfo(DimVector(rank, 1), DimVector(info.getDivisibility()),
                        DimVector(info.getConstancy()),
                        info.getConstantValue());
      })
      .Case<arith::AddIOp>(
          [&](Operation *) { return binary(addContiguity, gcdDivisibility); })
      .Case<AddPtrOp>([&](AddPtrOp addPtr) {
        // Offsets count elements; pointer divisibility counts bytes.
        int64_t bytes = pointeeBytes(addPtr.getType());
        return binary(addContiguity, [&](const AxisInfo &l, const AxisInfo &r,
                                         unsigned d) {
          int64_t offsetBytes =
              std::min(r.getDivisibility(d) * bytes, AxisInfo::kMaxDivisor);
          return std::gcd(l.getDivisibility(d), offsetBytes);
        });
      })
      .Case<arith::SubIOp>([&](Operation *) {
        return binary(
            [](const AxisInfo &l, const AxisInfo &r, unsigned d) {
              return std::gcd(l.getContiguity(d), r.getConstancy(d));
            },
            gcdDivisibility);
      })
      .Case<arith::MulIOp>([&](Operation *) {
        auto isOne = [](const AxisInfo &info) {
          return info.getConstantValue() && *info.getConstantValue() == 1;
        };
        return binary(
            [&](const AxisInfo &l, const AxisInfo &r, unsigned d) {
              if (isOne(r))
                return l.getContiguity(d);
              if (isOne(l))
                return r.getContiguity(d);
              return int64_t(1);
            },
            [&](const AxisInfo &l, const AxisInfo &r, unsigned d) {
              // Inside a run [2^n, 2^n + 1, ...] only the first element has
              // the run's divisibility; after scaling every element counts.
              auto elementDivisibility = [&](const AxisInfo &a,
                                             const AxisInfo &b) {
                return a.getContiguity(d) > 1 && !isOne(b)
                           ? int64_t(1)
                           : a.getDivisibility(d);
              };
              return std::min(elementDivisibility(l, r) *
                                  elementDivisibility(r, l),
                              AxisInfo::kMaxDivisor);
            });
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
        return binary(
            [&](const AxisInfo &l, const AxisInfo &r, unsigned d) {
              // x % c keeps runs of x that do not cross a multiple of c.
              return isUniform(r, d)
                         ? std::gcd(l.getContiguity(d), r.getDivisibility(d))
                         : int64_t(1);
            },
            gcdDivisibility);
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        const AxisInfo &lhs = in[0], &rhs = in[1];
        // A run of consecutive values x0 + k compared with a uniform bound R
        // flips at most once. For x < R and x >= R it flips at k = R - x0, a
        // multiple of both divisibilities; for x <= R and x > R at R - x0 + 1,
        // which is not. So runs stay aligned only when the consecutive side
        // is on the left of <, >= (or on the right of >, <=).
        using P = arith::CmpIPredicate;
        P pred = cmp.getPredicate();
        bool lowerOnLeft = pred == P::slt || pred == P::ult || pred == P::sge ||
                           pred == P::uge;
        bool lowerOnRight = pred == P::sgt || pred == P::ugt ||
                            pred == P::sle || pred == P::ule;
        DimVector cst;
        for (unsigned d = 0; d < rank; ++d) {
          int64_t c = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
          int64_t div =
              std::gcd(lhs.getDivisibility(d), rhs.getDivisibility(d));
          if (lowerOnLeft && isUniform(rhs, d))
            c = std::max(c, std::gcd(lhs.getContiguity(d), div));
          if (lowerOnRight && isUniform(lhs, d))
            c = std::max(c, std::gcd(rhs.getContiguity(d), div));
          cst.push_back(c);
        }
        return AxisInfo(DimVector(rank, 1), DimVector(rank, 1), cst);
      })
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::DivSIOp,
            arith::DivUIOp, arith::MaxSIOp, arith::MinSIOp>(
          [&](Operation *) { return binary(noContiguity, noDivisibility); })
      .Case<arith::SelectOp>([&](arith::SelectOp select) {
        AxisInfo values = AxisInfo::join(in[1], in[2]);
        DimVector cst;
        // A scalar condition is uniform.
        bool scalarCondition =
            !isa<RankedTensorType>(select.getCondition().getType());
        for (unsigned d = 0; d < rank; ++d) {
          int64_t condition = scalarCondition
                                  ? shape[d]
                                  : std::min(in[0].getConstancy(d), shape[d]);
          cst.push_back(std::gcd(values.getConstancy(d), condition));
        }
        return AxisInfo(values.getContiguity(), values.getDivisibility(), cst);
      })
      .Default([&](Operation *) { return pessimistic; });
}

//===----------------------------------------------------------------------===//
// ModuleAxisInfo
//===----------------------------------------------------------------------===//

ModuleAxisInfo::ModuleAxisInfo(Operation *root) {
  loadBaselineAnalyses(solver);
  solver.load<AxisInfoAnalysis>();
  (void)solver.initializeAndRun(root);
}

const AxisInfo *ModuleAxisInfo::lookup(Value value) const {
  auto *lattice = solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return nullptr;
  return &lattice->getValue();
}

unsigned ModuleAxisInfo::getPtrVectorWidth(Value ptr, unsigned axis) const {
  const AxisInfo *info = lookup(ptr);
  if (!info)
    return 1;
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t alignment = std::max<int64_t>(1, info->getDivisibility(axis) / bytes);
  int64_t widest = std::max<int64_t>(1, 16 / bytes);
  return std::min({info->getContiguity(axis), alignment, widest});
}

unsigned ModuleAxisInfo::getMaskConstancy(Value mask, unsigned axis) const {
  const AxisInfo *info = lookup(mask);
  return info ? info->getConstancy(axis) : 1;
}

SmallVector<unsigned> ModuleAxisInfo::getOrderByContiguity(Value ptr) const {
  unsigned rank = shapeOf(ptr.getType()).size();
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (const AxisInfo *info = lookup(ptr))
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return info->getContiguity(a) > info->getContiguity(b);
    });
  return order;
}
