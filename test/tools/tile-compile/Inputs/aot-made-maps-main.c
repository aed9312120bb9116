/* Runs tutorial 09's matmul_kernel_descriptor_persistent through its AOT
   launcher (mm.h, C = A B^T) on the GPU: where the arguments allow TMA the
   launcher encodes the maps of the descriptors the kernel makes; elsewhere
   the kernel's descriptors are pointer blocks. Small random integers (a
   seed from the clock, printed), so that every sum is exact in fp16, against
   an integer reference on the CPU; then a negative M, which the launcher
   refuses before launching. With `time`, the time per launch of
   back-to-back launches at one shape instead (wall clock, after warm-up;
   each launch encodes its three maps on the host), and the host's time per
   launch until the last is queued.

     aot-made-maps-main M N K [M N K ...]
     aot-made-maps-main time M N K LAUNCHES  */
#include "aot-driver.h"
#include "mm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* fp16 bits of an integer in [-2, 2], and an fp16 integer's value. */
static uint16_t half_of(int v) {
  static const uint16_t bits[5] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000};
  return bits[v + 2];
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* Microseconds per launch of `launches` back-to-back launches. */
static int time_launches(int m, int n, int k, int launches) {
  unsigned long long da = 0, db = 0, dc = 0;
  unsigned tiles = (unsigned)((m + 127) / 128) * (unsigned)((n + 255) / 256);
  unsigned grid = tiles < 132 ? tiles : 132;
  double start = 0, issued;
  int i, status = cu.cuMemAlloc(&da, (size_t)m * k * 2) ||
                  cu.cuMemAlloc(&db, (size_t)n * k * 2) ||
                  cu.cuMemAlloc(&dc, (size_t)m * n * 2);
  for (i = -10; i < launches && !status; ++i) {
    if (i == 0)
      status = cu.cuCtxSynchronize(), start = seconds();
    if (!status)
      status = mm(0, grid, 1, 1, da, db, dc, m, n, k);
  }
  issued = seconds();
  if (!status)
    status = cu.cuCtxSynchronize();
  printf("%dx%dx%d: status %d, %.2f us per launch (%d launches), %.2f us "
         "of host time each\n",
         m, n, k, status, 1e6 * (seconds() - start) / launches, launches,
         1e6 * (issued - start) / launches);
  cu.cuMemFree(da);
  cu.cuMemFree(db);
  cu.cuMemFree(dc);
  return status;
}

static int run(int m, int n, int k) {
  size_t i;
  int row, col, x, status, mismatches = 0;
  unsigned long long da = 0, db = 0, dc = 0;
  unsigned tiles = (unsigned)((m + 127) / 128) * (unsigned)((n + 255) / 256);
  uint16_t *a = malloc((size_t)m * k * 2), *b = malloc((size_t)n * k * 2);
  uint16_t *c = malloc((size_t)m * n * 2);
  int *ia = malloc((size_t)m * k * sizeof(int));
  int *ib = malloc((size_t)n * k * sizeof(int));
  for (i = 0; i < (size_t)m * k; ++i)
    a[i] = half_of(ia[i] = rand() % 5 - 2);
  for (i = 0; i < (size_t)n * k; ++i)
    b[i] = half_of(ib[i] = rand() % 3 - 1);
  for (i = 0; i < (size_t)m * n; ++i)
    c[i] = 0x7e00; /* NaN: an element the kernel misses shows */
  status = cu.cuMemAlloc(&da, (size_t)m * k * 2) ||
           cu.cuMemAlloc(&db, (size_t)n * k * 2) ||
           cu.cuMemAlloc(&dc, (size_t)m * n * 2) ||
           cu.cuMemcpyHtoD(da, a, (size_t)m * k * 2) ||
           cu.cuMemcpyHtoD(db, b, (size_t)n * k * 2) ||
           cu.cuMemcpyHtoD(dc, c, (size_t)m * n * 2);
  if (!status)
    status = mm(0, tiles < 132 ? tiles : 132, 1, 1, da, db, dc, m, n, k);
  if (!status)
    status = cu.cuCtxSynchronize() || cu.cuMemcpyDtoH(c, dc, (size_t)m * n * 2);
  if (!status)
    for (row = 0; row < m; ++row)
      for (col = 0; col < n; ++col) {
        long sum = 0;
        for (x = 0; x < k; ++x)
          sum += (long)ia[(size_t)row * k + x] * ib[(size_t)col * k + x];
        mismatches += value_of_half(c[(size_t)row * n + col]) != (double)sum;
      }
  printf("%dx%dx%d: status %d, mismatches %d of %d\n", m, n, k, status,
         mismatches, m * n);
  cu.cuMemFree(da);
  cu.cuMemFree(db);
  cu.cuMemFree(dc);
  free(a);
  free(b);
  free(c);
  free(ia);
  free(ib);
  return status || mismatches;
}

int main(int argc, char **argv) {
  int i, failed = 0;
  unsigned seed = (unsigned)time(NULL);
  int status = mm_load();
  if (status) {
    printf("mm_load: %d\n", status);
    return 1;
  }
  if (open_driver())
    return printf("no CUDA driver\n"), 1;
  if (argc == 6 && !strcmp(argv[1], "time"))
    return time_launches(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
                         atoi(argv[5]));
  printf("seed %u\n", seed);
  srand(seed);
  for (i = 1; i + 2 < argc; i += 3)
    failed |= run(atoi(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]));
  /* M = -16 passes the ':16' check; its map cannot be encoded. */
  printf("negative M: %d\n", mm(0, 1, 1, 1, 0, 0, 0, -16, 256, 64));
  return failed;
}
