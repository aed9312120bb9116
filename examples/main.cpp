//===- main.cpp - Tile's kernels inside a C++ program ---------------------===//
//
//   tile-example [KERNELS_DIR]
//
// Compiles Triton's tutorial kernels add, softmax and matmul (kernels/) at
// run time through Tile's C++ API, and runs each twice on the GPU: loaded
// through the API, and through the launcher tile_add_kernel generated at
// build time (add_aot.h, softmax_aot.h, matmul_aot.h); then, through the
// API only, a copy through 3-D tensor descriptors and tutorial 09's TMA
// persistent matmul with host descriptors; then fp16 and bf16 scalar
// parameters both ways (scale_half.tile). Every result is
// checked against a float64 reference on the CPU with fresh random inputs.
// Without a GPU it compiles and stops there (exit 0).
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "Half.h"
#include "TutorialKernels.h"
#include "add_aot.h"
#include "matmul_aot.h"
#include "scale_aot.h"
#include "softmax_aot.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {
using example::expectError;
using example::failures;
using example::ok;
using example::report;

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// Compiles one kernel through the API and says how long it took.
std::optional<tile::CompiledKernel> compile(const std::string &path,
                                            const tile::Specialization &spec) {
  auto start = Clock::now();
  tile::CompileResult result = tile::compileFile(path, spec);
  double ms = msSince(start);
  if (!result.ok()) {
    std::printf("FAIL compile %s:\n%s", path.c_str(),
                result.describe().c_str());
    ++failures;
    return std::nullopt;
  }
  std::printf("compiled %s (%s) in %.1f ms%s, %zu bytes of PTX\n",
              result.kernel->name.c_str(), path.c_str(), ms,
              result.kernel->fromCache ? " (kernel cache)" : "",
              result.kernel->ptx.size());
  return result.kernel;
}

template <typename T>
bool upload(tile::Device &device, const std::vector<T> &host,
            tile::Buffer &buffer) {
  size_t bytes = host.size() * sizeof(T);
  return ok(device.allocate(bytes, buffer), "allocate") &&
         ok(device.copyToDevice(buffer.address(), host.data(), bytes),
            "copy to the device");
}

template <typename T>
bool download(tile::Device &device, const tile::Buffer &buffer,
              std::vector<T> &host) {
  return ok(device.synchronize(), "synchronize") &&
         ok(device.copyToHost(host.data(), buffer.address(),
                              host.size() * sizeof(T)),
            "copy to the host");
}

void runAdd(tile::Device &device, const tile::Kernel &kernel, int n,
            std::mt19937 &rng) {
  std::uniform_real_distribution<float> uniform(0, 1);
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = uniform(rng), y[i] = uniform(rng);
  tile::Buffer dx, dy, dout;
  if (!upload(device, x, dx) || !upload(device, y, dy) ||
      !upload(device, out, dout))
    return;
  unsigned grid = unsigned((n + 1023) / 1024);
  auto check = [&](const char *what) {
    double err = 0;
    for (int i = 0; i < n; ++i)
      err = std::max(err, std::abs(double(out[i]) - (double(x[i]) + y[i])));
    // fp32 addition rounds once: half an ulp of the sum at most.
    report(what, err, 2.0 * std::ldexp(1.0, -24));
  };
  std::string label = "add n=" + std::to_string(n);
  if (ok(kernel.launch({grid},
                       {tile::ptr(dx.address()), tile::ptr(dy.address()),
                        tile::ptr(dout.address()), n}),
         "add launch") &&
      download(device, dout, out))
    check((label + ", API").c_str());
  std::fill(out.begin(), out.end(), 0.0f);
  device.copyToDevice(dout.address(), out.data(), n * sizeof(float));
  if (ok(add_aot(nullptr, grid, 1, 1, dx.address(), dy.address(),
                 dout.address(), n),
         "add_aot") &&
      download(device, dout, out))
    check((label + (n % 16 ? ", AOT (n % 16 != 0)" : ", AOT (n % 16 == 0)"))
              .c_str());
}

void runSoftmax(tile::Device &device, const tile::Kernel &kernel,
                std::mt19937 &rng) {
  const int rows = 1823, cols = 781;
  std::normal_distribution<float> normal;
  std::vector<float> x(size_t(rows) * cols), y(x.size());
  for (float &v : x)
    v = normal(rng);
  std::vector<double> ref(x.size());
  for (int r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      max = std::max(max, double(x[size_t(r) * cols + c]));
    for (int c = 0; c < cols; ++c)
      sum += ref[size_t(r) * cols + c] =
          std::exp(double(x[size_t(r) * cols + c]) - max);
    for (int c = 0; c < cols; ++c)
      ref[size_t(r) * cols + c] /= sum;
  }
  tile::Buffer dx, dy;
  if (!upload(device, x, dx) || !upload(device, y, dy))
    return;
  auto check = [&](const char *what) {
    double err = 0;
    for (size_t i = 0; i < y.size(); ++i)
      err = std::max(err, std::abs(double(y[i]) - ref[i]));
    report(what, err, 1e-5);
  };
  if (ok(kernel.launch({rows}, {tile::ptr(dy.address()),
                                tile::ptr(dx.address()), cols, cols, cols}),
         "softmax launch") &&
      download(device, dy, y))
    check("softmax 1823x781, API");
  std::fill(y.begin(), y.end(), 0.0f);
  device.copyToDevice(dy.address(), y.data(), y.size() * sizeof(float));
  if (ok(softmax_aot(nullptr, rows, 1, 1, dy.address(), dx.address(), cols,
                     cols, cols),
         "softmax_aot") &&
      download(device, dy, y))
    check("softmax 1823x781, AOT");
}

void runMatmul(tile::Device &device, const tile::Kernel &kernel,
               std::mt19937 &rng) {
  const int M = 512, N = 512, K = 512;
  std::normal_distribution<float> normal;
  std::vector<uint16_t> a(size_t(M) * K), b(size_t(K) * N), c(size_t(M) * N);
  for (uint16_t &v : a)
    v = example::toHalf(normal(rng));
  for (uint16_t &v : b)
    v = example::toHalf(normal(rng));
  std::vector<double> ref(c.size(), 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      double aik = example::fromHalf(a[size_t(i) * K + k]);
      for (int j = 0; j < N; ++j)
        ref[size_t(i) * N + j] += aik * example::fromHalf(b[size_t(k) * N + j]);
    }
  tile::Buffer da, db, dc;
  if (!upload(device, a, da) || !upload(device, b, db) ||
      !upload(device, c, dc))
    return;
  auto check = [&](const char *what) {
    // fp16 output: relative to the result's magnitude, 2^-10 per rounding.
    double err = 0;
    for (size_t i = 0; i < c.size(); ++i)
      err = std::max(err, std::abs(double(example::fromHalf(c[i])) - ref[i]) /
                              (1.0 + std::abs(ref[i])));
    report(what, err, 2e-3);
  };
  unsigned grid = unsigned(((M + 127) / 128) * ((N + 255) / 256));
  // The unit strides were compiled in (":1"): they are no launch arguments.
  if (ok(kernel.launch({grid},
                       {tile::ptr(da.address()), tile::ptr(db.address()),
                        tile::ptr(dc.address()), M, N, K, K, N, N}),
         "matmul launch") &&
      download(device, dc, c))
    check("matmul fp16 512^3, API");
  std::fill(c.begin(), c.end(), 0);
  device.copyToDevice(dc.address(), c.data(), c.size() * 2);
  if (ok(matmul_aot(nullptr, grid, 1, 1, da.address(), db.address(),
                    dc.address(), M, N, K, K, 1, N, 1, N, 1),
         "matmul_aot") &&
      download(device, dc, c))
    check("matmul fp16 512^3, AOT");
  std::printf("matmul_aot: %d of 1 specializations loaded from a cubin\n",
              matmul_aot_cubins_loaded());
#ifdef TILE_EXAMPLE_MATMUL_CUBIN
  // Built with its sm_90a cubin: on compute capability 9.0 it is used.
  if (device.computeCapability() == 90 && matmul_aot_cubins_loaded() != 1) {
    std::printf("FAIL matmul_aot: the sm_90a cubin was not loaded\n");
    ++failures;
  }
#endif
}
/// A kernel of tensor descriptors the compiler does not copy with TMA (3-D,
/// fp32): the API passes their base, extents and strides, and no tensor
/// map. It doubles a 3 x 50 x 40 tensor whose sizes are no multiple of
/// the block, every dimension bounds-checked.
void runDescriptorCopy(tile::Device &device, std::mt19937 &rng) {
  const char *source = R"(import triton
import triton.language as tl


@triton.jit
def descriptor_copy(x_desc, y_desc):
    BLOCK_M: tl.constexpr = x_desc.block_shape[1]
    BLOCK_N: tl.constexpr = x_desc.block_shape[2]
    offsets = [tl.program_id(0), tl.program_id(1) * BLOCK_M,
               tl.program_id(2) * BLOCK_N]
    y_desc.store(offsets, x_desc.load(offsets) * 2)
)";
  tile::Specialization spec;
  spec.signature = {"tensordesc<fp32[1, 32, 16]>",
                    "tensordesc<fp32[1, 32, 16]>"};
  tile::CompileResult compiled =
      tile::compileString(source, "descriptor_copy.tile", spec);
  tile::Kernel kernel;
  if (!compiled.ok()) {
    std::printf("FAIL compile descriptor_copy:\n%s",
                compiled.describe().c_str());
    ++failures;
    return;
  }
  const int64_t A = 3, M = 50, N = 40;
  std::normal_distribution<float> normal;
  std::vector<float> x(A * M * N), y(x.size(), 0.0f);
  for (float &v : x)
    v = normal(rng);
  tile::Buffer dx, dy;
  tile::TensorDescriptor xd, yd;
  if (!ok(device.load(*compiled.kernel, kernel), "load descriptor_copy") ||
      !upload(device, x, dx) || !upload(device, y, dy) ||
      !ok(device.makeTensorDescriptor(dx.address(), "fp32", {A, M, N},
                                      {M * N, N, 1}, {1, 32, 16}, xd),
          "makeTensorDescriptor") ||
      !ok(device.makeTensorDescriptor(dy.address(), "fp32", {A, M, N},
                                      {M * N, N, 1}, {1, 32, 16}, yd),
          "makeTensorDescriptor"))
    return;
  if (ok(kernel.launch(
             {unsigned(A), unsigned((M + 31) / 32), unsigned((N + 15) / 16)},
             {xd, yd}),
         "descriptor_copy launch") &&
      download(device, dy, y)) {
    double err = 0;
    for (size_t i = 0; i < x.size(); ++i)
      err = std::max(err, std::abs(double(y[i]) - 2.0 * x[i]));
    report("descriptor copy fp32 3x50x40, blocks 1x32x16 (no tensor map), "
           "API",
           err, 0.0);
  }
}
/// Tutorial 09's matmul_kernel_tma_persistent (kernels/, unchanged):
/// fp16 A (M x K) times B (N x K, transposed), through host tensor
/// descriptors copied with TMA, M, N and K no multiples of the blocks,
/// one program per SM looping over the tiles; C checked against float64.
void runMatmulTmaPersistent(tile::Device &device, const std::string &dir,
                            std::mt19937 &rng) {
  const int64_t M = 1100, N = 904, K = 712;
  int sms = device.multiprocessorCount();
  tile::Specialization spec;
  spec.signature = {"tensordesc<fp16[128, 64]>:16",
                    "tensordesc<fp16[128, 64]>",
                    "tensordesc<fp16[128, 128]>",
                    "i32",
                    "i32",
                    "i32",
                    "128",
                    "128",
                    "64",
                    "8",
                    "False",
                    "False",
                    std::to_string(sms),
                    "False"};
  spec.numWarps = 8;
  spec.numStages = 3;
  std::optional<tile::CompiledKernel> compiled =
      compile(dir + "/matmul_tma_persistent.tile", spec);
  tile::Kernel kernel;
  if (!compiled || !ok(device.load(*compiled, kernel), "load"))
    return;
  std::normal_distribution<float> normal;
  std::vector<uint16_t> a(M * K), b(N * K), c(M * N, 0);
  for (uint16_t &v : a)
    v = example::toHalf(normal(rng));
  for (uint16_t &v : b)
    v = example::toHalf(normal(rng));
  tile::Buffer da, db, dc;
  tile::TensorDescriptor ad, bd, cd;
  if (!upload(device, a, da) || !upload(device, b, db) ||
      !upload(device, c, dc) ||
      !ok(device.makeTensorDescriptor(da.address(), "fp16", {M, K}, {K, 1},
                                      {128, 64}, ad),
          "makeTensorDescriptor") ||
      !ok(device.makeTensorDescriptor(db.address(), "fp16", {N, K}, {K, 1},
                                      {128, 64}, bd),
          "makeTensorDescriptor") ||
      !ok(device.makeTensorDescriptor(dc.address(), "fp16", {M, N}, {N, 1},
                                      {128, 128}, cd),
          "makeTensorDescriptor"))
    return;
  // A's extents are 1100 x 712, which its ":16" promises are multiples of
  // 16: the launch refuses it.
  expectError(kernel.launch({1}, {ad, bd, cd, M, N, K}),
              "matmul_tma_persistent: an extent its ':16' rules out");
  spec.signature[0] = "tensordesc<fp16[128, 64]>";
  compiled = compile(dir + "/matmul_tma_persistent.tile", spec);
  if (!compiled || !ok(device.load(*compiled, kernel), "load"))
    return;
  int64_t tiles = ((M + 127) / 128) * ((N + 127) / 128);
  if (!ok(kernel.launch({unsigned(std::min<int64_t>(sms, tiles))},
                        {ad, bd, cd, M, N, K}),
          "matmul_tma_persistent launch") ||
      !download(device, dc, c))
    return;
  double err = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double ref = 0;
      for (int64_t k = 0; k < K; ++k)
        ref += double(example::fromHalf(a[i * K + k])) *
               example::fromHalf(b[j * K + k]);
      err = std::max(err,
                     std::abs(double(example::fromHalf(c[i * N + j])) - ref) /
                         (1.0 + std::abs(ref)));
    }
  report("matmul_tma_persistent fp16 1100x904x712, descriptors, API", err,
         2e-3);
}
/// fp16 and bf16 scalar parameters (examples/scale_half.tile: out = x *
/// scale + shift), through the API and through scale_aot, which round the
/// host's value to each format (to nearest even): 0.3 is 0x34cd in fp16
/// (0.300048828125; truncation would give 0x34cc), 1/3 is 0x3eab in
/// bf16 (0.333984375; truncation: 0x3eaa).
void runScaleHalf(tile::Device &device, std::mt19937 &rng) {
  tile::Specialization spec;
  spec.signature = {"*fp32:16", "*fp32:16", "fp16", "bf16", "i32", "1024"};
  std::optional<tile::CompiledKernel> compiled =
      compile(std::string(TILE_EXAMPLE_SOURCES) + "/scale_half.tile", spec);
  tile::Kernel kernel;
  if (!compiled || !ok(device.load(*compiled, kernel), "load scale_kernel"))
    return;
  const int n = 100003;
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> x(n), out(n, 0.0f);
  for (float &v : x)
    v = uniform(rng);
  tile::Buffer dx, dout;
  if (!upload(device, x, dx) || !upload(device, out, dout))
    return;
  const double scale = 0.300048828125, shift = 0.333984375;
  auto check = [&](const char *what) {
    double err = 0;
    for (int i = 0; i < n; ++i)
      err = std::max(err,
                     std::abs(double(out[i]) - (double(x[i]) * scale + shift)));
    // fp32 arithmetic on the exact fp16 and bf16 values: |out| < 0.64, two
    // roundings at most.
    report(what, err, 1e-7);
  };
  unsigned grid = unsigned((n + 1023) / 1024);
  if (ok(kernel.launch({grid}, {tile::ptr(dx.address()),
                                tile::ptr(dout.address()), 0.3, 1.0 / 3, n}),
         "scale_kernel launch") &&
      download(device, dout, out))
    check("scale_kernel, fp16 scale 0.3 and bf16 shift 1/3, API");
  std::fill(out.begin(), out.end(), 0.0f);
  device.copyToDevice(dout.address(), out.data(), n * sizeof(float));
  if (ok(scale_aot(nullptr, grid, 1, 1, dx.address(), dout.address(), 0.3f,
                   1.0f / 3, n),
         "scale_aot") &&
      download(device, dout, out))
    check("scale_kernel, fp16 scale 0.3 and bf16 shift 1/3, AOT");
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : TILE_EXAMPLE_KERNELS;
  std::printf("Tile %s\n", tile::version());

  std::optional<tile::CompiledKernel> compiled[3];
  example::TutorialKernel kernels[3] = {
      example::addKernel(), example::softmaxKernel(), example::matmulKernel()};
  for (int i = 0; i < 3; ++i)
    compiled[i] = compile(dir + "/" + kernels[i].file, kernels[i].spec);
  if (failures)
    return 1;

  std::unique_ptr<tile::Device> device;
  tile::Status opened = tile::Device::open(0, device);
  if (!opened) {
    std::printf("no GPU (%s): compiled only\n", opened.message().c_str());
    return 0;
  }
  std::printf("device: %s\n", device->name().c_str());
  tile::Kernel addLoaded, softmaxLoaded, matmulLoaded;
  if (!ok(device->load(*compiled[0], addLoaded), "load add") ||
      !ok(device->load(*compiled[1], softmaxLoaded), "load softmax") ||
      !ok(device->load(*compiled[2], matmulLoaded), "load matmul"))
    return 1;
  unsigned seed = std::random_device()();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  runAdd(*device, addLoaded, 1 << 20, rng);
  runAdd(*device, addLoaded, 1000003, rng);
  runSoftmax(*device, softmaxLoaded, rng);
  runMatmul(*device, matmulLoaded, rng);
  runDescriptorCopy(*device, rng);
  runMatmulTmaPersistent(*device, dir, rng);
  runScaleHalf(*device, rng);
  std::printf("%s: %d failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
