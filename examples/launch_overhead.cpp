//===- launch_overhead.cpp - host time per launch, and compile time -------===//
//
//   tile-launch-overhead [KERNELS_DIR]
//
// On the GPU: the host time of one launch of a tiny kernel (add, one
// program of 1024 elements), three ways: Tile's C++ API (Kernel::launch),
// the ahead-of-time launcher tile_add_kernel generated (tiny_aot), and
// cuLaunchKernel called directly on the same PTX. Each way issues batches
// of 1000 launches and synchronizes after each batch; the figure is the
// median over 50 batches of (time to issue the batch) / 1000. Then the
// cold compile time (kernel cache off) of add, softmax and matmul through
// the API, and the driver's JIT of each, median of 5.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"
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

/// Median host microseconds per launch over batches of `launchOnce`.
double perLaunch(tile::Device &device,
                 const std::function<bool()> &launchOnce) {
  const int batch = 1000, batches = 50;
  std::vector<double> us;
  for (int b = 0; b < batches + 5; ++b) {
    auto start = Clock::now();
    for (int i = 0; i < batch; ++i)
      if (!launchOnce())
        return -1;
    double elapsed = usSince(start);
    if (!device.synchronize())
      return -1;
    if (b >= 5) // the first batches warm up
      us.push_back(elapsed / batch);
  }
  return median(us);
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
  setenv("TILE_CACHE_DISABLE", "1", 1);
  std::unique_ptr<tile::Device> device;
  tile::Status status = tile::Device::open(0, device);
  if (!status) {
    std::printf("no GPU: %s\n", status.message().c_str());
    return 1;
  }
  std::printf("device: %s\n", device->name().c_str());

  tile::Specialization addSpec;
  addSpec.signature = {"*fp32:16", "*fp32:16", "*fp32:16", "i32", "1024"};
  tile::CompileResult add = tile::compileFile(dir + "/add.tile", addSpec);
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
  double api = perLaunch(*device, [&] {
    return bool(
        kernel.launch({1}, {tile::ptr(x.address()), tile::ptr(y.address()),
                            tile::ptr(out.address()), n}));
  });
  double aot = perLaunch(*device, [&] {
    return tiny_aot(nullptr, 1, 1, 1, x.address(), y.address(), out.address(),
                    n) == 0;
  });
  RawDriver raw;
  void *module = nullptr, *function = nullptr;
  if (!openRaw(raw) || raw.cuModuleLoadData(&module, add.kernel->ptx.c_str()) ||
      raw.cuModuleGetFunction(&function, module, add.kernel->name.c_str())) {
    std::printf("cuModuleLoadData/cuModuleGetFunction failed\n");
    return 1;
  }
  unsigned long long px = x.address(), py = y.address(), po = out.address();
  void *params[] = {&px, &py, &po, &n};
  double direct = perLaunch(*device, [&] {
    return raw.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, nullptr, params,
                              nullptr) == 0;
  });
  std::printf("| launch | host us per launch |\n|---|---|\n");
  std::printf("| cuLaunchKernel | %.3f |\n| Tile API Kernel::launch | %.3f |\n"
              "| Tile AOT launcher | %.3f |\n",
              direct, api, aot);

  std::printf("\n| kernel | compile to PTX ms (median of 5) | driver JIT ms |\n"
              "|---|---|---|\n");
  struct Case {
    const char *name;
    std::string path;
    tile::Specialization spec;
  };
  tile::Specialization softmax;
  softmax.signature = {"*fp32:16", "*fp32:16", "i32", "i32", "i32", "1024"};
  softmax.numWarps = 2;
  tile::Specialization matmul;
  matmul.signature = {"*fp16:16", "*fp16:16", "*fp16:16", "i32:16", "i32:16",
                      "i32:16",   "i32:16",   "i32:1",    "i32:16", "i32:1",
                      "i32:16",   "i32:1",    "128",      "256",    "64",
                      "8",        "\"\""};
  matmul.numWarps = 8;
  matmul.kernel = "matmul_kernel";
  for (tile::Specialization *spec : {&addSpec, &softmax, &matmul})
    spec->useCache = false;
  for (const Case &c : {Case{"add", dir + "/add.tile", addSpec},
                        Case{"softmax", dir + "/softmax_simple.tile", softmax},
                        Case{"matmul", dir + "/matmul.tile", matmul}}) {
    std::vector<double> compileMs, loadMs;
    for (int i = 0; i < 5; ++i) {
      auto start = Clock::now();
      tile::CompileResult result = tile::compileFile(c.path, c.spec);
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
