//===- tile-api-test.cpp - scenarios of the C++ API for lit ---------------===//
//
//   tile-api-test SCENARIO [KERNEL.tile SIGNATURE-ENTRY...]
//
// Runs one use of include/tile/Tile.h and prints what came back, so that
// test/API can check it with FileCheck: the API itself prints nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"

#include <chrono>
#include <cstring>
#include <iostream>

namespace {
const char *kAdd = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
)";

const char *kSyntaxError = R"(import triton
import triton.language as tl


@triton.jit
def broken(x_ptr):
    x = tl.load(x_ptr +)
)";

const char *kFp8Arithmetic = R"(import triton
import triton.language as tl


@triton.jit
def k(x, out):
    offs = tl.arange(0, 128)
    v = tl.load(x + offs)
    t = (v.to(tl.float8e4nv) * 2.0).to(tl.float32)
    tl.store(out + offs, t)
)";

const char *kDescriptorCopy = R"(import triton
import triton.language as tl


@triton.jit
def copy(src, dst):
    dst.store([0, 0], src.load([0, 0]))
)";

// Descriptors made on the device from the kernel's arguments
// (tilegpu-hoist-tensor-maps: Kernel::launch encodes their maps).
const char *kDescriptorMatmul = R"(import triton
import triton.language as tl


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
       BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))
)";

/// K's hint: ":16", ":8" (a row of fp16 is then 16-byte aligned, enough
/// for TMA) or "" (no tensor maps).
tile::Specialization descriptorMatmulSpec(const std::string &kHint = ":16") {
  tile::Specialization spec;
  spec.signature = {"*fp16:16",    "*fp16:16", "*fp16:16", "i32:16", "i32:16",
                    "i32" + kHint, "128",      "128",      "64"};
  spec.numWarps = 8;
  spec.useCache = false;
  return spec;
}

/// fp16 bits of a small integer (|v| <= 2048: exact) and back.
uint16_t halfOf(int v) {
  if (v == 0)
    return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  unsigned m = unsigned(v < 0 ? -v : v);
  int e = 0;
  while ((m >> e) > 1)
    ++e;
  return uint16_t(sign | ((e + 15) << 10) | ((m << (10 - e)) & 0x3ff));
}
double valueOfHalf(uint16_t h) {
  int e = (h >> 10) & 0x1f;
  double m = h & 0x3ff;
  double v = e == 0 ? m / 1024.0 / 16384.0
                    : (1.0 + m / 1024.0) * double(1 << e) / 32768.0;
  return h & 0x8000 ? -v : v;
}

void print(const tile::CompileResult &result) {
  std::cout << (result.ok() ? "compiled" : "failed") << ", "
            << result.diagnostics.size() << " diagnostics\n";
  for (const tile::Diagnostic &d : result.diagnostics)
    std::cout << "diagnostic: " << d.str() << "\n";
  if (!result.ok())
    return;
  const tile::CompiledKernel &k = *result.kernel;
  std::cout << "kernel " << k.name << " target " << k.target << " num_warps "
            << k.numWarps << " shared " << k.sharedBytes << "\n";
  for (const tile::Parameter &p : k.parameters) {
    std::cout << "parameter " << p.name << " " << p.type;
    if (p.isTensorDescriptor())
      std::cout << " (" << p.elementType << ", " << p.blockShape.size()
                << " dimensions, extents % 16: " << p.shapeDivisibleBy16
                << ", tensor map: swizzle " << p.tensorMap.swizzleBytes
                << ", box " << p.tensorMap.boxRows << "x"
                << p.tensorMap.boxInnerElements << ", data type "
                << p.tensorMap.dataType << ")";
    std::cout << "\n";
  }
  std::cout << "entry in ptx: "
            << (k.ptx.find(".entry " + k.name) != std::string::npos) << "\n";
  std::cout << "from cache: " << k.fromCache << "\n";
  std::cout << "persistent programs: " << k.persistentPrograms << "\n";
}

tile::Specialization addSpec() {
  tile::Specialization spec;
  spec.signature = {"*fp32:16", "*fp32:16", "*fp32:16", "i32", "1024"};
  spec.useCache = false;
  return spec;
}
} // namespace

/// On a GPU: C = A B^T through the maps Kernel::launch encodes, small
/// integers so that every sum is exact: at K, at K again (the last launch's
/// maps kept), at K - 64 (encoded again: maps kept from K would read other
/// rows); then a launch whose K makes a map TMA cannot describe. `k8`: K =
/// 712 under the ":8" hint. `hostTime`: host time per queued launch with
/// the maps kept against encoded at every launch (K alternating).
int runDescriptorMatmul(bool k8, bool hostTime) {
  std::unique_ptr<tile::Device> device;
  tile::Status status = tile::Device::open(0, device);
  if (!status)
    return std::cout << "error: " << status.message() << "\n", 1;
  tile::CompileResult compiled = tile::compileString(
      kDescriptorMatmul, "mm.tile", descriptorMatmulSpec(k8 ? ":8" : ":16"));
  tile::Kernel mm;
  if (!compiled.ok() || !(status = device->load(*compiled.kernel, mm)))
    return std::cout << compiled.describe() << status.message() << "\n", 1;
  std::cout << "tensor maps: "
            << (compiled.kernel->tensorMapRecipes.empty() ? 0 : 1) << "\n";
  const int m = 256, n = 384, k = k8 ? 712 : 512;
  std::vector<uint16_t> a(m * k), b(n * k), c(m * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = halfOf((i * 7 + i / k) % 5 - 2);
  for (int i = 0; i < n * k; ++i)
    b[i] = halfOf((i * 3 + i / k) % 3 - 1);
  tile::Buffer da, db, dc;
  if (!(status = device->allocate(a.size() * 2, da)) ||
      !(status = device->allocate(b.size() * 2, db)) ||
      !(status = device->allocate(c.size() * 2, dc)) ||
      !(status = device->copyToDevice(da.address(), a.data(), a.size() * 2)) ||
      !(status = device->copyToDevice(db.address(), b.data(), b.size() * 2)))
    return std::cout << status.message() << "\n", 1;
  auto launch = [&](int kk) {
    return mm.launch({m / 128, n / 128},
                     {tile::ptr(da.address()), tile::ptr(db.address()),
                      tile::ptr(dc.address()), m, n, kk});
  };
  if (hostTime) {
    for (int round = 0; round < 3; ++round)
      for (bool alternate : {false, true}) {
        const int launches = 2000;
        if (!(status = device->synchronize()))
          break;
        auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < launches && status; ++i)
          status = launch(alternate && i % 2 ? k - 64 : k);
        auto end = std::chrono::steady_clock::now();
        if (!status || !(status = device->synchronize()))
          break;
        std::cout
            << "round " << round << ", maps "
            << (alternate ? "encoded every launch" : "kept") << ": "
            << std::chrono::duration<double, std::micro>(end - start).count() /
                   launches
            << " us of host time per launch\n";
      }
    if (!status)
      return std::cout << status.message() << "\n", 1;
    return 0;
  }
  int failed = 0;
  for (int kk : {k, k, k - 64}) {
    if (!(status = launch(kk)) || !(status = device->synchronize()) ||
        !(status = device->copyToHost(c.data(), dc.address(), c.size() * 2)))
      return std::cout << status.message() << "\n", 1;
    int mismatches = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double sum = 0;
        for (int x = 0; x < kk; ++x)
          sum += valueOfHalf(a[i * kk + x]) * valueOfHalf(b[j * kk + x]);
        mismatches += valueOfHalf(c[i * n + j]) != sum;
      }
    std::cout << "K = " << kk << ": mismatches " << mismatches << " of "
              << m * n << "\n";
    failed |= mismatches != 0;
  }
  tile::Status huge = launch(-16);
  std::cout << "negative K: " << huge.message() << "\n";
  return failed;
}

int main(int argc, char **argv) {
  std::string scenario = argc > 1 ? argv[1] : "";
  if (scenario == "add") {
    print(tile::compileString(kAdd, "add.tile", addSpec()));
  } else if (scenario == "file" || scenario == "file-cached" ||
             scenario == "file-w8" || scenario == "file-w8-not-persistent") {
    // file-w8*: 8 warps, 2 stages (tutorial 06's D 128 forward), with and
    // without persistent programs.
    tile::Specialization spec;
    for (int i = 3; i < argc; ++i)
      spec.signature.push_back(argv[i]);
    spec.useCache = scenario == "file-cached";
    if (scenario.rfind("file-w8", 0) == 0) {
      spec.numWarps = 8;
      spec.numStages = 2;
      spec.persistentPrograms = scenario == "file-w8";
    }
    print(tile::compileFile(argc > 2 ? argv[2] : "", spec));
  } else if (scenario == "descriptor-fp32") {
    tile::Specialization spec;
    spec.signature = {"tensordesc<fp32[16, 16]>", "tensordesc<fp32[16, 16]>"};
    spec.useCache = false;
    print(tile::compileString(kDescriptorCopy, "copy.tile", spec));
  } else if (scenario == "descriptor-matmul" ||
             scenario == "descriptor-matmul-k8" ||
             scenario == "descriptor-matmul-k") {
    std::string kHint = scenario == "descriptor-matmul"      ? ":16"
                        : scenario == "descriptor-matmul-k8" ? ":8"
                                                             : "";
    tile::CompileResult result = tile::compileString(
        kDescriptorMatmul, "mm.tile", descriptorMatmulSpec(kHint));
    std::cout << (result.ok() ? "compiled" : result.describe()) << "\n";
    if (result.ok())
      std::cout << "tensor maps: " << !result.kernel->tensorMapRecipes.empty()
                << " TMA copies: "
                << (result.kernel->ptx.find("cp.async.bulk.tensor.2d.shared") !=
                    std::string::npos)
                << "\n";
  } else if (scenario == "descriptor-matmul-launch" ||
             scenario == "descriptor-matmul-launch-k8" ||
             scenario == "descriptor-matmul-host-time") {
    return runDescriptorMatmul(scenario == "descriptor-matmul-launch-k8",
                               scenario == "descriptor-matmul-host-time");
  } else if (scenario == "syntax") {
    print(tile::compileString(kSyntaxError, "broken.tile", addSpec()));
  } else if (scenario == "signature-count") {
    tile::Specialization spec = addSpec();
    spec.signature.pop_back();
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "constexpr-value") {
    tile::Specialization spec = addSpec();
    spec.signature.back() = "*fp32";
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "hint") {
    tile::Specialization spec = addSpec();
    spec.signature[0] = "*fp32:8"; // :8 is for integers
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "equal-one") {
    tile::Specialization spec = addSpec();
    spec.signature[3] = "i32:1";
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "num-warps") {
    tile::Specialization spec = addSpec();
    spec.numWarps = 3;
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "target") {
    tile::Specialization spec = addSpec();
    spec.target = "foo";
    print(tile::compileString(kAdd, "add.tile", spec));
  } else if (scenario == "gpu-unsupported") {
    tile::Specialization spec;
    spec.signature = {"*fp32", "*fp32"};
    spec.useCache = false;
    print(tile::compileString(kFp8Arithmetic, "fp8.tile", spec));
  } else if (scenario == "cache") {
    // Twice through the kernel cache ($TILE_CACHE_DIR): compiled, then hit.
    tile::Specialization spec = addSpec();
    spec.useCache = true;
    for (int i = 0; i < 2; ++i) {
      tile::CompileResult result = tile::compileString(kAdd, "add.tile", spec);
      std::cout << "from cache: " << (result.ok() && result.kernel->fromCache)
                << "\n";
    }
  } else if (scenario == "device") {
    std::unique_ptr<tile::Device> device;
    tile::Status status = tile::Device::open(0, device);
    std::cout << "device: "
              << (status.ok() ? device->name() : "error: " + status.message())
              << "\n";
  } else if (scenario == "launch") {
    // On a GPU: add through the API, arguments checked, result checked.
    std::unique_ptr<tile::Device> device;
    tile::Status status = tile::Device::open(0, device);
    if (!status)
      return std::cout << "error: " << status.message() << "\n", 1;
    tile::CompileResult compiled =
        tile::compileString(kAdd, "add.tile", addSpec());
    tile::Kernel add;
    if (!compiled.ok() || !(status = device->load(*compiled.kernel, add)))
      return std::cout << compiled.describe() << status.message() << "\n", 1;
    int n = 5000;
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i)
      x[i] = float(i) * 0.5f, y[i] = float(i % 7);
    tile::Buffer dx, dy, dout;
    size_t bytes = n * sizeof(float);
    if (!(status = device->allocate(bytes, dx)) ||
        !(status = device->allocate(bytes, dy)) ||
        !(status = device->allocate(bytes, dout)) ||
        !(status = device->copyToDevice(dx.address(), x.data(), bytes)) ||
        !(status = device->copyToDevice(dy.address(), y.data(), bytes)))
      return std::cout << status.message() << "\n", 1;
    tile::Status wrong = add.launch(
        {1}, {tile::ptr(dx.address()), 1.5f, tile::ptr(dout.address()), n});
    std::cout << "wrong kind: " << wrong.message() << "\n";
    wrong = add.launch({1}, {tile::ptr(dx.address())});
    std::cout << "wrong count: " << wrong.message() << "\n";
    unsigned blocks = (n + 1023) / 1024;
    if (!(status = add.launch({blocks},
                              {tile::ptr(dx.address()), tile::ptr(dy.address()),
                               tile::ptr(dout.address()), n})) ||
        !(status = device->synchronize()) ||
        !(status = device->copyToHost(out.data(), dout.address(), bytes)))
      return std::cout << status.message() << "\n", 1;
    int mismatches = 0;
    for (int i = 0; i < n; ++i)
      mismatches += out[i] != x[i] + y[i];
    tile::Resources r = add.resources();
    std::cout << "mismatches: " << mismatches << "\n"
              << "registers: " << (r.registersPerThread > 0)
              << " threads: " << r.threadsPerProgram
              << " programs per SM: " << (r.programsPerSM > 0) << "\n";
  } else {
    std::cerr << "tile-api-test: unknown scenario '" << scenario << "'\n";
    return 2;
  }
  return 0;
}
