/* Prints what a launcher's narrow_float_bits makes of some values (the
   generated source is included: the function is static). */
#include GENERATED
#include <math.h>
#include <stdio.h>

int main(void) {
  const double values[] = {0.1,    1.0 / 3,  65520.0,   65519.0, 0x1p-24,
                           0x1p-25, 0x3p-26, -0.0,      1e-30,   1e-39,
                           3e38,   3.39e38,  3.5e38,    1.00390625,
                           1.01171875, -2.5, NAN};
  unsigned i;
  for (i = 0; i < sizeof(values) / sizeof(values[0]); ++i)
    printf("%u: fp16 0x%04x bf16 0x%04x\n", i,
           narrow_float_bits(values[i], 5, 10),
           narrow_float_bits(values[i], 8, 7));
  return 0;
}
