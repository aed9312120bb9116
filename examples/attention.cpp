//===- attention.cpp - tutorial 06's forward from C++, with descriptors ---===//
//
//   tile-attention [KERNELS_DIR] [--checks-only]
//
// Triton's tutorial 06 attention forward (kernels/attn_fwd_descriptor.tile,
// unchanged) inside a C++ program, its q, k, v and o passed as host tensor
// descriptors: through the C++ API (Device::makeTensorDescriptor) and
// through the launchers tile_add_kernel generated at build time
// (attn128_aot.h, attn64_aot.h; *_make_tensor_descriptor_*). Three of the
// tutorial's configurations: HEAD_DIM 128 with warp_specialize, 8 warps,
// non-causal (persistent programs: more programs than fit at once, so
// each runs several) and causal, and HEAD_DIM 64 at 4 warps. O and M
// are checked against float64 on the CPU with fresh random inputs (the
// tutorial's distribution and tolerance) at sampled heads.
//
// Then the time per launch of the D 128 non-causal forward at the
// tutorial's benchmark shape (Z 4, H 32, N_CTX 4096): the API with
// persistent programs and without (Specialization::persistentPrograms),
// and the AOT launcher, taking turns (not with --checks-only, for
// compute-sanitizer). Without a GPU it compiles and stops.
//
//===----------------------------------------------------------------------===//

#include "Checks.h"
#include "Half.h"
#include "TutorialKernels.h"
#include "attn128_aot.h"
#include "attn64_aot.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

namespace {
using example::expectError;
using example::failures;
using example::ok;
using example::report;

/// One problem's device buffers: q, k, v, o (fp16, Z * H * N_CTX rows of
/// HEAD_DIM) and M (fp32, a row each).
struct Problem {
  int Z, H, nCtx, headDim;
  std::vector<uint16_t> q, k, v;
  tile::Buffer dq, dk, dv, dout, dm;
  size_t rows() const { return size_t(Z) * H * nCtx; }
};

bool makeProblem(tile::Device &device, Problem &p, std::mt19937 *rng) {
  size_t elements = p.rows() * p.headDim, bytes = elements * 2;
  std::normal_distribution<float> normal(0.0f, 0.5f);
  for (std::vector<uint16_t> *x : {&p.q, &p.k, &p.v}) {
    x->resize(elements);
    if (rng)
      for (uint16_t &e : *x)
        e = example::toHalf(normal(*rng));
  }
  return ok(device.allocate(bytes, p.dq), "allocate") &&
         ok(device.allocate(bytes, p.dk), "allocate") &&
         ok(device.allocate(bytes, p.dv), "allocate") &&
         ok(device.allocate(bytes, p.dout), "allocate") &&
         ok(device.allocate(p.rows() * 4, p.dm), "allocate") &&
         ok(device.copyToDevice(p.dq.address(), p.q.data(), bytes), "copy") &&
         ok(device.copyToDevice(p.dk.address(), p.k.data(), bytes), "copy") &&
         ok(device.copyToDevice(p.dv.address(), p.v.data(), bytes), "copy");
}

/// O and M of head `bh` in float64: softmax(q k^T * scale) v, and M the
/// rows' log-sum-exp in base 2, as the kernel keeps it.
void reference(const Problem &p, int bh, double scale, bool causal,
               std::vector<double> &o, std::vector<double> &m) {
  int n = p.nCtx, d = p.headDim;
  size_t base = size_t(bh) * n * d;
  auto at = [&](const std::vector<uint16_t> &x, int row, int col) {
    return double(example::fromHalf(x[base + size_t(row) * d + col]));
  };
  o.assign(size_t(n) * d, 0.0);
  m.assign(n, 0.0);
  std::vector<double> s(n);
  for (int i = 0; i < n; ++i) {
    int last = causal ? i : n - 1;
    double max = -INFINITY;
    for (int j = 0; j <= last; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c)
        dot += at(p.q, i, c) * at(p.k, j, c);
      s[j] = dot * scale;
      max = std::max(max, s[j]);
    }
    double sum = 0;
    for (int j = 0; j <= last; ++j) {
      s[j] = std::exp(s[j] - max);
      sum += s[j];
      for (int c = 0; c < d; ++c)
        o[size_t(i) * d + c] += s[j] * at(p.v, j, c);
    }
    for (int c = 0; c < d; ++c)
      o[size_t(i) * d + c] /= sum;
    m[i] = (max + std::log(sum)) / std::log(2.0);
  }
}

/// The largest errors of O and M at the sampled heads, against `refs`.
void check(tile::Device &device, const Problem &p,
           const std::vector<int> &heads,
           const std::vector<std::vector<double>> &refO,
           const std::vector<std::vector<double>> &refM, const char *what) {
  std::vector<uint16_t> o(p.rows() * p.headDim);
  std::vector<float> m(p.rows());
  if (!ok(device.synchronize(), "synchronize") ||
      !ok(device.copyToHost(o.data(), p.dout.address(), o.size() * 2),
          "copy") ||
      !ok(device.copyToHost(m.data(), p.dm.address(), m.size() * 4), "copy"))
    return;
  double errO = 0, errM = 0;
  for (size_t h = 0; h < heads.size(); ++h) {
    size_t rowBase = size_t(heads[h]) * p.nCtx;
    for (size_t i = 0; i < refO[h].size(); ++i)
      errO = std::max(
          errO, std::abs(double(example::fromHalf(o[rowBase * p.headDim + i])) -
                         refO[h][i]));
    for (size_t i = 0; i < refM[h].size(); ++i)
      errM = std::max(errM, std::abs(double(m[rowBase + i]) - refM[h][i]));
  }
  // The tutorial's tolerance for O (atol 1e-2); M within 1e-3 (tile-run's
  // check of it). NaN fails either.
  bool pass = errO <= 1e-2 && errM <= 1e-3;
  failures += !pass;
  std::printf("%s %s: max |err| O %.3g, M %.3g\n", pass ? "PASS" : "FAIL", what,
              errO, errM);
}

/// The API's descriptors of a problem, with the configuration's blocks.
bool makeDescriptors(tile::Device &device, const Problem &p,
                     const example::AttentionConfig &c,
                     tile::TensorDescriptor (&out)[4]) {
  int64_t rows = int64_t(p.rows()), d = p.headDim;
  const tile::Buffer *buffers[4] = {&p.dq, &p.dk, &p.dv, &p.dout};
  int blockRows[4] = {c.blockM, c.blockN, c.blockN, c.blockM};
  for (int i = 0; i < 4; ++i)
    if (!ok(device.makeTensorDescriptor(buffers[i]->address(), "fp16",
                                        {rows, d}, {d, 1}, {blockRows[i], d},
                                        out[i]),
            "makeTensorDescriptor"))
      return false;
  return true;
}

tile::Grid getGrid(const Problem &p, const example::AttentionConfig &c) {
  return {unsigned((p.nCtx + c.blockM - 1) / c.blockM), unsigned(p.Z * p.H), 1};
}

tile::Status launch(const tile::Kernel &kernel, const Problem &p,
                    const example::AttentionConfig &c,
                    const tile::TensorDescriptor (&d)[4]) {
  return kernel.launch(getGrid(p, c), {0.5f, tile::ptr(p.dm.address()), p.Z,
                                       p.H, d[0], d[1], d[2], d[3], p.nCtx});
}

/// An AOT launch of one block configuration's launcher (their descriptor
/// types differ between the two).
using AotLaunch = int (*)(const Problem &, const example::AttentionConfig &,
                          int algo);

/// The four descriptors (q, k, v, o) of a problem for one AOT launcher,
/// made by its make functions and freed with this.
template <typename Descriptor> struct AotDescriptors {
  using Make = int (*)(Descriptor *, unsigned long long, const int64_t *,
                       const int64_t *);
  using Free = void (*)(Descriptor *);
  Descriptor d[4] = {};
  Free release;
  int status = 0;

  AotDescriptors(const Problem &p, const Make (&make)[4], Free release)
      : release(release) {
    int64_t shape[2] = {int64_t(p.rows()), p.headDim},
            strides[2] = {p.headDim, 1};
    const tile::Buffer *buffers[4] = {&p.dq, &p.dk, &p.dv, &p.dout};
    for (int i = 0; i < 4 && !status; ++i)
      status = make[i](&d[i], buffers[i]->address(), shape, strides);
  }
  ~AotDescriptors() {
    for (Descriptor &descriptor : d)
      release(&descriptor);
  }
};

using Aot128 = AotDescriptors<attn128_aot_tensor_descriptor>;
using Aot64 = AotDescriptors<attn64_aot_tensor_descriptor>;
const Aot128::Make kMake128[4] = {attn128_aot_make_tensor_descriptor_desc_q,
                                  attn128_aot_make_tensor_descriptor_desc_k,
                                  attn128_aot_make_tensor_descriptor_desc_v,
                                  attn128_aot_make_tensor_descriptor_desc_o};
const Aot64::Make kMake64[4] = {attn64_aot_make_tensor_descriptor_desc_q,
                                attn64_aot_make_tensor_descriptor_desc_k,
                                attn64_aot_make_tensor_descriptor_desc_v,
                                attn64_aot_make_tensor_descriptor_desc_o};

int run128(const Problem &p, const example::AttentionConfig &c, int algo,
           const Aot128 &d) {
  tile::Grid grid = getGrid(p, c);
  return d.status ? d.status
                  : attn128_aot(nullptr, grid.x, grid.y, grid.z, 0.5f,
                                p.dm.address(), p.Z, p.H, &d.d[0], &d.d[1],
                                &d.d[2], &d.d[3], p.nCtx, algo);
}

/// One launch with descriptors made for it (and freed after it: the
/// launch copied its arguments).
int launch128(const Problem &p, const example::AttentionConfig &c, int algo) {
  Aot128 d(p, kMake128, attn128_aot_free_tensor_descriptor);
  return run128(p, c, algo, d);
}

int launch64(const Problem &p, const example::AttentionConfig &c, int) {
  Aot64 d(p, kMake64, attn64_aot_free_tensor_descriptor);
  tile::Grid grid = getGrid(p, c);
  return d.status
             ? d.status
             : attn64_aot(nullptr, grid.x, grid.y, grid.z, 0.5f, p.dm.address(),
                          p.Z, p.H, &d.d[0], &d.d[1], &d.d[2], &d.d[3], p.nCtx);
}

std::optional<tile::CompiledKernel> compile(const std::string &path,
                                            const tile::Specialization &spec,
                                            const char *what) {
  tile::CompileResult result = tile::compileFile(path, spec);
  if (!result.ok()) {
    std::printf("FAIL compile %s:\n%s", what, result.describe().c_str());
    ++failures;
    return std::nullopt;
  }
  std::printf("compiled %s: %s%s\n", what, result.kernel->name.c_str(),
              result.kernel->persistentPrograms ? ", persistent programs" : "");
  return result.kernel;
}

/// Runs configuration `c` both ways on one problem and checks both.
void runChecked(tile::Device &device, const std::string &path,
                const example::AttentionConfig &c, AotLaunch aot, int algo,
                std::mt19937 &rng, const char *what) {
  std::optional<tile::CompiledKernel> compiled =
      compile(path, example::attentionSpec(c), what);
  tile::Kernel kernel;
  Problem p{2, 16, 1024, c.headDim, {}, {}, {}, {}, {}, {}, {}, {}};
  if (!compiled || !ok(device.load(*compiled, kernel), "load") ||
      !makeProblem(device, p, &rng))
    return;
  tile::Resources r = kernel.resources();
  tile::Grid grid = getGrid(p, c);
  std::printf("%s: grid (%u, %u); programs per SM %d, registers %d, "
              "shared memory %d bytes\n",
              what, grid.x, grid.y, r.programsPerSM, r.registersPerThread,
              r.sharedBytes);
  std::vector<int> heads = {0, 13, p.Z * p.H - 1};
  std::vector<std::vector<double>> refO(heads.size()), refM(heads.size());
  for (size_t h = 0; h < heads.size(); ++h)
    reference(p, heads[h], 0.5, c.stage == 3, refO[h], refM[h]);
  tile::TensorDescriptor d[4];
  if (makeDescriptors(device, p, c, d) && ok(launch(kernel, p, c, d), "launch"))
    check(device, p, heads, refO, refM, (std::string(what) + ", API").c_str());
  // Clear the outputs, then the AOT launcher.
  std::vector<uint16_t> zeros(p.rows() * p.headDim, 0);
  device.copyToDevice(p.dout.address(), zeros.data(), zeros.size() * 2);
  device.copyToDevice(p.dm.address(), zeros.data(), p.rows() * 4);
  if (ok(aot(p, c, algo), "AOT launch"))
    check(device, p, heads, refO, refM, (std::string(what) + ", AOT").c_str());

  // Descriptors that break TMA's rules or do not fit the parameter.
  tile::TensorDescriptor bad;
  expectError(device.makeTensorDescriptor(p.dq.address(), "fp16",
                                          {int64_t(p.rows()), 100}, {100, 1},
                                          {c.blockM, c.headDim}, bad),
              "a stride of 200 bytes");
  if (device.makeTensorDescriptor(p.dq.address(), "fp16",
                                  {int64_t(p.rows()), c.headDim},
                                  {c.headDim, 1}, {64, 32}, bad))
    expectError(kernel.launch(grid, {0.5f, tile::ptr(p.dm.address()), p.Z, p.H,
                                     bad, d[1], d[2], d[3], p.nCtx}),
                "a descriptor of another block");
}

/// Milliseconds per launch of each way at the benchmark shape, the ways
/// taking turns: 5 rounds of 20 launches after 3 of warm-up, the median.
void timeLaunches(tile::Device &device, const std::string &path) {
  example::AttentionConfig c{128, 128, 128, 1, true, 8, 2};
  tile::Specialization persistent = example::attentionSpec(c);
  tile::Specialization plain = persistent;
  plain.persistentPrograms = false;
  std::optional<tile::CompiledKernel> compiled[2] = {
      compile(path, persistent, "D 128 for timing"),
      compile(path, plain, "D 128 for timing, persistentPrograms = false")};
  tile::Kernel kernels[2];
  Problem p{4, 32, 4096, 128, {}, {}, {}, {}, {}, {}, {}, {}};
  if (!compiled[0] || !compiled[1] ||
      !ok(device.load(*compiled[0], kernels[0]), "load") ||
      !ok(device.load(*compiled[1], kernels[1]), "load") ||
      !makeProblem(device, p, nullptr))
    return;
  tile::TensorDescriptor d[4];
  Aot128 aot(p, kMake128, attn128_aot_free_tensor_descriptor);
  if (!makeDescriptors(device, p, c, d) || !ok(aot.status, "AOT descriptors"))
    return;
  std::vector<std::pair<const char *, std::function<bool()>>> ways = {
      {"API, persistent programs",
       [&] { return ok(launch(kernels[0], p, c, d), "launch"); }},
      {"API, persistentPrograms = false",
       [&] { return ok(launch(kernels[1], p, c, d), "launch"); }},
      {"AOT launcher (persistent)",
       [&] { return ok(run128(p, c, 0, aot), "AOT launch"); }}};
  using Clock = std::chrono::steady_clock;
  std::vector<std::vector<double>> ms(ways.size());
  for (int round = 0; round < 5; ++round)
    for (size_t w = 0; w < ways.size(); ++w) {
      for (int i = 0; i < 3; ++i)
        if (!ways[w].second())
          return;
      if (!ok(device.synchronize(), "synchronize"))
        return;
      auto start = Clock::now();
      for (int i = 0; i < 20; ++i)
        if (!ways[w].second())
          return;
      if (!ok(device.synchronize(), "synchronize"))
        return;
      ms[w].push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - start)
              .count() /
          20);
    }
  double flops = 4.0 * p.Z * p.H * double(p.nCtx) * p.nCtx * p.headDim;
  std::printf("| Z 4, H 32, N_CTX 4096, D 128, non-causal | ms per launch "
              "(median of 5 rounds) | TFLOP/s | rounds (ms) |\n|---|---|---|"
              "---|\n");
  for (size_t w = 0; w < ways.size(); ++w) {
    std::vector<double> sorted = ms[w];
    std::sort(sorted.begin(), sorted.end());
    double median = sorted[sorted.size() / 2];
    std::printf("| %s | %.4f | %.1f |", ways[w].first, median,
                flops / median / 1e9);
    for (double t : ms[w])
      std::printf(" %.4f", t);
    std::printf(" |\n");
  }
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = TILE_EXAMPLE_KERNELS;
  bool checksOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--checks-only")
      checksOnly = true;
    else
      dir = argv[i];
  }
  std::string path = dir + "/attn_fwd_descriptor.tile";
  std::printf("Tile %s\n", tile::version());
  std::unique_ptr<tile::Device> device;
  tile::Status opened = tile::Device::open(0, device);
  if (!opened) {
    compile(path, example::attentionSpec({128, 128, 128, 1, true, 8, 2}),
            "D 128 non-causal");
    std::printf("no GPU (%s): compiled only\n", opened.message().c_str());
    return failures ? 1 : 0;
  }
  std::printf("device: %s, %d SMs\n", device->name().c_str(),
              device->multiprocessorCount());
  unsigned seed = std::random_device()();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  runChecked(*device, path, {128, 128, 128, 1, true, 8, 2}, launch128, 0, rng,
             "D 128 non-causal, Z 2, H 16, N_CTX 1024");
  runChecked(*device, path, {128, 128, 128, 3, true, 8, 2}, launch128, 1, rng,
             "D 128 causal, Z 2, H 16, N_CTX 1024");
  runChecked(*device, path, {64, 128, 64, 1, false, 4, 3}, launch64, 0, rng,
             "D 64 non-causal, Z 2, H 16, N_CTX 1024");
  if (!checksOnly)
    timeLaunches(*device, path);
  std::printf("%s: %d failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
