//===- tile-api-test.cpp - scenarios of the C++ API for lit ---------------===//
//
//   tile-api-test SCENARIO [KERNEL.tile SIGNATURE-ENTRY...]
//
// Runs one use of include/tile/Tile.h and prints what came back, so that
// test/API can check it with FileCheck: the API itself prints nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Tile.h"

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
    spec.signature[3] = "i32:8";
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
