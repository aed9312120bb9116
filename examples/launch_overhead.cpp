//===- launch_overhead.cpp - host time per launch, and compile time -------===//
//
//   tile-launch-overhead [KERNELS_DIR]
//
// On the GPU: the host time of one launch of a tiny kernel (add, one
// program of 1024 elements), three ways: Tile's C++ API (Kernel::launch),
// the ahead-of-time launcher tile_add_kernel generated (tiny_aot), and
// cuLaunchKernel called directly on the same PTX. The ways take turns
// issuing batches of 100 launches, each followed by a synchronize; the
// figure is the median over 300 batches of (time to issue the batch) / 100.
// Then the cold compile time (Tile's kernel cache and the driver's compute
// cache off) of add, softmax and matmul through the API, and the driver's
// JIT of each, median of 5.
//
//===----------------------------------------------------------------------===//

#include "TutorialKernels.h"
#include "tiny_aot.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <functional>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

double usSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median host microseconds per launch of each way, over batches of 100
/// launches (few enough that the driver's queue never fills, so the GPU
/// does not pace them), the ways taking turns batch by batch.
std::vector<double> perLaunch(tile::Device &device,
                              const std::vector<std::function<bool()>> &ways) {
  const int batch = 100, batches = 300;
  std::vector<std::vector<double>> us(ways.size());
  for (int b = 0; b < batches + 10; ++b)
    for (size_t w = 0; w < ways.size(); ++w) {
      auto start = Clock::now();
      for (int i = 0; i < batch; ++i)
        if (!ways[w]())
          return {};
      double elapsed = usSince(start);
      if (!device.synchronize())
        return {};
      if (b >= 10) // the first batches warm up
        us[w].push_back(elapsed / batch);
    }
  std::vector<double> medians;
  for (std::vector<double> &v : us)
    medians.push_back(median(v));
  return medians;
}

// cuLaunchKernel and what loading the PTX needs, with cuda.h's layout.
struct RawDriver {
  int (*cuModuleLoadData)(void **, const void *);
  int (*cuModuleGetFunction)(void **, void *, const char *);
  int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, void *, void **, void **);
};

bool openRaw(RawDriver &raw) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return false;
  *(void **)&raw.cuModuleLoadData = dlsym(lib, "cuModuleLoadData");
  *(void **)&raw.cuModuleGetFunction = dlsym(lib, "cuModuleGetFunction");
  *(void **)&raw.cuLaunchKernel = dlsym(lib, "cuLaunchKernel");
  return raw.cuModuleLoadData && raw.cuModuleGetFunction && raw.cuLaunchKernel;
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : TILE_EXAMPLE_KERNELS;
  // Cold compiles: neither Tile's kernel cache nor the driver's own.
  setenv("TILE_CACHE_DISABLE", "1", 1);
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  std::unique_ptr<tile::Device> device;
  tile::Status status = tile::Device::open(0, device);
  if (!status) {
    std::printf("no GPU: %s\n", status.message().c_str());
    return 1;
  }
  std::printf("device: %s\n", device->name().c_str());

  tile::CompileResult add =
      tile::compileFile(dir + "/add.tile", example::addKernel().spec);
  if (!add.ok()) {
    std::printf("%s", add.describe().c_str());
    return 1;
  }
  tile::Kernel kernel;
  tile::Buffer x, y, out;
  if (!(status = device->load(*add.kernel, kernel)) ||
      !(status = device->allocate(4096, x)) ||
      !(status = device->allocate(4096, y)) ||
      !(status = device->allocate(4096, out))) {
    std::printf("%s\n", status.message().c_str());
    return 1;
  }
  int n = 1024;
  RawDriver raw;
  void *module = nullptr, *function = nullptr;
  if (!openRaw(raw) || raw.cuModuleLoadData(&module, add.kernel->ptx.c_str()) ||
      raw.cuModuleGetFunction(&function, module, add.kernel->name.c_str())) {
    std::printf("cuModuleLoadData/cuModuleGetFunction failed\n");
    return 1;
  }
  unsigned long long px = x.address(), py = y.address(), po = out.address();
  void *params[] = {&px, &py, &po, &n};
  std::vector<double> us = perLaunch(
      *device, {[&] {
                  return raw.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0,
                                            nullptr, params, nullptr) == 0;
                },
                [&] {
                  return bool(kernel.launch(
                      {1}, {tile::ptr(x.address()), tile::ptr(y.address()),
                            tile::ptr(out.address()), n}));
                },
                [&] {
                  return tiny_aot(nullptr, 1, 1, 1, x.address(), y.address(),
                                  out.address(), n) == 0;
                }});
  if (us.size() != 3) {
    std::printf("a launch failed\n");
    return 1;
  }
  double direct = us[0], api = us[1], aot = us[2];
  std::printf("| launch | host us per launch |\n|---|---|\n");
  std::printf("| cuLaunchKernel | %.3f |\n| Tile API Kernel::launch | %.3f |\n"
              "| Tile AOT launcher | %.3f |\n",
              direct, api, aot);

  std::printf("\n| kernel | compile to PTX ms (median of 5) | driver JIT ms |\n"
              "|---|---|---|\n");
  for (example::TutorialKernel c :
       {example::addKernel(), example::softmaxKernel(),
        example::matmulKernel()}) {
    c.spec.useCache = false;
    std::vector<double> compileMs, loadMs;
    for (int i = 0; i < 5; ++i) {
      auto start = Clock::now();
      tile::CompileResult result =
          tile::compileFile(dir + "/" + c.file, c.spec);
      compileMs.push_back(usSince(start) / 1000);
      if (!result.ok()) {
        std::printf("%s", result.describe().c_str());
        return 1;
      }
      tile::Kernel loaded;
      start = Clock::now();
      if (!(status = device->load(*result.kernel, loaded))) {
        std::printf("%s\n", status.message().c_str());
        return 1;
      }
      loadMs.push_back(usSince(start) / 1000);
    }
    std::printf("| %s | %.1f | %.1f |\n", c.name, median(compileMs),
                median(loadMs));
  }
  return 0;
}
