/* What the GPU tests' C programs share: the few CUDA driver entry points
   they call besides their AOT launcher (which loads the kernel and makes
   the context current), opened the way the launcher opens the driver, and
   the value of an fp16 number. */
#ifndef TILE_TEST_AOT_DRIVER_H
#define TILE_TEST_AOT_DRIVER_H

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

static struct {
  int (*cuMemAlloc)(unsigned long long *, size_t);
  int (*cuMemFree)(unsigned long long);
  int (*cuMemcpyHtoD)(unsigned long long, const void *, size_t);
  int (*cuMemcpyDtoH)(void *, unsigned long long, size_t);
  int (*cuCtxSynchronize)(void);
} cu;

/* 0 once the entry points are resolved. */
static int open_driver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib || !(*(void **)&cu.cuMemAlloc = dlsym(lib, "cuMemAlloc_v2")) ||
      !(*(void **)&cu.cuMemFree = dlsym(lib, "cuMemFree_v2")) ||
      !(*(void **)&cu.cuMemcpyHtoD = dlsym(lib, "cuMemcpyHtoD_v2")) ||
      !(*(void **)&cu.cuMemcpyDtoH = dlsym(lib, "cuMemcpyDtoH_v2")) ||
      !(*(void **)&cu.cuCtxSynchronize = dlsym(lib, "cuCtxSynchronize")))
    return 1;
  return 0;
}

static double value_of_half(uint16_t h) {
  int exponent = (h >> 10) & 31;
  double mantissa = (double)(h & 1023);
  double magnitude = exponent == 0
                         ? ldexp(mantissa, -24)
                         : ldexp(1.0 + mantissa / 1024.0, exponent - 15);
  return (h & 0x8000) ? -magnitude : magnitude;
}

#endif
