//===- ReferencesAttention.cpp - attention references for kernel checks --===//
//
// Float64 references for the fused-attention kernels of Triton's tutorial
// 06 (kernels/attn_fwd.tile), over q, k, v of shape (Z, H, N_CTX,
// HEAD_DIM), one (z, h) at a time, with s = q k^T * sm_scale (and, when
// causal, s[i][j] = -inf for j > i):
//   ref_attention(q, k, v, sm_scale, causal): softmax(s) v, row by row;
//   ref_attention_lse2(q, k, sm_scale, causal): the base-2 log-sum-exp of
//   each row, log2(sum_j exp(s[i][j])), which the forward kernel stores in
//   M (m_i + log2(l_i) of its exp2 arithmetic).
//
//===----------------------------------------------------------------------===//

#include "ReferenceArgs.h"

#include <cmath>
#include <limits>

using namespace tile;

namespace {
struct AttentionShape {
  int64_t heads = 0, rows = 0, dim = 0;
};

/// Checks the arguments: 4-D buffers of one shape, then sm_scale and
/// causal as numbers.
bool getAttentionArgs(const std::vector<RefArg> &args, size_t buffers,
                      AttentionShape &shape, double &scale, bool &causal) {
  if (args.size() != buffers + 2)
    return false;
  for (size_t i = 0; i < buffers; ++i)
    if (!args[i].buffer || args[i].buffer->shape.size() != 4 ||
        args[i].buffer->shape != args[0].buffer->shape)
      return false;
  for (size_t i = buffers; i < buffers + 2; ++i)
    if (!args[i].value || !args[i].value->isNumber())
      return false;
  const std::vector<int64_t> &s = args[0].buffer->shape;
  shape.heads = s[0] * s[1];
  shape.rows = s[2];
  shape.dim = s[3];
  scale = args[buffers].value->asDouble();
  causal = args[buffers + 1].value->asDouble() != 0;
  return true;
}

/// The scaled, masked scores of row i of head h, and their maximum.
double scoreRow(const HostArray &q, const HostArray &k,
                const AttentionShape &shape, double scale, bool causal,
                int64_t h, int64_t i, std::vector<double> &scores) {
  int64_t base = h * shape.rows * shape.dim;
  double maximum = -std::numeric_limits<double>::infinity();
  scores.assign(shape.rows, -std::numeric_limits<double>::infinity());
  for (int64_t j = 0; j < shape.rows; ++j) {
    if (causal && j > i)
      continue;
    double dot = 0;
    for (int64_t d = 0; d < shape.dim; ++d)
      dot += q.get(base + i * shape.dim + d) * k.get(base + j * shape.dim + d);
    scores[j] = dot * scale;
    maximum = std::max(maximum, scores[j]);
  }
  return maximum;
}

bool referenceAttention(const std::vector<RefArg> &args,
                        std::vector<double> &out, std::string &error) {
  AttentionShape shape;
  double scale;
  bool causal;
  if (!getAttentionArgs(args, 3, shape, scale, causal)) {
    error = "ref_attention(q, k, v, sm_scale, causal) needs 4-D buffers q, "
            "k, v of one shape (Z, H, N_CTX, HEAD_DIM) and two numbers";
    return false;
  }
  const HostArray &q = *args[0].buffer, &k = *args[1].buffer,
                  &v = *args[2].buffer;
  out.assign(shape.heads * shape.rows * shape.dim, 0);
  std::vector<double> scores;
  for (int64_t h = 0; h < shape.heads; ++h) {
    int64_t base = h * shape.rows * shape.dim;
    for (int64_t i = 0; i < shape.rows; ++i) {
      double maximum = scoreRow(q, k, shape, scale, causal, h, i, scores);
      double sum = 0;
      for (double &s : scores)
        sum += s = std::exp(s - maximum);
      for (int64_t j = 0; j < shape.rows; ++j)
        if (scores[j] != 0)
          for (int64_t d = 0; d < shape.dim; ++d)
            out[base + i * shape.dim + d] +=
                scores[j] / sum * v.get(base + j * shape.dim + d);
    }
  }
  return true;
}

bool referenceAttentionLse2(const std::vector<RefArg> &args,
                            std::vector<double> &out, std::string &error) {
  AttentionShape shape;
  double scale;
  bool causal;
  if (!getAttentionArgs(args, 2, shape, scale, causal)) {
    error = "ref_attention_lse2(q, k, sm_scale, causal) needs 4-D buffers q "
            "and k of one shape (Z, H, N_CTX, HEAD_DIM) and two numbers";
    return false;
  }
  const HostArray &q = *args[0].buffer, &k = *args[1].buffer;
  out.assign(shape.heads * shape.rows, 0);
  std::vector<double> scores;
  for (int64_t h = 0; h < shape.heads; ++h)
    for (int64_t i = 0; i < shape.rows; ++i) {
      double maximum = scoreRow(q, k, shape, scale, causal, h, i, scores);
      double sum = 0;
      for (double s : scores)
        sum += std::exp(s - maximum);
      out[h * shape.rows + i] = (maximum + std::log(sum)) / std::log(2.0);
    }
  return true;
}
} // namespace

std::vector<std::pair<std::string, ReferenceFn>>
tile::getAttentionReferences() {
  return {{"ref_attention", referenceAttention},
          {"ref_attention_lse2", referenceAttentionLse2}};
}
