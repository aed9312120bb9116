//===- ReferencesNorm.cpp - layer-norm references for kernel checks -------===//
//
// Float64 references for the kernels of Triton's layer-norm tutorial
// (kernels/layer_norm_*.tile), as plain loops over rows of a 2-D buffer x
// (rows x N):
//   mean = sum(x) / N, var = sum((x - mean)^2) / N, rstd = 1 / sqrt(var +
//   eps), xhat = (x - mean) * rstd, y = xhat * w + b;
//   dx = (w dy - (xhat * c1 + c2)) * rstd with c1 = sum(xhat * w dy) / N and
//   c2 = sum(w dy) / N;
//   the partial sums of dw = dy * xhat and db = dy over the rows r of each
//   group r % GROUP_SIZE_M (the rows the backward kernel accumulates under
//   one lock).
// The backward references take mean and rstd as given (buffers), as the
// kernel does, so any values check the kernel's arithmetic.
//
//===----------------------------------------------------------------------===//

#include "ReferenceArgs.h"

#include <cmath>

using namespace tile;

namespace {
/// Whether args[i] is a buffer of `rank` dimensions (any rank: 0).
bool isBuffer(const std::vector<RefArg> &args, size_t i, size_t rank = 0) {
  return i < args.size() && args[i].buffer &&
         (rank == 0 || args[i].buffer->shape.size() == rank);
}

bool isNumber(const std::vector<RefArg> &args, size_t i) {
  return i < args.size() && args[i].value && args[i].value->isNumber();
}

/// Rows and columns of the 2-D buffer x, and whether each buffer of
/// `perRow` has one element per row and each of `perColumn` one per column.
bool fitShapes(const HostArray &x,
               std::initializer_list<const HostArray *> perRow,
               std::initializer_list<const HostArray *> perColumn,
               int64_t &rows, int64_t &cols) {
  rows = x.shape[0];
  cols = x.shape[1];
  for (const HostArray *a : perRow)
    if (a->size() != rows)
      return false;
  for (const HostArray *a : perColumn)
    if (a->size() != cols)
      return false;
  return true;
}

/// The mean and 1/std of row r of x.
std::pair<double, double> rowStatistics(const HostArray &x, int64_t r,
                                        int64_t cols, double eps) {
  double sum = 0;
  for (int64_t c = 0; c < cols; ++c)
    sum += x.get(r * cols + c);
  double mean = sum / cols, squares = 0;
  for (int64_t c = 0; c < cols; ++c) {
    double d = x.get(r * cols + c) - mean;
    squares += d * d;
  }
  return {mean, 1 / std::sqrt(squares / cols + eps)};
}

/// y = (x - mean) * rstd * w + b, row by row.
bool referenceLayerNorm(const std::vector<RefArg> &args,
                        std::vector<double> &out, std::string &error) {
  int64_t rows, cols;
  if (args.size() != 4 || !isBuffer(args, 0, 2) || !isBuffer(args, 1) ||
      !isBuffer(args, 2) || !isNumber(args, 3) ||
      !fitShapes(*args[0].buffer, {}, {args[1].buffer, args[2].buffer}, rows,
                 cols)) {
    error = "ref_layer_norm(x, w, b, eps) needs a 2-D buffer x and buffers w "
            "and b of one element per column";
    return false;
  }
  const HostArray &x = *args[0].buffer, &w = *args[1].buffer,
                  &b = *args[2].buffer;
  double eps = args[3].value->asDouble();
  out.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    auto [mean, rstd] = rowStatistics(x, r, cols, eps);
    for (int64_t c = 0; c < cols; ++c)
      out[r * cols + c] =
          (x.get(r * cols + c) - mean) * rstd * w.get(c) + b.get(c);
  }
  return true;
}

/// The mean (`wantRstd` false) or 1/std of each row.
bool referenceRowStatistic(const std::vector<RefArg> &args,
                           std::vector<double> &out, std::string &error,
                           bool wantRstd) {
  bool ok =
      isBuffer(args, 0, 2) &&
      (wantRstd ? args.size() == 2 && isNumber(args, 1) : args.size() == 1);
  if (!ok) {
    error = wantRstd ? "ref_layer_norm_rstd(x, eps) needs a 2-D buffer x"
                     : "ref_layer_norm_mean(x) needs a 2-D buffer x";
    return false;
  }
  const HostArray &x = *args[0].buffer;
  int64_t rows = x.shape[0], cols = x.shape[1];
  double eps = wantRstd ? args[1].value->asDouble() : 0;
  out.resize(rows);
  for (int64_t r = 0; r < rows; ++r) {
    auto [mean, rstd] = rowStatistics(x, r, cols, eps);
    out[r] = wantRstd ? rstd : mean;
  }
  return true;
}

/// dx of each row from x, dy, w and the given mean and rstd.
bool referenceLayerNormDx(const std::vector<RefArg> &args,
                          std::vector<double> &out, std::string &error) {
  int64_t rows, cols;
  if (args.size() != 5 || !isBuffer(args, 0, 2) || !isBuffer(args, 1) ||
      !isBuffer(args, 2) || !isBuffer(args, 3) || !isBuffer(args, 4) ||
      args[1].buffer->size() != args[0].buffer->size() ||
      !fitShapes(*args[0].buffer, {args[3].buffer, args[4].buffer},
                 {args[2].buffer}, rows, cols)) {
    error = "ref_layer_norm_dx(x, dy, w, mean, rstd) needs 2-D buffers x and "
            "dy of one shape, w of one element per column, mean and rstd of "
            "one per row";
    return false;
  }
  const HostArray &x = *args[0].buffer, &dy = *args[1].buffer,
                  &w = *args[2].buffer, &mean = *args[3].buffer,
                  &rstd = *args[4].buffer;
  out.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double m = mean.get(r), s = rstd.get(r), c1 = 0, c2 = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double xhat = (x.get(r * cols + c) - m) * s;
      double wdy = w.get(c) * dy.get(r * cols + c);
      c1 += xhat * wdy;
      c2 += wdy;
    }
    c1 /= cols;
    c2 /= cols;
    for (int64_t c = 0; c < cols; ++c) {
      double xhat = (x.get(r * cols + c) - m) * s;
      double wdy = w.get(c) * dy.get(r * cols + c);
      out[r * cols + c] = (wdy - (xhat * c1 + c2)) * s;
    }
  }
  return true;
}

/// The group count of a partial-sum reference: a positive integer.
bool getGroups(const RefArg &arg, int64_t &groups) {
  if (!arg.value || arg.value->kind != launch::Value::Kind::Int ||
      arg.value->intValue <= 0)
    return false;
  groups = arg.value->intValue;
  return true;
}

/// GROUP_SIZE_M x N partial sums of dy * xhat over the rows of each group.
bool referenceLayerNormDw(const std::vector<RefArg> &args,
                          std::vector<double> &out, std::string &error) {
  int64_t rows, cols, groups;
  if (args.size() != 5 || !isBuffer(args, 0, 2) || !isBuffer(args, 1) ||
      !isBuffer(args, 2) || !isBuffer(args, 3) ||
      args[1].buffer->size() != args[0].buffer->size() ||
      !getGroups(args[4], groups) ||
      !fitShapes(*args[0].buffer, {args[2].buffer, args[3].buffer}, {}, rows,
                 cols)) {
    error = "ref_layer_norm_dw(x, dy, mean, rstd, GROUP_SIZE_M) needs 2-D "
            "buffers x and dy of one shape, mean and rstd of one element per "
            "row, and a positive group count";
    return false;
  }
  const HostArray &x = *args[0].buffer, &dy = *args[1].buffer,
                  &mean = *args[2].buffer, &rstd = *args[3].buffer;
  out.assign(groups * cols, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[(r % groups) * cols + c] += dy.get(r * cols + c) *
                                      (x.get(r * cols + c) - mean.get(r)) *
                                      rstd.get(r);
  return true;
}

/// GROUP_SIZE_M x N partial sums of dy over the rows of each group.
bool referenceLayerNormDb(const std::vector<RefArg> &args,
                          std::vector<double> &out, std::string &error) {
  int64_t groups;
  if (args.size() != 2 || !isBuffer(args, 0, 2) ||
      !getGroups(args[1], groups)) {
    error = "ref_layer_norm_db(dy, GROUP_SIZE_M) needs a 2-D buffer dy and a "
            "positive group count";
    return false;
  }
  const HostArray &dy = *args[0].buffer;
  int64_t rows = dy.shape[0], cols = dy.shape[1];
  out.assign(groups * cols, 0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[(r % groups) * cols + c] += dy.get(r * cols + c);
  return true;
}
} // namespace

std::vector<std::pair<std::string, ReferenceFn>> tile::getNormReferences() {
  using namespace std::placeholders;
  return {
      {"ref_layer_norm", referenceLayerNorm},
      {"ref_layer_norm_mean",
       std::bind(referenceRowStatistic, _1, _2, _3, false)},
      {"ref_layer_norm_rstd",
       std::bind(referenceRowStatistic, _1, _2, _3, true)},
      {"ref_layer_norm_dx", referenceLayerNormDx},
      {"ref_layer_norm_dw", referenceLayerNormDw},
      {"ref_layer_norm_db", referenceLayerNormDb},
  };
}
