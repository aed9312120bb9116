//===- ReferencesAttention.cpp - attention references for kernel checks --===//
//
// Float64 references for the fused-attention kernels of Triton's tutorial
// 06 (kernels/attn_fwd.tile), over q, k, v of shape (Z, H, N_CTX,
// HEAD_DIM), decoded to doubles once and computed row by row, the rows
// split over the host's cores; s = q k^T * sm_scale (and, when causal,
// s[i][j] = -inf for j > i):
//   ref_attention(q, k, v, sm_scale, causal): softmax(s) v, row by row;
//   ref_attention_lse2(q, k, sm_scale, causal): the base-2 log-sum-exp of
//   each row, log2(sum_j exp(s[i][j])), which the forward kernel stores in
//   M (m_i + log2(l_i) of its exp2 arithmetic).
//
//===----------------------------------------------------------------------===//

#include "ReferenceArgs.h"

#include <cmath>
#include <functional>
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

/// q, k and v decoded once, with the shape and the score parameters.
struct AttentionInputs {
  AttentionShape shape;
  double scale = 1;
  bool causal = false;
  std::vector<double> q, k, v;
};

/// The scaled, masked scores of row i of head h, and their maximum.
double scoreRow(const AttentionInputs &in, int64_t h, int64_t i,
                std::vector<double> &scores) {
  const AttentionShape &shape = in.shape;
  int64_t base = h * shape.rows * shape.dim;
  const double *qi = &in.q[base + i * shape.dim];
  double maximum = -std::numeric_limits<double>::infinity();
  scores.assign(shape.rows, -std::numeric_limits<double>::infinity());
  for (int64_t j = 0; j < shape.rows; ++j) {
    if (in.causal && j > i)
      continue;
    const double *kj = &in.k[base + j * shape.dim];
    double dot = 0;
    for (int64_t d = 0; d < shape.dim; ++d)
      dot += qi[d] * kj[d];
    scores[j] = dot * in.scale;
    maximum = std::max(maximum, scores[j]);
  }
  return maximum;
}

/// Runs rowFn(h, i, scores) for every row of every head, rows split over the
/// host's cores (N_CTX 16384 is 2^28 dot products a head).
void forEachRow(
    const AttentionInputs &in,
    const std::function<void(int64_t, int64_t, std::vector<double> &)> &rowFn) {
  const AttentionShape &shape = in.shape;
  parallelChunks(shape.heads * shape.rows, shape.rows * shape.dim,
                 [&](int64_t begin, int64_t end) {
                   std::vector<double> scores;
                   for (int64_t r = begin; r < end; ++r)
                     rowFn(r / shape.rows, r % shape.rows, scores);
                 });
}

bool referenceAttention(const std::vector<RefArg> &args,
                        std::vector<double> &out, std::string &error) {
  AttentionInputs in;
  if (!getAttentionArgs(args, 3, in.shape, in.scale, in.causal)) {
    error = "ref_attention(q, k, v, sm_scale, causal) needs 4-D buffers q, "
            "k, v of one shape (Z, H, N_CTX, HEAD_DIM) and two numbers";
    return false;
  }
  in.q = args[0].buffer->toDoubles();
  in.k = args[1].buffer->toDoubles();
  in.v = args[2].buffer->toDoubles();
  const AttentionShape &shape = in.shape;
  out.assign(shape.heads * shape.rows * shape.dim, 0);
  forEachRow(in, [&](int64_t h, int64_t i, std::vector<double> &scores) {
    int64_t base = h * shape.rows * shape.dim;
    double maximum = scoreRow(in, h, i, scores);
    double sum = 0;
    for (double &s : scores)
      sum += s = std::exp(s - maximum);
    double *oi = &out[base + i * shape.dim];
    for (int64_t j = 0; j < shape.rows; ++j)
      if (scores[j] != 0) {
        const double *vj = &in.v[base + j * shape.dim];
        for (int64_t d = 0; d < shape.dim; ++d)
          oi[d] += scores[j] / sum * vj[d];
      }
  });
  return true;
}

bool referenceAttentionLse2(const std::vector<RefArg> &args,
                            std::vector<double> &out, std::string &error) {
  AttentionInputs in;
  if (!getAttentionArgs(args, 2, in.shape, in.scale, in.causal)) {
    error = "ref_attention_lse2(q, k, sm_scale, causal) needs 4-D buffers q "
            "and k of one shape (Z, H, N_CTX, HEAD_DIM) and two numbers";
    return false;
  }
  in.q = args[0].buffer->toDoubles();
  in.k = args[1].buffer->toDoubles();
  out.assign(in.shape.heads * in.shape.rows, 0);
  forEachRow(in, [&](int64_t h, int64_t i, std::vector<double> &scores) {
    double maximum = scoreRow(in, h, i, scores);
    double sum = 0;
    for (double s : scores)
      sum += std::exp(s - maximum);
    out[h * in.shape.rows + i] = (maximum + std::log(sum)) / std::log(2.0);
  });
  return true;
}
} // namespace

std::vector<std::pair<std::string, ReferenceFn>>
tile::getAttentionReferences() {
  return {{"ref_attention", referenceAttention},
          {"ref_attention_lse2", referenceAttentionLse2}};
}
