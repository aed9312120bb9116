/* Runs tutorial 06's forward with descriptors the kernel makes (pointers
   in, warp_specialize=True) through its AOT launcher (attn.h: algo 0
   non-causal, persistent; algo 1 causal) on the GPU, against a float64
   reference on the CPU (the tutorial's atol of 1e-2 on O). Inputs are
   multiples of 1/8 in [-1, 1] (exact in fp16) from a seed taken from the
   clock and printed.

     aot-attention-main Z H N_CTX        (HEAD_DIM 128) */
#include "aot-driver.h"
#include "attn.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { D = 128 };

/* fp16 bits of k / 8, |k| <= 8 (exact), and an fp16 value. */
static uint16_t half_of_eighths(int k) {
  uint16_t sign = k < 0 ? 0x8000 : 0;
  unsigned m = (unsigned)(k < 0 ? -k : k);
  int e = 0;
  if (!m)
    return 0;
  while ((m >> e) > 1)
    ++e;
  /* m * 2^-3 = 1.f * 2^(e - 3) */
  return (uint16_t)(sign | (unsigned)(e - 3 + 15) << 10 |
                    ((m << (10 - e)) & 1023));
}

static int run(int z, int h, int n, int causal) {
  size_t elements = (size_t)z * h * n * D, i;
  int head, row, col, d, status, bad = 0;
  double worst = 0, scale = 0.5;
  unsigned long long dq = 0, dk = 0, dv = 0, dout = 0, dm = 0;
  uint16_t *q = malloc(elements * 2), *k = malloc(elements * 2),
           *v = malloc(elements * 2), *o = malloc(elements * 2);
  double *p = malloc((size_t)n * sizeof(double));
  for (i = 0; i < elements; ++i) {
    q[i] = half_of_eighths(rand() % 17 - 8);
    k[i] = half_of_eighths(rand() % 17 - 8);
    v[i] = half_of_eighths(rand() % 17 - 8);
    o[i] = 0x7e00;
  }
  status =
      cu.cuMemAlloc(&dq, elements * 2) || cu.cuMemAlloc(&dk, elements * 2) ||
      cu.cuMemAlloc(&dv, elements * 2) || cu.cuMemAlloc(&dout, elements * 2) ||
      cu.cuMemAlloc(&dm, (size_t)z * h * n * 4) ||
      cu.cuMemcpyHtoD(dq, q, elements * 2) ||
      cu.cuMemcpyHtoD(dk, k, elements * 2) ||
      cu.cuMemcpyHtoD(dv, v, elements * 2) ||
      cu.cuMemcpyHtoD(dout, o, elements * 2);
  if (!status)
    status = attn(0, (unsigned)(n + 127) / 128, (unsigned)(z * h), 1,
                  (float)scale, dm, z, h, dq, dk, dv, dout, n, causal);
  if (!status)
    status = cu.cuCtxSynchronize() || cu.cuMemcpyDtoH(o, dout, elements * 2);
  for (head = 0; !status && head < z * h; ++head)
    for (row = 0; row < n; ++row) {
      size_t base = (size_t)head * n * D;
      double top = -INFINITY, sum = 0;
      int last = causal ? row : n - 1;
      for (col = 0; col <= last; ++col) {
        double s = 0;
        for (d = 0; d < D; ++d)
          s += value_of_half(q[base + (size_t)row * D + d]) *
               value_of_half(k[base + (size_t)col * D + d]);
        p[col] = s * scale;
        if (p[col] > top)
          top = p[col];
      }
      for (col = 0; col <= last; ++col)
        sum += p[col] = exp(p[col] - top);
      for (d = 0; d < D; ++d) {
        double ref = 0, err;
        for (col = 0; col <= last; ++col)
          ref += p[col] * value_of_half(v[base + (size_t)col * D + d]);
        err = fabs(value_of_half(o[base + (size_t)row * D + d]) - ref / sum);
        if (!(err <= 1e-2))
          ++bad;
        if (err > worst || err != err)
          worst = err;
      }
    }
  printf("Z %d H %d N_CTX %d %s: status %d, max |err| %.2e, %d of %zu over "
         "1e-2\n",
         z, h, n, causal ? "causal" : "non-causal", status, worst, bad,
         elements);
  cu.cuMemFree(dq);
  cu.cuMemFree(dk);
  cu.cuMemFree(dv);
  cu.cuMemFree(dout);
  cu.cuMemFree(dm);
  free(q);
  free(k);
  free(v);
  free(o);
  free(p);
  return status || bad;
}

int main(int argc, char **argv) {
  int failed = 0;
  unsigned seed = (unsigned)time(NULL);
  int status = attn_load();
  if (status || argc != 4)
    return printf("attn_load: %d (usage: Z H N_CTX)\n", status), 1;
  if (open_driver())
    return printf("no CUDA driver\n"), 1;
  printf("seed %u\n", seed);
  srand(seed);
  failed |= run(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), 0);
  failed |= run(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), 1);
  return failed;
}
