/* aot_only.c: tutorial 01's add, compiled ahead of time by tile_add_kernel
   (aot_add.h), in a C program that links no Tile library: the CUDA driver,
   opened here for device memory, is all it needs at run time.

     tile-aot-only        exit 0: the sum is exact; 1: it is not; 2: no GPU */
#include "aot_add.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct {
  int (*cuInit)(unsigned);
  int (*cuDeviceGet)(int *, int);
  int (*cuDevicePrimaryCtxRetain)(void **, int);
  int (*cuCtxSetCurrent)(void *);
  int (*cuMemAlloc_v2)(unsigned long long *, size_t);
  int (*cuMemFree_v2)(unsigned long long);
  int (*cuMemcpyHtoD_v2)(unsigned long long, const void *, size_t);
  int (*cuMemcpyDtoH_v2)(void *, unsigned long long, size_t);
  int (*cuCtxSynchronize)(void);
} cu;

#define RESOLVE(fn)                                                            \
  if (!(*(void **)&cu.fn = dlsym(lib, #fn)))                                   \
    return 0;

static int open_driver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  void *context;
  int device;
  if (!lib)
    return 0;
  RESOLVE(cuInit)
  RESOLVE(cuDeviceGet)
  RESOLVE(cuDevicePrimaryCtxRetain)
  RESOLVE(cuCtxSetCurrent)
  RESOLVE(cuMemAlloc_v2)
  RESOLVE(cuMemFree_v2)
  RESOLVE(cuMemcpyHtoD_v2)
  RESOLVE(cuMemcpyDtoH_v2)
  RESOLVE(cuCtxSynchronize)
  return !cu.cuInit(0) && !cu.cuDeviceGet(&device, 0) &&
         !cu.cuDevicePrimaryCtxRetain(&context, device) &&
         !cu.cuCtxSetCurrent(context);
}

int main(void) {
  const int n = 1000003;
  size_t bytes = n * sizeof(float);
  float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
  unsigned long long dx, dy, dout;
  int i, mismatches = 0, status;
  if (!open_driver()) {
    printf("aot_add: no GPU (libcuda.so.1 did not open a device)\n");
    return 2;
  }
  srand((unsigned)time(NULL));
  for (i = 0; i < n; ++i) {
    x[i] = (float)rand() / RAND_MAX;
    y[i] = (float)rand() / RAND_MAX;
  }
  if (cu.cuMemAlloc_v2(&dx, bytes) || cu.cuMemAlloc_v2(&dy, bytes) ||
      cu.cuMemAlloc_v2(&dout, bytes) || cu.cuMemcpyHtoD_v2(dx, x, bytes) ||
      cu.cuMemcpyHtoD_v2(dy, y, bytes)) {
    printf("aot_add: device memory failed\n");
    return 1;
  }
  status = aot_add(0, (n + 1023) / 1024, 1, 1, dx, dy, dout, n);
  if (status || cu.cuCtxSynchronize() || cu.cuMemcpyDtoH_v2(out, dout, bytes)) {
    printf("aot_add: launch failed (%d)\n", status);
    return 1;
  }
  for (i = 0; i < n; ++i)
    mismatches += out[i] != x[i] + y[i];
  printf("%s aot_add n=%d: %d mismatches (exact fp32 sums expected)\n",
         mismatches ? "FAIL" : "PASS", n, mismatches);
  cu.cuMemFree_v2(dx);
  cu.cuMemFree_v2(dy);
  cu.cuMemFree_v2(dout);
  free(x);
  free(y);
  free(out);
  return mismatches ? 1 : 0;
}
