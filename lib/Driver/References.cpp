//===- References.cpp - independent references for kernel checks ----------===//

#include "tile/Driver/References.h"
#include "ReferenceArgs.h"
#include "UnaryReferences.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <thread>

using namespace tile;

void tile::parallelChunks(int64_t count, int64_t workPerItem,
                          const std::function<void(int64_t, int64_t)> &body) {
  int64_t workers = std::clamp<int64_t>(std::thread::hardware_concurrency(), 1,
                                        std::max<int64_t>(1, count));
  // Below about 16M operations a thread costs more than it saves.
  if (count * workPerItem < (int64_t(1) << 24))
    workers = 1;
  if (workers == 1) {
    body(0, count);
    return;
  }
  std::vector<std::thread> threads;
  for (int64_t w = 0; w < workers; ++w)
    threads.emplace_back(body, count * w / workers, count * (w + 1) / workers);
  for (std::thread &thread : threads)
    thread.join();
}

namespace {

/// out[i] = a[i] + b[i].
bool referenceAdd(const std::vector<RefArg> &args, std::vector<double> &out,
                  std::string &error) {
  if (args.size() != 2 || !args[0].buffer || !args[1].buffer ||
      args[0].buffer->size() != args[1].buffer->size()) {
    error = "ref_add(a, b) needs two buffers of the same size";
    return false;
  }
  const HostArray &a = *args[0].buffer, &b = *args[1].buffer;
  out.resize(a.size());
  for (int64_t i = 0; i < a.size(); ++i)
    out[i] = a.get(i) + b.get(i);
  return true;
}

/// The sum of all of a buffer's elements (one element), or of a 2-D buffer
/// along `axis` (its other extent).
bool referenceSum(const std::vector<RefArg> &args, std::vector<double> &out,
                  std::string &error) {
  bool ok = (args.size() == 1 || args.size() == 2) && args[0].buffer &&
            (args.size() == 1 ||
             (args[0].buffer->shape.size() == 2 && args[1].value &&
              args[1].value->kind == launch::Value::Kind::Int &&
              (args[1].value->intValue == 0 || args[1].value->intValue == 1)));
  if (!ok) {
    error = "ref_sum(x) or ref_sum(x, axis) (axis 0 or 1 of a 2-D buffer)";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  if (args.size() == 1) {
    out.assign(1, 0);
    for (int64_t i = 0; i < x.size(); ++i)
      out[0] += x.get(i);
    return true;
  }
  int64_t rows = x.shape[0], cols = x.shape[1];
  bool alongRows = args[1].value->intValue == 0;
  out.assign(alongRows ? cols : rows, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[alongRows ? c : r] += x.get(r * cols + c);
  return true;
}

/// The transpose of a 2-D buffer: out is cols x rows.
bool referenceTranspose(const std::vector<RefArg> &args,
                        std::vector<double> &out, std::string &error) {
  if (args.size() != 1 || !args[0].buffer ||
      args[0].buffer->shape.size() != 2) {
    error = "ref_transpose(x) needs a 2-D buffer";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  int64_t rows = x.shape[0], cols = x.shape[1];
  out.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[c * rows + r] = x.get(r * cols + c);
  return true;
}

/// Row-wise softmax of a 2-D buffer over its first n_cols columns (all of
/// them by default): out is rows x n_cols.
bool referenceSoftmax(const std::vector<RefArg> &args, std::vector<double> &out,
                      std::string &error) {
  bool ok = (args.size() == 1 || args.size() == 2) && args[0].buffer &&
            args[0].buffer->shape.size() == 2 &&
            (args.size() == 1 || (args[1].value && args[1].value->isNumber()));
  if (!ok) {
    error = "ref_softmax(x) or ref_softmax(x, n_cols) needs a 2-D buffer";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  int64_t rows = x.shape[0], stride = x.shape[1];
  int64_t cols = args.size() == 2 ? args[1].value->intValue : stride;
  if (cols <= 0 || cols > stride) {
    error =
        "ref_softmax: n_cols must be in [1, " + std::to_string(stride) + "]";
    return false;
  }
  out.assign(rows * cols, 0);
  for (int64_t r = 0; r < rows; ++r) {
    double rowMax = -INFINITY, sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      rowMax = std::max(rowMax, x.get(r * stride + c));
    for (int64_t c = 0; c < cols; ++c)
      sum += out[r * cols + c] = std::exp(x.get(r * stride + c) - rowMax);
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] /= sum;
  }
  return true;
}

/// a (M x K) @ b (K x N), or @ b^T when `bTransposed` (b is N x K, as the
/// tensor-descriptor kernels of Triton's tutorials take it), then an
/// optional activation: "leaky_relu" is x if x >= 0 else 0.01 x, as in
/// Triton's matmul tutorial.
bool matmulReference(const std::vector<RefArg> &args, std::vector<double> &out,
                     std::string &error, bool bTransposed) {
  auto inner = [&](const HostArray &b) { return b.shape[bTransposed ? 1 : 0]; };
  bool ok = (args.size() == 2 || args.size() == 3) && args[0].buffer &&
            args[1].buffer && args[0].buffer->shape.size() == 2 &&
            args[1].buffer->shape.size() == 2 &&
            args[0].buffer->shape[1] == inner(*args[1].buffer);
  std::string activation;
  if (ok && args.size() == 3) {
    ok = args[2].value && args[2].value->kind == launch::Value::Kind::String;
    activation = ok ? args[2].value->stringValue : "";
    ok = ok && (activation == "" || activation == "leaky_relu");
  }
  if (!ok) {
    const char *name = bTransposed ? "ref_matmul_bt" : "ref_matmul";
    error = std::string(name) + "(a, b) or " + name +
            "(a, b, \"leaky_relu\") needs 2-D buffers a (M x K) and b " +
            (bTransposed ? "(N x K)" : "(K x N)");
    return false;
  }
  const HostArray &a = *args[0].buffer, &b = *args[1].buffer;
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[bTransposed ? 0 : 1];
  // b as K x N, in doubles.
  std::vector<double> bs(k * n);
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      bs[p * n + j] = b.get(bTransposed ? j * k + p : p * n + j);
  out.assign(m * n, 0);
  // Rows split over the host's cores: 4096^3 is 7e10 multiply-adds.
  parallelChunks(m, n * k, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      for (int64_t p = 0; p < k; ++p) {
        double aip = a.get(i * k + p);
        for (int64_t j = 0; j < n; ++j)
          out[i * n + j] += aip * bs[p * n + j];
      }
  });
  if (activation == "leaky_relu")
    for (double &v : out)
      v = v >= 0 ? v : 0.01 * v;
  return true;
}

bool referenceMatmul(const std::vector<RefArg> &args, std::vector<double> &out,
                     std::string &error) {
  return matmulReference(args, out, error, /*bTransposed=*/false);
}

bool referenceMatmulBT(const std::vector<RefArg> &args,
                       std::vector<double> &out, std::string &error) {
  return matmulReference(args, out, error, /*bTransposed=*/true);
}

/// The axis split of a buffer: `outer` x `extent` x `inner` elements.
struct AxisSplit {
  int64_t outer = 1, extent = 1, inner = 1;
};

/// Parses (buffers..., axis[, reverse]) for the scan references; reverse is
/// a number or bool, nonzero/True for a scan from the end.
bool parseScanArgs(const std::vector<RefArg> &args, unsigned buffers,
                   AxisSplit &split, bool &reverse) {
  if (args.size() != buffers + 1 && args.size() != buffers + 2)
    return false;
  for (unsigned i = 0; i < buffers; ++i)
    if (!args[i].buffer || args[i].buffer->shape != args[0].buffer->shape)
      return false;
  for (unsigned i = buffers; i < args.size(); ++i)
    if (!args[i].value || !args[i].value->isNumber())
      return false;
  const std::vector<int64_t> &shape = args[0].buffer->shape;
  const launch::Value &axisValue = *args[buffers].value;
  int64_t axis = axisValue.intValue;
  if (axisValue.kind != launch::Value::Kind::Int || axis < 0 ||
      axis >= int64_t(shape.size()))
    return false;
  reverse = args.size() == buffers + 2 && args[buffers + 1].value->asDouble();
  split = AxisSplit();
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    if (d < axis)
      split.outer *= shape[d];
    else if (d == axis)
      split.extent = shape[d];
    else
      split.inner *= shape[d];
  }
  return true;
}

/// Calls step(previous element index or -1, element index) along every line
/// of the axis, in scan order.
template <typename Step>
void forEachScanStep(const AxisSplit &split, bool reverse, Step step) {
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t i = 0; i < split.inner; ++i) {
      int64_t previous = -1;
      for (int64_t t = 0; t < split.extent; ++t) {
        int64_t k = reverse ? split.extent - 1 - t : t;
        int64_t index = (o * split.extent + k) * split.inner + i;
        step(previous, index);
        previous = index;
      }
    }
}

/// Inclusive cumulative sum of x along `axis` (from the end if `reverse`).
bool referenceCumsum(const std::vector<RefArg> &args, std::vector<double> &out,
                     std::string &error) {
  AxisSplit split;
  bool reverse = false;
  if (!parseScanArgs(args, 1, split, reverse)) {
    error = "ref_cumsum(x, axis) or ref_cumsum(x, axis, reverse) needs a "
            "buffer, an axis of it and a number";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  out.assign(x.size(), 0);
  forEachScanStep(split, reverse, [&](int64_t previous, int64_t index) {
    out[index] = (previous < 0 ? 0 : out[previous]) + x.get(index);
  });
  return true;
}

/// The first-order linear recurrence h = a * h_previous + b along `axis`
/// (from the end if `reverse`), h_previous = 0 before the first element:
/// what tl.associative_scan((a, b), axis, f) gives with the non-commutative
/// f((a1, b1), (a2, b2)) = (a1 * a2, b1 * a2 + b2), read from b's result.
bool referenceLinearRecurrence(const std::vector<RefArg> &args,
                               std::vector<double> &out, std::string &error) {
  AxisSplit split;
  bool reverse = false;
  if (!parseScanArgs(args, 2, split, reverse)) {
    error = "ref_linear_recurrence(a, b, axis) or ref_linear_recurrence(a, "
            "b, axis, reverse) needs two buffers of one shape, an axis of "
            "them and a number";
    return false;
  }
  const HostArray &a = *args[0].buffer, &b = *args[1].buffer;
  out.assign(a.size(), 0);
  forEachScanStep(split, reverse, [&](int64_t previous, int64_t index) {
    double h = previous < 0 ? 0 : out[previous];
    out[index] = a.get(index) * h + b.get(index);
  });
  return true;
}

/// The index of the largest element along `axis` of x (the first one where
/// several tie, as tl.argmax); the output has x's shape without the axis.
bool referenceArgmax(const std::vector<RefArg> &args, std::vector<double> &out,
                     std::string &error) {
  AxisSplit split;
  bool reverse = false;
  if (args.size() != 2 || !parseScanArgs(args, 1, split, reverse)) {
    error = "ref_argmax(x, axis) needs a buffer and an axis of it";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  out.assign(split.outer * split.inner, 0);
  std::vector<double> best(out.size(), -INFINITY);
  forEachScanStep(split, false, [&](int64_t, int64_t index) {
    int64_t line = index / (split.extent * split.inner) * split.inner +
                   index % split.inner;
    int64_t k = index / split.inner % split.extent;
    if (k == 0 || x.get(index) > best[line]) {
      best[line] = x.get(index);
      out[line] = double(k);
    }
  });
  return true;
}

/// out = x_keep ? x / (1 - p) : 0, the dropout of Triton's tutorial 04.
bool referenceDropout(const std::vector<RefArg> &args, std::vector<double> &out,
                      std::string &error) {
  if (args.size() != 3 || !args[0].buffer || !args[1].buffer ||
      args[0].buffer->size() != args[1].buffer->size() || !args[2].value ||
      !args[2].value->isNumber()) {
    error = "ref_dropout(x, x_keep, p) needs two buffers of the same size and "
            "a number";
    return false;
  }
  const HostArray &x = *args[0].buffer, &keep = *args[1].buffer;
  // The kernel gets p as an fp32 argument.
  double p = float(args[2].value->asDouble());
  out.resize(x.size());
  for (int64_t i = 0; i < x.size(); ++i)
    out[i] = keep.get(i) != 0 ? x.get(i) / (1 - p) : 0.0;
  return true;
}

/// Triton's tl.rand(seed, offset) for an int32 offset, written from
/// Triton's random.py: Philox-4x32 with 10 rounds on the counter (offset, 0,
/// 0, 0) and the key (seed's low word, its high word); the first word,
/// reinterpreted as int32 and folded to x >= 0 (x < 0 becomes -x - 1), times
/// 4.6566127342e-10, both rounded to fp32 as the GPU computes them.
float philoxUniform(uint64_t seed, uint32_t offset) {
  uint32_t c0 = offset, c1 = 0, c2 = 0, c3 = 0;
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t productA = uint64_t(0xD2511F53u) * c0;
    uint64_t productB = uint64_t(0xCD9E8D57u) * c2;
    uint32_t next0 = uint32_t(productB >> 32) ^ c1 ^ k0;
    uint32_t next2 = uint32_t(productA >> 32) ^ c3 ^ k1;
    c1 = uint32_t(productB);
    c3 = uint32_t(productA);
    c0 = next0;
    c2 = next2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  int32_t x = int32_t(c0);
  if (x < 0)
    x = int32_t(-int64_t(x) - 1);
  return float(x) * 4.6566127342e-10f;
}

/// out = rand(seed, i) > p ? x / (1 - p) : 0, tutorial 04's seeded dropout
/// with its own Philox (philoxUniform), independent of Tile's tl.rand.
bool referenceSeededDropout(const std::vector<RefArg> &args,
                            std::vector<double> &out, std::string &error) {
  if (args.size() != 3 || !args[0].buffer || !args[1].value ||
      !args[1].value->isNumber() || !args[2].value ||
      args[2].value->kind != launch::Value::Kind::Int) {
    error = "ref_seeded_dropout(x, p, seed) needs a buffer, a number and an "
            "integer";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  float p = float(args[1].value->asDouble());
  // An int32 seed sign-extends to 64 bits, as seed.to(tl.uint64) does.
  uint64_t seed = uint64_t(args[2].value->intValue);
  if (x.size() > (int64_t(1) << 31)) {
    error = "ref_seeded_dropout: int32 offsets cover at most 2^31 elements";
    return false;
  }
  out.resize(x.size());
  for (int64_t i = 0; i < x.size(); ++i)
    out[i] =
        philoxUniform(seed, uint32_t(i)) > p ? x.get(i) / (1 - double(p)) : 0.0;
  return true;
}

/// Whether args[i] is an integer; sets `value`.
bool intArg(const std::vector<RefArg> &args, size_t i, int64_t &value) {
  if (i >= args.size() || !args[i].value ||
      args[i].value->kind != launch::Value::Kind::Int)
    return false;
  value = args[i].value->intValue;
  return true;
}

/// Each line of x along its last axis sorted, ascending (or descending when
/// the second argument is true): tl.sort.
bool referenceSort(const std::vector<RefArg> &args, std::vector<double> &out,
                   std::string &error) {
  if ((args.size() != 1 && args.size() != 2) || !args[0].buffer ||
      args[0].buffer->shape.empty() ||
      (args.size() == 2 && (!args[1].value || !args[1].value->isNumber()))) {
    error = "ref_sort(x) or ref_sort(x, descending) needs a buffer";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  bool descending = args.size() == 2 && args[1].value->asDouble() != 0;
  int64_t n = x.shape.back();
  out = x.toDoubles();
  for (int64_t row = 0; row < x.size(); row += n) {
    if (descending)
      std::sort(out.begin() + row, out.begin() + row + n,
                std::greater<double>());
    else
      std::sort(out.begin() + row, out.begin() + row + n);
  }
  return true;
}

/// The k largest elements of each line of x along its last axis, largest
/// first: tl.topk. The output is x's shape with k as the last extent.
bool referenceTopk(const std::vector<RefArg> &args, std::vector<double> &out,
                   std::string &error) {
  int64_t k = 0;
  if (args.size() != 2 || !args[0].buffer || args[0].buffer->shape.empty() ||
      !intArg(args, 1, k) || k < 1 || k > args[0].buffer->shape.back()) {
    error = "ref_topk(x, k) needs a buffer and k from 1 to its last extent";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  int64_t n = x.shape.back();
  out.clear();
  for (int64_t row = 0; row < x.size(); row += n) {
    std::vector<double> line(n);
    for (int64_t i = 0; i < n; ++i)
      line[i] = x.get(row + i);
    std::sort(line.begin(), line.end(), std::greater<double>());
    out.insert(out.end(), line.begin(), line.begin() + k);
  }
  return true;
}

/// x with its elements along `axis` in reverse order: tl.flip.
bool referenceFlip(const std::vector<RefArg> &args, std::vector<double> &out,
                   std::string &error) {
  AxisSplit split;
  bool reverse = false;
  if (args.size() != 2 || !parseScanArgs(args, 1, split, reverse)) {
    error = "ref_flip(x, axis) needs a buffer and an axis of it";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  out.resize(x.size());
  for (int64_t o = 0; o < split.outer; ++o)
    for (int64_t k = 0; k < split.extent; ++k)
      for (int64_t i = 0; i < split.inner; ++i)
        out[(o * split.extent + k) * split.inner + i] =
            x.get((o * split.extent + split.extent - 1 - k) * split.inner + i);
  return true;
}

/// src at the coordinates of each element of index, the one along `axis`
/// replaced by the index's value taken modulo src's extent there (as a
/// kernel's `index & (n - 1)` does): tl.gather. The output has index's
/// shape.
bool referenceGather(const std::vector<RefArg> &args, std::vector<double> &out,
                     std::string &error) {
  int64_t axis = -1;
  bool ok = args.size() == 3 && args[0].buffer && args[1].buffer &&
            intArg(args, 2, axis) && axis >= 0 &&
            axis < int64_t(args[0].buffer->shape.size()) &&
            args[0].buffer->shape.size() == args[1].buffer->shape.size();
  for (size_t d = 0; ok && d < args[0].buffer->shape.size(); ++d)
    ok = int64_t(d) == axis ||
         args[0].buffer->shape[d] == args[1].buffer->shape[d];
  if (!ok) {
    error = "ref_gather(src, index, axis) needs two buffers of one rank that "
            "agree on every axis but `axis`";
    return false;
  }
  const HostArray &src = *args[0].buffer, &index = *args[1].buffer;
  const std::vector<int64_t> &shape = index.shape;
  int64_t extent = src.shape[axis];
  out.resize(index.size());
  std::vector<int64_t> coords(shape.size(), 0);
  for (int64_t k = 0; k < index.size(); ++k) {
    int64_t at = int64_t(index.get(k)) % extent;
    if (at < 0)
      at += extent;
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      offset = offset * src.shape[d] + (int64_t(d) == axis ? at : coords[d]);
    out[k] = src.get(offset);
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++coords[d] < shape[d])
        break;
      coords[d] = 0;
    }
  }
  return true;
}

/// How many elements of x equal each of 0 .. num_bins - 1 (others are not
/// counted): tl.histogram.
bool referenceHistogram(const std::vector<RefArg> &args,
                        std::vector<double> &out, std::string &error) {
  int64_t bins = 0;
  if (args.size() != 2 || !args[0].buffer || !intArg(args, 1, bins) ||
      bins < 1) {
    error = "ref_histogram(x, num_bins) needs a buffer and a positive count";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  out.assign(bins, 0);
  for (int64_t i = 0; i < x.size(); ++i) {
    double v = x.get(i);
    if (v >= 0 && v < double(bins) && v == std::floor(v))
      out[int64_t(v)] += 1;
  }
  return true;
}

const std::map<std::string, ReferenceFn> &getReferences() {
  static const std::map<std::string, ReferenceFn> references = [] {
    std::map<std::string, ReferenceFn> all = {
        {"ref_add", referenceAdd},
        {"ref_argmax", referenceArgmax},
        {"ref_cumsum", referenceCumsum},
        {"ref_dropout", referenceDropout},
        {"ref_flip", referenceFlip},
        {"ref_gather", referenceGather},
        {"ref_histogram", referenceHistogram},
        {"ref_linear_recurrence", referenceLinearRecurrence},
        {"ref_softmax", referenceSoftmax},
        {"ref_matmul", referenceMatmul},
        {"ref_matmul_bt", referenceMatmulBT},
        {"ref_seeded_dropout", referenceSeededDropout},
        {"ref_sort", referenceSort},
        {"ref_sum", referenceSum},
        {"ref_topk", referenceTopk},
        {"ref_transpose", referenceTranspose},
    };
    for (auto &[name, fn] : getNormReferences())
      all.emplace(name, fn);
    for (auto &[name, fn] : getAttentionReferences())
      all.emplace(name, fn);
    return all;
  }();
  return references;
}
} // namespace

std::string tile::listReferences() {
  std::string names;
  for (const auto &[name, fn] : getReferences())
    names += (names.empty() ? "" : ", ") + name;
  return names + ", " + listUnaryReferences();
}

bool tile::computeReference(const launch::Check &check,
                            const std::vector<HostArray> &inputs,
                            const launch::LaunchSpec &spec,
                            std::vector<double> &result, std::string &error) {
  auto it = getReferences().find(check.reference);
  if (it == getReferences().end() && isUnaryReference(check.reference)) {
    const HostArray *x =
        check.args.size() == 1 &&
                check.args[0].kind == launch::Value::Kind::Buffer
            ? &inputs[check.args[0].buffer]
            : nullptr;
    if (!computeUnaryReference(check.reference, x, result, error))
      return false;
  } else if (it == getReferences().end()) {
    error = "unknown reference '" + check.reference +
            "'; known: " + listReferences();
    return false;
  }
  std::vector<RefArg> args;
  for (const launch::Value &arg : check.args) {
    RefArg refArg;
    if (arg.kind == launch::Value::Kind::Buffer)
      refArg.buffer = &inputs[arg.buffer];
    else
      refArg.value = &arg;
    args.push_back(refArg);
  }
  if (it != getReferences().end() && !it->second(args, result, error))
    return false;
  if (int64_t(result.size()) != spec.buffers[check.output].getNumElements()) {
    error = check.reference + "() gives " + std::to_string(result.size()) +
            " elements for an output of " +
            std::to_string(spec.buffers[check.output].getNumElements());
    return false;
  }
  return true;
}

Comparison tile::compare(const HostArray &output,
                         const std::vector<double> &reference,
                         double tolerance) {
  Comparison result;
  double errorSquares = 0, referenceSquares = 0;
  for (int64_t i = 0; i < output.size(); ++i) {
    double got = output.get(i);
    double want = reference[i];
    if (std::isnan(got)) {
      ++result.nans;
      if (result.firstMismatch < 0)
        result.firstMismatch = i;
      continue;
    }
    // Exact checks compare with the reference rounded to the output's
    // type (a u64 bitcast of a negative reference is a large value).
    double expected = tolerance == 0 ? output.roundToElement(want) : want;
    double diff = std::fabs(got - expected);
    result.maxAbsError = std::max(result.maxAbsError, diff);
    errorSquares += diff * diff;
    referenceSquares += want * want;
    if (tolerance == 0 && got != expected) {
      ++result.mismatches;
      if (result.firstMismatch < 0)
        result.firstMismatch = i;
    }
  }
  result.relativeError = referenceSquares > 0
                             ? std::sqrt(errorSquares / referenceSquares)
                             : std::sqrt(errorSquares);
  result.passed =
      result.nans == 0 && (tolerance == 0 ? result.mismatches == 0
                                          : result.relativeError <= tolerance);
  return result;
}
