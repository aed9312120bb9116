//===- MemoryOps.cpp - loads, stores and atomics --------------------------===//
//
// tile.load, tile.store, tile.atomic_rmw and tile.atomic_cas: every address
// is resolved against the buffers of the launch, masked-off lanes are
// skipped, and atomics run element by element in order.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;

namespace mlir::tile::interp::detail {

/// Reads one element of kind `elem` from host bytes.
static void readElement(const uint8_t *p, Elem elem, Array &out, int64_t k) {
  switch (elem.kind) {
  case Kind::F8E4M3FN:
  case Kind::F8E5M2:
  case Kind::F8E4M3B15:
    out.f[k] = bitsToFloat(*p, elem.kind);
    return;
  case Kind::F16:
  case Kind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    out.f[k] = bitsToFloat(bits, elem.kind);
    return;
  }
  case Kind::F32: {
    float v;
    std::memcpy(&v, p, 4);
    out.f[k] = v;
    return;
  }
  case Kind::F64:
    std::memcpy(&out.f[k], p, 8);
    return;
  case Kind::Int:
  case Kind::Ptr: {
    uint64_t v = 0;
    std::memcpy(&v, p, elem.bytes()); // little-endian host
    out.i[k] = elem.width == 1 ? (v != 0) : truncBits(v, elem.width);
    return;
  }
  }
}

static void writeElement(uint8_t *p, Elem elem, const Array &value, int64_t k) {
  if (elem.isFloat()) {
    uint64_t bits = floatBits(value.f[k], elem.kind);
    std::memcpy(p, &bits, elem.bytes());
    return;
  }
  uint64_t v = value.i[k];
  std::memcpy(p, &v, elem.bytes());
}

LogicalResult runLoad(Interpreter &I, Operation *op) {
  auto load = cast<LoadOp>(op);
  const Array &ptrs = I.get(load.getPtr());
  const Array *mask = load.getMask() ? &I.get(load.getMask()) : nullptr;
  const Array *other = load.getOther() ? &I.get(load.getOther()) : nullptr;
  Elem elem = classify(load.getResult().getType());
  unsigned bytes = elem.bytes();
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sm = mask && mask->size() > 1, so = other && other->size() > 1;
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1)) {
      // Masked off: `other`, or 0 as the GPU path leaves it.
      if (other && elem.isFloat())
        out.f[k] = other->f[k * so];
      else if (other)
        out.i[k] = other->i[k * so];
      continue;
    }
    uint8_t *p = I.resolve(op, ptrs.i[k], bytes, k);
    if (!p)
      return failure();
    readElement(p, elem, out, k);
  }
  I.set(load.getResult(), std::move(out));
  return success();
}

LogicalResult runStore(Interpreter &I, Operation *op) {
  auto store = cast<StoreOp>(op);
  const Array &ptrs = I.get(store.getPtr());
  const Array &value = I.get(store.getValue());
  const Array *mask = store.getMask() ? &I.get(store.getMask()) : nullptr;
  Elem elem = classify(store.getValue().getType());
  int64_t sm = mask && mask->size() > 1;
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1))
      continue;
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    writeElement(p, elem, value, k);
  }
  return success();
}

/// The value an atomic leaves in memory, from the old one and the operand.
static void combineAtomic(RMWKind kind, Elem elem, double &oldF, uint64_t &oldI,
                          double valF, uint64_t valI) {
  unsigned w = elem.width;
  switch (kind) {
  case RMWKind::add:
    oldI = truncBits(oldI + valI, w);
    return;
  case RMWKind::fadd:
    oldF = roundTo(elem.kind, oldF + valF);
    return;
  case RMWKind::max:
    oldI = signExtend(valI, w) > signExtend(oldI, w) ? valI : oldI;
    return;
  case RMWKind::min:
    oldI = signExtend(valI, w) < signExtend(oldI, w) ? valI : oldI;
    return;
  case RMWKind::umax:
    oldI = std::max(oldI, valI);
    return;
  case RMWKind::umin:
    oldI = std::min(oldI, valI);
    return;
  case RMWKind::fmax:
    oldF = std::fmax(oldF, valF);
    return;
  case RMWKind::fmin:
    oldF = std::fmin(oldF, valF);
    return;
  case RMWKind::and_:
    oldI &= valI;
    return;
  case RMWKind::or_:
    oldI |= valI;
    return;
  case RMWKind::xor_:
    oldI ^= valI;
    return;
  case RMWKind::xchg:
    oldF = valF;
    oldI = valI;
    return;
  }
}

// Programs run one after another and each op finishes before the next, so
// an atomic is a read-modify-write per element in order: lanes that hit the
// same address see each other's updates, as on the GPU.
LogicalResult runAtomicRMW(Interpreter &I, Operation *op) {
  auto rmw = cast<AtomicRMWOp>(op);
  const Array &ptrs = I.get(rmw.getPtr()), &val = I.get(rmw.getVal());
  const Array *mask = rmw.getMask() ? &I.get(rmw.getMask()) : nullptr;
  Elem elem = classify(rmw.getResult().getType());
  bool isFloatKind = rmw.getKind() == RMWKind::fadd ||
                     rmw.getKind() == RMWKind::fmax ||
                     rmw.getKind() == RMWKind::fmin;
  if (isFloatKind != elem.isFloat() && rmw.getKind() != RMWKind::xchg)
    return I.error(op) << "atomic " << stringifyRMWKind(rmw.getKind())
                       << " does not apply to " << rmw.getResult().getType();
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sm = mask && mask->size() > 1, sv = val.size() > 1;
  Array one = Array::make(elem.isFloat(), {});
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    if (mask && !(mask->i[k * sm] & 1))
      continue;
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    readElement(p, elem, one, 0);
    if (elem.isFloat()) {
      out.f[k] = one.f[0];
      uint64_t unused = 0;
      combineAtomic(rmw.getKind(), elem, one.f[0], unused, val.f[k * sv], 0);
    } else {
      out.i[k] = one.i[0];
      double unused = 0;
      combineAtomic(rmw.getKind(), elem, unused, one.i[0], 0, val.i[k * sv]);
    }
    writeElement(p, elem, one, 0);
  }
  I.set(rmw.getResult(), std::move(out));
  return success();
}

LogicalResult runAtomicCAS(Interpreter &I, Operation *op) {
  auto cas = cast<AtomicCASOp>(op);
  const Array &ptrs = I.get(cas.getPtr()), &cmp = I.get(cas.getCmp()),
              &val = I.get(cas.getVal());
  Elem elem = classify(cas.getResult().getType());
  Array out = Array::make(elem.isFloat(), ptrs.shape);
  int64_t sc = cmp.size() > 1, sv = val.size() > 1;
  Array expected = Array::make(elem.isFloat(), {});
  for (int64_t k = 0, n = ptrs.size(); k < n; ++k) {
    uint8_t *p = I.resolve(op, ptrs.i[k], elem.bytes(), k);
    if (!p)
      return failure();
    readElement(p, elem, out, k);
    // Compared as bit patterns, as atom.cas does.
    uint8_t want[8];
    if (elem.isFloat())
      expected.f[0] = cmp.f[k * sc];
    else
      expected.i[0] = cmp.i[k * sc];
    writeElement(want, elem, expected, 0);
    if (std::memcmp(want, p, elem.bytes()) == 0)
      writeElement(p, elem, val, k * sv);
  }
  I.set(cas.getResult(), std::move(out));
  return success();
}

} // namespace mlir::tile::interp::detail
