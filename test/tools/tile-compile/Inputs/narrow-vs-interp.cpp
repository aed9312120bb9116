// Compares a launcher's narrow_float_bits (the generated source is
// included: the function is static) with Tile's own rounding, which the
// C++ API calls (FloatFormats.h), on random doubles of every exponent and
// on values near the fp16 and bf16 ranges. Prints how many differ.
#include "tile/Interpreter/FloatFormats.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include GENERATED

using namespace mlir::tile::interp;

int main() {
  std::mt19937_64 rng(1);
  long differ = 0, count = 0;
  auto compare = [&](double v) {
    ++count;
    if (narrow_float_bits(v, 5, 10) != encodeF16(roundToF16(v)) ||
        narrow_float_bits(v, 8, 7) != encodeBF16(roundToBF16(v)))
      if (differ++ < 5)
        std::printf("differs at %a\n", v);
  };
  for (int i = 0; i < 300000; ++i) {
    uint64_t bits = rng();
    double any;
    std::memcpy(&any, &bits, sizeof(any));
    compare(any);
    double near = std::ldexp(double(rng() % (1ull << 30)) / (1 << 20),
                             int(rng() % 170) - 150);
    compare(near);
    compare(-near);
  }
  for (double v : {double(NAN), -double(NAN), double(INFINITY),
                   -double(INFINITY), 0.0, -0.0})
    compare(v);
  std::printf("%ld of %ld differ\n", differ, count);
  return differ != 0;
}
